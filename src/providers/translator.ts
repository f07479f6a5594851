import type { ToolDefinition } from '../format/types.js';
import { defineEntry, isPlainObject } from '../json-schema/schema-node.js';
import { groupOf } from './group-of.js';
import type {
  PreparedTool,
  ProviderTranslator,
  TranslationContext,
} from './provider-translator.js';
import type { ProviderId, TranslateOptions, TranslationResult } from './provider-types.js';
import { checkTranslateRequest, prepareTool, translateTools } from './translate.js';

/** Translations kept per provider and options: `translate`, with a memory. */
export interface Translator {
  /**
   * `translate(tools, provider, options)`, reusing what this translator prepared before: a tool
   * is recognized by its `input_schema` object and the other fields translators read, so the
   * copies of registry tools a selection hands out hit too, and the last few lists per
   * provider and options are reused when the same tools come in the same order. Each call
   * returns fresh arrays and objects over frozen entries, so a caller may append to the payload
   * (a provider's built-in tools, say) without changing what later calls return.
   */
  translate<P extends ProviderId>(
    tools: readonly ToolDefinition[],
    provider: P,
    options?: TranslateOptions<P>,
  ): TranslationResult<P>;
}

/** A prepared entry and the tool it was prepared from. */
interface CacheEntry {
  source: ToolDefinition;
  item: PreparedTool<unknown>;
}

/** A translated list and its (frozen) result. */
interface ListEntry {
  tools: readonly ToolDefinition[];
  result: TranslationResult;
}

const ENTRIES_PER_SCHEMA = 8;
const LISTS_PER_KEY = 4;
const LIST_CACHE_KEYS = 64;

/**
 * A translator with its own caches: prepared tools per (provider, options) by `input_schema`
 * object (weak: they die with the schema), and the last few translated lists per (provider,
 * options). A registry owns one; create your own for tools outside a registry. Tools are
 * expected not to change after they are translated (registry tools are frozen). `context`
 * (a registry's group descriptions, for Responses namespaces) must not change either.
 */
export function createTranslator(context: TranslationContext = {}): Translator {
  const toolCaches = new Map<string, WeakMap<object, CacheEntry[]>>();
  const listCache = new Map<string, ListEntry[]>();

  const rememberList = (key: string, entry: ListEntry) => {
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
  };

  return {
    translate<P extends ProviderId>(
      tools: readonly ToolDefinition[],
      provider: P,
      options?: TranslateOptions<P>,
    ): TranslationResult<P> {
      checkTranslateRequest(provider, options);
      const key = `${provider}\u0000${optionsKey(options ?? {})}`;
      if (Array.isArray(tools)) {
        for (const entry of listCache.get(key) ?? []) {
          if (sameTools(entry.tools, tools))
            return copyResult(entry.result as TranslationResult<P>);
        }
      }
      let toolCache = toolCaches.get(key);
      if (toolCache === undefined) {
        toolCache = new WeakMap();
        toolCaches.set(key, toolCache);
      }
      const cache = toolCache;
      const result = translateTools(
        tools,
        provider,
        options,
        (translator, tool, resolved) =>
          cachedPrepare(
            cache,
            translator as ProviderTranslator<ProviderId, unknown>,
            tool,
            resolved,
          ),
        context,
      );
      const frozen = freezeResult(result);
      // lists of one tool are not kept: per-tool token estimates would push out the turn's
      // real selection, and re-assembling one cached tool is cheap
      if (tools.length > 1) rememberList(key, { tools: [...tools], result: frozen });
      return copyResult(frozen);
    },
  };
}

function cachedPrepare(
  cache: WeakMap<object, CacheEntry[]>,
  translator: ProviderTranslator<ProviderId, unknown>,
  tool: ToolDefinition,
  options: TranslateOptions,
): PreparedTool<unknown> {
  const schema: unknown = tool.input_schema;
  const entries = isPlainObject(schema) ? cache.get(schema) : undefined;
  for (const entry of entries ?? []) {
    if (sameTranslationInputs(entry.source, tool)) return entry.item;
  }
  const prepared = prepareTool(translator, tool, options);
  // entries are shared by later results: a frozen copy, so no caller can change them (a copy,
  // so the caller's own tool objects are never frozen by translating them)
  const item: PreparedTool<unknown> = {
    entry: frozenCopy(prepared.entry),
    warnings: Object.freeze(prepared.warnings.map((warning) => Object.freeze({ ...warning }))),
  };
  if (isPlainObject(schema)) {
    const list = entries ?? [];
    list.push({ source: tool, item });
    if (list.length > ENTRIES_PER_SCHEMA) list.shift();
    cache.set(schema, list);
  }
  return item;
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
      left.examples === right.examples &&
      left.output_schema === right.output_schema)
  );
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

/** `result` with its payload entries, metadata values and warnings frozen (in place). */
function freezeResult<P extends ProviderId>(result: TranslationResult<P>): TranslationResult<P> {
  for (const entry of result.payload as readonly unknown[]) deepFreeze(entry);
  for (const value of Object.values(result.metadata)) Object.freeze(value);
  for (const warning of result.warnings) Object.freeze(warning);
  return result;
}

/** Fresh containers over the frozen entries of a cached result. */
function copyResult<P extends ProviderId>(result: TranslationResult<P>): TranslationResult<P> {
  return {
    payload: [...(result.payload as readonly unknown[])] as TranslationResult<P>['payload'],
    // spread defines own properties (a tool named "__proto__" stays a key), and copies a
    // frozen object's properties in one step
    metadata: { ...result.metadata },
    warnings: [...result.warnings],
  };
}

/** A deeply frozen copy of `value` (already frozen values are shared, not copied). */
function frozenCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  const copy = (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    defineEntry(copy, key, frozenCopy((value as Record<string, unknown>)[key]));
  }
  return Object.freeze(copy) as T;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
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
