/**
 * `tool-capabilities/mcp`: serve a registry to MCP clients with the official SDK.
 * @module
 */
export {
  createMcpServer,
  type McpRegistrySource,
  type McpServerHandle,
  type McpServerOptions,
} from '../mcp/create-mcp-server.js';
