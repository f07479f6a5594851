import { createRequire } from 'node:module';
import compare from 'semver/functions/compare.js';
import { formatPointer } from '../format/json-pointer.js';
import type { LoadLimits } from '../format/limits.js';
import type {
  Diagnostic,
  RegisteredGroup,
  RegisteredTool,
  ToolCategory,
  ToolDefinition,
  ToolGroupDefinition,
  ToolSource,
} from '../format/types.js';
import { normalizeImportedSchema } from '../json-schema/normalize-imported-schema.js';
import { isPlainObject } from '../json-schema/schema-node.js';
import { JSON_SCHEMA_TYPES, toJsonSchemaType } from '../json-schema/to-json-schema-type.js';
import type { TextPosition } from '../load/parse-json-document.js';
import { validateGroupDocument } from '../load/validate-group-file.js';
import { quoteValue } from '../util/quote-value.js';
import {
  FALLBACK_GROUP,
  type FallbackExecute,
  type FallbackTool,
  fallbackToolToEntry,
} from './fallback-tools.js';
import {
  createSnapshot,
  type MigrationStatus,
  type RegistrySnapshot,
} from './registry-snapshot.js';

const require = createRequire(import.meta.url);

/** semver's range functions, loaded with the first pin (they cost ~5 ms of CLI start-up). */
function semverRanges(): {
  maxSatisfying: (versions: readonly string[], range: string) => string | null;
  validRange: (range: string) => string | null;
} {
  return {
    maxSatisfying: require('semver/ranges/max-satisfying.js'),
    validRange: require('semver/ranges/valid.js'),
  };
}

/** A validated group waiting to be placed in a registry. */
export interface CandidateGroup {
  definition: ToolGroupDefinition;
  /** Absolute file path, when it came from a file. */
  file?: string;
  /** Path shown in diagnostics (relative to cwd when possible). */
  displayFile: string;
  /** JSON pointer of each tool in `definition.tools`, in order. */
  toolPointers: readonly string[];
  /** Tool names by their `x-original-name`: code still defines these tools under that name. */
  originalNames?: ReadonlyMap<string, string>;
  source: ToolSource;
  locate?: (pointer: string) => TextPosition | undefined;
}

/** Input of `assembleSnapshot`. */
export interface AssembleInput {
  candidates: readonly CandidateGroup[];
  /** Diagnostics found so far; the ones assembly finds are appended. */
  diagnostics: Diagnostic[];
  limits: LoadLimits;
  pins?: Readonly<Record<string, string>>;
  fallbackTools?: readonly FallbackTool[];
  /**
   * The category of a fallback tool that gives none (the wiring hands down import's inference,
   * which lives above this layer). Default: `mutation`.
   */
  inferFallbackCategory?: (name: string, description: string) => ToolCategory;
}

/** A snapshot and the implementations of its code-defined (fallback) tools, by tool name. */
export interface AssembledSnapshot {
  snapshot: RegistrySnapshot;
  fallbackImplementations: ReadonlyMap<string, FallbackExecute>;
}

/**
 * Turns validated groups into a registry snapshot: picks one version per group (highest, or
 * the highest a pin allows), rejects a second definition of the same group and version and
 * duplicate tool names across groups, applies the total-tools limit, and adds code-defined
 * fallback tools where JSON does not define them.
 */
