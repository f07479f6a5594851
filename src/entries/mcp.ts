/**
 * `tool-capabilities/mcp`: serve a registry to MCP clients with the official SDK, and the tool
 * gateway: live upstream MCP servers as groups, per-session selection, stdio and Streamable
 * HTTP.
 * @module
 */
export {
  createMcpServer,
  type McpRegistrySource,
  type McpServerHandle,
  type McpServerOptions,
} from '../mcp/create-mcp-server.js';
export {
  createGateway,
  type Gateway,
  type GatewayEvent,
  type GatewayOptions,
  type GatewayRegistrySource,
  type GatewayStatus,
} from '../mcp/gateway/create-gateway.js';
export type { ExposeMode, FoundToolCall } from '../mcp/gateway/gateway-session.js';
export type { HttpServeHandle, HttpServeOptions } from '../mcp/gateway/serve-http.js';
export type { ServeStdioOptions } from '../mcp/gateway/serve-stdio.js';
export { CONTEXT_KEY } from '../mcp/gateway/session-context.js';
export { snapshotUpstream, type UpstreamSnapshot } from '../mcp/gateway/snapshot-upstream.js';
export {
  parseUpstreamConfig,
  readUpstreamConfig,
  type UpstreamConfig,
  type UpstreamConfigOptions,
  type UpstreamHttpServer,
  type UpstreamServer,
  type UpstreamStdioServer,
} from '../mcp/gateway/upstream-config.js';
