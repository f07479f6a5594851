import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ExecuteResult, ToolContext } from '../execute/types.js';
import type { RegisteredTool } from '../format/types.js';
import { translate } from '../providers/translate.js';
import type { Registry } from '../toolcap/registry.js';
import { errorMessage } from '../util/error-message.js';
import { suggestSimilar } from '../util/suggest-similar.js';

/** Options of `createMcpServer`. */
export interface McpServerOptions {
  /** The context every call runs with (`user_id`, `workspace_root`, ...). Default `{}`. */
  context?: ToolContext;
  /** Server name in the MCP handshake. Default `toolcap`. */
  name?: string;
  /** Server version in the MCP handshake. Default `0.0.0`. */
  version?: string;
  /**
   * List only tools whose `requires_context` keys the context (or a registry service) provides:
   * the others could only fail with `MISSING_CONTEXT`. Default true.
   */
  hideUnavailable?: boolean;
}

/**
 * A registry that can be replaced while serving (a `RegistryWatcher`): `tools/list` answers
 * from `current()`, and each `tools/call` runs on the snapshot current when it arrived.
 */
export interface McpRegistrySource {
  current(): Registry;
}

/** A ready MCP server plus what it serves. */
export interface McpServerHandle {
  /** The SDK's low-level server; `await server.connect(transport)` to serve. */
  server: Server;
  /** Names of the listed tools, in catalog order. */
  tools: readonly string[];
  /** Tools left out, and why (missing context keys, or a translation error). */
  hidden: readonly { name: string; reason: string }[];
}

/**
 * An MCP server (official SDK, low-level `Server` with raw JSON Schemas) over a registry
 * snapshot, or a live source whose snapshots change (then it announces `listChanged`; send
 * `server.sendToolListChanged()` after a swap): `tools/list` returns the registry's `mcp` translation, `tools/call` runs
 * `registry.execute` with the given context and the client's cancellation signal. Invalid
 * input and handler failures are `isError: true` results carrying the message; an unknown tool
 * name is a JSON-RPC InvalidParams error, as the MCP specification asks. The SDK is imported
 * on demand, so loading this library does not load it.
 */
export async function createMcpServer(
  source: Registry | McpRegistrySource,
  options: McpServerOptions = {},
): Promise<McpServerHandle> {
  const [{ Server }, { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
  const context = options.context ?? {};
  const live = 'current' in source;
  const snapshot = (): Registry => ('current' in source ? source.current() : source);
  // a live source swaps whole snapshots: list each one once
  const listings = new WeakMap<Registry, Listing>();
  const listingOf = (registry: Registry): Listing => {
    let listing = listings.get(registry);
    if (listing === undefined) {
      listing = listTools(registry, context, options);
      listings.set(registry, listing);
    }
    return listing;
  };
  const initial = listingOf(snapshot());

  const server = new Server(
    { name: options.name ?? 'toolcap', version: options.version ?? '0.0.0' },
    { capabilities: { tools: { listChanged: live } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: listingOf(snapshot()).payload,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // one snapshot for the whole call, even if a reload swaps the registry meanwhile
    const registry = snapshot();
    const listed = listingOf(registry);
    const { name } = request.params;
    if (!registry.has(name)) {
      const similar = suggestSimilar(name, listed.names);
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${JSON.stringify(name)}.${similar.length > 0 ? ` Did you mean ${similar.map((candidate) => `"${candidate}"`).join(' or ')}?` : ''}`,
      );
    }
    const result = await registry.execute(name, request.params.arguments ?? {}, context, {
      signal: extra.signal,
    });
    return toCallToolResult(result);
  });
  return { server, tools: initial.names, hidden: initial.hidden };
}

interface Listing {
  payload: Tool[];
  names: string[];
  hidden: { name: string; reason: string }[];
}

function listTools(registry: Registry, context: ToolContext, options: McpServerOptions): Listing {
  const hidden: { name: string; reason: string }[] = [];
  const candidates: RegisteredTool[] = [];
  for (const tool of registry.list()) {
    const missing = tool.metadata.requires_context.filter(
      (key) => !isProvided(key, context, registry.settings.services),
    );
    if (missing.length > 0 && options.hideUnavailable !== false) {
      hidden.push({ name: tool.name, reason: `missing context: ${missing.join(', ')}` });
    } else {
      candidates.push(tool);
    }
  }
  return { ...translateForMcp(candidates, hidden), hidden };
}

function isProvided(
  key: string,
  context: ToolContext,
  services: ReadonlyMap<string, unknown> | undefined,
): boolean {
  const value = Object.hasOwn(context, key) ? context[key] : services?.get(key);
  return value !== undefined && value !== null;
}

function translateForMcp(
  tools: readonly RegisteredTool[],
  hidden: { name: string; reason: string }[],
): { payload: Tool[]; names: string[] } {
  try {
    const { payload } = translate(tools, 'mcp');
    return { payload: payload as Tool[], names: tools.map((tool) => tool.name) };
  } catch {
    // one untranslatable tool must not take the others down: translate them one by one
    const payload: Tool[] = [];
    const names: string[] = [];
    for (const tool of tools) {
      try {
        payload.push(...(translate([tool], 'mcp').payload as Tool[]));
        names.push(tool.name);
      } catch (error) {
        hidden.push({
          name: tool.name,
          reason: `cannot be translated for MCP: ${errorMessage(error)}`,
        });
      }
    }
    return { payload, names };
  }
}

/** An execute result as an MCP `tools/call` result. */
export function toCallToolResult(result: ExecuteResult): CallToolResult {
  if (!result.ok) {
    return {
      isError: true,
      content: [{ type: 'text', text: `${result.error.code}: ${result.error.message}` }],
    };
  }
  const { output } = result;
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  const isObject = output !== null && typeof output === 'object' && !Array.isArray(output);
  return {
    content: [{ type: 'text', text }],
    ...(isObject ? { structuredContent: output } : {}),
  };
}
