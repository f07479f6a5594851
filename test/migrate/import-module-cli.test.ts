import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { makeGroup, makeTool } from '../helpers/temp-files.js';
import {
  AGENTS_MODULE,
  AI_SDK_MODULE,
  createModuleProject,
  LANGCHAIN_MODULE,
  MCP_SERVER_MODULE,
} from './tool-modules.js';

const ROOT = join(import.meta.dirname, '../..');
const built = existsSync(join(ROOT, 'dist/cli/toolcap.mjs'));

function readGroup(dir: string, group: string): { tools: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(join(dir, `schemas/${group}_tools.json`), 'utf8')) as {
    tools: Record<string, unknown>[];
  };
}

async function importModule(source: string, args: readonly string[] = [], file = 'tools.mjs') {
  const dir = createModuleProject({ [file]: source });
  const result = await runCli(['import', '--from', 'module', file, '--group', 'code', ...args], {
    cwd: dir,
  });
  return { dir, result };
}

describe('toolcap import --from module', () => {
  it('writes the tools of an AI SDK ToolSet as a group that passes toolcap validate', async () => {
    const { dir, result } = await importModule(AI_SDK_MODULE, ['--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ file: 'schemas/code_tools.json', tools: 2 });
    expect(readGroup(dir, 'code')).toMatchObject({
      description: 'Tools imported from tools.mjs (module).',
      tools: [
        {
          name: 'weather',
          description: 'Get the current weather for a city.',
          input_schema: {
            type: 'object',
            properties: {
              city: { type: 'string', description: 'City name' },
              units: { type: 'string', enum: ['celsius', 'fahrenheit'] },
            },
            required: ['city'],
          },
          metadata: { executor: 'code' },
        },
        { name: 'searchNews', category: 'analysis' },
      ],
    });
    const validate = await runCli(['validate'], { cwd: dir });
    expect(validate.stdout).toBe('1 group(s), 2 tool(s): 0 error(s), 0 warning(s)\n');
  });

  it('--export reads one export', async () => {
    const { dir, result } = await importModule(AI_SDK_MODULE, ['--export', 'getWeather']);
    expect(result.code).toBe(0);
    expect(readGroup(dir, 'code').tools.map((tool) => tool.name)).toEqual(['getWeather']);
  });

  it('imports OpenAI Agents SDK tools, reporting the strict schema and the hosted tool', async () => {
    const { dir, result } = await importModule(AGENTS_MODULE);
    expect(result.code).toBe(0);
    expect(readGroup(dir, 'code').tools.map((tool) => [tool.name, tool.category])).toEqual([
      ['lookup_order', 'retrieval'],
      ['tag_order', 'creation'],
    ]);
    expect(result.stdout).toContain(
      'STRICT_SCHEMA_IMPORTED lookup_order: "lookup_order" (export "tools") is an OpenAI Agents SDK tool in strict mode',
    );
    expect(result.stdout).toContain('ENTRY_SKIPPED web_search: "web_search" in export "tools"');
  });

  it('imports LangChain tools', async () => {
    const { dir, result } = await importModule(LANGCHAIN_MODULE);
    expect(result.code).toBe(0);
    expect(readGroup(dir, 'code').tools.map((tool) => tool.name)).toEqual([
      'add_numbers',
      'translate_text',
    ]);
  });

  it('imports the tools an MCP server lists, names and hints converted', async () => {
    const { dir, result } = await importModule(MCP_SERVER_MODULE);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  get-forecast -> get_forecast\n');
    expect(readGroup(dir, 'code').tools).toEqual([
      expect.objectContaining({
        name: 'get_forecast',
        title: 'Forecast',
        category: 'retrieval',
        'x-original-name': 'get-forecast',
      }),
      expect.objectContaining({ name: 'delete_alert', category: 'mutation' }),
    ]);
  });

  it('leaves out a tool whose schema it cannot convert, naming the export and the tool', async () => {
    const source = `${AI_SDK_MODULE}
export const legacy = {
  oldSearch: { description: 'Search.', inputSchema: { '~standard': { vendor: 'zod', version: 1 } } },
};`;
    const { dir, result } = await importModule(source);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'TOOL_SKIPPED oldSearch: tool "oldSearch" (export "legacy" of tools.mjs) was left out: its schema is a Zod schema without JSON Schema output (Zod 3, or Zod 4 before 4.2): use zod 4.2 or later',
    );
    expect(readGroup(dir, 'code').tools.map((tool) => tool.name)).toEqual([
      'weather',
      'searchNews',
    ]);
  });

  it('reads a TypeScript module where the runtime runs TypeScript', async () => {
    const source = `import { tool, jsonSchema } from 'ai';
const schema: Parameters<typeof jsonSchema>[0] = { type: 'object', properties: { id: { type: 'string' } } };
export const tools = { getInvoice: tool({ description: 'Get an invoice.', inputSchema: jsonSchema(schema) }) };
`;
    const { dir, result } = await importModule(source, [], 'tools.ts');
    expect(result.code).toBe(0);
    expect(readGroup(dir, 'code').tools.map((tool) => tool.name)).toEqual(['getInvoice']);
  });

  it.runIf(built && Number(process.versions.node.split('.')[0]) < 22)(
    'explains how to run a TypeScript module where Node does not',
    () => {
      const dir = createModuleProject({ 'tools.ts': 'export const tools: unknown[] = [];\n' });
      const child = spawnSync(
        process.execPath,
        [
          join(ROOT, 'dist/cli/toolcap.mjs'),
          'import',
          '--from',
          'module',
          'tools.ts',
          '--group',
          'g',
        ],
        { cwd: dir, encoding: 'utf8', timeout: 60_000 },
      );
      expect(child.status).toBe(1);
      expect(child.stderr).toContain(
        `toolcap: cannot import tools.ts: this Node.js (${process.version}) does not run TypeScript. Run toolcap with Node 22.6 or later and --experimental-strip-types`,
      );
    },
  );

  it('fails without writing for a module with no tools, and --export needs --from module', async () => {
    const { dir, result } = await importModule('export const answer = 42;');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('toolcap: tools.mjs exports no tools (it exports: answer).');
    expect(existsSync(join(dir, 'schemas'))).toBe(false);
    const usage = await runCli([
      'import',
      '--from',
      'mcp',
      'x.json',
      '--group',
      'g',
      '--export',
      'x',
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--export NAME only applies to --from module');
  });
});

describe('toolcap migrate status --fallback with framework tools', () => {
  it('reports the tools of the module an agent runs on as fallback tools', async () => {
    const dir = createModuleProject({
      'agent-tools.mjs': AI_SDK_MODULE,
      'schemas/weather_tools.json': makeGroup('weather', {
        tools: [makeTool({ name: 'weather' }), makeTool({ name: 'forecast' })],
      }),
    });
    const result = await runCli(['migrate', 'status', '--fallback', 'agent-tools.mjs', '--json'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({
      json_only: ['forecast'],
      fallback_only: ['searchNews'],
      both: ['weather'],
      diagnostics: [],
    });
  });

  it('accepts MCP servers, Agents SDK and LangChain tools', async () => {
    for (const source of [MCP_SERVER_MODULE, AGENTS_MODULE, LANGCHAIN_MODULE]) {
      const dir = createModuleProject({ 'legacy.mjs': source, 'schemas/.keep': '' });
      const result = await runCli(['migrate', 'status', '--fallback', 'legacy.mjs', '--json'], {
        cwd: dir,
      });
      expect(result.code).toBe(0);
      expect((result.json() as { fallback_only: string[] }).fallback_only.length).toBe(2);
    }
  });

  it('reports a tool whose schema it cannot read by itself and still reports the others', async () => {
    const dir = createModuleProject({
      'legacy.mjs': `export const tools = { oldSearch: { inputSchema: { '~standard': { vendor: 'zod', version: 1 } } } };
export default [{ name: 'legacy_lookup', description: 'Look up.', params: [] }];`,
      'schemas/.keep': '',
    });
    const result = await runCli(['migrate', 'status', '--fallback', 'legacy.mjs'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'legacy.mjs: error INVALID_FALLBACK_TOOL fallback tool "oldSearch": its schema is a Zod schema without JSON Schema output (Zod 3, or Zod 4 before 4.2): use zod 4.2 or later, or give a JSON Schema (the AI SDK: jsonSchema({...})) (at /tools/oldSearch)\n',
    );
    expect(result.stdout).toContain(
      'Fallback only (still to migrate): 2\n  legacy_lookup\n  oldSearch\n',
    );
  });

  it('names the fix for a z.date() tool, in import and in migrate status, and keeps the rest', async () => {
    const source = `
import { tool } from 'ai';
import { z } from 'zod';
export const tools = {
  addNote: tool({ description: 'Add a note to a ticket.', inputSchema: z.object({ text: z.string() }) }),
  dueDate: tool({ description: 'Set a due date.', inputSchema: z.object({ when: z.date() }) }),
};
`;
    const dir = createModuleProject({ 'src/ai_tools.mjs': source });
    const fix =
      'its schema cannot be converted to JSON Schema: Date cannot be represented in JSON Schema; describe the date as a string: z.iso.datetime() (or z.iso.date()), or z.string() with a format, and make a Date from it in execute';
    const imported = await runCli(
      ['import', '--from', 'module', 'src/ai_tools.mjs', '--group', 'support', '--json'],
      { cwd: dir },
    );
    expect(imported.code).toBe(0);
    expect(imported.json()).toMatchObject({
      tools: 1,
      warnings: [
        {
          code: 'TOOL_SKIPPED',
          tool: 'dueDate',
          message: `tool "dueDate" (export "tools" of src/ai_tools.mjs) was left out: ${fix}`,
        },
      ],
    });
    const status = await runCli(['migrate', 'status', '--fallback', 'src/ai_tools.mjs', '--json'], {
      cwd: dir,
    });
    expect(status.code).toBe(0);
    expect(status.stderr).toBe('');
    expect(status.json()).toEqual({
      json_only: [],
      fallback_only: ['dueDate'],
      both: ['addNote'],
      diagnostics: [
        {
          severity: 'error',
          code: 'INVALID_FALLBACK_TOOL',
          file: 'src/ai_tools.mjs',
          pointer: '/tools/dueDate',
          message: `fallback tool "dueDate": ${fix}`,
        },
      ],
    });
  });
});
