import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const tool = (name: string, executor: string) =>
  makeTool({ name, metadata: { executor, requires_context: [] } });

/** A project whose tools name a handler that works, one missing an export, one that does not load, one that is absent. */
function project(): string {
  return createTempDir({
    'schemas/billing_tools.json': makeGroup('billing', {
      tools: [tool('charge', 'billing'), tool('refund', 'billing')],
    }),
    'schemas/ops_tools.json': makeGroup('ops', {
      tools: [
        tool('restart', 'dispatch'),
        tool('deploy', 'broken'),
        tool('rollback', 'broken'),
        tool('audit', 'ledger'),
      ],
    }),
    'handlers/billing.mjs': 'export async function charge() { return {}; }\n',
    'handlers/dispatch.mjs': 'export async function execute() { return {}; }\n',
    'handlers/broken.mjs': 'export async function deploy() {\n  return {;\n}\n',
  });
}

describe('toolcap validate --check-handlers', () => {
  it("reports each tool whose handler is missing, fails to import or lacks the tool's function", async () => {
    const result = await runCli(['validate', '--check-handlers'], { cwd: project() });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      'schemas/billing_tools.json: error HANDLER_NOT_FOUND tool "refund" (executor "billing"): Handler module handlers/billing.mjs exports no function "refund" and no execute(toolName, input, context); it exports charge. Export a function named after the tool. (at /tools/1/metadata/executor)',
      expect.stringMatching(
        /^schemas\/ops_tools\.json: error HANDLER_LOAD_FAILED tool "deploy" \(executor "broken"\): Handler module handlers\/broken\.mjs for executor "broken" could not be imported: .*\(handlers\/broken\.mjs:2\) \(at \/tools\/1\/metadata\/executor\)$/,
      ),
      expect.stringMatching(
        /^schemas\/ops_tools\.json: error HANDLER_LOAD_FAILED tool "rollback" \(executor "broken"\): Handler module handlers\/broken\.mjs .* \(at \/tools\/2\/metadata\/executor\)$/,
      ),
      'schemas/ops_tools.json: error HANDLER_NOT_FOUND tool "audit" (executor "ledger"): No handler module for executor "ledger": looked for ledger.js/.mjs/.cjs/.ts/.mts in handlers. Add ledger.js to a handler directory, or add the directory that holds it to the handlers option. (at /tools/3/metadata/executor)',
      '2 group(s), 6 tool(s): 4 error(s), 0 warning(s)',
      '',
    ]);
  });

  it('passes when every handler resolves, and reports in --json', async () => {
    const dir = createTempDir({
      'schemas/billing_tools.json': makeGroup('billing', { tools: [tool('charge', 'billing')] }),
      'handlers/billing.mjs': 'export async function charge() { return {}; }\n',
    });
    const ok = await runCli(['validate', '--check-handlers', '--strict'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('1 group(s), 1 tool(s): 0 error(s), 0 warning(s)\n');
    const json = await runCli(['validate', '--check-handlers', '--json'], { cwd: project() });
    expect(json.code).toBe(1);
    const { diagnostics } = json.json() as { diagnostics: { code: string; pointer: string }[] };
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      'HANDLER_NOT_FOUND',
      'HANDLER_LOAD_FAILED',
      'HANDLER_LOAD_FAILED',
      'HANDLER_NOT_FOUND',
    ]);
  });

  it('imports handler modules only when asked (their top-level code runs)', async () => {
    const dir = createTempDir({
      'schemas/billing_tools.json': makeGroup('billing', { tools: [tool('charge', 'billing')] }),
      'handlers/billing.mjs': [
        "import { writeFileSync } from 'node:fs';",
        "writeFileSync(new URL('../imported.txt', import.meta.url), 'yes');",
        'export async function charge() { return {}; }',
        '',
      ].join('\n'),
    });
    expect((await runCli(['validate'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, 'imported.txt'))).toBe(false);
    expect((await runCli(['validate', '--check-handlers'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, 'imported.txt'))).toBe(true);
  });

  it('also reports the default ./handlers when it does not exist', async () => {
    const dir = createTempDir({
      'schemas/billing_tools.json': makeGroup('billing', { tools: [tool('charge', 'billing')] }),
    });
    const result = await runCli(['validate', '--check-handlers'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([
      'handlers: warning HANDLERS_DIR_NOT_FOUND handler directory handlers does not exist, so no handler module is found in it; check the path (--handlers DIR; default ./handlers)',
      expect.stringMatching(/^schemas\/billing_tools\.json: error HANDLER_NOT_FOUND tool "charge"/),
    ]);
  });
});

describe('a --handlers directory that does not exist', () => {
  const dir = () =>
    createTempDir({
      'billing/schemas/billing_tools.json': makeGroup('billing', {
        tools: [tool('charge', 'billing')],
      }),
    });

  it('is a warning in validate, so --strict fails', async () => {
    const cwd = dir();
    const args = ['validate', '--schemas', 'billing/schemas', '--handlers', 'nope'];
    const plain = await runCli(args, { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(
      'nope: warning HANDLERS_DIR_NOT_FOUND handler directory nope does not exist, so no handler module is found in it; check the path (--handlers DIR; default ./handlers)\n1 group(s), 1 tool(s): 0 error(s), 1 warning(s)\n',
    );
    expect((await runCli([...args, '--strict'], { cwd })).code).toBe(1);
    // the default ./handlers is not required without --check-handlers (schema-only projects)
    expect(
      (await runCli(['validate', '--schemas', 'billing/schemas', '--strict'], { cwd })).code,
    ).toBe(0);
  });

  it('is a warning on stderr in run, before the call fails', async () => {
    const result = await runCli(
      [
        'run',
        '--schemas',
        'billing/schemas',
        '--handlers',
        'nope',
        'charge',
        '--input',
        '{"query":"x"}',
      ],
      { cwd: dir() },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'nope: warning HANDLERS_DIR_NOT_FOUND handler directory nope does not exist, so no handler module is found in it; check the path (--handlers DIR; default ./handlers)\n',
    );
    expect(result.json()).toMatchObject({ ok: false, error: { code: 'HANDLER_NOT_FOUND' } });
  });
});
