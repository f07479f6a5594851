import { TranslationError } from '../errors/translation-error.js';
import { isValidToolName } from '../format/names.js';
import type { ToolDefinition, Warning } from '../format/types.js';
import { defineEntry, isPlainObject } from '../json-schema/schema-node.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import { anthropicTranslator } from './anthropic-prepare-tools.js';
import { bedrockTranslator } from './bedrock-prepare-tools.js';
import { canonicalTranslator } from './canonical-prepare-tools.js';
import { googleTranslator } from './google-prepare-tools.js';
import { toCanonicalToolName } from './import/to-canonical-tool-name.js';
import { mcpTranslator } from './mcp-prepare-tools.js';
import { openAIChatTranslator } from './openai-chat-prepare-tools.js';
import { openAIResponsesTranslator } from './openai-responses-prepare-tools.js';
import type { PreparedEntry, PreparedTool, ProviderTranslator } from './provider-translator.js';
import {
  isProviderId,
  PROVIDER_IDS,
  type ProviderId,
  type ToolTranslationMetadata,
  type TranslateOptions,
  type TranslationResult,
} from './provider-types.js';

// biome-ignore lint/suspicious/noExplicitAny: each translator is typed by its own provider
const TRANSLATORS: { readonly [P in ProviderId]: ProviderTranslator<P, any> } = {
  openai: openAIChatTranslator,
  'openai-responses': openAIResponsesTranslator,
  anthropic: anthropicTranslator,
  google: googleTranslator,
  bedrock: bedrockTranslator,
  mcp: mcpTranslator,
  canonical: canonicalTranslator,
};

/** A prepared entry and the tool it was prepared from. */
interface CacheEntry {
  source: ToolDefinition;
  item: PreparedTool<unknown>;
}
/**
 * Per provider + options key: prepared entries by the tool's `input_schema` object (weak: they
 * die with the schema). Keyed by the schema rather than the tool object, so a copy of a tool
 * (a selection wraps registry tools with a reason) still hits; `sameTranslationInputs` checks
 * every field a translator reads.
 */
const toolCaches = new Map<string, WeakMap<object, CacheEntry[]>>();
const ENTRIES_PER_SCHEMA = 8;
/** A translated list and its result. */
interface ListEntry {
  tools: readonly ToolDefinition[];
  result: TranslationResult;
}
/**
 * Per provider + options key: the last few lists translated (most recent first). Lists of one
 * tool are not kept: per-tool token estimates would push out the turn's real selection, and
 * re-assembling one cached tool is cheap.
 */
const listCache = new Map<string, ListEntry[]>();
const LISTS_PER_KEY = 4;
const LIST_CACHE_KEYS = 64;

/**
 * Translates tools (a selection's tools, or `registry.list()`) for one provider. Returns the
 * `payload` (exactly the value of the request's `tools` field), `metadata` (group, executor,
 * cost and latency estimates by tool name; never part of the payload) and `warnings` (what was
 * changed or dropped, and why). Features a provider lacks become warnings; only input no
 * translation can fix throws a `TranslationError`: an unknown provider, a tool name invalid for
 * providers, duplicate names, an input schema that is not an object, an unresolvable `$ref`.
 *
 * Translations are cached per (tool, provider, options) — a tool is recognized by its
 * `input_schema` object and the other fields translators read, so copies of registry tools (a
 * selection's tools) hit too — and the last result per (provider, options) is reused when the
 * same tools come in the same order, so repeated turns cost almost nothing and give
 * byte-identical output. The result is shared with the cache: treat it as read-only (copy
 * before modifying). Tools are expected to be immutable, as registry snapshots are.
 */