export function assembleSnapshot(input: AssembleInput): AssembledSnapshot {
  const { diagnostics, limits } = input;
  const chosen = chooseVersions(input.candidates, input.pins ?? {}, diagnostics);

  const tools: RegisteredTool[] = [];
  const groups: RegisteredGroup[] = [];
  const owners = new Map<string, { candidate: CandidateGroup; pointer: string }>();
  let limitReported = false;

  for (const candidate of chosen) {
    const { definition } = candidate;
    const names: string[] = [];
    definition.tools.forEach((tool, position) => {
      const pointer = candidate.toolPointers[position] ?? `/tools/${position}`;
      const owner = owners.get(tool.name);
      if (owner !== undefined) {
        diagnostics.push(
          createDiagnostic(
            candidate,
            'error',
            'DUPLICATE_TOOL',
            `${pointer}/name`,
            `tool "${tool.name}" is already defined by group "${owner.candidate.definition.group}" in ${owner.candidate.displayFile} (at ${owner.pointer}); tool names must be unique across groups, so this one is skipped. Rename one of them`,
          ),
        );
        return;
      }
      if (tools.length >= limits.maxTools) {
        if (!limitReported) {
          limitReported = true;
          diagnostics.push(
            createDiagnostic(
              candidate,
              'error',
              'TOO_MANY_TOOLS',
              pointer,
              `the registry already holds ${limits.maxTools} tools (limits.maxTools); this tool and the rest are skipped. Raise the limit or load fewer groups`,
            ),
          );
        }
        return;
      }
      owners.set(tool.name, { candidate, pointer });
      names.push(tool.name);
      tools.push(
        registerTool(
          tool,
          {
            group: definition.group,
            version: definition.version,
            source: candidate.source,
            pointer,
            index: tools.length,
          },
          candidate.file,
        ),
      );
    });
    const group: RegisteredGroup = {
      group: definition.group,
      version: definition.version,
      description: definition.description,
      selection: definition.selection,
      source: candidate.source,
      tools: Object.freeze(names),
    };
    if (candidate.file !== undefined) group.file = candidate.file;
    groups.push(Object.freeze(group));
  }

  const jsonNames = new Set(tools.map((tool) => tool.name));
  const fallback = addFallbackTools(
    input.fallbackTools ?? [],
    jsonNames,
    renamedJsonTools(chosen, owners, jsonNames),
    tools,
    groups,
    diagnostics,
    limits,
    input.inferFallbackCategory,
  );
  const migration: MigrationStatus = Object.freeze({
    jsonOnly: Object.freeze([...jsonNames].filter((name) => !fallback.all.has(name)).sort()),
    // a code tool the registry could not load is still to migrate
    fallbackOnly: Object.freeze([...fallback.all].filter((name) => !jsonNames.has(name)).sort()),
    both: Object.freeze([...fallback.all].filter((name) => jsonNames.has(name)).sort()),
    renamed: Object.freeze(
      [...fallback.renamed]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([from, to]) => Object.freeze({ from, to })),
    ),
  });
  return {
    snapshot: createSnapshot({
      tools,
      groups,
      diagnostics,
      migration,
      renamedFallbackTools: fallback.renamed,
    }),
    fallbackImplementations: fallback.implementations,
  };
}

/**
 * The registered JSON tools by the `x-original-name` `toolcap import` kept when it converted
 * their names: the code a project migrates from still names them so. A name some JSON tool
 * has itself is never an original name here.
 */
function renamedJsonTools(
  chosen: readonly CandidateGroup[],
  owners: ReadonlyMap<string, { candidate: CandidateGroup }>,
  jsonNames: ReadonlySet<string>,
): Map<string, string> {
  const byOriginal = new Map<string, string>();
  for (const candidate of chosen) {
    for (const [original, name] of candidate.originalNames ?? []) {
      // only the registered copy of a tool counts, not one skipped as a duplicate
      if (owners.get(name)?.candidate !== candidate || jsonNames.has(original)) continue;
      if (!byOriginal.has(original)) byOriginal.set(original, name);
    }
  }
  return byOriginal;
}

/** Where a registered tool comes from. */
type ToolPlace = Pick<RegisteredTool, 'group' | 'version' | 'source' | 'index'> & {
  pointer: string;
};

/**
 * Sets a registered tool's fields: the ones every tool has, then the optional ones in the order
 * validation adds them, then `file`. Called with `new`: V8 gives an object made by a constructor
 * room inside it for every field the constructor sets, while an object literal extended
 * afterwards keeps the extra fields (`title`, `tags`, ...) in a separate property array, a
 * second cache miss each time a selection copies a tool of a large registry. Its `prototype` is
 * `Object.prototype`, so the objects are plain objects.
 */
