import { ToolcapError } from '../errors/toolcap-error.js';
import { DEFAULT_LOAD_LIMITS, type LoadLimits } from '../format/limits.js';
import type { SelectionStrategy, ToolCategory, ToolDefinition, Warning } from '../format/types.js';
import { type GroupProblem, validateGroupDocument } from '../load/validate-group-file.js';
import { toCanonicalToolName } from '../providers/import/to-canonical-tool-name.js';
import { suggestKeywords } from './suggest-keywords.js';

/** The published JSON Schema of group files, written as `"$schema"` so editors validate. */
export const GROUP_FILE_SCHEMA_URL =
  'https://unpkg.com/tool-capabilities/schemas/tool-group.schema.json';

/**
 * Which rule chose a tool's category: `inferred` (a category in the source, MCP hints or the
 * verb of the name, as `fromProvider` decides), `description` (the first verb of the
 * description) or `default` (nothing decided: `mutation`).
 */
export type CategorySource = 'inferred' | 'description' | 'default';

/** A converted tool on its way into a group file. */
export interface ImportedTool {
  definition: ToolDefinition;
  /** The tool's name in the source. */
  originalName: string;
  categorySource: CategorySource;
}

/** A tool name the import changed, and why. */
export interface RenamedTool {
  from: string;
  to: string;
  /**
   * `invalid`: not a valid canonical name; `duplicate`: another tool of the list has the name
   * (or gets it once converted); `collision`: already used by another group.
   */
  reason: 'invalid' | 'duplicate' | 'collision';
}

/** Options of `buildImportedGroup`. */
export interface BuildImportedGroupOptions {
  group: string;
  /** Default `1.0.0`. */
  version?: string;
  /** Default: "Tools imported from <sourceLabel>." */
  description?: string;
  /** Default `always` (what code-defined tools did before the migration). */
  strategy?: SelectionStrategy;
  /** Keywords to use; default for `keyword` groups: suggested by TF-IDF. */
  keywords?: readonly string[];
  /** Texts of the other groups, for keyword suggestion (see `suggestKeywords`). */
  restDocuments?: readonly string[];
  /** How many keywords to suggest. Default 8. */
  keywordLimit?: number;
  /** Tool names other groups already use: imported tools are renamed around them. */
  reservedNames?: ReadonlySet<string>;
  /** Names the source in the default description, e.g. `tools.json (openai)`. */
  sourceLabel?: string;
  /**
   * The `"$schema"` the file gets, for editors: a URL, or a path relative to the written file.
   * Default `GROUP_FILE_SCHEMA_URL`.
   */
  schema?: string;
  limits?: LoadLimits;
}

/** The group file an import produces, and what happened on the way. */
export interface ImportedGroup {
  /** The group file's content, ready for `JSON.stringify`. */
  document: Record<string, unknown>;
  /**
   * Names changed by conversion (`invalid`), to keep two tools of the list apart (`duplicate`)
   * or to avoid other groups' names (`collision`).
   */
  renamed: RenamedTool[];
  /** The category each written tool got, and the rule that chose it. */
  categories: { tool: string; category: ToolCategory; source: CategorySource }[];
  /** Keywords written to `selection.keywords` (suggested or given); empty when none. */
  keywords: string[];
  /** Every conversion note, the converter's first (see docs/guide/migration.md for the codes). */
  warnings: Warning[];
}

const DEFAULT_VERSION = '1.0.0';
const TRUNCATION_MARK = ' [...]';
/** Fields dropped (with a warning) instead of the whole tool when only they are invalid. */
const DROPPABLE_FIELDS = ['output_schema', 'examples'] as const;

/**
 * Turns converted tools into a group document that passes the loader: names kept unique
 * against `reservedNames` (`<group>_<name>`, then `_2`, ...), the original name kept as
 * `x-original-name`, overlong descriptions cut, keywords suggested for keyword groups, and
 * `"$schema"` pointing at the published schema. The document is checked with the loader's own
 * validation: an invalid `output_schema` or `examples` is dropped, and a tool that is still
 * rejected is left out, each with a warning, so the file always loads. Throws a ToolcapError
 * (`IMPORT_INVALID_GROUP`) when the group itself is invalid (bad name, version or keywords).
 */
