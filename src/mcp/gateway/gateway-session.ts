import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  JSONRPCRequest,
  ServerNotification,
  ServerRequest,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../../execute/types.js';
import type { RegisteredTool } from '../../format/types.js';
import { translate } from '../../providers/translate.js';
import type { SearchResult } from '../../select/types.js';
import { errorMessage } from '../../util/error-message.js';
import { shortenName } from '../../util/shorten-name.js';
import { suggestSimilar } from '../../util/suggest-similar.js';
import type { Catalog, UpstreamRoute } from './build-catalog.js';
import { errorForClient, toServerArguments } from './rename-properties.js';
import { mergeContexts, readContext } from './session-context.js';
import { toCallToolResult, toolError } from './tool-results.js';
import type { UpstreamInputChecks } from './upstream-input-checks.js';

/** Which tools a session lists; see the MCP guide. */
export type ExposeMode = 'all' | 'selected' | 'search';

/** The gateway's own tools. */
export const FIND_TOOLS = 'find_tools';
/** See `FIND_TOOLS`. */
export const CALL_TOOL = 'call_tool';

/** What a session needs from the gateway that serves it. */
export interface SessionHost {
  /** The catalog serving now. */
  catalog(): Catalog;
  expose: ExposeMode;
  /** The operator's context: overrides anything a client sends. */
  context: ToolContext;
  /** Leave out tools whose `requires_context` keys are missing. */
  hideUnavailable: boolean;
  /** Tools per `find_tools` call unless the model asks for another number (at most 20). */
  findLimit: number;
  translations: ToolTranslations;
  /** Checks calls of upstream tools against their servers' schemas. */
  upstreamInput: UpstreamInputChecks;
  /** Forwards a call to an upstream server (never rejects unless `signal` aborts). */
  forward(
    route: UpstreamRoute,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult>;
  /** Whether the server behind `route` is connected right now. */
  isAvailable(route: UpstreamRoute): boolean;
  /** A `find_tools` search fell back to words alone because the semantic scorer failed. */
  semanticFailed(message: string): void;
  /** Whether `find_tools` should try the semantic scorer now (false for a while after it failed). */
  semanticAvailable(): boolean;
  /** Registers a listener for catalog swaps; returns its removal. */
  subscribe(listener: () => void): () => void;
  /** A session called a tool that one of its `find_tools` searches had returned. */
  foundToolCalled(call: FoundToolCall): void;
}

/** A tool a session called after `find_tools` returned it: what `toolcap learn` learns from. */
export interface FoundToolCall {
  /** The `find_tools` query (the latest of the session's searches that returned the tool). */
  query: string;
  /** The tool's catalog name, as called. */
  tool: string;
  group: string;
  /** For an upstream tool, its server and the server's own name of it. */
  upstream?: UpstreamRoute;
}

/** One session's server and its teardown. */
export interface GatewaySession {
  server: Server;
  /** Stops listening to catalog swaps (call after the transport closed). */
  dispose(): void;
}

const MAX_FOUND = 200;
/** The most tools one `find_tools` call may return. */
export const MAX_FIND_LIMIT = 20;

/**
 * The MCP translation of each catalog tool, computed once per catalog: a tool that cannot be
 * translated is left out with its reason. An upstream tool is listed with its server's own input
 * schema and annotations, not the converted ones.
 */
export class ToolTranslations {
  readonly #byCatalog = new WeakMap<Catalog, Map<string, Tool | string>>();

