import { checkExecuteContext, checkExecuteOptions } from '../execute/check-execute-options.js';
import { executeToolCalls } from '../execute/execute-tool-calls.js';
import type { ExecutionTarget } from '../execute/execution-target.js';
import { collectServices, missingContextKeys } from '../execute/missing-context-keys.js';
import { allowedNames } from '../execute/run-tool-call.js';
import type { ExecuteOptions, ToolCallResult, ToolContext } from '../execute/types.js';
import type { RegisteredGroup, RegisteredTool, ToolDefinition } from '../format/types.js';
import type { TranslateOptions, TranslationResult } from '../providers/provider-types.js';
import { toolCallCodec } from '../providers/tool-call-codecs.js';
import type {
  ProviderToolCall,
  ToolCallOutcome,
  ToolCallProviderId,
  ToolResultMessagesMap,
} from '../providers/tool-call-types.js';
import {
  DEFAULT_FALLBACK_K,
  DEFAULT_FALLBACK_MIN_SCORE,
} from '../select/resolve-select-options.js';
import type { SearchOptions, SearchResult } from '../select/types.js';
import { describeValue, isObject, type OptionCheck } from '../util/check-options.js';
import { suggestSimilar } from '../util/suggest-similar.js';

/** The members of `toolSearch`. */
const TOOL_SEARCH_MEMBERS = ['limit', 'minScore', 'within', 'translateOptions'];

const isToolSearch: OptionCheck = (value) => {
  if (isObject(value) !== undefined) return 'an object such as { limit: 5 }';
  const unknown = Object.keys(value as object).find((key) => !TOOL_SEARCH_MEMBERS.includes(key));
  if (unknown !== undefined) {
    const similar = suggestSimilar(unknown, TOOL_SEARCH_MEMBERS);
    return {
      problem: `has the unknown member "${unknown}"${similar.length > 0 ? `; did you mean "${similar[0]}"?` : '.'} Members: ${TOOL_SEARCH_MEMBERS.join(', ')}`,
    };
  }
  const { limit } = value as { limit?: unknown };
  return limit === undefined || (Number.isInteger(limit) && (limit as number) > 0)
    ? undefined
    : {
        problem: `has limit ${describeValue(limit)}; limit must be a whole number of tools, 1 or more (default ${DEFAULT_FALLBACK_K})`,
      };
};

/** How `executeToolCalls` answers the model's client-side tool searches. */
export interface ToolSearchOptions<P extends ToolCallProviderId = ToolCallProviderId> {
  /** Most tools one search loads, a whole number of 1 or more. Default 5 (as many as a selection's relevance fallback). */
  limit?: number;
  /** Least relevance (0-1) of a tool a search loads. Default 0.05 (the fallback's threshold). */
  minScore?: number;
  /**
   * The tools a search may load: the request's deferred tools (Anthropic loads only tools the
   * request declares). Default: every tool in the registry.
   */
  within?: readonly string[];
  /**
   * How the loaded definitions are translated, where a provider sends them (OpenAI Responses'
   * `tool_search_output`): the request's options, so `namespaces` and `strict` match. Tool
   * search and deferral options are ignored there.
   */
  translateOptions?: TranslateOptions<P>;
}

/** Options of `registry.executeToolCalls`: those of `execute`, applied to every call, and search. */
export interface ExecuteToolCallsOptions<P extends ToolCallProviderId = ToolCallProviderId>
  extends ExecuteOptions {
  /**
   * Answering client-side tool searches (`toolSearch: "client"`). OpenAI Responses'
   * `tool_search_call`s are always answered; Anthropic's `search_tools` calls only when this
   * is given (`{}` for the defaults), else they are `TOOL_NOT_FOUND` like any unknown name.
   * A search loads only tools the call would let run: in `allowed`, with their context keys.
   */
  toolSearch?: ToolSearchOptions<P>;
}

/** What `registry.executeToolCalls` returns. */
export interface ToolCallsResult<P extends ToolCallProviderId = ToolCallProviderId> {
  /** One result per call, in the response's order (tool searches included). */
  results: ToolCallResult[];
  /**
   * The messages to append to the conversation after the response's own message (or output
   * items), in the provider's format; empty when the response made no calls.
   */
  messages: ToolResultMessagesMap[P];
}

/** What the round trip needs of a registry. */
export interface ToolCallHost extends ExecutionTarget {
  search(query: string, options?: SearchOptions): SearchResult[];
  group(name: string): RegisteredGroup | undefined;
  translate<P extends ToolCallProviderId>(
    tools: readonly ToolDefinition[],
    provider: P,
    options?: TranslateOptions<P>,
  ): TranslationResult<P>;
}