export function translate<P extends ProviderId>(
  tools: readonly ToolDefinition[],
  provider: P,
  options?: TranslateOptions<P>,
): TranslationResult<P> {
  if (!isProviderId(provider)) {
    const similar = suggestSimilar(String(provider), PROVIDER_IDS);
    const hint = similar.length > 0 ? ` Did you mean "${similar[0]}"?` : '';
    throw new TranslationError(
      'UNKNOWN_PROVIDER',
      `unknown provider ${JSON.stringify(provider)}.${hint} Providers: ${PROVIDER_IDS.join(', ')}`,
    );
  }
  if (!Array.isArray(tools)) {
    throw new TranslationError(
      'INVALID_OPTIONS',
      "translate() takes an array of tools (e.g. registry.list() or a selection's tools)",
    );
  }
  const resolvedOptions = (options ?? {}) as TranslateOptions<P>;
  const key = `${provider}\u0000${optionsKey(resolvedOptions)}`;

  const lists = listCache.get(key);
  if (lists !== undefined) {
    for (const entry of lists) {
      if (sameTools(entry.tools, tools)) return entry.result as TranslationResult<P>;
    }
  }

  const translator = TRANSLATORS[provider] as ProviderTranslator<P, unknown>;
  let toolCache = toolCaches.get(key);
  if (toolCache === undefined) {
    toolCache = new WeakMap();
    toolCaches.set(key, toolCache);
  }
  const names = new Set<string>();
  const prepared: PreparedEntry<unknown>[] = [];
  const toolWarnings: (readonly Warning[])[] = [];
  for (const tool of tools) {
    if (
      !isPlainObject(tool as unknown) ||
      typeof tool.name !== 'string' ||
      !isPlainObject(tool.metadata as unknown)
    ) {
      throw new TranslationError(
        'INVALID_TOOL',
        `every tool needs a string "name" and a "metadata" object${typeof (tool as { name?: unknown } | null)?.name === 'string' ? ` (tool "${tool.name}")` : ''}; pass registry tools, or tools from fromProvider()`,
      );
    }
    if (names.has(tool.name)) {
      throw new TranslationError(
        'DUPLICATE_TOOL_NAME',
        `two tools are named "${tool.name}"; every provider rejects duplicate tool names. Select or register each name once`,
        { tool: tool.name },
      );
    }
    names.add(tool.name);
    const item =
      cachedItem(toolCache, tool) ?? prepareTool(translator, tool, resolvedOptions, toolCache);
    prepared.push({ tool, entry: item.entry });
    toolWarnings.push(item.warnings);
  }

  const assembled = translator.assemble(prepared, resolvedOptions);
  const warnings: Warning[] = [];
  const metadata: Record<string, ToolTranslationMetadata> = {};
  // assembled.tools keeps the input order (translators only drop tools), so one cursor walks both
  let cursor = 0;
  for (const tool of assembled.tools) {
    while (cursor < prepared.length - 1 && prepared[cursor]!.tool !== tool) cursor++;
    for (const warning of toolWarnings[cursor] ?? []) warnings.push(warning);
    // plain assignment is several times faster than fromEntries; "__proto__" must be defined
    if (tool.name === '__proto__') defineEntry(metadata, tool.name, metadataOf(tool));
    else metadata[tool.name] = metadataOf(tool);
  }
  warnings.push(...assembled.warnings);
  const result: TranslationResult<P> = { payload: assembled.payload, metadata, warnings };

  if (tools.length > 1) rememberList(key, { tools: [...tools], result });
  return result;
}

function prepareTool<P extends ProviderId>(
  translator: ProviderTranslator<P, unknown>,
  tool: ToolDefinition,
  options: TranslateOptions<P>,
  cache: WeakMap<object, CacheEntry[]>,
): PreparedTool<unknown> {
  checkTool(tool);
  let item: PreparedTool<unknown>;
  try {
    item = translator.prepareTool(tool, options);
  } catch (error) {
    if (error instanceof TranslationError && error.tool === undefined) {
      throw new TranslationError(error.code, `tool "${tool.name}": ${error.message}`, {
        tool: tool.name,
        ...(error.pointer === undefined ? {} : { pointer: error.pointer }),
        cause: error,
      });
    }
    throw error;
  }
  const entries = cache.get(tool.input_schema) ?? [];
  entries.push({ source: tool, item });
  if (entries.length > ENTRIES_PER_SCHEMA) entries.shift();
  cache.set(tool.input_schema, entries);
  return item;
}