  /** The tool's MCP definition, or the reason it cannot be listed. */
  get(catalog: Catalog, tool: RegisteredTool): Tool | string {
    let cache = this.#byCatalog.get(catalog);
    if (cache === undefined) {
      cache = new Map();
      this.#byCatalog.set(catalog, cache);
    }
    let entry = cache.get(tool.name);
    if (entry === undefined) {
      try {
        entry = translate([tool], 'mcp').payload[0] as Tool;
        if (catalog.routes.has(tool.name)) {
          const { annotations: _derived, ...rest } = entry;
          const original = catalog.annotations.get(tool.name);
          const inputSchema = catalog.inputSchemas.get(tool.name) ?? rest.inputSchema;
          entry = {
            ...rest,
            inputSchema: inputSchema as Tool['inputSchema'],
            ...(original === undefined ? {} : { annotations: original }),
          };
        }
      } catch (error) {
        entry = `cannot be translated for MCP: ${errorMessage(error)}`;
      }
      cache.set(tool.name, entry);
    }
    return entry;
  }
}

/** A JSON-RPC error whose message reaches the client as written (no `MCP error` prefix). */
class ProtocolError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * One MCP session over a gateway (official SDK, low-level `Server`): `tools/list` answers from
 * the current catalog in the host's expose mode, `tools/call` validates the arguments against the
 * schema the tool is listed with and runs local tools or forwards upstream ones. Requests are handled by the
 * server's fallback handler, so no request ever meets the SDK's own parameter parsing (whose
 * failures are internal errors with a schema dump): unknown tools are a -32602 error with a
 * suggestion, bad arguments an `isError` result with a readable message. `stateless` sessions
 * (one HTTP request each) never send notifications and keep no found tools.
 */
export function createGatewaySession(
  host: SessionHost,
  options: { name: string; version: string; stateless: boolean },
): GatewaySession {
  const instructions = instructionsFor(host.expose);
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: { listChanged: !options.stateless } },
      ...(instructions === undefined ? {} : { instructions }),
    },
  );
  const found = new Set<string>();
  /**
   * The tools the latest `find_tools` search brought to the model, each with its query until
   * it is called: what `toolcap learn` may credit to that search.
   */
  const queries = new Map<string, string>();
  /** Tools this session called (bounded): a later search is not what led to calling them. */
  const called = new Set<string>();
  const callTool = async (
    catalog: Catalog,
    name: string,
    input: unknown,
    context: ToolContext,
    signal: AbortSignal,
  ): Promise<CallToolResult> => {
    const query = queries.get(name);
    if (!options.stateless) {
      if (called.size >= MAX_FOUND) called.delete(called.values().next().value as string);
      called.add(name);
    }
    const result = await runTool(host, catalog, name, input, context, signal);
    // only a call that worked teaches which tool the search was for; a failed one may be retried
    if (query !== undefined && result.isError !== true && queries.get(name) === query) {
      queries.delete(name);
      const route = catalog.routes.get(name);
      host.foundToolCalled({
        query,
        tool: name,
        group: catalog.registry.get(name)!.group,
        ...(route === undefined ? {} : { upstream: route }),
      });
    }
    return result;
  };
  const sessionContext = (): ToolContext => {
    const reading = readContext(
      server.getClientCapabilities()?.experimental,
      'params.capabilities.experimental',
    );
    return reading.ok ? reading.context : {};
  };
  const contextOf = (extra: Extra): ToolContext => {
    const reading = readContext(extra._meta, 'params._meta');
    if (!reading.ok) throw new ProtocolError(-32602, reading.problem);
    return mergeContexts(sessionContext(), reading.context, host.context);
  };
  const listed = (catalog: Catalog, context: ToolContext): Tool[] =>
    listTools(host, catalog, context, found);

  server.fallbackRequestHandler = async (request: JSONRPCRequest, extra: Extra) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    switch (request.method) {
      case 'tools/list':
        return { tools: listed(host.catalog(), contextOf(extra)) };
      case 'tools/call': {
        const catalog = host.catalog();
        const context = contextOf(extra);
        const name = params.name as string;
        if (host.expose !== 'all' && name === FIND_TOOLS) {
          // what the model could call before this search: not credited to it
          const before = options.stateless
            ? new Set<string>()
            : new Set(
                host.expose === 'selected'
                  ? listTools(host, catalog, context, found).map((tool) => tool.name)
                  : [],
              );
          const result = await findTools(
            host,
            catalog,
            context,
            params.arguments,
            found,
            options.stateless,
            extra.signal,
          );
          // a search replaces the candidates of the one before: the tool called next is most
          // likely what the latest search was for
          if (!options.stateless && result.names.length > 0) {
            queries.clear();
            for (const name of result.names) {
              if (!before.has(name) && !called.has(name)) queries.set(name, result.query);
            }
          }
          if (result.added && !options.stateless) void server.sendToolListChanged().catch(() => {});
          return result.result;
        }
        if (host.expose !== 'all' && name === CALL_TOOL) {
          const call = readCallToolArguments(params.arguments);
          if (typeof call === 'string') return toolError('INVALID_INPUT', call);
          if (!catalog.registry.has(call.name)) {
            return toolError(
              'TOOL_NOT_FOUND',
              unknownToolMessage(catalog, call.name, context, host),
            );
          }
          return callTool(catalog, call.name, call.arguments, context, extra.signal);
        }
        if (!catalog.registry.has(name)) {
          throw new ProtocolError(-32602, unknownToolMessage(catalog, name, context, host));
        }
        return callTool(catalog, name, params.arguments, context, extra.signal);
      }
      default:
        throw new ProtocolError(-32601, `Method not found: ${shortenName(request.method)}`);
    }
  };

  const unsubscribe = options.stateless
    ? () => {}
    : host.subscribe(() => {
        void server.sendToolListChanged().catch(() => {});
      });
  return { server, dispose: unsubscribe };
}

