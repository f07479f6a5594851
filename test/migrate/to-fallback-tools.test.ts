import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { createAiSdkTools, createPrepareStep } from '../../src/entries/ai-sdk.js';
import { importToolList } from '../../src/migrate/import-tool-list.js';
import { toFallbackTools } from '../../src/migrate/to-fallback-tools.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { makeGroup, makeTool } from '../helpers/temp-files.js';
import { AGENTS_MODULE, AI_SDK_MODULE, createModuleProject } from './tool-modules.js';

/** Imports `source`, written as tools.mjs in a project that can import the frameworks. */
async function importSource(
  source: string,
  files: Readonly<Record<string, unknown>> = {},
): Promise<{ dir: string; module: Record<string, unknown> }> {
  const dir = createModuleProject({ 'tools.mjs': source, ...files });
  const module = (await import(pathToFileURL(join(dir, 'tools.mjs')).href)) as Record<
    string,
    unknown
  >;
  return { dir, module };
}

describe('toFallbackTools', () => {
  it('turns an AI SDK ToolSet into fallback tools that loadRegistry takes', async () => {
    const { dir, module } = await importSource(AI_SDK_MODULE, {
      'schemas/news_tools.json': makeGroup('news', { tools: [makeTool({ name: 'searchNews' })] }),
    });
    const fallbackTools = await toFallbackTools(module.tools, { file: 'tools.mjs' });
    expect(fallbackTools).toEqual([
      {
        name: 'weather',
        description: 'Get the current weather for a city.',
        definedIn: { file: 'tools.mjs', pointer: '/weather' },
        inputSchema: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'City name' },
            units: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          },
          required: ['city'],
        },
        execute: expect.any(Function),
      },
      expect.objectContaining({
        name: 'searchNews',
        definedIn: { file: 'tools.mjs', pointer: '/searchNews' },
      }),
    ]);
    const registry = await loadRegistry({ cwd: dir, fallbackTools });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.migrationStatus()).toEqual({
      jsonOnly: [],
      fallbackOnly: ['weather'],
      both: ['searchNews'],
      renamed: [],
    });
    expect(registry.get('weather')).toMatchObject({ source: 'fallback', group: 'fallback' });
  });

  it('reads a module namespace as migrate status --fallback does, placing each tool in its export', async () => {
    const { module } = await importSource(
      `${AI_SDK_MODULE}\nexport default [{ name: 'legacy_search', description: 'Search.', params: [{ name: 'q', type: 'str' }], execute: () => 'found' }];`,
    );
    const fallbackTools = await toFallbackTools(module, { file: 'src/tools.mjs' });
    expect(fallbackTools.map((tool) => [tool.name, tool.definedIn?.pointer])).toEqual([
      ['legacy_search', '/default/0'],
      ['weather', '/tools/weather'],
      ['searchNews', '/tools/searchNews'],
    ]);
    // a plain tool object is taken as it is, its implementation included
    expect(fallbackTools[0]).toMatchObject({ params: [{ name: 'q', type: 'str' }] });
    const registry = createRegistry({ fallbackTools });
    expect(await registry.execute('legacy_search', { q: 'x' })).toEqual({
      ok: true,
      output: 'found',
    });
  });

  it('takes an array of framework tools, and names <fallback> without a file', async () => {
    const { module } = await importSource(AGENTS_MODULE);
    const fallbackTools = await toFallbackTools(module.tools);
    expect(fallbackTools.map((tool) => [tool.name, tool.definedIn])).toEqual([
      ['lookup_order', { file: '<fallback>', pointer: '/0' }],
      ['tag_order', { file: '<fallback>', pointer: '/1' }],
    ]);
  });

  it('takes one plain tool object as a list of one', async () => {
    const tool = { name: 'legacy_lookup', description: 'Look up.', params: [] };
    expect(await toFallbackTools(tool)).toEqual([
      { ...tool, definedIn: { file: '<fallback>', pointer: '' } },
    ]);
  });

  it('refuses an unknown or mistyped option', async () => {
    const tool = { name: 'legacy_lookup', description: 'Look up.', params: [] };
    await expect(toFallbackTools(tool, { fiel: 'x.mjs' } as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringMatching(
        /^toFallbackTools: unknown option "fiel"; did you mean "file"\?/,
      ),
    });
    await expect(toFallbackTools(tool, { file: 3 } as never)).rejects.toThrow(
      /^toFallbackTools: option "file" must be/,
    );
  });

  it('keeps a tool whose schema has no JSON Schema form, for the registry to report', async () => {
    const { module } = await importSource(`
import { tool } from 'ai';
import { z } from 'zod';
export const tools = {
  addNote: tool({ description: 'Add a note.', inputSchema: z.object({ text: z.string() }) }),
  dueDate: tool({ description: 'Set a due date.', inputSchema: z.object({ when: z.date() }) }),
};
`);
    const fallbackTools = await toFallbackTools(module, { file: 'src/ai_tools.mjs' });
    expect(fallbackTools[1]).toEqual({
      name: 'dueDate',
      description: 'Set a due date.',
      definedIn: { file: 'src/ai_tools.mjs', pointer: '/tools/dueDate' },
      problem:
        'its schema cannot be converted to JSON Schema: Date cannot be represented in JSON Schema; describe the date as a string: z.iso.datetime() (or z.iso.date()), or z.string() with a format, and make a Date from it in execute',
    });
    const registry = createRegistry({ fallbackTools });
    expect(registry.list().map((tool) => tool.name)).toEqual(['addNote']);
    expect(registry.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'INVALID_FALLBACK_TOOL',
        file: 'src/ai_tools.mjs',
        pointer: '/tools/dueDate',
        message: `fallback tool "dueDate": ${fallbackTools[1]?.problem}`,
      },
    ]);
  });

  it('reads z.any() and z.unknown() as any JSON, so calls that work in code still validate', async () => {
    const { module } = await importSource(`
import { tool } from 'ai';
import { z } from 'zod';
export const tools = {
  logEvent: tool({
    description: 'Log an event.',
    inputSchema: z.object({
      name: z.string(),
      meta: z.any(),
      extra: z.unknown().optional(),
      count: z.number().int(),
      channel: z.string().startsWith('#'),
    }),
    execute: async (input) => input,
  }),
};
`);
    const fallbackTools = await toFallbackTools(module, { file: 'src/ai_tools.mjs' });
    const registry = createRegistry({
      fallbackTools: fallbackTools.map((tool) => ({
        ...tool,
        execute: (input: Record<string, unknown>) => input,
      })),
    });
    // read silently: the code is not changed, so there is nothing to report
    expect(registry.diagnostics).toEqual([]);
    expect(registry.get('logEvent')?.input_schema.properties).toEqual({
      name: { type: 'string' },
      meta: {
        type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
        items: { allOf: [{}] },
      },
      extra: {
        type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
        items: { allOf: [{}] },
      },
      count: { type: 'integer' },
      channel: { type: 'string', pattern: '^#.*' },
    });
    for (const meta of [{ source: 'crm' }, [[1], 'a'], 3, null]) {
      const input = { name: 'signup', meta, extra: { deep: [true] }, count: 1, channel: '#x' };
      expect(await registry.execute('logEvent', input)).toEqual({ ok: true, output: input });
    }
  });

  it('explains a value that holds no tools, or an entry that is not a tool', async () => {
    await expect(toFallbackTools(42)).rejects.toMatchObject({
      code: 'FALLBACK_MODULE_INVALID',
      message: expect.stringMatching(
        /^<fallback> holds no tools: it is a number\. Export an AI SDK ToolSet/,
      ),
    });
    await expect(toFallbackTools({ answer: 42 }, { file: 'src/tools.js' })).rejects.toMatchObject({
      message: expect.stringMatching(
        /^src\/tools\.js holds no tools: it is an object that is not a tool\. /,
      ),
    });
    await expect(toFallbackTools([{ name: 'ok', description: 'x' }, 'b'])).rejects.toMatchObject({
      message:
        "<fallback>: entry 1 is not a tool: it is a string; make it a tool object ({ name, description, inputSchema }) or a framework's tool, or remove it",
    });
    const { module } = await importSource('export const answer = 42;');
    await expect(toFallbackTools(module, { file: 'tools.mjs' })).rejects.toMatchObject({
      message: expect.stringMatching(/^tools\.mjs exports no tools \(it exports: answer\)\. /),
    });
  });
});

