import { ToolcapError } from '../errors/toolcap-error.js';
import { GROUP_NAME_PATTERN } from '../format/names.js';
import { suggestProviderId } from '../format/provider-ids.js';
import type { ToolDefinition, Warning } from '../format/types.js';
import { fromProvider } from '../providers/from-provider.js';
import { parametersPlace, toolFormatsOf } from '../providers/import/extract-provider-tools.js';
import { PayloadFormatError } from '../providers/import/payload-format-error.js';
import { PROVIDER_IDS, type ProviderId } from '../providers/provider-types.js';
import { describeValue } from '../util/check-options.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import {
  type BuildImportedGroupOptions,
  buildImportedGroup,
  type CategorySource,
  type ImportedGroup,
} from './build-imported-group.js';
import { categoryFromDescription } from './infer-category.js';
import { paramsToCanonical } from './params-to-canonical.js';
import type { ModuleTools } from './read-tool-module.js';
import { strictSchemaWarning } from './strict-schema-warning.js';
import { toGroupName } from './to-group-name.js';
import { unwrapToolList } from './unwrap-tool-list.js';

/**
 * Formats `toolcap import --from` reads: every provider, param lists (`{ name, description,
 * params: [...] }`), and `module`
 * (the tools a JavaScript module exports, as `readToolModule` reads them).
 */
export const IMPORT_SOURCES = [...PROVIDER_IDS, 'params', 'module'] as const;

/** One of IMPORT_SOURCES. */
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** Options of `importToolList`. */
export interface ImportToolListOptions extends BuildImportedGroupOptions {
  /** The format of the input. */
  from: ImportSource;
  /** Handler module for tools that do not name one. Default: the group name. */
  executor?: string;
  /**
   * Tools other groups of the target directory already define: a tool's name (and its
   * `x-original-name`, if any) → the group, as named in messages (`"billing"
   * (schemas/billing_tools.json)`). An imported tool whose name or original name is a key is left
   * out with a `TOOL_IN_OTHER_GROUP` warning naming that group, so re-importing a list whose
   * tools were since moved into other groups does not define them twice. Unlike
   * `reservedNames`, which imports such a tool renamed `<group>_<name>`. Default: none.
   */
  definedElsewhere?: ReadonlyMap<string, string>;
}

/**
 * Converts an existing tool list into a group file (the job of `toolcap import`): finds the
 * list in the input (`unwrapToolList`), converts param lists to canonical tools,
 * converts every tool with `fromProvider` (names made valid, messy types repaired, a warning
 * each), fills in categories `fromProvider` could not infer from the first verb of the
 * description (else `mutation`, with a `CATEGORY_DEFAULTED` warning), then builds and checks the
 * group document (`buildImportedGroup`). Pure: no file is read or written. Throws a
 * `PayloadFormatError` (a `TranslationError`, code `INVALID_PAYLOAD`, naming the formats that fit)
 * when the tools keep their parameters where another format's tools do.
 */