/** The tools a session lists, in catalog order, then the gateway's own tools. */
export function listTools(
  host: SessionHost,
  catalog: Catalog,
  context: ToolContext,
  found: ReadonlySet<string> = new Set(),
): Tool[] {
  const tools: Tool[] = [];
  if (host.expose !== 'search') {
    const { registry } = catalog;
    // what applies before any message: `always` groups and `context` groups whose condition holds
    const applies =
      host.expose === 'selected'
        ? new Set(registry.select('', { context, requireContext: host.hideUnavailable }).names)
        : undefined;
    for (const tool of registry.list()) {
      if (
        applies !== undefined &&
        !applies.has(tool.name) &&
        !catalog.pinned.has(tool.name) &&
        !found.has(tool.name)
      ) {
        continue;
      }
      if (host.hideUnavailable && missingContext(tool, context, catalog).length > 0) continue;
      const entry = host.translations.get(catalog, tool);
      if (typeof entry !== 'string') tools.push(entry);
    }
  }
  if (host.expose !== 'all') tools.push(findToolsTool(catalog), CALL_TOOL_TOOL);
  return tools;
}

/** The `requires_context` keys of `tool` that neither the context nor a service provides. */
export function missingContext(
  tool: RegisteredTool,
  context: ToolContext,
  catalog: Catalog,
): string[] {
  const services = catalog.local.settings.services;
  return tool.metadata.requires_context.filter((key) => {
    const value = Object.hasOwn(context, key) ? context[key] : services?.get(key);
    return value === undefined || value === null;
  });
}