function cachedItem(
  cache: WeakMap<object, CacheEntry[]>,
  tool: ToolDefinition,
): PreparedTool<unknown> | undefined {
  const schema: unknown = tool.input_schema;
  if (schema === null || typeof schema !== 'object') return undefined;
  const entries = cache.get(schema);
  if (entries === undefined) return undefined;
  for (const entry of entries) {
    if (sameTranslationInputs(entry.source, tool)) return entry.item;
  }
  return undefined;
}

/** Whether two tools translate identically: the same values in every field a translator reads. */
function sameTranslationInputs(left: ToolDefinition, right: ToolDefinition): boolean {
  return (
    left === right ||
    (left.input_schema === right.input_schema &&
      left.name === right.name &&
      left.description === right.description &&
      left.title === right.title &&
      left.category === right.category &&
      left.annotations === right.annotations &&
      left.output_schema === right.output_schema)
  );
}

/** The checks every provider needs before a tool can be translated at all. */
function checkTool(tool: ToolDefinition): void {
  if (!isValidToolName(tool.name)) {
    throw new TranslationError(
      'INVALID_TOOL_NAME',
      `tool name ${JSON.stringify(tool.name)} is not valid for every provider (letters, digits and underscores, starting with a letter or underscore, at most 64 characters); rename it, e.g. to "${toCanonicalToolName(tool.name)}" (fromProvider() does this and reports the mapping)`,
      { tool: tool.name },
    );
  }
  if (!isPlainObject(tool.input_schema)) {
    throw new TranslationError(
      'INVALID_INPUT_SCHEMA',
      `tool "${tool.name}": input_schema must be a JSON Schema object with "type": "object"`,
      { tool: tool.name },
    );
  }
}

/** Result metadata by the tool's metadata object: built once, shared by every result. */
const metadataCache = new WeakMap<object, ToolTranslationMetadata>();

function metadataOf(tool: ToolDefinition): ToolTranslationMetadata {
  const group = groupOf(tool);
  let metadata = metadataCache.get(tool.metadata);
  if (metadata === undefined || metadata.group !== group) {
    metadata = {
      group,
      executor: tool.metadata.executor,
      cost_estimate: tool.metadata.cost_estimate,
      latency_estimate: tool.metadata.latency_estimate,
    };
    metadataCache.set(tool.metadata, metadata);
  }
  return metadata;
}

function rememberList(key: string, entry: ListEntry): void {
  const lists = listCache.get(key) ?? [];
  lists.unshift(entry);
  if (lists.length > LISTS_PER_KEY) lists.pop();
  // re-inserting keeps the Map in least-recently-used order for eviction
  listCache.delete(key);
  listCache.set(key, lists);
  if (listCache.size > LIST_CACHE_KEYS) {
    const oldest = listCache.keys().next().value;
    if (oldest !== undefined) listCache.delete(oldest);
  }
}

/** Whether two lists give the same result: same translation inputs and metadata, in order. */
function sameTools(
  previous: readonly ToolDefinition[],
  current: readonly ToolDefinition[],
): boolean {
  if (previous.length !== current.length) return false;
  for (let index = 0; index < current.length; index++) {
    const left = previous[index]!;
    const right = current[index]!;
    if (left === right) continue;
    if (
      right === null ||
      typeof right !== 'object' ||
      !sameTranslationInputs(left, right) ||
      left.metadata !== right.metadata ||
      groupOf(left) !== groupOf(right)
    ) {
      return false;
    }
  }
  return true;
}

function groupOf(tool: ToolDefinition): string | null {
  const group = (tool as { group?: unknown }).group;
  return typeof group === 'string' ? group : null;
}

// options are keyed by value, not identity, so a reused and modified options object is safe
function optionsKey(options: object): string {
  return Object.keys(options).length === 0 ? '' : stableStringify(options);
}

/** JSON with object keys sorted, so equal options give equal keys. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (isPlainObject(value)) {
    const entries = Object.keys(value)
      .filter((name) => value[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${stableStringify(value[name])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
