/**
 * `tool-capabilities/openai-agents`: the registry in the OpenAI Agents SDK (`@openai/agents`,
 * an optional peer dependency). Function tools that run `registry.execute`, and a tool filter
 * that narrows an MCP server's tools to what `registry.select` picks for the turn.
 * @module
 */
export type { AdapterToolOptions } from '../adapters/adapter-options.js';
export {
  type AgentsToolsOptions,
  createAgentsTools,
} from '../adapters/openai-agents/create-agents-tools.js';
export {
  createMcpToolFilter,
  type McpToolFilterOptions,
} from '../adapters/openai-agents/create-mcp-tool-filter.js';
