import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import { type ImportSource, importToolList } from '../../src/migrate/import-tool-list.js';
import { fromProvider } from '../../src/providers/from-provider.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir } from '../helpers/temp-files.js';

const PROVIDERS = join(import.meta.dirname, 'fixtures/providers');

/** One fixture per format `toolcap import --from` reads from a JSON file. */
const FIXTURES: Readonly<Record<Exclude<ImportSource, 'module'>, string>> = {
  openai: 'openai.json',
  'openai-responses': 'openai-responses.json',
  anthropic: 'anthropic.json',
  google: 'google.json',
  bedrock: 'bedrock.json',
  mcp: 'mcp-jsonrpc.json',
  canonical: 'canonical.json',
  params: 'params.json',
};
const SOURCES = Object.keys(FIXTURES) as Exclude<ImportSource, 'module'>[];

function fixture(from: Exclude<ImportSource, 'module'>): unknown {
  return JSON.parse(readFileSync(join(PROVIDERS, FIXTURES[from]), 'utf8'));
}

function schemasByName(input: unknown, from: ImportSource): Map<string, string> {
  const { document } = importToolList(input, { from, group: 'g' });
  return new Map(
    (document.tools as { name: string; input_schema: unknown }[]).map((tool) => [
      tool.name,
      JSON.stringify(tool.input_schema),
    ]),
  );
}

const SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('importing a tool list with the wrong --from', () => {
  // every pairing: the import either gives every tool the parameters the right format gives it,
  // or fails naming the format that fits; never a tool with its parameters lost
  const pairings = SOURCES.flatMap((actual) =>
    SOURCES.filter((from) => from !== actual).map((from) => ({ actual, from })),
  );
  it.each(pairings)('a $actual file read as $from: same parameters, or an error naming $actual', ({
    actual,
    from,
  }) => {
    const input = fixture(actual);
    const expected = schemasByName(input, actual);
    let got: Map<string, string>;
    try {
      got = schemasByName(input, from);
    } catch (error) {
      expect(error).toBeInstanceOf(TranslationError);
      expect((error as TranslationError).code).toBe('INVALID_PAYLOAD');
      expect((error as { fits: string[] }).fits).toContain(actual);
      expect((error as Error).message).toContain(`import it as "${actual}"`);
      return;
    }
    for (const [name, schema] of expected) expect(got.get(name)).toBe(schema);
  });

  it('names where the parameters are and which format fits (Anthropic read as OpenAI)', () => {
    expect(() => importToolList(fixture('anthropic'), { from: 'openai', group: 'g' })).toThrow(
      'entry 0 ("get_stock_price") is not an openai tool: its parameters are in "input_schema", where anthropic tools keep them (openai tools keep them in "function.parameters"); import it as "anthropic" (or "canonical")',
    );
  });

  it('fromProvider fails the same way for an MCP list read as anthropic', () => {
    expect(() =>
      fromProvider('anthropic', { tools: [{ name: 'get_weather', inputSchema: SCHEMA }] }),
    ).toThrow(
      'entry 0 ("get_weather") is not an anthropic tool: its parameters are in "inputSchema", where mcp tools keep them (anthropic tools keep them in "input_schema"); import it as "mcp"',
    );
  });

  it.each([
    {
      payload: [{ type: 'function', function: { name: 'get_weather', parameters: SCHEMA } }],
      as: 'mcp',
      message:
        'entry 0 ("get_weather") is not an mcp tool: its parameters are in "function.parameters", where openai tools keep them (mcp tools keep them in "inputSchema"); import it as "openai" (or "openai-responses")',
    },
    {
      payload: [{ type: 'function', name: 'get_weather', parameters: SCHEMA }],
      as: 'anthropic',
      message:
        'entry 0 ("get_weather") is not an anthropic tool: its parameters are in "parameters", where openai-responses tools keep them (anthropic tools keep them in "input_schema"); import it as "openai-responses" (or "openai", "google", "canonical")',
    },
    {
      payload: [{ functionDeclarations: [{ name: 'get_weather', parameters: SCHEMA }] }],
      as: 'openai',
      message:
        'entry 0 ("get_weather") is not an openai tool: its parameters are in "functionDeclarations[].parameters", where google tools keep them (openai tools keep them in "function.parameters"); import it as "google"',
    },
    {
      payload: [{ toolSpec: { name: 'get_weather', inputSchema: { json: SCHEMA } } }],
      as: 'google',
      message:
        'entry 0 ("get_weather") is not a google tool: its parameters are in "toolSpec.inputSchema.json", where bedrock tools keep them (google tools keep them in "functionDeclarations[].parameters"); import it as "bedrock"',
    },
    {
      payload: [{ name: 'get_weather', input_schema: SCHEMA }],
      as: 'bedrock',
      message:
        'entry 0 ("get_weather") is not a bedrock tool: its parameters are in "input_schema", where anthropic tools keep them (bedrock tools keep them in "toolSpec.inputSchema.json"); import it as "anthropic" (or "canonical")',
    },
  ] as const)('fromProvider("$as") on another shape names the one that fits', ({
    payload,
    as,
    message,
  }) => {
    expect(() => fromProvider(as, payload)).toThrow(message);
  });

  it('still skips hosted tools and cache points without an error', () => {
    const result = fromProvider('anthropic', [
      { name: 'get_weather', input_schema: SCHEMA },
      { type: 'web_search_20250305', name: 'web_search' },
    ]);
    expect(result.tools.map((tool) => tool.name)).toEqual(['get_weather']);
  });

  it('accepts a tool that takes no parameters anywhere', () => {
    const result = fromProvider('anthropic', [{ name: 'ping', description: 'Ping.' }]);
    expect(result.tools[0]?.input_schema).toEqual({ type: 'object', properties: {} });
  });

  it('names --from params for param-list tools read as canonical', () => {
    expect(() =>
      importToolList(
        [{ name: 'read_file', params: [{ name: 'path', type: 'string' }] }, { name: 'x' }],
        { from: 'canonical', group: 'g' },
      ),
    ).toThrow(
      'entry 0 ("read_file") is not a canonical tool: its parameters are in "params", where params tools keep them (canonical tools keep them in "parameters"); import it as "params"',
    );
  });

  it('names the provider for provider tools read as params', () => {
    expect(() =>
      importToolList(
        { tools: [{ name: 'get_weather', inputSchema: SCHEMA }] },
        {
          from: 'params',
          group: 'g',
        },
      ),
    ).toThrow(
      'entry 0 ("get_weather") is not a params tool: its parameters are in "inputSchema", where mcp tools keep them (params tools keep them in "params"); import it as "mcp"',
    );
  });
});

describe("toolcap import --from with another provider's file", () => {
  it('writes nothing, exits 1 and says which --from fits', async () => {
    const dir = createTempDir({
      'anth.json': readFileSync(join(PROVIDERS, 'anthropic.json'), 'utf8'),
    });
    const result = await runCli(['import', '--from', 'openai', 'anth.json', '--group', 'stocks'], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'toolcap: anth.json holds anthropic tools, not openai ones: entry 0 ("get_stock_price") keeps its parameters in "input_schema" (openai tools keep them in "function.parameters"). Nothing was written; use --from anthropic (or --from canonical)\n',
    );
    expect(readFileSync(join(dir, 'anth.json'), 'utf8')).toContain('input_schema');
    expect(() => readFileSync(join(dir, 'schemas/stocks_tools.json'))).toThrow();
  });

  it('says --from mcp for an MCP tools/list result read as anthropic', async () => {
    const dir = createTempDir({
      'mcp.json': readFileSync(join(PROVIDERS, 'mcp-jsonrpc.json'), 'utf8'),
    });
    const result = await runCli(['import', '--from', 'anthropic', 'mcp.json', '--group', 'files'], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^toolcap: mcp\.json holds mcp tools, not anthropic ones: .*; use --from mcp\n$/,
    );
  });
});
