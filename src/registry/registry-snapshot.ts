import type { Diagnostic, RegisteredGroup, RegisteredTool } from '../format/types.js';

/** Which tools still live in code and which have moved to JSON. */
export interface MigrationStatus {
  /** Defined only in JSON group files. */
  jsonOnly: readonly string[];
  /** Defined only in code: still to migrate (code tools the registry could not load included). */
  fallbackOnly: readonly string[];
  /** Defined in both: the JSON wins, so the code definition is safe to delete. */
  both: readonly string[];
  /**
   * The code-defined tools of `both` that JSON defines under another name (the one `toolcap
   * import` converted, kept in the group file as `x-original-name`): `from` the code's name `to`
   * the JSON one. A framework given the code's tools and the registry's drops these by `from`.
   */
  renamed: readonly { from: string; to: string }[];
}

/**
 * An immutable snapshot of loaded tool groups: the data every later stage reads. It never
 * selects, translates or executes; the registry object users call wraps one.
 */
export interface RegistrySnapshot {
  /** Tools in catalog order (group file order, then tool order); `tools[i].index === i`. */
  readonly tools: readonly RegisteredTool[];
  /** Groups in catalog order. */
  readonly groups: readonly RegisteredGroup[];
  /** Problems found while building this snapshot (errors skipped files or tools). */
  readonly diagnostics: readonly Diagnostic[];
  readonly migration: MigrationStatus;
  /**
   * Code-defined fallback tools a JSON tool replaces under another name (the one `toolcap
   * import` converted, kept as `x-original-name`): code name → JSON name.
   */
  readonly renamedFallbackTools: ReadonlyMap<string, string>;
  /** Tools by name: model-supplied names are looked up here, never on an object. */
  readonly toolsByName: ReadonlyMap<string, RegisteredTool>;
  readonly groupsByName: ReadonlyMap<string, RegisteredGroup>;
}

/** The parts a snapshot is made of. */
export interface SnapshotParts {
  tools: readonly RegisteredTool[];
  groups: readonly RegisteredGroup[];
  diagnostics: readonly Diagnostic[];
  migration: MigrationStatus;
  /** Default: none. */
  renamedFallbackTools?: ReadonlyMap<string, string>;
}

/** A frozen snapshot of `parts`, with its name lookups. */
export function createSnapshot(parts: SnapshotParts): RegistrySnapshot {
  const tools = Object.freeze([...parts.tools]);
  const groups = Object.freeze([...parts.groups]);
  return Object.freeze({
    tools,
    groups,
    diagnostics: Object.freeze([...parts.diagnostics]),
    migration: parts.migration,
    renamedFallbackTools: parts.renamedFallbackTools ?? new Map(),
    toolsByName: new Map(tools.map((tool) => [tool.name, tool])),
    groupsByName: new Map(groups.map((group) => [group.group, group])),
  });
}

/** `snapshot` with `diagnostics` added after its own (the same snapshot when there are none). */
export function withDiagnostics(
  snapshot: RegistrySnapshot,
  diagnostics: readonly Diagnostic[],
): RegistrySnapshot {
  if (diagnostics.length === 0) return snapshot;
  return createSnapshot({ ...snapshot, diagnostics: [...snapshot.diagnostics, ...diagnostics] });
}

/** An empty migration status. */
export const NO_MIGRATION: MigrationStatus = Object.freeze({
  jsonOnly: Object.freeze([]),
  fallbackOnly: Object.freeze([]),
  both: Object.freeze([]),
  renamed: Object.freeze([]),
});