/**
 * `registry.executeToolCalls`: reads the calls of `response` with the provider's codec, runs
 * the tool calls (see `executeToolCalls` in execute/), answers client-side tool searches from
 * `search`, and writes every outcome back in the provider's format.
 */
export async function runProviderToolCalls<P extends ToolCallProviderId>(
  host: ToolCallHost,
  provider: P,
  response: unknown,
  context: ToolContext,
  options: ExecuteToolCallsOptions<P>,
): Promise<ToolCallsResult<P>> {
  checkExecuteOptions('executeToolCalls', options, { toolSearch: isToolSearch });
  checkExecuteContext('executeToolCalls', context);
  const codec = toolCallCodec(provider);
  const calls = codec.readCalls(response);
  // a search tool that is a plain function (Anthropic's search_tools) is answered only when the
  // host asked for it: a hallucinated call must not load tools the request never declared
  const isSearch = (call: ProviderToolCall) =>
    call.kind === 'tool_search' ||
    (options.toolSearch !== undefined &&
      codec.searchToolName === call.name &&
      host.get(call.name) === undefined);
  const toolCalls = calls.filter((call) => !isSearch(call));
  const ran = await executeToolCalls(
    host,
    toolCalls.map((call) => ({ id: call.id, name: call.name, input: call.arguments })),
    context,
    options,
  );
  // a search loads only tools this call's options would let run: `select` never offers a tool
  // whose context is missing, and `allowed` would refuse the others with NOT_SELECTED
  const allowed = allowedNames(options.allowed);
  const services = collectServices(host.settings.services, options.services);
  const runnable = (tool: RegisteredTool) =>
    (allowed === undefined || allowed.has(tool.name)) &&
    missingContextKeys(tool, context, services).length === 0;
  let cursor = 0;
  const outcomes = calls.map((call): ToolCallOutcome & { result: ToolCallResult } =>
    isSearch(call)
      ? answerSearch(host, call, options.toolSearch ?? {}, runnable)
      : { call, result: ran[cursor++]! },
  );
  const translateOptions = options.toolSearch?.translateOptions;
  const messages = codec.writeResults(
    outcomes,
    (tools) => host.translate(tools, provider, translateOptions).payload,
  );
  return { results: outcomes.map((outcome) => outcome.result), messages };
}

/**
 * A tool search: its `query` ranked by `search`, or its `paths` (tool or group names); only
 * tools in `within` that are `runnable` are loaded.
 */
function answerSearch(
  host: ToolCallHost,
  call: ProviderToolCall,
  options: ToolSearchOptions<ToolCallProviderId>,
  runnable: (tool: RegisteredTool) => boolean,
): ToolCallOutcome & { result: ToolCallResult } {
  const input = readArguments(call.arguments);
  const query = typeof input.query === 'string' ? input.query.trim() : '';
  const paths = Array.isArray(input.paths)
    ? input.paths.filter((path): path is string => typeof path === 'string')
    : [];
  if (query === '' && paths.length === 0) {
    return {
      call,
      result: {
        id: call.id,
        name: call.name,
        ok: false,
        error: {
          code: 'INVALID_INPUT',
          message: `The tool search needs a "query": what you need a tool for, in a few words (for example {"query": "cancel a meeting"}).`,
          details: [
            {
              pointer: '/query',
              message: 'missing required property "query"',
              keyword: 'required',
            },
          ],
        },
      },
      loaded: [],
    };
  }
  const limit = options.limit ?? DEFAULT_FALLBACK_K;
  const within = options.within === undefined ? undefined : new Set(options.within);
  const found = new Map<string, ToolDefinition>();
  const add = (tool: RegisteredTool | undefined) => {
    if (tool === undefined || found.size >= limit || found.has(tool.name)) return;
    if ((within === undefined || within.has(tool.name)) && runnable(tool)) {
      found.set(tool.name, tool);
    }
  };
  for (const path of paths) {
    const group = host.group(path);
    if (group === undefined) add(host.get(path));
    else for (const name of group.tools) add(host.get(name));
  }
  if (query !== '') {
    // rank every tool, so the first `limit` that may be loaded are found
    const k = Math.max(limit, host.list().length);
    const minScore = options.minScore ?? DEFAULT_FALLBACK_MIN_SCORE;
    for (const hit of host.search(query, { k, minScore })) add(hit.tool);
  }
  const loaded = [...found.values()];
  return {
    call,
    result: {
      id: call.id,
      name: call.name,
      ok: true,
      output: {
        ...(query === '' ? {} : { query }),
        tools: loaded.map((tool) => tool.name),
      },
    },
    loaded,
  };
}

/** Search arguments as an object: JSON text is parsed; anything unreadable is `{}`. */
function readArguments(value: unknown): Record<string, unknown> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return {};
    }
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}
