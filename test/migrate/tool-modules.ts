import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createTempDir } from '../helpers/temp-files.js';

const ROOT = join(import.meta.dirname, '../..');

/**
 * A temporary project holding `files` whose modules can import the frameworks (`ai`,
 * `@openai/agents`, `@langchain/core`, `zod`, the MCP SDK): its node_modules links to ours.
 */
export function createModuleProject(files: Readonly<Record<string, unknown>>): string {
  const dir = createTempDir(files);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** An AI SDK ToolSet: a Zod 4 schema and a jsonSchema() one. */
export const AI_SDK_MODULE = `
import { jsonSchema, tool } from 'ai';
import { z } from 'zod';

export const getWeather = tool({
  description: 'Get the current weather for a city.',
  inputSchema: z.object({
    city: z.string().describe('City name'),
    units: z.enum(['celsius', 'fahrenheit']).optional(),
  }),
  execute: async ({ city }) => ({ city, temperature: 21 }),
});

export const tools = {
  weather: getWeather,
  searchNews: tool({
    description: 'Search recent news articles.',
    inputSchema: jsonSchema({
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
      required: ['query'],
    }),
  }),
};

export const notATool = 42;
`;

/** OpenAI Agents SDK tools: strict Zod, non-strict JSON Schema, a hosted tool. */
export const AGENTS_MODULE = `
import { tool, webSearchTool } from '@openai/agents';
import { z } from 'zod';

export const tools = [
  tool({
    name: 'lookup_order',
    description: 'Look up an order by its id.',
    parameters: z.object({ order_id: z.string(), include_items: z.boolean().optional() }),
    execute: async () => 'ok',
  }),
  tool({
    name: 'tag_order',
    description: 'Add free-form tags to an order.',
    strict: false,
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' }, tags: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['order_id'],
      additionalProperties: true,
    },
    execute: async () => 'ok',
  }),
  webSearchTool(),
];
`;

/** LangChain tools: tool() with Zod, DynamicStructuredTool with JSON Schema. */
export const LANGCHAIN_MODULE = `
import { DynamicStructuredTool, tool } from '@langchain/core/tools';
import { z } from 'zod';

const calculator = tool(async ({ a, b }) => String(a + b), {
  name: 'add_numbers',
  description: 'Add two numbers.',
  schema: z.object({ a: z.number(), b: z.number() }),
});

const translator = new DynamicStructuredTool({
  name: 'translate_text',
  description: 'Translate a text into another language.',
  schema: {
    type: 'object',
    properties: { text: { type: 'string' }, language: { type: 'string' } },
    required: ['text', 'language'],
  },
  func: async ({ text }) => text,
});

export default [calculator, translator];
`;

/** An MCP SDK McpServer, not connected. */
export const MCP_SERVER_MODULE = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'forecast', version: '1.0.0' });
server.registerTool(
  'get-forecast',
  {
    title: 'Forecast',
    description: 'Get the weather forecast for a city.',
    inputSchema: { city: z.string(), days: z.number().int().max(7).optional() },
    annotations: { readOnlyHint: true },
  },
  async () => ({ content: [{ type: 'text', text: 'sunny' }] }),
);
server.registerTool(
  'delete-alert',
  { description: 'Delete a weather alert.', inputSchema: { id: z.string() }, annotations: { destructiveHint: true } },
  async () => ({ content: [] }),
);
export { server };
`;