describe('framework tools run outside their framework', () => {
  it('runs an AI SDK tool with its own execute, parsed by its schema as the AI SDK does', async () => {
    const { dir, module } = await importSource(`
import { tool } from 'ai';
import { z } from 'zod';
export const seen = [];
export const tools = {
  createTicket: tool({
    description: 'Open a support ticket.',
    inputSchema: z.object({
      title: z.string().min(3),
      priority: z.enum(['low', 'normal', 'high']).default('normal'),
      code: z.string().refine((text) => text === text.toUpperCase(), 'must be upper case').optional(),
    }),
    execute: async (input, options) => {
      seen.push({ input, options });
      return { id: 'T-1', ...input };
    },
  }),
  countdown: tool({
    description: 'Count down, reporting each step.',
    inputSchema: z.object({ from: z.number().int() }),
    execute: async function* ({ from }) {
      for (let step = from; step >= 0; step--) yield { left: step };
    },
  }),
};
`);
    const fallbackTools = await toFallbackTools(module.tools, { file: 'src/agent/tools.mjs' });
    const registry = await loadRegistry({ cwd: dir, fallbackTools });
    expect(await registry.execute('createTicket', { title: 'Printer on fire' })).toEqual({
      ok: true,
      output: { id: 'T-1', title: 'Printer on fire', priority: 'normal' },
    });
    const [first] = module.seen as { options: Record<string, unknown> }[];
    expect(first?.options).toEqual({
      toolCallId: expect.stringMatching(/^toolcap-[0-9a-f-]{36}$/),
      messages: [],
      abortSignal: expect.any(AbortSignal),
      experimental_context: {},
    });
    // a streaming execute gives its last value, as the AI SDK's final tool result
    expect(await registry.execute('countdown', { from: 2 })).toEqual({
      ok: true,
      output: { left: 0 },
    });
    // a Zod refinement JSON Schema cannot express is still checked, and named for the model
    expect(await registry.execute('createTicket', { title: 'Fire', code: 'abc' })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message:
          'Invalid input for tool "createTicket": /code: must be upper case. Fix these arguments and call the tool again.',
        details: [{ pointer: '/code', message: '/code: must be upper case', keyword: 'schema' }],
      },
    });
    // the plain provider loop runs the tools that have not moved yet
    const { results } = await registry.executeToolCalls('anthropic', {
      content: [{ type: 'tool_use', id: 'call_1', name: 'countdown', input: { from: 1 } }],
    });
    expect(results).toEqual([{ id: 'call_1', name: 'countdown', ok: true, output: { left: 0 } }]);
  });

  it('loads a LangChain tool without a schema, which still runs in LangChain', async () => {
    const { module } = await importSource(`
import { tool } from '@langchain/core/tools';
export const tools = [tool(async (text) => String(text).toUpperCase(), { name: 'shout', description: 'Uppercase a text' })];
`);
    const registry = createRegistry({
      fallbackTools: await toFallbackTools(module, { file: 'lc_tools.mjs' }),
    });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.migrationStatus().fallbackOnly).toEqual(['shout']);
    expect(registry.get('shout')?.input_schema).toEqual({
      type: 'object',
      properties: { input: { type: 'string' } },
      additionalProperties: false,
    });
    expect(await registry.execute('shout', { input: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'HANDLER_NOT_FOUND' },
    });
  });

  it('says a tool with no execute is defined in code with nothing toolcap can call, and what to do', async () => {
    const { dir, module } = await importSource(AI_SDK_MODULE);
    const fallbackTools = await toFallbackTools(module.tools, { file: 'src/agent/tools.mjs' });
    const registry = await loadRegistry({ cwd: dir, fallbackTools });
    expect(registry.get('searchNews')?.definedIn).toEqual({
      file: 'src/agent/tools.mjs',
      pointer: '/searchNews',
    });
    const asked: string[] = [];
    const result = await registry.execute(
      'searchNews',
      { query: 'Oslo' },
      {},
      { approve: (call) => asked.push(call.name) > 0 },
    );
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'HANDLER_NOT_FOUND',
        message:
          'Tool "searchNews" is defined in code (src/agent/tools.mjs) and has no implementation toolcap can call: its fallback tool has no execute function, and there is no handler module "fallback". toFallbackTools keeps the execute of AI SDK tools only; an AI SDK tool without one, and LangChain, Agents SDK and MCP server tools, run in their framework. Give the fallback tool an execute(input, context, options) function, or give handlerModules a "fallback" module.',
        details: {
          executor: 'fallback',
          searched: ['handlers'],
          defined_in: 'src/agent/tools.mjs',
        },
      },
    });
    // a news search reads: it is not gated as a mutation
    expect(asked).toEqual([]);
    expect(await registry.execute('weather', { city: 'Oslo' })).toEqual({
      ok: true,
      output: { city: 'Oslo', temperature: 21 },
    });
  });

  it('infers categories as import does, unless the tool gives one', async () => {
    const registry = createRegistry({
      fallbackTools: [
        { name: 'get_weather', description: 'The weather in a city.' },
        { name: 'weather', description: 'Fetches the weather in a city.' },
        { name: 'area', description: 'Calculates the area of a shape.' },
        { name: 'ticket', description: 'A ticket for the help desk.' },
        { name: 'get_token', description: 'Rotates the API token.', category: 'mutation' },
      ],
    });
    expect(registry.list().map((tool) => [tool.name, tool.category])).toEqual([
      ['get_weather', 'retrieval'],
      ['weather', 'retrieval'],
      ['area', 'analysis'],
      ['ticket', 'mutation'],
      ['get_token', 'mutation'],
    ]);
    // the categories toolcap import gives the tools that name none
    const imported = importToolList(
      registry
        .list()
        .filter((tool) => tool.name !== 'get_token')
        .map(({ name, description, input_schema }) => ({
          name,
          description,
          inputSchema: input_schema,
        })),
      { from: 'mcp', group: 'misc' },
    );
    expect(imported.categories.map(({ tool, category }) => [tool, category])).toEqual(
      registry
        .list()
        .slice(0, 4)
        .map((tool) => [tool.name, tool.category]),
    );
  });
});

