import { describe, expect, it } from 'vitest';
import { readToolModule } from '../../src/migrate/read-tool-module.js';
import {
  AGENTS_MODULE,
  AI_SDK_MODULE,
  createModuleProject,
  LANGCHAIN_MODULE,
  MCP_SERVER_MODULE,
} from './tool-modules.js';

/** The tools of `source` (written as tools.mjs), without the exported objects. */
async function read(source: string, exportName?: string) {
  const cwd = createModuleProject({ 'tools.mjs': source });
  const result = await readToolModule('tools.mjs', {
    cwd,
    ...(exportName === undefined ? {} : { exportName }),
  });
  return {
    warnings: result.warnings,
    tools: result.tools.map(({ value: _value, ...tool }) => tool),
  };
}

describe('readToolModule', () => {
  it('reads an AI SDK ToolSet: Zod 4 through its own JSON Schema output, jsonSchema() as is', async () => {
    const { tools, warnings } = await read(AI_SDK_MODULE);
    expect(warnings).toEqual([]);
    // getWeather is exported alone and in the ToolSet: one tool, named by its ToolSet key
    expect(tools).toEqual([
      {
        name: 'weather',
        description: 'Get the current weather for a city.',
        inputSchema: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'City name' },
            units: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          },
          required: ['city'],
        },
        kind: 'ai-sdk',
        exportName: 'tools',
      },
      {
        name: 'searchNews',
        description: 'Search recent news articles.',
        inputSchema: {
          type: 'object',
          properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
          required: ['query'],
        },
        kind: 'ai-sdk',
        exportName: 'tools',
      },
    ]);
  });

  it('reads one export with exportName, and the tools property of an object', async () => {
    const source = `${AI_SDK_MODULE}\nexport default { tools: { forecast: getWeather } };\n`;
    expect((await read(source)).tools.map((tool) => tool.name)).toEqual(['forecast', 'searchNews']);
    expect((await read(source, 'getWeather')).tools.map((tool) => tool.name)).toEqual([
      'getWeather',
    ]);
    expect((await read(source, 'tools')).tools.map((tool) => tool.name)).toEqual([
      'weather',
      'searchNews',
    ]);
  });

  it('reads OpenAI Agents SDK tools, with a warning for strict schemas and hosted tools', async () => {
    const { tools, warnings } = await read(AGENTS_MODULE);
    expect(tools.map((tool) => [tool.name, tool.kind])).toEqual([
      ['lookup_order', 'openai-agents'],
      ['tag_order', 'openai-agents'],
    ]);
    expect(tools[0]!.inputSchema).toMatchObject({
      required: ['order_id', 'include_items'],
      properties: { include_items: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } },
    });
    expect(tools[1]!.inputSchema).toEqual({
      type: 'object',
      properties: {
        order_id: { type: 'string' },
        tags: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['order_id'],
      additionalProperties: true,
    });
    expect(warnings).toEqual([
      {
        code: 'STRICT_SCHEMA_IMPORTED',
        tool: 'lookup_order',
        message:
          '"lookup_order" (export "tools") is an OpenAI Agents SDK tool in strict mode: its parameters are the strict form, where every property is required and optional ones accept null (here: include_items), so models of other providers must send null for them or their calls are refused. Make the optional ones optional again in the group file: remove them from "required" and drop their null type (toolcap\'s OpenAI translation makes them strict again)',
      },
      {
        code: 'ENTRY_SKIPPED',
        tool: 'web_search',
        message:
          '"web_search" in export "tools" is a provider-hosted tool, not a function tool; it was skipped',
      },
    ]);
  });

  it('does not warn for a strict Agents SDK tool whose parameters are all required anyway', async () => {
    const { tools, warnings } = await read(`
import { tool } from '@openai/agents';
import { z } from 'zod';
export const tools = [
  tool({
    name: 'get_order',
    description: 'Get an order by its id.',
    parameters: z.object({ order_id: z.string() }),
    execute: async () => 'ok',
  }),
];
`);
    expect(tools.map((tool) => tool.inputSchema)).toEqual([
      expect.objectContaining({ required: ['order_id'] }),
    ]);
    expect(warnings).toEqual([]);
  });

  it('reads LangChain tools with Zod or JSON Schema', async () => {
    const { tools } = await read(LANGCHAIN_MODULE);
    expect(tools).toEqual([
      {
        name: 'add_numbers',
        description: 'Add two numbers.',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        },
        kind: 'langchain',
        exportName: 'default',
      },
      {
        name: 'translate_text',
        description: 'Translate a text into another language.',
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string' }, language: { type: 'string' } },
          required: ['text', 'language'],
        },
        kind: 'langchain',
        exportName: 'default',
      },
    ]);
  });

  it('reads a LangChain tool without a schema as LangChain describes it: an optional string input', async () => {
    const source = `
import { DynamicTool, tool } from '@langchain/core/tools';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
export const shout = tool(async (text) => String(text).toUpperCase(), {
  name: 'shout',
  description: 'Uppercase a text',
});
export const echo = tool(async (text) => text, { name: 'echo', description: 'Echo.', schema: z.string() });
export const whisper = new DynamicTool({ name: 'whisper', description: 'Lowercase.', func: async (text) => text.toLowerCase() });
export const legacy = tool(async () => 'x', { name: 'legacy', description: 'Zod 3.', schema: z3.object({ q: z3.string() }) });
`;
    const { tools } = await read(source);
    const stringInput = {
      type: 'object',
      properties: { input: { type: 'string' } },
      additionalProperties: false,
    };
    expect(tools.map(({ name, inputSchema, problem }) => ({ name, inputSchema, problem }))).toEqual(
      [
        { name: 'echo', inputSchema: stringInput, problem: undefined },
        {
          name: 'legacy',
          inputSchema: undefined,
          problem:
            'its schema is a Zod schema without JSON Schema output (Zod 3, or Zod 4 before 4.2): use zod 4.2 or later, or give a JSON Schema (the AI SDK: jsonSchema({...}))',
        },
        { name: 'shout', inputSchema: stringInput, problem: undefined },
        { name: 'whisper', inputSchema: stringInput, problem: undefined },
      ],
    );
  });

  it('lists the tools of an MCP SDK McpServer through an in-memory client', async () => {
    const { tools } = await read(MCP_SERVER_MODULE);
    expect(tools).toEqual([
      {
        name: 'get-forecast',
        title: 'Forecast',
        description: 'Get the weather forecast for a city.',
        inputSchema: expect.objectContaining({
          type: 'object',
          properties: {
            city: { type: 'string' },
            days: { type: 'integer', maximum: 7, minimum: expect.any(Number) },
          },
          required: ['city'],
        }),
        annotations: { readOnlyHint: true },
        kind: 'mcp-server',
        exportName: 'server',
      },
      expect.objectContaining({
        name: 'delete-alert',
        annotations: { destructiveHint: true },
        kind: 'mcp-server',
      }),
    ]);
  });

  it('names the export when an MCP server cannot be listed', async () => {
    const source = `${MCP_SERVER_MODULE}
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
await server.connect(InMemoryTransport.createLinkedPair()[1]);
`;
    await expect(read(source)).rejects.toThrowError(
      /^export "server" of tools\.mjs: cannot list the tools of the MCP server: Already connected to a transport\. .*: the module connects the server when it is imported; export the server from a module that does not call connect\(\)$/,
    );
  });

  it('names the export of an MCP server without tools', async () => {
    const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export const server = new McpServer({ name: 'empty', version: '1.0.0' });`;
    await expect(read(source)).rejects.toThrowError(
      'export "server" of tools.mjs: cannot list the tools of the MCP server: MCP error -32601: Method not found',
    );
  });

  it('marks a schema it cannot convert, naming the fix', async () => {
    const source = `
export const tools = {
  legacy: {
    description: 'Uses a Zod 3 schema.',
    inputSchema: { '~standard': { vendor: 'zod', version: 1, validate: () => ({ value: {} }) } },
  },
  untyped: { description: 'A valibot schema without JSON Schema.', inputSchema: { '~standard': { vendor: 'valibot', version: 1 } } },
  broken: { inputSchema: 42 },
};
`;
    const { tools } = await read(source);
    expect(tools.map((tool) => [tool.name, tool.problem])).toEqual([
      [
        'legacy',
        'its schema is a Zod schema without JSON Schema output (Zod 3, or Zod 4 before 4.2): use zod 4.2 or later, or give a JSON Schema (the AI SDK: jsonSchema({...}))',
      ],
      [
        'untyped',
        'its schema is a valibot schema without JSON Schema output; give a JSON Schema instead',
      ],
      ['broken', 'its schema is a number, not a schema object'],
    ]);
  });

  it('reads lone tools, output schemas and lazy schemas; skips provider tools and other exports', async () => {
    const source = `
import { tool as aiTool, jsonSchema } from 'ai';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';

export const calculator = tool(async () => '2', {
  name: 'add_numbers',
  description: 'Add two numbers.',
  schema: z.object({ a: z.number() }),
});
export const config = { retries: 3 };
export const aiTools = {
  getQuote: aiTool({
    description: 'Get a stock quote.',
    inputSchema: () => jsonSchema({ type: 'object', properties: { symbol: { type: 'string' } } }),
    outputSchema: z.object({ price: z.number() }),
  }),
  getChart: aiTool({
    description: 'Get a chart.',
    inputSchema: jsonSchema({ type: 'object', properties: {} }),
    outputSchema: { '~standard': { vendor: 'arktype', version: 1 } },
  }),
  webSearch: { type: 'provider', id: 'openai.web_search', args: {}, inputSchema: jsonSchema({}) },
};
`;
    const { tools, warnings } = await read(source);
    expect(tools).toEqual([
      {
        name: 'getQuote',
        description: 'Get a stock quote.',
        inputSchema: { type: 'object', properties: { symbol: { type: 'string' } } },
        outputSchema: {
          type: 'object',
          properties: { price: { type: 'number' } },
          required: ['price'],
        },
        kind: 'ai-sdk',
        exportName: 'aiTools',
      },
      {
        name: 'getChart',
        description: 'Get a chart.',
        inputSchema: { type: 'object', properties: {} },
        kind: 'ai-sdk',
        exportName: 'aiTools',
      },
      expect.objectContaining({ name: 'add_numbers', kind: 'langchain', exportName: 'calculator' }),
    ]);
    expect(warnings).toEqual([
      {
        code: 'FIELD_DROPPED',
        tool: 'getChart',
        message:
          'the outputSchema of "getChart" (export "aiTools") was left out: its schema is a arktype schema without JSON Schema output; give a JSON Schema instead',
      },
      {
        code: 'ENTRY_SKIPPED',
        tool: 'webSearch',
        message:
          '"webSearch" in export "aiTools" is a provider-hosted tool, not a function tool; it was skipped',
      },
    ]);
  });

  it('marks schemas whose conversion fails or gives no object', async () => {
    const source = `
import { jsonSchema } from 'ai';
import { z } from 'zod';
export const tools = {
  dated: { description: 'x', inputSchema: z.object({ when: z.date() }) },
  numeric: { description: 'x', inputSchema: jsonSchema(42) },
  zod3: { description: 'x', inputSchema: { _def: { typeName: 'ZodObject' }, parse() {} } },
};
`;
    const { tools } = await read(source);
    expect(tools.map((tool) => [tool.name, tool.problem])).toEqual([
      [
        'dated',
        expect.stringMatching(
          /^its schema cannot be converted to JSON Schema: Date cannot be represented/,
        ),
      ],
      ['numeric', 'its JSON Schema is a number, not an object'],
      [
        'zod3',
        'its schema is a Zod schema without JSON Schema output (Zod 3, or Zod 4 before 4.2): use zod 4.2 or later, or give a JSON Schema',
      ],
    ]);
  });

  it('takes arrays of plain tool objects, params lists included', async () => {
    const source = `export default [
  { name: 'legacy_search', description: 'Search.', params: [{ name: 'q', type: 'string', required: true }] },
  { name: 'ping', description: 'Ping.', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
];`;
    const { tools } = await read(source);
    expect(tools).toEqual([
      {
        name: 'legacy_search',
        description: 'Search.',
        inputSchema: {
          type: 'object',
          properties: { q: { type: 'string' } },
          required: ['q'],
        },
        kind: 'object',
        exportName: 'default',
      },
      {
        name: 'ping',
        description: 'Ping.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
        kind: 'object',
        exportName: 'default',
      },
    ]);
  });

  it('explains modules, exports and entries it cannot read', async () => {
    const cases: [string, string | undefined, string][] = [
      [
        'export const answer = 42; export function helper() {}',
        undefined,
        'tools.mjs exports no tools (it exports: answer, helper). Export an AI SDK ToolSet',
      ],
      [
        AI_SDK_MODULE,
        'weather',
        'tools.mjs has no export "weather"; it exports: getWeather, notATool, tools',
      ],
      [AI_SDK_MODULE, 'notATool', 'export "notATool" of tools.mjs holds no tools: it is a number.'],
      [
        `import { tool, jsonSchema } from 'ai';\nexport default [tool({ inputSchema: jsonSchema({ type: 'object' }) })];`,
        undefined,
        'export "default" of tools.mjs: entry 0 is an AI SDK tool, which has no name of its own; export AI SDK tools in an object keyed by name (a ToolSet)',
      ],
      [
        `import { tool, jsonSchema } from 'ai';\nexport default tool({ inputSchema: jsonSchema({ type: 'object' }) });`,
        undefined,
        'export "default" of tools.mjs is an AI SDK tool, which has no name of its own; export it under its name',
      ],
      [
        `export const tools = [{ name: 'a' }, 'b'];`,
        undefined,
        'export "tools" of tools.mjs: entry 1 is not a tool: it is a string',
      ],
      [
        `${LANGCHAIN_MODULE}\nexport const more = [{ name: 'add_numbers', description: 'Again.' }];`,
        undefined,
        'tools.mjs exports two tools named "add_numbers": in export "default" and in export "more"; rename one, or pick one export with --export',
      ],
    ];
    for (const [source, exportName, message] of cases) {
      await expect(read(source, exportName)).rejects.toThrowError(message);
    }
  });

  it('places two tools of one name in one export by entry or key, without --export advice', async () => {
    const lookup = "{ name: 'legacy_lookup', description: 'Look up.', params: [] }";
    await expect(
      read(`export default [${lookup}, { name: 'other', description: 'x' }, ${lookup}];`),
    ).rejects.toMatchObject({
      code: 'MODULE_TOOLS_INVALID',
      message:
        'tools.mjs exports two tools named "legacy_lookup": entries 0 and 2 of export "default"; rename one or remove one',
    });
    const twice = `
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
const make = () => tool(async () => 'ok', { name: 'add_numbers', description: 'Add.', schema: z.object({}) });
export const tools = { first: make(), second: make() };
`;
    await expect(read(twice)).rejects.toMatchObject({
      message:
        'tools.mjs exports two tools named "add_numbers": keys "first" and "second" of export "tools"; rename one or remove one',
    });
  });

  it('names the file it cannot import', async () => {
    const cwd = createModuleProject({});
    await expect(readToolModule('missing.mjs', { cwd })).rejects.toMatchObject({
      code: 'MODULE_TOOLS_INVALID',
      message: expect.stringMatching(/^cannot import missing\.mjs: /),
    });
  });
});