export function importToolList(input: unknown, options: ImportToolListOptions): ImportedGroup {
  checkFormat(options.from);
  if (!GROUP_NAME_PATTERN.test(options.group) || options.group.length > 64) {
    throw new ToolcapError(
      'IMPORT_INVALID_GROUP',
      `group ${JSON.stringify(options.group)} is not a snake_case group name (lowercase letters, digits and single underscores, starting with a letter, at most 64 characters); try "${toGroupName(options.group)}"`,
    );
  }
  const warnings: Warning[] = [];
  let entries: unknown[];
  let provider: ProviderId;
  if (options.from === 'module') {
    entries = moduleEntries(input, warnings);
    provider = 'mcp';
  } else if (options.from === 'params') {
    entries = unwrapToolList(input);
    checkParamsFormat(entries, options.from);
    const converted = paramsToCanonical(entries);
    warnings.push(...converted.warnings);
    entries = converted.tools;
    provider = 'canonical';
  } else {
    entries = unwrapToolList(input);
    checkParamsFormat(entries, options.from);
    provider = options.from;
    if (provider === 'mcp') warnPaginated(input, warnings);
  }
  const executor = options.executor ?? options.group;
  const result = fromProvider(provider, entries, { executor, defaultCategory: 'mutation' });
  // a second pass with another default shows which categories nothing decided
  const probe = fromProvider(provider, entries, { executor, defaultCategory: 'creation' });
  const strict =
    provider === 'openai' || provider === 'openai-responses' ? strictTools(entries) : new Map();

  const elsewhere: { name: string; group: string }[] = [];
  const notes: Warning[] = [];
  const tools = result.tools.flatMap((definition, index) => {
    const originalName = Object.hasOwn(result.nameMap, definition.name)
      ? result.nameMap[definition.name]!
      : definition.name;
    const group =
      options.definedElsewhere?.get(definition.name) ?? options.definedElsewhere?.get(originalName);
    if (group !== undefined) {
      elsewhere.push({ name: definition.name, group });
      return [];
    }
    const undecided = probe.tools[index]?.category !== definition.category;
    const { tool, source } = undecided
      ? decideCategory(definition, notes)
      : { tool: definition, source: 'inferred' as const };
    const strictWarning = strict.has(originalName)
      ? strictSchemaWarning(
          definition.name,
          `"${originalName}" is an OpenAI tool in strict mode ("strict": true)`,
          strict.get(originalName),
        )
      : undefined;
    if (strictWarning !== undefined) notes.push(strictWarning);
    return [{ definition: tool, originalName, categorySource: source }];
  });
  // a left-out tool's conversion notes are about nothing written
  const leftOut = new Set(elsewhere.map(({ name }) => name));
  const conversion = result.warnings.filter(
    (warning) => warning.tool === undefined || !leftOut.has(warning.tool),
  );
  for (const { name, group } of elsewhere) {
    notes.push({
      code: 'TOOL_IN_OTHER_GROUP',
      tool: name,
      message: `tool "${name}" is already defined in group ${group}; left out, so it is not defined twice. To import it here, remove it from that group first (or import with --rename-collisions to keep both, this one renamed)`,
    });
  }
  const built = buildImportedGroup(tools, options);
  return { ...built, warnings: [...warnings, ...conversion, ...notes, ...built.warnings] };
}

/** Throws `IMPORT_UNKNOWN_FORMAT` for a `from` that is not one of IMPORT_SOURCES. */
function checkFormat(from: unknown): asserts from is ImportSource {
  if ((IMPORT_SOURCES as readonly unknown[]).includes(from)) return;
  const suggestion =
    typeof from === 'string'
      ? (suggestProviderId(from) ?? suggestSimilar(from, IMPORT_SOURCES)[0])
      : undefined;
  throw new ToolcapError(
    'IMPORT_UNKNOWN_FORMAT',
    `importToolList: ${from === undefined ? 'option "from" (the format of the input) is required' : `unknown format ${describeValue(from)} in option "from"`}${suggestion === undefined ? '.' : `; did you mean "${suggestion}"?`} Formats: ${IMPORT_SOURCES.join(', ')}`,
  );
}

/** The parameters of every entry in OpenAI strict mode (`"strict": true`), by tool name. */
function strictTools(entries: readonly unknown[]): Map<string, unknown> {
  const strict = new Map<string, unknown>();
  const visit = (entry: unknown) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return;
    const tool = entry as Record<string, unknown>;
    // Responses API namespaces hold function tools of their own
    if (tool.type === 'namespace' && Array.isArray(tool.tools)) {
      for (const inner of tool.tools) visit(inner);
      return;
    }
    const definition =
      tool.function !== null && typeof tool.function === 'object' && !Array.isArray(tool.function)
        ? (tool.function as Record<string, unknown>)
        : tool;
    if (definition.strict === true && typeof definition.name === 'string') {
      strict.set(definition.name, definition.parameters);
    }
  };
  for (const entry of entries) visit(entry);
  return strict;
}