async function runTool(
  host: SessionHost,
  catalog: Catalog,
  name: string,
  input: unknown,
  context: ToolContext,
  signal: AbortSignal,
): Promise<CallToolResult> {
  if (
    input !== undefined &&
    input !== null &&
    (typeof input !== 'object' || Array.isArray(input))
  ) {
    return toolError(
      'INVALID_INPUT',
      `Invalid input for tool "${name}": the arguments must be a JSON object of named parameters, got ${Array.isArray(input) ? 'an array' : `a ${typeof input}`}. Call it again with an object.`,
    );
  }
  const route = catalog.routes.get(name);
  if (route === undefined) {
    return toCallToolResult(await catalog.local.execute(name, input ?? {}, context, { signal }));
  }
  const tool = catalog.registry.get(name)!;
  const renamed = catalog.renamedProperties.get(name);
  if (renamed !== undefined) {
    // checked with the server's keys against the server's schema, reported with the client's
    const mapped = toServerArguments(name, (input ?? {}) as Record<string, unknown>, renamed);
    if (!mapped.ok) return toolError(mapped.error.code, mapped.error.message);
    const validation = host.upstreamInput.check(tool, renamed.serverSchema, mapped.input);
    if (!validation.ok) {
      const error = errorForClient(name, validation.error, mapped.clientNames);
      return toolError(error.code, error.message);
    }
    return host.forward(route, validation.input, signal);
  }
  // the schema the tool is listed with: the server's, never the converted one
  const schema = catalog.inputSchemas.get(name) ?? tool.input_schema;
  const validation = host.upstreamInput.check(tool, schema, input);
  if (!validation.ok) return toolError(validation.error.code, validation.error.message);
  return host.forward(route, validation.input, signal);
}

async function findTools(
  host: SessionHost,
  catalog: Catalog,
  context: ToolContext,
  input: unknown,
  found: Set<string>,
  stateless: boolean,
  signal: AbortSignal,
): Promise<{ result: CallToolResult; added: boolean; query: string; names: string[] }> {
  const args = (input ?? {}) as { query?: unknown; limit?: unknown };
  if (typeof args !== 'object' || typeof args.query !== 'string' || args.query.trim() === '') {
    return {
      result: toolError(
        'INVALID_INPUT',
        `Invalid input for tool "${FIND_TOOLS}": "query" must be a non-empty string saying what you want to do, e.g. {"query": "create a calendar event"}.`,
      ),
      added: false,
      query: '',
      names: [],
    };
  }
  const limit =
    args.limit === undefined
      ? host.findLimit
      : Number.isInteger(args.limit) &&
          (args.limit as number) >= 1 &&
          (args.limit as number) <= MAX_FIND_LIMIT
        ? (args.limit as number)
        : undefined;
  if (limit === undefined) {
    return {
      result: toolError(
        'INVALID_INPUT',
        `Invalid input for tool "${FIND_TOOLS}": "limit" must be an integer from 1 to ${MAX_FIND_LIMIT}.`,
      ),
      added: false,
      query: '',
      names: [],
    };
  }
  const query = args.query.slice(0, 1_000);
  const searchOptions = { k: limit * 3, typoTolerance: true };
  let ranked: SearchResult[];
  if (catalog.registry.settings.semantic === undefined || !host.semanticAvailable()) {
    ranked = catalog.registry.search(query, searchOptions);
  } else {
    // with a semantic scorer, by meaning as well as words; a failing embedder costs the
    // meaning, not the answer
    try {
      ranked = await catalog.registry.searchAsync(query, { ...searchOptions, signal });
    } catch (error) {
      if (signal.aborted) throw error;
      host.semanticFailed(errorMessage(error));
      ranked = catalog.registry.search(query, searchOptions);
    }
  }
  const results = ranked
    .filter(
      (result) =>
        !host.hideUnavailable || missingContext(result.tool, context, catalog).length === 0,
    )
    .slice(0, limit);
  const tools = [];
  const names: string[] = [];
  let added = false;
  // the tools the list has whatever was found (always groups, context groups whose condition
  // holds): finding one adds nothing, so no list_changed is sent for it
  let listed: Set<string> | undefined;
  const listedBeforeAnyMessage = () => {
    listed ??= new Set(
      catalog.registry.select('', { context, requireContext: host.hideUnavailable }).names,
    );
    return listed;
  };
  for (const result of results) {
    const entry = host.translations.get(catalog, result.tool);
    if (typeof entry === 'string') continue;
    names.push(result.name);
    const route = catalog.routes.get(result.name);
    tools.push({
      name: entry.name,
      description: entry.description ?? '',
      group: result.group,
      score: result.score,
      available: route === undefined || host.isAvailable(route),
      inputSchema: entry.inputSchema,
    });
    if (
      host.expose === 'selected' &&
      !stateless &&
      !found.has(result.name) &&
      !catalog.pinned.has(result.name) &&
      !listedBeforeAnyMessage().has(result.name)
    ) {
      if (found.size >= MAX_FOUND) found.delete(found.values().next().value as string);
      found.add(result.name);
      added = true;
    }
  }
  const note =
    tools.length === 0
      ? `No tool matches ${JSON.stringify(query)}; try other words for what you want to do.`
      : host.expose === 'selected' && !stateless
        ? `These tools are now in your tool list: call them by name. If your list does not show them, use ${CALL_TOOL} with {"name", "arguments"}.`
        : `Call them with ${CALL_TOOL}: {"name": "<tool>", "arguments": {...}}.`;
  const structured = { tools, note };
  return {
    result: {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
    },
    added,
    query: query.trim(),
    names,
  };
}

