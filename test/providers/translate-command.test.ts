import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

describe('toolcap translate', () => {
  it('prints payload, metadata and warnings with --json', async () => {
    const run = await runCli([
      'translate',
      '--provider',
      'openai',
      '--tools',
      'file_read',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const output = run.json() as { payload: unknown[]; metadata: unknown; warnings: unknown[] };
    expect(Object.keys(output)).toEqual(['payload', 'metadata', 'warnings']);
    expect(output.payload).toHaveLength(1);
    expect(output.metadata).toEqual({
      file_read: {
        group: 'files',
        executor: 'files',
        cost_estimate: 'low',
        latency_estimate: 'fast',
      },
    });
    expect(output.warnings).toEqual([]);
  });

  it('prints only the payload on stdout without --json, and warnings on stderr', async () => {
    const run = await runCli([
      'translate',
      '--provider',
      'google',
      '--tools',
      'get_agenda,file_read',
      '--tools',
      'get_agenda',
    ]);
    expect(run.code).toBe(0);
    const payload = run.json() as { functionDeclarations: { name: string }[] }[];
    expect(payload[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual([
      'get_agenda',
      'file_read',
    ]);
    expect(run.stderr).toContain(
      'warning KEYWORD_MOVED_TO_DESCRIPTION get_agenda: format "date" is not accepted by Gemini',
    );
  });

  it('translates every loaded tool by default, for every provider', async () => {
    for (const provider of [
      'openai',
      'openai-responses',
      'anthropic',
      'google',
      'bedrock',
      'mcp',
      'canonical',
    ]) {
      const run = await runCli(['translate', '--provider', provider, '--json']);
      expect(run.code, provider).toBe(0);
      expect(Object.keys((run.json() as { metadata: object }).metadata)).toHaveLength(16);
    }
  });

  it('reads --schemas directories and reports load diagnostics on stderr', async () => {
    const dir = createTempDir({
      'demo_tools.json': {
        group: 'demo',
        version: '1.0.0',
        description: 'Demo tools.',
        selection: { strategy: 'always', keywords: [] },
        tools: [makeTool({ name: 'demo_tool' })],
      },
      'broken_tools.json': '{',
    });
    const run = await runCli(['translate', '--provider', 'anthropic', '--schemas', dir, '--json']);
    expect(run.code).toBe(0);
    expect(
      (run.json() as { payload: { name: string }[] }).payload.map((tool) => tool.name),
    ).toEqual(['demo_tool']);
    expect(run.stderr).toContain('broken_tools.json');
  });

  it('fails with exit 1 and "did you mean" for unknown tools', async () => {
    const run = await runCli(['translate', '--provider', 'openai', '--tools', 'file_reed,nope']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'toolcap: unknown tools in --tools: "file_reed" (did you mean "file_read"?), "nope". Run "toolcap list" to see the loaded tools\n',
    );
  });

  it('fails with exit 2 for a missing or unknown provider', async () => {
    const missing = await runCli(['translate']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      '--provider is required (one of openai, openai-responses, anthropic, google, bedrock, mcp, canonical)',
    );
    const unknown = await runCli(['translate', '--provider', 'anthropics']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown provider "anthropics"; did you mean "anthropic"?');
    const nothingClose = await runCli(['translate', '--provider', 'xyz']);
    expect(nothingClose.stderr).toContain('unknown provider "xyz" (providers:');
  });

  describe('translate options as flags', () => {
    const tree = makeTool({
      name: 'save_tree',
      examples: [{ node: { name: 'root', children: [] } }],
      input_schema: {
        type: 'object',
        $defs: {
          node: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/$defs/node' } },
            },
            required: ['name'],
          },
        },
        properties: { node: { $ref: '#/$defs/node' } },
        required: ['node'],
      },
    });
    // a fresh directory per call: temporary directories are removed after each test
    const treesDir = () =>
      createTempDir({ 'trees_tools.json': makeGroup('trees', { tools: [tree] }) });
    const translateTree = (...flags: string[]) =>
      runCli(['translate', '--schemas', treesDir(), '--json', ...flags]);
    const depthOf = (schema: unknown): number => {
      const node = schema as { properties?: { children?: { items?: unknown } } };
      const items = node.properties?.children?.items;
      return items === undefined ? 0 : 1 + depthOf(items);
    };

    it('--recursion-depth sets how far recursion is unrolled; the warning names the flag', async () => {
      const deep = await translateTree('--provider', 'bedrock');
      const shallow = await translateTree('--provider', 'bedrock', '--recursion-depth', '1');
      expect(shallow.code).toBe(0);
      type Bedrock = {
        payload: { toolSpec: { inputSchema: { json: { properties: { node: unknown } } } } }[];
        warnings: { code: string; message: string }[];
      };
      const nodeOf = (run: typeof deep) =>
        (run.json() as Bedrock).payload[0]!.toolSpec.inputSchema.json.properties.node;
      // the node itself is the first expansion; each further one adds a level of children
      expect(depthOf(nodeOf(deep))).toBe(2);
      expect(depthOf(nodeOf(shallow))).toBe(0);
      expect((shallow.json() as Bedrock).warnings[0]!.message).toContain(
        'was expanded 1 levels deep, then the recursive part was dropped (the provider does not accept recursion here; raise recursionDepth, --recursion-depth in toolcap translate, for deeper structures)',
      );
    });

    it('passes each flag to its provider', async () => {
      const strict = await translateTree('--provider', 'openai', '--no-strict');
      expect(
        (strict.json() as { payload: { function: { strict: boolean } }[] }).payload[0]!.function
          .strict,
      ).toBe(false);
      const anthropic = (
        await translateTree('--provider', 'anthropic', '--cache-ttl', '1h', '--input-examples')
      ).json() as { payload: Record<string, unknown>[] };
      expect(anthropic.payload[0]).toMatchObject({
        cache_control: { type: 'ephemeral', ttl: '1h' },
        input_examples: [{ node: { name: 'root', children: [] } }],
      });
      const cached = (await translateTree('--provider', 'anthropic', '--cache-control')).json() as {
        payload: Record<string, unknown>[];
      };
      expect(cached.payload[0]!.cache_control).toEqual({ type: 'ephemeral' });
      const google = (
        await translateTree('--provider', 'gemini', '--parameters-json-schema')
      ).json() as { payload: { functionDeclarations: Record<string, unknown>[] }[] };
      expect(Object.keys(google.payload[0]!.functionDeclarations[0]!)).toContain(
        'parametersJsonSchema',
      );
      const bedrock = (await translateTree('--provider', 'bedrock', '--cache-point')).json() as {
        payload: unknown[];
      };
      expect(bedrock.payload[1]).toEqual({ cachePoint: { type: 'default' } });
      const mcp = (await translateTree('--provider', 'mcp', '--no-derive-annotations')).json() as {
        payload: Record<string, unknown>[];
      };
      expect(mcp.payload[0]).not.toHaveProperty('annotations');
      const derived = (await translateTree('--provider', 'mcp')).json() as {
        payload: Record<string, unknown>[];
      };
      expect(derived.payload[0]).toHaveProperty('annotations', { readOnlyHint: true });
    });

    it.each([
      [
        ['--provider', 'openai', '--cache-control'],
        'toolcap: --cache-control is not an option for --provider openai; it applies to anthropic. Options for openai: --no-strict, --recursion-depth',
      ],
      [
        ['--provider', 'gemini', '--no-strict'],
        'toolcap: --no-strict is not an option for --provider google; it applies to openai, openai-responses. Options for google: --recursion-depth, --parameters-json-schema',
      ],
      [
        ['--provider', 'canonical', '--recursion-depth', '2'],
        'toolcap: --recursion-depth is not an option for --provider canonical; it applies to openai, openai-responses, google, bedrock. canonical takes no translate options',
      ],
      [
        ['--provider', 'bedrock', '--recursion-depth', 'deep'],
        'toolcap: --recursion-depth must be a whole number, 0 or more (how often a recursive $ref is expanded; default 3), got "deep"',
      ],
      [
        ['--provider', 'bedrock', '--recursion-depth=-1'],
        'toolcap: --recursion-depth must be a whole number, 0 or more (how often a recursive $ref is expanded; default 3), got "-1"',
      ],
      [
        ['--provider', 'anthropic', '--cache-ttl', '2h'],
        'toolcap: --cache-ttl must be 5m or 1h (the cache lifetimes Anthropic accepts), got "2h"',
      ],
    ])('refuses %j with exit 2', async (flags, message) => {
      const run = await runCli(['translate', '--schemas', treesDir(), ...flags]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n')[0]).toBe(message);
    });

    it('documents every flag in the usage text', async () => {
      const help = await runCli(['translate', '--help']);
      for (const flag of [
        '--no-strict',
        '--recursion-depth N',
        '--cache-control',
        '--cache-ttl 5m|1h',
        '--input-examples',
        '--parameters-json-schema',
        '--cache-point',
        '--no-derive-annotations',
      ]) {
        expect(help.stdout).toContain(`  ${flag} `);
      }
    });
  });

  it('shows usage with --help and is listed in the general help', async () => {
    const help = await runCli(['translate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: toolcap translate --provider PROVIDER');
    const general = await runCli(['help']);
    expect(general.stdout).toContain('translate');
  });
});
