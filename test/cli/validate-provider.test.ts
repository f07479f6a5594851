import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkProviders } from '../../src/cli/provider-check-option.js';
import type { RegisteredTool } from '../../src/format/types.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

/** A group whose one tool has a key Anthropic and Bedrock reject and an open map Gemini drops. */
function project(): string {
  return createTempDir({
    'schemas/crm_tools.json': makeGroup('crm', {
      tools: [
        makeTool({ name: 'ping' }),
        makeTool({
          name: 'find_account',
          input_schema: {
            type: 'object',
            properties: {
              'Account Number': { type: 'string' },
              filter: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
        }),
      ],
    }),
  });
}

describe('toolcap validate --provider', () => {
  it("reports what a provider would reject or change, at the tool's line in its file", async () => {
    const result = await runCli(['validate', '--provider', 'anthropic'], { cwd: project() });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^schemas\/crm_tools\.json:\d+:\d+: warning PARAMETER_NAME_INVALID anthropic: tool "find_account": property name "Account Number" does not match .* Rename the property in input_schema and in the handler that reads it \(e\.g\. to "Account_Number"\).* \(at \/tools\/1\/input_schema\/properties\/Account Number\)$/,
    );
    // the schema-relative place is not repeated before the file place
    expect(lines[0]).not.toContain('(at /properties/');
    expect(lines[1]).toBe('1 group(s), 2 tool(s): 0 error(s), 1 warning(s)');
    // without --provider, validate stays provider-neutral
    const plain = await runCli(['validate'], { cwd: project() });
    expect(plain.stdout).toBe('1 group(s), 2 tool(s): 0 error(s), 0 warning(s)\n');
  });

  it('takes several providers, gemini as google, and all; --strict fails on them', async () => {
    const dir = project();
    const several = await runCli(['validate', '--provider', 'gemini,bedrock', '--json'], {
      cwd: dir,
    });
    const { diagnostics } = several.json() as {
      diagnostics: { code: string; message: string; pointer: string; line?: number }[];
    };
    expect(
      diagnostics.map((diagnostic) => [diagnostic.message.split(':')[0], diagnostic.code]),
    ).toEqual([
      ['google', 'PARAMETER_NAME_INVALID'],
      ['google', 'KEYWORD_DROPPED'],
      ['bedrock', 'PARAMETER_NAME_INVALID'],
    ]);
    expect(diagnostics[1]).toMatchObject({
      pointer: '/tools/1/input_schema/properties/filter/additionalProperties',
      line: expect.any(Number),
    });
    const all = await runCli(['validate', '--provider', 'all', '--json'], { cwd: dir });
    const providers = new Set(
      (all.json() as { diagnostics: { message: string }[] }).diagnostics.map(
        (diagnostic) => diagnostic.message.split(':')[0],
      ),
    );
    expect([...providers]).toEqual([
      'openai',
      'openai-responses',
      'anthropic',
      'google',
      'bedrock',
    ]);
    const strict = await runCli(['validate', '--provider', 'bedrock', '--strict'], { cwd: dir });
    expect(strict.code).toBe(1);
  });

  it('refuses an unknown provider with a suggestion', async () => {
    const result = await runCli(['validate', '--provider', 'antropic'], { cwd: project() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'toolcap: unknown provider "antropic"; did you mean "anthropic"? (providers: openai, openai-responses, anthropic, google, bedrock, mcp, canonical, or all)',
    );
    const empty = await runCli(['validate', '--provider', ','], { cwd: project() });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--provider names no provider');
  });
});

describe('checkProviders', () => {
  it('reports a tool the provider cannot be sent as an error at its schema', () => {
    const dir = createTempDir({ 'schemas/x_tools.json': makeGroup('x', { tools: [makeTool()] }) });
    const tool = {
      ...makeTool({ name: 'scalar', input_schema: { type: 'string' } }),
      file: join(dir, 'schemas/x_tools.json'),
      pointer: '/tools/0',
    } as unknown as RegisteredTool;
    const [diagnostic, ...rest] = checkProviders([tool], ['openai'], () => 'x_tools.json');
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({
      severity: 'error',
      code: 'INVALID_INPUT_SCHEMA',
      file: 'x_tools.json',
      pointer: '/tools/0/input_schema/type',
      line: expect.any(Number),
    });
    expect(diagnostic!.message).toMatch(
      /^openai: tool "scalar": the input schema's root has type "string"; .* the root must be \{"type": "object", "properties": \{\.\.\.\}\}; openai cannot be sent this tool$/,
    );
  });
});