function readCallToolArguments(input: unknown): { name: string; arguments: unknown } | string {
  const prefix = `Invalid input for tool "${CALL_TOOL}":`;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return `${prefix} the arguments must be an object such as {"name": "create_event", "arguments": {...}}.`;
  }
  const { name, arguments: args } = input as Record<string, unknown>;
  if (typeof name !== 'string' || name === '') {
    return `${prefix} "name" must be the name of a tool (find it with ${FIND_TOOLS}).`;
  }
  if (name === CALL_TOOL || name === FIND_TOOLS) {
    return `${prefix} call ${name} directly, not through ${CALL_TOOL}.`;
  }
  return { name, arguments: args };
}

function unknownToolMessage(
  catalog: Catalog,
  name: string,
  context: ToolContext,
  host: SessionHost,
): string {
  const shown = shortenName(name);
  // names longer than any valid tool name get no suggestion: edit distances cost per character
  const candidates = catalog.registry
    .list()
    .filter((tool) => !host.hideUnavailable || missingContext(tool, context, catalog).length === 0)
    .map((tool) => tool.name);
  const similar = name.length <= 64 ? suggestSimilar(name, candidates) : [];
  const hint =
    similar.length > 0
      ? ` Did you mean ${similar.map((candidate) => `"${candidate}"`).join(' or ')}?`
      : host.expose === 'all'
        ? ''
        : ` Search the catalog with ${FIND_TOOLS}.`;
  return `Unknown tool: ${JSON.stringify(shown)}.${hint}`;
}

function findToolsTool(catalog: Catalog): Tool {
  const groups = catalog.registry.groups().map((group) => group.group);
  const shown =
    groups.length > 30
      ? `${groups.slice(0, 30).join(', ')} and ${groups.length - 30} more`
      : groups.join(', ');
  return {
    name: FIND_TOOLS,
    description: `Search the tool catalog (${catalog.registry.size} tools${groups.length > 0 ? `; groups: ${shown}` : ''}) for tools that do what you need, described in a few words. Returns the best matches with their parameters.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'What you want to do, in a few words (e.g. "open a GitHub issue")',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_FIND_LIMIT,
          description: 'How many tools to return (default 5)',
        },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

const CALL_TOOL_TOOL: Tool = {
  name: CALL_TOOL,
  description: `Call any tool of the catalog by name, including tools ${FIND_TOOLS} found that are not in your tool list.`,
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: `The tool's name, as ${FIND_TOOLS} gave it` },
      arguments: { type: 'object', description: "The tool's arguments" },
    },
    required: ['name'],
  },
};

function instructionsFor(expose: ExposeMode): string | undefined {
  if (expose === 'all') return undefined;
  return `Only some tools are listed. Use ${FIND_TOOLS} to search the whole catalog by what you want to do, then call the tools it finds (or use ${CALL_TOOL}).`;
}