function RegisteredToolFields(
  this: Record<string, unknown>,
  tool: ToolDefinition,
  place: ToolPlace,
  file: string | undefined,
): void {
  this.name = tool.name;
  this.description = tool.description;
  this.category = tool.category;
  this.input_schema = tool.input_schema;
  this.metadata = tool.metadata;
  this.group = place.group;
  this.version = place.version;
  this.source = place.source;
  this.pointer = place.pointer;
  this.index = place.index;
  if (tool.output_schema !== undefined) this.output_schema = tool.output_schema;
  if (tool.title !== undefined) this.title = tool.title;
  if (tool.annotations !== undefined) this.annotations = tool.annotations;
  if (tool.tags !== undefined) this.tags = tool.tags;
  if (tool.examples !== undefined) this.examples = tool.examples;
  if (tool.example_requests !== undefined) this.example_requests = tool.example_requests;
  if (file !== undefined) this.file = file;
}
RegisteredToolFields.prototype = Object.prototype;

const newRegisteredTool = RegisteredToolFields as unknown as new (
  tool: ToolDefinition,
  place: ToolPlace,
  file: string | undefined,
) => RegisteredTool;

/** `tool` with where it comes from, frozen (see `RegisteredToolFields` for the field order). */
function registerTool(
  tool: ToolDefinition,
  place: ToolPlace,
  file: string | undefined,
): RegisteredTool {
  return Object.freeze(new newRegisteredTool(tool, place, file));
}

function chooseVersions(
  candidates: readonly CandidateGroup[],
  pins: Readonly<Record<string, string>>,
  diagnostics: Diagnostic[],
): CandidateGroup[] {
  const byName = new Map<string, CandidateGroup[]>();
  for (const candidate of candidates) {
    const name = candidate.definition.group;
    const list = byName.get(name);
    if (list === undefined) byName.set(name, [candidate]);
    else list.push(candidate);
  }

  const winners = new Set<CandidateGroup>();
  for (const [name, list] of byName) {
    const distinct: CandidateGroup[] = [];
    for (const candidate of list) {
      // semver gives build metadata no precedence: 1.2.0 and 1.2.0+b are one version, and
      // keeping both would let the --schemas order pick the winner
      const version = candidate.definition.version;
      const twin = distinct.find((other) => compare(other.definition.version, version) === 0);
      if (twin !== undefined) {
        const twinVersion = twin.definition.version;
        const same =
          twinVersion === version
            ? ''
            : ` as ${twinVersion} (versions that differ only in build metadata, after "+", are the same version to semver)`;
        diagnostics.push(
          createDiagnostic(
            candidate,
            'error',
            'DUPLICATE_GROUP_VERSION',
            '/version',
            `group "${name}" version ${version} is also defined in ${twin.displayFile}${same}; this copy is skipped. Bump the version of one of them or remove the duplicate`,
          ),
        );
        continue;
      }
      distinct.push(candidate);
    }
    const versions = distinct.map((candidate) => candidate.definition.version);
    const pin = Object.hasOwn(pins, name) ? pins[name] : undefined;
    let version: string | null;
    const ranges = pin === undefined ? undefined : semverRanges();
    if (pin === undefined || ranges === undefined) {
      version = versions.sort((a, b) => compare(b, a))[0] ?? null;
    } else if (ranges.validRange(pin) === null) {
      diagnostics.push({
        severity: 'error',
        code: 'INVALID_PIN',
        file: '<pins>',
        pointer: formatPointer([name]),
        message: `pin ${JSON.stringify(pin)} for group "${name}" is not a valid semver range; use a version or range such as "1.2.0", "^1.0.0" or "~2.1"`,
      });
      continue;
    } else {
      version = ranges.maxSatisfying(versions, pin);
      if (version === null) {
        diagnostics.push({
          severity: 'error',
          code: 'UNSATISFIED_PIN',
          file: '<pins>',
          pointer: formatPointer([name]),
          message: `pin "${name}": "${pin}" matches none of the loaded versions (${[...versions].sort((a, b) => compare(b, a)).join(', ')}); the group is not loaded. Change the pin or add a matching version`,
        });
        continue;
      }
    }
    const winner = distinct.find((candidate) => candidate.definition.version === version);
    if (winner !== undefined) winners.add(winner);
  }
  for (const name of Object.keys(pins)) {
    if (!byName.has(name)) {
      diagnostics.push({
        severity: 'error',
        code: 'UNSATISFIED_PIN',
        file: '<pins>',
        pointer: formatPointer([name]),
        message: `pin "${name}": "${pins[name]}" names a group that no loaded file defines; check the group name or the schema directories`,
      });
    }
  }
  // catalog order: the order the winning files were read in
  return candidates.filter((candidate) => winners.has(candidate));
}

