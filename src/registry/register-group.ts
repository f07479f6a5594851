import type { LoadLimits } from '../format/limits.js';
import type { Diagnostic, RegisteredGroup, RegisteredTool, ToolSource } from '../format/types.js';
import { findNonJsonValues } from '../load/find-non-json-values.js';
import { RegistryLoadError } from '../load/registry-load-error.js';
import { validateGroupDocument } from '../load/validate-group-file.js';
import { errorMessage } from '../util/error-message.js';
import { createSnapshot, type RegistrySnapshot } from './registry-snapshot.js';

/** How `registerGroup` validates and labels the group. */
export interface RegisterGroupOptions {
  limits: LoadLimits;
  /** Names of the registered context predicates; undefined skips the check. */
  contextChecks?: ReadonlySet<string>;
  /** Where the group comes from. Default `registered`. */
  source?: Extract<ToolSource, 'registered' | 'external'>;
  /** Executables of external tools by tool name (their `command` and `file`). */
  commands?: ReadonlyMap<string, string>;
  /** The `file` of the diagnostics. Default `<register>`. */
  label?: string;
}

/**
 * Validates `group` exactly like a group file and returns a new snapshot with it added.
 * Throws a `RegistryLoadError` (with diagnostics) when the group holds a value no group file
 * could (`NOT_JSON_VALUE`: a BigInt, a function, a Date, a getter that throws...), is invalid,
 * its name is already registered, or one of its tool names is taken by another group. A JSON
 * tool that shares its name with a code-defined fallback tool replaces it, as at load time.
 */
export function registerGroup(
  snapshot: RegistrySnapshot,
  group: unknown,
  options: RegisterGroupOptions,
): RegistrySnapshot {
  const label = options.label ?? '<register>';
  const source = options.source ?? 'registered';
  // a group file can only hold JSON: anything else would fail later, in translate or execute
  const nonJson = findNonJsonValues(group);
  if (nonJson.length > 0) {
    throw new RegistryLoadError(
      'register() rejected the group: it holds values JSON cannot',
      nonJson.map(({ pointer, message }) => ({
        severity: 'error',
        code: 'NOT_JSON_VALUE',
        file: label,
        pointer,
        message,
      })),
    );
  }
  let validation: ReturnType<typeof validateGroupDocument>;
  let toolCount: unknown;
  try {
    validation = validateGroupDocument(group, {
      limits: options.limits,
      ...(options.contextChecks !== undefined ? { contextChecks: options.contextChecks } : {}),
    });
    toolCount = (group as { tools?: unknown[] }).tools?.length;
  } catch (error) {
    // a getter or Proxy trap that passed the check above and threw on a later read
    throw new RegistryLoadError('register() could not read the group', [
      {
        severity: 'error',
        code: 'NOT_JSON_VALUE',
        file: label,
        pointer: '',
        message: `reading the group threw (${errorMessage(error)}); pass plain data, as JSON.parse of a group file gives, not an object whose getters throw or a Proxy`,
      },
    ]);
  }
  const diagnostics: Diagnostic[] = validation.problems.map((problem) => ({
    ...problem,
    file: label,
  }));
  const definition = validation.group;
  if (definition !== undefined) {
    const existing = snapshot.groupsByName.get(definition.group);
    if (existing !== undefined) {
      diagnostics.push({
        severity: 'error',
        code: 'DUPLICATE_GROUP',
        file: label,
        pointer: '/group',
        message: `group "${definition.group}" is already registered (version ${existing.version}${existing.file === undefined ? '' : ` from ${existing.file}`}); register a different group name or load a new snapshot`,
      });
    }
    definition.tools.forEach((tool, index) => {
      const owner = snapshot.toolsByName.get(tool.name);
      if (owner !== undefined && owner.source !== 'fallback') {
        diagnostics.push({
          severity: 'error',
          code: 'DUPLICATE_TOOL',
          file: label,
          pointer: `${validation.toolPointers[index] ?? `/tools/${index}`}/name`,
          message: `tool "${tool.name}" is already defined by group "${owner.group}"; tool names must be unique across groups`,
        });
      }
    });
  }
  const hasErrors = diagnostics.some((diagnostic) => diagnostic.severity === 'error');
  if (definition === undefined || hasErrors || validation.group?.tools.length !== toolCount) {
    throw new RegistryLoadError('register() rejected the group', diagnostics);
  }

  // JSON replaces the code-defined fallback tools of the same names
  const replaced = new Set(
    definition.tools.map((tool) => tool.name).filter((name) => snapshot.toolsByName.has(name)),
  );
  const kept = snapshot.tools.filter((tool) => !replaced.has(tool.name));
  const tools: RegisteredTool[] = kept.map((tool, index) =>
    tool.index === index ? tool : Object.freeze({ ...tool, index }),
  );
  for (const [index, tool] of definition.tools.entries()) {
    const command = options.commands?.get(tool.name);
    tools.push(
      Object.freeze({
        ...tool,
        group: definition.group,
        version: definition.version,
        source,
        pointer: validation.toolPointers[index] ?? `/tools/${index}`,
        index: tools.length,
        ...(command !== undefined ? { command, file: command } : {}),
      }),
    );
  }
  const groups: RegisteredGroup[] = snapshot.groups
    .map((existing) =>
      existing.tools.some((name) => replaced.has(name))
        ? Object.freeze({
            ...existing,
            tools: Object.freeze(existing.tools.filter((name) => !replaced.has(name))),
          })
        : existing,
    )
    .filter((existing) => existing.tools.length > 0 || existing.source !== 'fallback');
  groups.push(
    Object.freeze({
      group: definition.group,
      version: definition.version,
      description: definition.description,
      selection: definition.selection,
      source,
      tools: Object.freeze(definition.tools.map((tool) => tool.name)),
    }),
  );
  const { migration } = snapshot;
  // also the code tools the registry could not load: JSON defines them now
  const defined = new Set(definition.tools.map((tool) => tool.name));
  const nowBoth = migration.fallbackOnly.filter((name) => defined.has(name));
  const newNames = [...defined].filter((name) => !nowBoth.includes(name));
  return createSnapshot({
    tools,
    groups,
    diagnostics: [...snapshot.diagnostics, ...diagnostics],
    migration: Object.freeze({
      jsonOnly: Object.freeze([...migration.jsonOnly, ...newNames].sort()),
      fallbackOnly: Object.freeze(migration.fallbackOnly.filter((name) => !defined.has(name))),
      both: Object.freeze([...migration.both, ...nowBoth].sort()),
      renamed: migration.renamed,
    }),
    renamedFallbackTools: snapshot.renamedFallbackTools,
  });
}
