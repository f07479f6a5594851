import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeTool } from '../helpers/temp-files.js';

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

  it('shows usage with --help and is listed in the general help', async () => {
    const help = await runCli(['translate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: toolcap translate --provider PROVIDER');
    const general = await runCli(['help']);
    expect(general.stdout).toContain('translate');
  });
});