function addFallbackTools(
  fallbackTools: readonly FallbackTool[],
  jsonNames: ReadonlySet<string>,
  renamedJson: ReadonlyMap<string, string>,
  tools: RegisteredTool[],
  groups: RegisteredGroup[],
  diagnostics: Diagnostic[],
  limits: LoadLimits,
  inferCategory: AssembleInput['inferFallbackCategory'],
): {
  all: Set<string>;
  registered: Set<string>;
  renamed: Map<string, string>;
  implementations: Map<string, FallbackExecute>;
} {
  const all = new Set<string>();
  const registered = new Set<string>();
  const renamed = new Map<string, string>();
  const implementations = new Map<string, FallbackExecute>();
  const byGroup = new Map<string, { names: string[] }>();
  fallbackTools.forEach((fallbackTool, index) => {
    const { file: label, pointer } = placeOf(fallbackTool, index);
    if (
      fallbackTool === null ||
      typeof fallbackTool !== 'object' ||
      typeof fallbackTool.name !== 'string'
    ) {
      diagnostics.push({
        severity: 'error',
        code: 'INVALID_FALLBACK_TOOL',
        file: label,
        pointer,
        message: 'a fallback tool must be an object with a "name" and a "description"',
      });
      return;
    }
    // JSON wins, also over a code tool still named as it was before `toolcap import`
    const jsonName = jsonNames.has(fallbackTool.name)
      ? fallbackTool.name
      : renamedJson.get(fallbackTool.name);
    if (jsonName !== undefined) {
      all.add(jsonName);
      if (jsonName !== fallbackTool.name) renamed.set(fallbackTool.name, jsonName);
      return;
    }
    all.add(fallbackTool.name);
    if (typeof fallbackTool.problem === 'string') {
      diagnostics.push({
        severity: 'error',
        code: 'INVALID_FALLBACK_TOOL',
        file: label,
        pointer,
        message: `fallback tool "${fallbackTool.name}": ${fallbackTool.problem}`,
      });
      return;
    }
    const groupName = fallbackTool.group ?? FALLBACK_GROUP;
    const category =
      fallbackTool.category ??
      inferCategory?.(
        fallbackTool.name,
        typeof fallbackTool.description === 'string' ? fallbackTool.description : '',
      );
    const validation = validateGroupDocument(
      {
        group: groupName,
        version: '0.0.0',
        description: 'Tools still defined in code',
        selection: { strategy: 'always' },
        tools: [
          normalizeEntrySchema(
            fallbackToolToEntry(
              category === undefined ? fallbackTool : { ...fallbackTool, category },
            ),
          ),
        ],
      },
      { limits },
    );
    const tool = validation.group?.tools[0];
    if (tool === undefined || validation.problems.some((problem) => problem.severity === 'error')) {
      // the validator's messages name the tool as a file's tool; say once that it is in code
      const named = `tool ${quoteValue(fallbackTool.name)}: `;
      for (const problem of validation.problems) {
        const message = problem.message.startsWith(named)
          ? problem.message.slice(named.length)
          : problem.message;
        diagnostics.push({
          severity: problem.severity,
          code: problem.severity === 'error' ? 'INVALID_FALLBACK_TOOL' : problem.code,
          file: label,
          pointer: `${pointer}${problem.pointer.replace(/^\/tools\/0/, '')}`,
          message: `fallback tool "${fallbackTool.name}": ${message}`,
        });
      }
      return;
    }
    if (registered.has(tool.name)) {
      diagnostics.push({
        severity: 'error',
        code: 'DUPLICATE_TOOL',
        file: label,
        pointer,
        message: `fallback tool "${tool.name}" is given twice; remove one`,
      });
      return;
    }
    registered.add(tool.name);
    if (fallbackTool.execute !== undefined) implementations.set(tool.name, fallbackTool.execute);
    const joined = groups.find((group) => group.group === groupName);
    tools.push(
      Object.freeze({
        ...tool,
        group: groupName,
        version: joined?.version ?? '0.0.0',
        source: 'fallback' as const,
        index: tools.length,
        ...definedInOf(fallbackTool),
      }),
    );
    let entry = byGroup.get(groupName);
    if (entry === undefined) {
      entry = { names: [] };
      byGroup.set(groupName, entry);
    }
    entry.names.push(tool.name);
  });
  for (const [groupName, entry] of byGroup) {
    const existing = groups.findIndex((group) => group.group === groupName);
    if (existing >= 0) {
      const group = groups[existing]!;
      groups[existing] = Object.freeze({
        ...group,
        tools: Object.freeze([...group.tools, ...entry.names]),
      });
      continue;
    }
    groups.push(
      Object.freeze({
        group: groupName,
        version: '0.0.0',
        description: 'Tools still defined in code',
        selection: Object.freeze({ strategy: 'always' as const, keywords: Object.freeze([]) }),
        source: 'fallback' as const,
        tools: Object.freeze(entry.names),
      }),
    );
  }
  return { all, registered, renamed, implementations };
}