export function buildImportedGroup(
  tools: readonly ImportedTool[],
  options: BuildImportedGroupOptions,
): ImportedGroup {
  const limits = options.limits ?? DEFAULT_LOAD_LIMITS;
  const warnings: Warning[] = [];
  const renamed: RenamedTool[] = [];
  const categories: ImportedGroup['categories'] = [];
  const used = new Set(options.reservedNames ?? []);

  const entries: Record<string, unknown>[] = [];
  for (const { definition, originalName, categorySource } of tools) {
    const name = uniqueName(definition.name, options.group, used);
    used.add(name);
    if (originalName !== name) {
      renamed.push({
        from: originalName,
        to: name,
        reason:
          name !== definition.name
            ? 'collision'
            : // the converter numbers a name another tool of the list already has (`dup_2`)
              definition.name !== toCanonicalToolName(originalName)
              ? 'duplicate'
              : 'invalid',
      });
    }
    if (name !== definition.name) {
      warnings.push({
        code: 'NAME_COLLISION',
        tool: name,
        message: `tool "${definition.name}" is already defined by another group; imported as "${name}"`,
      });
    }
    categories.push({ tool: name, category: definition.category, source: categorySource });
    entries.push(toEntry(definition, name, originalName, limits, warnings));
  }

  const strategy = options.strategy ?? 'always';
  const suggest = (definitions: readonly ToolDefinition[]) =>
    suggestKeywords(definitions, options.group, {
      ...(options.restDocuments !== undefined ? { rest: options.restDocuments } : {}),
      ...(options.keywordLimit !== undefined ? { limit: options.keywordLimit } : {}),
    });
  const suggested = options.keywords === undefined && strategy === 'keyword';
  let keywords =
    options.keywords !== undefined
      ? [...options.keywords]
      : suggested
        ? suggest(tools.map(({ definition }) => definition))
        : [];
  // a context group without a context_check applies when its tools' requires_context keys are
  // all in the context: with no keys at all, on every turn
  if (
    strategy === 'context' &&
    tools.every(({ definition }) => definition.metadata.requires_context.length === 0)
  ) {
    warnings.push({
      code: 'CONTEXT_STRATEGY_NEEDS_SETUP',
      message:
        'strategy "context" with no requires_context keys offers the group on every turn, like "always": add metadata.requires_context keys to the tools, or selection.context_check (a predicate registered with contextChecks), to say when it applies',
    });
  }
  const document: Record<string, unknown> = {
    $schema: options.schema ?? GROUP_FILE_SCHEMA_URL,
    group: options.group,
    version: options.version ?? DEFAULT_VERSION,
    description:
      options.description ??
      `Tools imported from ${options.sourceLabel ?? 'an existing tool list'}.`,
    selection: keywords.length > 0 ? { strategy, keywords } : { strategy },
    tools: entries,
  };

  const kept = repairOrDrop(document, options.group, limits, warnings);
  const keptNames = new Set(kept.map((entry) => entry.name as string));
  if (suggested && kept.length < entries.length) {
    // a left-out tool's words would offer the group for requests about a tool it does not have
    const keptEntries = new Set(kept);
    keywords = suggest(
      tools
        .filter((_, index) => keptEntries.has(entries[index]!))
        .map(({ definition }) => definition),
    );
    document.selection = { strategy, keywords };
  }
  return {
    document: { ...document, tools: kept },
    renamed: renamed.filter((entry) => keptNames.has(entry.to)),
    categories: categories.filter((entry) => keptNames.has(entry.tool)),
    keywords,
    warnings,
  };
}

