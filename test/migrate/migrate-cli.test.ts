import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFallbackModule } from '../../src/migrate/load-fallback-module.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { reportMigration } from '../../src/toolcap/migration-report.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { createModuleProject } from './tool-modules.js';

const CODE_TOOLS = `
export const tools = [
  { name: 'shared_tool', description: 'Also in JSON.', params: [] },
  {
    name: 'legacy_search',
    description: 'Still only in code.',
    params: [{ name: 'query', type: 'string', description: 'Text', required: true }],
  },
  { name: 'broken_tool', description: 'Invalid params.', params: [{ name: 'x', type: 'widget' }] },
];
`;

/** Values with no "type": `z.any()`, a bare `minimum`, an enum of numbers and strings. */
const UNTYPED_VALUES_MODULE = `
import { tool } from 'ai';
import { z } from 'zod';

export const tools = {
  lookup: tool({
    description: 'Look a value up.',
    inputSchema: z.object({ q: z.string(), anyv: z.any() }),
  }),
};

export default [
  {
    name: 'count_items',
    description: 'Count items.',
    inputSchema: {
      type: 'object',
      properties: { count: { minimum: 0 }, mode: { enum: [1, 2, 'auto'] } },
    },
  },
];
`;

function project(module = CODE_TOOLS, file = 'legacy.mjs'): string {
  return createTempDir({
    'schemas/json_tools.json': makeGroup('json', {
      tools: [makeTool({ name: 'json_only_tool' }), makeTool({ name: 'shared_tool' })],
    }),
    [file]: module,
  });
}