/**
 * A `TOOL_LIST_PAGINATED` warning when an MCP `tools/list` result (or the JSON-RPC response
 * around it) has a `nextCursor`: it is one page of the server's tools.
 */
function warnPaginated(input: unknown, warnings: Warning[]): void {
  const page = (value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const result = page(input)?.tools !== undefined ? page(input) : page(page(input)?.result);
  const cursor = result?.nextCursor;
  if (typeof cursor !== 'string' || cursor === '') return;
  warnings.push({
    code: 'TOOL_LIST_PAGINATED',
    message: `the tools/list result has "nextCursor": ${JSON.stringify(cursor.length > 60 ? `${cursor.slice(0, 60)}…` : cursor)}, so it is one page of the server's tools, and only that page was imported. To import every tool, read the server itself (toolcap import --from-server CONFIG --server NAME fetches every page), or put the "tools" of every page (tools/list called with each nextCursor as "cursor" until none comes back) into one list`,
  });
}

/**
 * The tools of `readToolModule`'s result as MCP `tools/list` entries; a tool whose parameters
 * could not be read is left out with a `TOOL_SKIPPED` warning naming its export.
 */
function moduleEntries(input: unknown, warnings: Warning[]): unknown[] {
  if (
    input === null ||
    typeof input !== 'object' ||
    !Array.isArray((input as ModuleTools).tools) ||
    !Array.isArray((input as ModuleTools).warnings)
  ) {
    throw new ToolcapError(
      'IMPORT_INVALID_INPUT',
      'with from: "module" the input is what readToolModule(file) returns: { file, tools, warnings }',
    );
  }
  const { file, tools } = input as ModuleTools;
  warnings.push(...(input as ModuleTools).warnings);
  return tools.flatMap((tool) => {
    if (tool.inputSchema === undefined) {
      warnings.push({
        code: 'TOOL_SKIPPED',
        tool: tool.name,
        message: `tool "${tool.name}" (export "${tool.exportName}" of ${file}) was left out: ${tool.problem}`,
      });
      return [];
    }
    return [
      {
        name: tool.name,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      },
    ];
  });
}

const PARAMS_PLACE = '"params"';

/** Param-list tools read as a provider, or provider tools read as param lists: name what fits. */
function checkParamsFormat(
  entries: readonly unknown[],
  from: Exclude<ImportSource, 'module'>,
): void {
  entries.forEach((entry, index) => {
    if (entry === null || typeof entry !== 'object') return;
    const tool = entry as Record<string, unknown>;
    const toolName = typeof tool.name === 'string' ? tool.name : undefined;
    const isParamsTool = Array.isArray(tool.params) || Array.isArray(tool.parameters);
    if (from !== 'params' && isParamsTool && toolName !== undefined) {
      throw new PayloadFormatError({
        readAs: from,
        readAsPlace: parametersPlace(from),
        fits: ['params'],
        place: PARAMS_PLACE,
        index,
        toolName,
      });
    }
    if (from === 'params' && !isParamsTool) {
      const fits = toolFormatsOf(entry);
      const best = fits[0];
      if (best === undefined) return;
      throw new PayloadFormatError({
        readAs: 'params',
        readAsPlace: PARAMS_PLACE,
        fits,
        place: parametersPlace(best),
        index,
        toolName,
      });
    }
  });
}

function decideCategory(
  definition: ToolDefinition,
  warnings: Warning[],
): { tool: ToolDefinition; source: CategorySource } {
  const guess = categoryFromDescription(definition.description);
  if (guess !== undefined) {
    return { tool: { ...definition, category: guess.category }, source: 'description' };
  }
  warnings.push({
    code: 'CATEGORY_DEFAULTED',
    tool: definition.name,
    message: `neither MCP hints, the name nor the description of "${definition.name}" name a known verb; its category is "${definition.category}" (the conservative default): check it`,
  });
  return { tool: definition, source: 'default' };
}