describe('the registry and the code tools together (docs/guide/migration.md)', () => {
  it('gives the AI SDK each tool once: the JSON one for migrated and renamed tools, the code one for the rest', async () => {
    const { dir, module } = await importSource(
      `
import { jsonSchema, tool } from 'ai';
import { z } from 'zod';
const input = jsonSchema({ type: 'object', properties: {} });
export const tools = {
  'close-ticket': tool({ description: 'Close a ticket.', inputSchema: input }),
  'émoji_résumé': tool({ description: 'Summarize with emoji.', inputSchema: input }),
  add_note: tool({ description: 'Add a note.', inputSchema: input }),
  legacy_lookup: tool({ description: 'Look up.', inputSchema: input, execute: async () => 'code' }),
  dueDate: tool({ description: 'Set a due date.', inputSchema: z.object({ when: z.date() }) }),
};
`,
      {
        'schemas/support_tools.json': makeGroup('support', {
          tools: [
            makeTool({ name: 'close_ticket', 'x-original-name': 'close-ticket' }),
            makeTool({ name: 'emoji_resume', 'x-original-name': 'émoji_résumé' }),
            makeTool({ name: 'add_note' }),
          ],
        }),
      },
    );
    const codeTools = module.tools as ToolSet;
    // the snippet of the guide, as written there
    const registry = await loadRegistry({
      cwd: dir,
      fallbackTools: await toFallbackTools(codeTools, { file: 'src/agent/tools.js' }),
    });
    const { both, renamed } = registry.migrationStatus();
    const migrated = new Set([...both, ...renamed.map((tool) => tool.from)]);
    const stillInCode = Object.fromEntries(
      Object.entries(codeTools).filter(([name]) => !migrated.has(name)),
    );
    const tools = { ...createAiSdkTools(registry), ...stillInCode };
    const prepareStep = createPrepareStep(registry, { alwaysActive: Object.keys(stillInCode) });

    expect(renamed).toEqual([
      { from: 'close-ticket', to: 'close_ticket' },
      { from: 'émoji_résumé', to: 'emoji_resume' },
    ]);
    expect(Object.keys(tools).sort()).toEqual([
      'add_note',
      'close_ticket',
      'dueDate',
      'emoji_resume',
      'legacy_lookup',
    ]);
    expect(tools.legacy_lookup).toBe(codeTools.legacy_lookup);
    expect(tools.close_ticket).not.toBe(codeTools['close-ticket']);
    const step = prepareStep({
      stepNumber: 0,
      experimental_context: undefined,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(step.activeTools).toEqual(expect.arrayContaining(['legacy_lookup', 'dueDate']));
    // the pitfall the guide warns about: both copies of a renamed tool
    expect(Object.keys({ ...codeTools, ...createAiSdkTools(registry) })).toEqual(
      expect.arrayContaining(['close-ticket', 'close_ticket']),
    );
  });
});

describe('the fallbackTools option', () => {
  it('names the shapes it takes and toFallbackTools when given a ToolSet', async () => {
    const { module } = await importSource(AI_SDK_MODULE);
    const expected = {
      code: 'INVALID_OPTION',
      message:
        'loadRegistry: option "fallbackTools" is an object, not an array: it takes tool objects ({ name, description, inputSchema | input_schema | parameters | params }, see FallbackTool). For an AI SDK ToolSet, OpenAI Agents SDK or LangChain tools, an MCP SDK server or a whole module, convert them with toFallbackTools from "tool-capabilities/migrate": fallbackTools: await toFallbackTools(tools)',
    };
    await expect(
      loadRegistry({ fallbackTools: module.tools as never, dirs: [] }),
    ).rejects.toMatchObject(expected);
  });
});