describe('toolcap migrate status', () => {
  it('--json prints json_only, fallback_only and both (invalid code tools count as fallback-only)', async () => {
    const dir = project();
    const result = await runCli(['migrate', 'status', '--fallback', 'legacy.mjs', '--json'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    const report = result.json() as Record<string, unknown>;
    expect(report).toMatchObject({
      json_only: ['json_only_tool'],
      fallback_only: ['broken_tool', 'legacy_search'],
      both: ['shared_tool'],
    });
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        code: 'INVALID_FALLBACK_TOOL',
        file: 'legacy.mjs',
        pointer: '/tools/2/input_schema/properties/x/type',
        message: expect.stringContaining('fallback tool "broken_tool"'),
      }),
    ]);
  });

  it('prints three sections for humans, with problems on stderr', async () => {
    const dir = project();
    const result = await runCli(
      ['migrate', 'status', '--schemas', 'schemas', '--fallback', 'legacy.mjs'],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'JSON only (migrated): 1',
        '  json_only_tool',
        'Fallback only (still to migrate): 2',
        '  broken_tool',
        '  legacy_search',
        'Both (JSON wins; safe to delete from code): 1',
        '  shared_tool',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toContain('error INVALID_FALLBACK_TOOL');
  });

  it('accepts a default export array or a default export { tools }', async () => {
    for (const source of [
      "export default [{ name: 'shared_tool', description: 'x' }];",
      "export default { tools: [{ name: 'shared_tool', description: 'x' }] };",
    ]) {
      const dir = project(source);
      const result = await runCli(['migrate', 'status', '--fallback', 'legacy.mjs', '--json'], {
        cwd: dir,
      });
      expect(result.json()).toMatchObject({
        json_only: ['json_only_tool'],
        fallback_only: [],
        both: ['shared_tool'],
      });
    }
  });

  it('exits 2 when the module exports no tool array or cannot be imported', async () => {
    const dir = project('export const other = 1;');
    const result = await runCli(['migrate', 'status', '--fallback', 'legacy.mjs'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--fallback legacy.mjs exports no tools (it exports: other). Export an AI SDK ToolSet ({ name: tool({...}) }), OpenAI Agents SDK or LangChain tools (one, or an array), an MCP SDK McpServer, or an array of tool objects ({ name, description, inputSchema })',
    );
    const missing = await runCli(['migrate', 'status', '--fallback', 'nope.mjs'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--fallback cannot import nope.mjs');
  });

  it('names the fix when --fallback is a JSON tool list or a Python file, not a module', async () => {
    const dir = createTempDir({
      'tools.json': { tools: [{ type: 'function', function: { name: 'get_x', parameters: {} } }] },
      'tools.py': 'def get_x():\n    pass\n',
    });
    const json = await runCli(['migrate', 'status', '--fallback', 'tools.json'], { cwd: dir });
    expect(json.code).toBe(2);
    expect(json.stderr).toContain(
      'toolcap: --fallback tools.json is a JSON file, not a JavaScript module: the fallback is the module (.js, .mjs, .ts) that defines your tools in code, the one your agent imports them from. A JSON tool list is not code: move its tools into a group file with toolcap import --from FORMAT tools.json --group NAME (FORMAT: openai, openai-responses, anthropic, google, bedrock, mcp, canonical or params), or export them from a module (export default [...])\n',
    );
    const python = await runCli(['migrate', 'status', '--fallback', 'tools.py'], { cwd: dir });
    expect(python.code).toBe(2);
    expect(python.stderr).toContain(
      'toolcap: --fallback tools.py is a Python file: toolcap loads JavaScript modules only, so it cannot read tools defined in Python. Export them to JSON from Python, then run toolcap import on that file: with --from openai',
    );
    expect(python.stderr).not.toContain('Unknown file extension');
  });

  it("matches a code tool that import renamed through the group file's x-original-name", async () => {
    const module = `
import { jsonSchema, tool } from 'ai';
const input = jsonSchema({ type: 'object', properties: { to: { type: 'string' } }, required: ['to'] });
export const tools = {
  'send-email': tool({ description: 'Send an email to a recipient.', inputSchema: input }),
};
`;
    const dir = createModuleProject({ 'tools.mjs': module });
    const imported = await runCli(
      ['import', '--from', 'module', 'tools.mjs', '--group', 'assistant'],
      { cwd: dir },
    );
    expect(imported.code).toBe(0);
    // the code as it is now: the imported tools and one added since, still to migrate
    writeFileSync(
      join(dir, 'code.mjs'),
      `import { jsonSchema, tool } from 'ai';
export * from './tools.mjs';
export const more = { legacy_lookup: tool({ description: 'Look up.', inputSchema: jsonSchema({ type: 'object', properties: {} }) }) };
`,
    );
    const json = await runCli(['migrate', 'status', '--fallback', 'code.mjs', '--json'], {
      cwd: dir,
    });
    expect(json.code).toBe(0);
    expect(json.json()).toEqual({
      json_only: [],
      fallback_only: ['legacy_lookup'],
      both: ['send_email'],
      diagnostics: [],
    });
    const human = await runCli(['migrate', 'status', '--fallback', 'code.mjs'], { cwd: dir });
    expect(human.stderr).toBe('');
    expect(human.stdout).toBe(
      [
        'JSON only (migrated): 0',
        'Fallback only (still to migrate): 1',
        '  legacy_lookup',
        'Both (JSON wins; safe to delete from code): 1',
        '  send_email',
        '',
      ].join('\n'),
    );
  });

  it('reads every export of the module, as import --from module does, not only a default array', async () => {
    const module = `
import { jsonSchema, tool } from 'ai';
const input = jsonSchema({ type: 'object', properties: { path: { type: 'string' } } });
export const tools = {
  getWeather: tool({ description: 'Get the weather for a city.', inputSchema: input }),
  deleteFile: tool({ description: 'Delete a file.', inputSchema: input }),
  summarize: tool({ description: 'Summarize a text.', inputSchema: input }),
};
export default [{ name: 'legacy_search', description: 'Search the old index.', params: [] }];
`;
    const dir = createModuleProject({
      'tools.mjs': module,
      'schemas/assistant_tools.json': makeGroup('assistant', {
        tools: ['getWeather', 'deleteFile', 'summarize'].map((name) => makeTool({ name })),
      }),
    });
    const imported = await runCli(
      ['import', '--from', 'module', 'tools.mjs', '--group', 'code', '--out', 'imported', '--json'],
      { cwd: dir },
    );
    expect(imported.json()).toMatchObject({ tools: 4 });
    const status = await runCli(['migrate', 'status', '--fallback', 'tools.mjs', '--json'], {
      cwd: dir,
    });
    expect(status.code).toBe(0);
    expect(status.json()).toEqual({
      json_only: [],
      fallback_only: ['legacy_search'],
      both: ['deleteFile', 'getWeather', 'summarize'],
      diagnostics: [],
    });
  });

  it('reports two plain code tools of one name as DUPLICATE_TOOL, and an entry that is no tool by its export', async () => {
    const twice = project(
      "export const tools = [{ name: 'code_tool', description: 'x' }, { name: 'code_tool', description: 'y' }];",
    );
    const duplicate = await runCli(['migrate', 'status', '--fallback', 'legacy.mjs', '--json'], {
      cwd: twice,
    });
    expect(duplicate.code).toBe(0);
    expect(duplicate.json()).toMatchObject({
      fallback_only: ['code_tool'],
      diagnostics: [
        {
          code: 'DUPLICATE_TOOL',
          file: 'legacy.mjs',
          pointer: '/tools/1',
          message: 'fallback tool "code_tool" is given twice; remove one',
        },
      ],
    });
    const nameless = project("export const tools = [{ description: 'no name' }];");
    const result = await runCli(['migrate', 'status', '--fallback', 'legacy.mjs'], {
      cwd: nameless,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--fallback export "tools" of legacy.mjs: entry 0 is not a tool: it is an object that is not a tool; make it a tool object ({ name, description, inputSchema }) or a framework\'s tool, or remove it',
    );
  });

  it('converts param-list type names as import --from module does, so the tool is not lost', async () => {
    const dir = project(`export default [{
  name: 'legacy_params',
  description: 'Param-list tool.',
  params: [{ name: 'q', type: 'str', required: true }, { name: 'n', type: 'int' }],
}];`);
    const imported = await runCli(
      ['import', '--from', 'module', 'legacy.mjs', '--group', 'legacy', '--out', 'out', '--json'],
      { cwd: dir },
    );
    expect(imported.code).toBe(0);
    expect(imported.json()).toMatchObject({
      warnings: [
        {
          code: 'TYPE_CONVERTED',
          tool: 'legacy_params',
          message:
            'type "str" is not a JSON Schema type; it became "string" (at /properties/q/type)',
        },
        {
          code: 'TYPE_CONVERTED',
          tool: 'legacy_params',
          message:
            'type "int" is not a JSON Schema type; it became "integer" (at /properties/n/type)',
        },
      ],
    });
    const status = await runCli(['migrate', 'status', '--fallback', 'legacy.mjs', '--json'], {
      cwd: dir,
    });
    expect(status.code).toBe(0);
    expect(status.json()).toEqual({
      json_only: ['json_only_tool', 'shared_tool'],
      fallback_only: ['legacy_params'],
      both: [],
      diagnostics: [],
    });
  });

  it('exits 2 without --fallback or with an unknown subcommand', async () => {
    const noModule = await runCli(['migrate', 'status']);
    expect(noModule.code).toBe(2);
    expect(noModule.stderr).toContain('--fallback MODULE is required');
    const wrong = await runCli(['migrate', 'start', '--fallback', 'x.mjs']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('unknown subcommand "migrate start"');
  });

  it('reportMigration works without the CLI', async () => {
    const dir = project();
    const report = await reportMigration(
      [
        { name: 'shared_tool', description: 'x' },
        { name: 'code_tool', description: 'y' },
      ],
      { dirs: ['schemas'], cwd: dir },
    );
    expect(report).toEqual({
      json_only: ['json_only_tool'],
      fallback_only: ['code_tool'],
      both: ['shared_tool'],
      diagnostics: [],
    });
  });

  it('loads code tools with untyped values as toolcap import writes them, without diagnostics', async () => {
    const dir = createModuleProject({
      'tools.mjs': UNTYPED_VALUES_MODULE,
      'schemas/other_tools.json': makeGroup('other', { tools: [makeTool({ name: 'other_tool' })] }),
    });
    const before = await runCli(
      ['migrate', 'status', '--schemas', 'schemas', '--fallback', 'tools.mjs', '--json'],
      { cwd: dir },
    );
    expect(before.stderr).toBe('');
    expect(before.code).toBe(0);
    expect(before.json()).toEqual({
      json_only: ['other_tool'],
      fallback_only: ['count_items', 'lookup'],
      both: [],
      diagnostics: [],
    });

    const imported = await runCli(['import', '--from', 'module', 'tools.mjs', '--group', 'code'], {
      cwd: dir,
    });
    expect(imported.code).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'schemas/code_tools.json'), 'utf8')) as {
      tools: { name: string; input_schema: unknown }[];
    };
    // the registry loads the code tools with the schemas import writes
    const registry = await loadRegistry({
      dirs: ['schemas/other_tools.json'],
      cwd: dir,
      fallbackTools: await loadFallbackModule('tools.mjs', dir),
    });
    expect(registry.diagnostics).toEqual([]);
    for (const tool of written.tools) {
      expect(registry.get(tool.name)?.input_schema).toEqual(tool.input_schema);
    }
    expect(registry.get('count_items')?.input_schema).toMatchObject({
      properties: {
        count: { type: 'number', minimum: 0 },
        mode: { type: ['integer', 'string'], enum: [1, 2, 'auto'] },
      },
    });
    // z.any() accepts every JSON value, in code and in the file
    expect(registry.get('lookup')?.input_schema).toMatchObject({
      properties: {
        anyv: {
          type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
          items: { allOf: [{}] },
        },
      },
    });

    const after = await runCli(['migrate', 'status', '--fallback', 'tools.mjs', '--json'], {
      cwd: dir,
    });
    expect(after.json()).toMatchObject({ fallback_only: [], both: ['count_items', 'lookup'] });
  });
});
