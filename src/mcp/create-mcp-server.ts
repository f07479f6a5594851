import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolContext } from '../execute/types.js';
import type { Registry } from '../toolcap/registry.js';

/** Options of `createMcpServer`. */
export interface McpServerOptions {
  /**
   * The context every call runs with (`user_id`, `workspace_root`, ...). Default `{}`. A client
   * may add keys (see the MCP guide) but never replace these.
   */
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
  /** Called after each change; the server then sends `notifications/tools/list_changed`. */
  subscribe?(listener: () => void): () => void;
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
 * snapshot, or a live source whose snapshots change (with `subscribe`, clients get
 * `notifications/tools/list_changed` after each swap): `tools/list` returns the registry's `mcp`
 * translation, `tools/call` runs `registry.execute` with the given context and the client's
 * cancellation signal. Invalid input and handler failures are `isError: true` results carrying
 * the message; an unknown tool name is a JSON-RPC InvalidParams error, as the MCP specification
 * asks. It is the gateway (`createGateway`) with no upstream servers. The SDK is imported on
 * demand, so loading this library does not load it.
 */
export async function createMcpServer(
  source: Registry | McpRegistrySource,
  options: McpServerOptions = {},
): Promise<McpServerHandle> {
  const { createGateway } = await import('./gateway/create-gateway.js');
  const gateway = await createGateway({
    registry: source,
    ...(options.context === undefined ? {} : { context: options.context }),
    hideUnavailable: options.hideUnavailable !== false,
    name: options.name ?? 'toolcap',
    version: options.version ?? '0.0.0',
  });
  const session = gateway.createSession();
  const { tools, hidden } = gateway.listing();
  const previousClose = session.server.onclose;
  session.server.onclose = () => {
    previousClose?.();
    session.dispose();
  };
  return { server: session.server, tools, hidden };
}

export { toCallToolResult } from './gateway/tool-results.js';