function toEntry(
  definition: ToolDefinition,
  name: string,
  originalName: string,
  limits: LoadLimits,
  warnings: Warning[],
): Record<string, unknown> {
  let description = definition.description;
  if (description.length > limits.maxDescriptionLength) {
    description =
      description.slice(0, limits.maxDescriptionLength - TRUNCATION_MARK.length) + TRUNCATION_MARK;
    warnings.push({
      code: 'DESCRIPTION_TRUNCATED',
      tool: name,
      message: `the description of "${name}" was cut to ${limits.maxDescriptionLength} characters (limits.maxDescriptionLength)`,
    });
  }
  // group-file field order: identity, documentation, schemas, execution
  const entry: Record<string, unknown> = { name };
  if (definition.title !== undefined) entry.title = definition.title;
  entry.description = description;
  entry.category = definition.category;
  if (definition.tags !== undefined) entry.tags = [...definition.tags];
  if (definition.annotations !== undefined) entry.annotations = { ...definition.annotations };
  if (definition.examples !== undefined) entry.examples = [...definition.examples];
  entry.input_schema = definition.input_schema;
  if (definition.output_schema !== undefined) entry.output_schema = definition.output_schema;
  entry.metadata = {
    ...definition.metadata,
    requires_context: [...definition.metadata.requires_context],
  };
  // the source's name lets a bridge map calls back to the system the tools came from
  if (originalName !== name) entry['x-original-name'] = originalName;
  return entry;
}

/** `name`, or `<group>_<name>`, or `<group>_<name>_2`, ... whichever is free (at most 64 characters). */
function uniqueName(name: string, group: string, used: ReadonlySet<string>): string {
  if (!used.has(name)) return name;
  const base = `${group}_${name}`.slice(0, 64);
  if (!used.has(base)) return base;
  for (let counter = 2; ; counter++) {
    const suffix = `_${counter}`;
    const candidate = `${base.slice(0, 64 - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/**
 * Validates like the loader; drops invalid optional fields, then tools that are still invalid.
 * Returns the entries to write.
 */
function repairOrDrop(
  document: Record<string, unknown>,
  group: string,
  limits: LoadLimits,
  warnings: Warning[],
): Record<string, unknown>[] {
  let entries = document.tools as Record<string, unknown>[];
  // two rounds: the first drops bad optional fields, the second whole tools
  for (let round = 0; round < 2; round++) {
    const errors = validate({ ...document, tools: entries }, group, limits);
    const byTool = new Map<number, GroupProblem[]>();
    for (const problem of errors) {
      const match = /^\/tools\/(\d+)/.exec(problem.pointer);
      const index = Number(match?.[1]);
      byTool.set(index, [...(byTool.get(index) ?? []), problem]);
    }
    if (byTool.size === 0) return entries;
    const dropped = new Set<number>();
    for (const [index, problems] of byTool) {
      const entry = entries[index]!;
      const name = String(entry.name);
      const fields = DROPPABLE_FIELDS.filter((field) =>
        problems.some((problem) => problem.pointer.startsWith(`/tools/${index}/${field}`)),
      );
      const onlyDroppable = problems.every((problem) =>
        fields.some((field) => problem.pointer.startsWith(`/tools/${index}/${field}`)),
      );
      if (round === 0 && onlyDroppable) {
        for (const field of fields) {
          delete entry[field];
          warnings.push({
            code: 'FIELD_DROPPED',
            tool: name,
            message: `${field} of "${name}" was left out because the loader rejects it: ${describe(problems[0]!, index)}`,
          });
        }
        continue;
      }
      dropped.add(index);
      warnings.push({
        code: 'TOOL_SKIPPED',
        tool: name,
        message: `tool "${name}" was left out because the loader rejects it: ${describe(problems[0]!, index)}`,
      });
    }
    entries = entries.filter((_, index) => !dropped.has(index));
  }
  return entries;
}

/** Error problems of the document; group-level errors throw. */
function validate(
  document: Record<string, unknown>,
  group: string,
  limits: LoadLimits,
): GroupProblem[] {
  // validation freezes what it accepts: validate a copy so the entries stay editable
  const validation = validateGroupDocument(structuredClone(document), {
    limits,
    fileName: `${group}_tools.json`,
  });
  const errors = validation.problems.filter((problem) => problem.severity === 'error');
  const groupErrors = errors.filter((problem) => !/^\/tools\/\d+/.test(problem.pointer));
  if (groupErrors.length > 0) {
    throw new ToolcapError(
      'IMPORT_INVALID_GROUP',
      `the imported group is invalid: ${groupErrors.map((problem) => `${problem.pointer || '/'}: ${problem.message}`).join('; ')}`,
    );
  }
  return errors;
}

function describe(problem: GroupProblem, index: number): string {
  const inside = problem.pointer.slice(`/tools/${index}`.length) || '/';
  return `${problem.code} at ${inside}: ${problem.message}`;
}