/**
 * The entry with its input schema converted as `toolcap import` converts it (`z.any()`, an
 * untyped `minimum`, mixed enums, `float`, ...), so a tool import would write loads as a
 * fallback. Silent: the code is not changed, so there is nothing to report. A schema that is
 * not an object, whose root cannot be an object, or with a type name of no known meaning (a
 * typo import would drop) is left as it is, for validation to report.
 */
function normalizeEntrySchema(entry: Record<string, unknown>): Record<string, unknown> {
  if (!isPlainObject(entry.input_schema)) return entry;
  let unknownType = false;
  const normalized = normalizeImportedSchema(entry.input_schema, {
    add(code, subject) {
      if (code !== 'TYPE_CONVERTED') return;
      // the subject is the type as written: a name, or a JSON array of names
      const names: unknown[] = subject.startsWith('[') ? JSON.parse(subject) : [subject];
      unknownType ||= names.some(
        (name) =>
          typeof name !== 'string' ||
          (!JSON_SCHEMA_TYPES.has(name) && toJsonSchemaType(name) === undefined),
      );
    },
  });
  return normalized === undefined || unknownType ? entry : { ...entry, input_schema: normalized };
}

/** A fallback tool's own `definedIn`, copied, for its registered tool; nothing when it has none. */
function definedInOf(tool: FallbackTool): Pick<RegisteredTool, 'definedIn'> {
  const { definedIn } = tool;
  return typeof definedIn?.file === 'string' && typeof definedIn.pointer === 'string'
    ? { definedIn: Object.freeze({ file: definedIn.file, pointer: definedIn.pointer }) }
    : {};
}

/** The file and pointer a fallback tool's diagnostics name: its `definedIn`, else its index. */
function placeOf(tool: FallbackTool | null, index: number): { file: string; pointer: string } {
  const definedIn = (tool as { definedIn?: unknown } | null)?.definedIn as
    | { file?: unknown; pointer?: unknown }
    | undefined;
  const file = definedIn?.file;
  const pointer = definedIn?.pointer;
  return typeof file === 'string' && typeof pointer === 'string'
    ? { file, pointer }
    : { file: '<fallback>', pointer: `/${index}` };
}

function createDiagnostic(
  candidate: CandidateGroup,
  severity: Diagnostic['severity'],
  code: string,
  pointer: string,
  message: string,
): Diagnostic {
  const diagnostic: Diagnostic = { severity, code, file: candidate.displayFile, pointer, message };
  const position = candidate.locate?.(pointer);
  if (position !== undefined) {
    diagnostic.line = position.line;
    diagnostic.column = position.column;
  }
  return diagnostic;
}
