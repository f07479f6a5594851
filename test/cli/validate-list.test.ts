import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const ROOT = join(import.meta.dirname, '../..');

function brokenDir(): string {
  return createTempDir({
    'good_tools.json': makeGroup('good', { tools: [makeTool({ name: 'good_tool' })] }),
    'bad_tools.json': makeGroup('bad', { version: '1.0' }),
    'warn_tools.json': {
      ...makeGroup('warn', { tools: [makeTool({ name: 'warn_tool' })] }),
      extra: 1,
    },
  });
}

describe('toolcap validate', () => {
  it('checks the bundled schemas by default (./schemas) and exits 0', async () => {
    const result = await runCli(['validate'], { cwd: ROOT });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('5 group(s), 16 tool(s): 0 error(s), 0 warning(s)\n');
    expect(result.stderr).toBe('');
  });

  it('prints file:line:column: error CODE message lines and exits 1 on errors', async () => {
    const dir = brokenDir();
    const result = await runCli(['validate', '--schemas', dir], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      expect.stringMatching(
        /^bad_tools\.json:3:3: error INVALID_VERSION version "1\.0" is not a strict semantic version/,
      ),
      expect.stringMatching(
        /^warn_tools\.json:\d+:3: warning UNKNOWN_FIELD unknown field "extra" is ignored/,
      ),
      '2 group(s), 2 tool(s): 1 error(s), 1 warning(s)',
      '',
    ]);
  });

  it('exits 0 with warnings only, and 1 with --strict', async () => {
    const dir = createTempDir({ 'warn_tools.json': { ...makeGroup('warn'), extra: 1 } });
    expect((await runCli(['validate', '--schemas', dir])).code).toBe(0);
    expect((await runCli(['validate', '--schemas', dir, '--strict'])).code).toBe(1);
  });

  it('reports selection settings that have no effect, naming the file; --strict fails', async () => {
    const dir = createTempDir({
      'support_tools.json': makeGroup('support', { selection: { strategy: 'context' } }),
      'billing_tools.json': makeGroup('billing', {
        selection: { strategy: 'always', keywords: ['invoice'] },
        tools: [makeTool({ name: 'charge' })],
      }),
      'search_tools.json': makeGroup('search', {
        selection: { strategy: 'keyword', keywords: ['find', '!!!'] },
        tools: [makeTool({ name: 'find' })],
      }),
    });
    const result = await runCli(['validate', '--schemas', '.', '--strict'], { cwd: dir });
    expect(result.code).toBe(1);
    // billing's keywords are not reported: they do not decide inclusion, but search ranks by them
    expect(result.stdout.split('\n')).toEqual([
      expect.stringMatching(
        /^search_tools\.json:\d+:\d+: warning KEYWORD_NEVER_MATCHES keyword "!!!" can never match/,
      ),
      expect.stringMatching(
        /^support_tools\.json:\d+:\d+: warning CONTEXT_GROUP_UNCONDITIONAL a "context" group with no context_check and no tool with requires_context is offered on every turn: add a context_check .*, or use strategy "always" \(at \/selection\)$/,
      ),
      '3 group(s), 3 tool(s): 0 error(s), 2 warning(s)',
      '',
    ]);
    expect((await runCli(['validate', '--schemas', '.'], { cwd: dir })).code).toBe(0);
  });

  it('--strict fails on a keyword whose stem is a common word ("ups" is "up")', async () => {
    const dir = createTempDir({
      'shipping_tools.json': makeGroup('shipping', {
        selection: { strategy: 'keyword', keywords: ['ups', 'ups tracking'] },
        tools: [makeTool({ name: 'track_parcel' })],
      }),
    });
    const result = await runCli(['validate', '--schemas', '.', '--strict'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      expect.stringMatching(
        /^shipping_tools\.json:\d+:\d+: warning KEYWORD_TOO_COMMON keyword "ups" is matched as "up" \(keyword matching compares word stems\), the same as the common English word "up" .*written as "ups WORD"/,
      ),
      '1 group(s), 1 tool(s): 0 error(s), 1 warning(s)',
      '',
    ]);
  });

  it('warns about group files with slightly wrong names; --strict fails on them', async () => {
    const dir = createTempDir({
      'orders_tools.json': makeGroup('orders', { tools: [makeTool({ name: 'list_orders' })] }),
      'billing_tool.json': makeGroup('billing'),
      'billing-tools.json': makeGroup('billing'),
      'billing_tools.JSON': makeGroup('billing'),
      'package.json': { name: 'team-tools', version: '1.0.0' },
    });
    const result = await runCli(['validate', '--schemas', '.', '--strict'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      ...['billing-tools.json', 'billing_tool.json', 'billing_tools.JSON'].map(
        (file) =>
          `${file}: warning MISNAMED_GROUP_FILE ${file} looks like a group file (a JSON object with "group" and "tools") but is not loaded: only files named <group>_tools.json are; rename it to billing_tools.json`,
      ),
      '1 group(s), 1 tool(s): 0 error(s), 3 warning(s)',
      '',
    ]);
    expect((await runCli(['validate', '--schemas', '.'], { cwd: dir })).code).toBe(0);
  });

  it('reads every other .json file of a schema directory for a misnamed group', async () => {
    const dir = createTempDir({
      'schemas/orders_tools.json': makeGroup('orders', { tools: [makeTool({ name: 'list' })] }),
      'schemas/billing.json': makeGroup('billing'),
      'schemas/team/payments.json': makeGroup('payments'),
      'schemas/fixtures.json': { group: 'not a group file', items: [] },
    });
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.stdout.split('\n')).toEqual([
      'schemas/billing.json: warning MISNAMED_GROUP_FILE billing.json looks like a group file (a JSON object with "group" and "tools") but is not loaded: only files named <group>_tools.json are; rename it to billing_tools.json',
      'schemas/team/payments.json: warning MISNAMED_GROUP_FILE payments.json looks like a group file (a JSON object with "group" and "tools") but is not loaded: only files named <group>_tools.json are; rename it to payments_tools.json',
      '1 group(s), 1 tool(s): 0 error(s), 2 warning(s)',
      '',
    ]);
    // loading (every other command) reads only names close to <group>_tools.json
    const list = await runCli(['list', '--json'], { cwd: dir });
    expect((list.json() as { diagnostics: unknown[] }).diagnostics).toEqual([]);
  });

  it('prints {groups, diagnostics} with --json', async () => {
    const dir = brokenDir();
    const result = await runCli(['validate', '--schemas', '.', '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    const output = result.json() as { groups: unknown[]; diagnostics: Record<string, unknown>[] };
    expect(output.groups).toEqual([
      { group: 'good', version: '1.0.0', file: 'good_tools.json', tools: 1 },
      { group: 'warn', version: '1.0.0', file: 'warn_tools.json', tools: 1 },
    ]);
    expect(output.diagnostics[0]).toEqual({
      severity: 'error',
      code: 'INVALID_VERSION',
      file: 'bad_tools.json',
      pointer: '/version',
      line: 3,
      column: 3,
      message: expect.stringMatching(/use MAJOR\.MINOR\.PATCH/),
    });
    expect(result.stderr).toBe('');
  });

  it('checks examples against input_schema (which plain loading skips)', async () => {
    const dir = createTempDir({
      'ex_tools.json': makeGroup('ex', { tools: [makeTool({ examples: [{ query: 1 }] })] }),
    });
    const result = await runCli(['validate', '--schemas', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /error INVALID_EXAMPLE tool "do_thing": example 0 does not match input_schema: \/query must be string/,
    );
  });

  it('colors only on a TTY and honours NO_COLOR', async () => {
    const dir = brokenDir();
    const colored = await runCli(['validate', '--schemas', dir], { isTty: true });
    expect(colored.stdout).toContain('\u001B[31m error \u001B[39m');
    const plain = await runCli(['validate', '--schemas', dir], {
      isTty: true,
      env: { NO_COLOR: '1' },
    });
    expect(plain.stdout).not.toContain('\u001B[');
    const dumb = await runCli(['validate', '--schemas', dir], {
      isTty: true,
      env: { TERM: 'dumb' },
    });
    expect(dumb.stdout).not.toContain('\u001B[');
  });

  it('uses pins and context-check modules from the command line', async () => {
    const dir = createTempDir({
      'one/cal_tools.json': makeGroup('cal', {
        version: '1.0.0',
        tools: [makeTool({ name: 'v1_tool' })],
      }),
      'two/cal_tools.json': makeGroup('cal', {
        version: '2.0.0',
        tools: [makeTool({ name: 'v2_tool' })],
      }),
      'ctx/docs_tools.json': makeGroup('docs', {
        selection: { strategy: 'context', context_check: 'has_project' },
        tools: [makeTool({ name: 'docs_tool' })],
      }),
      'checks.mjs': 'export function has_project(context) { return context.project_id != null; }\n',
    });
    const pinned = await runCli(
      ['list', '--json', '--schemas', 'one', '--schemas', 'two', '--pin', 'cal=1.x'],
      { cwd: dir },
    );
    expect((pinned.json() as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual(
      ['v1_tool'],
    );
    const withoutChecks = await runCli(['validate', '--schemas', 'ctx'], { cwd: dir });
    expect(withoutChecks.stdout).toMatch(/UNKNOWN_CONTEXT_CHECK/);
    const withChecks = await runCli(
      ['validate', '--schemas', 'ctx', '--context-checks', 'checks.mjs'],
      { cwd: dir },
    );
    expect(withChecks.code).toBe(0);
    const missingModule = await runCli(['validate', '--context-checks', 'nope.mjs'], { cwd: dir });
    expect(missingModule.code).toBe(2);
    expect(missingModule.stderr).toMatch(/--context-checks nope\.mjs could not be imported/);
  });
});

describe('--context-checks MODULE', () => {
  function contextDir(module: string): string {
    return createTempDir({
      'schemas/support_tools.json': makeGroup('support', {
        selection: { strategy: 'context', context_check: 'has_ticket' },
        tools: [makeTool({ name: 'close_ticket' })],
      }),
      'c.mjs': module,
    });
  }

  it('refuses an export that is not a function, naming it, the module and its value', async () => {
    const result = await runCli(['validate', '--context-checks', './c.mjs'], {
      cwd: contextDir('export const has_ticket = true;\n'),
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'toolcap: --context-checks: export has_ticket of ./c.mjs is not a function (got true); export only context_check predicates, (context, message) => boolean, from this module\nRun "toolcap help validate" for its options.\n',
    );
    const member = await runCli(['validate', '--context-checks', 'c.mjs'], {
      cwd: contextDir('export default { has_ticket: "yes" };\n'),
    });
    expect(member.code).toBe(2);
    expect(member.stderr).toMatch(
      /^toolcap: --context-checks: member has_ticket of the default export of c\.mjs is not a function \(got "yes"\)/,
    );
    // a named export replaces the bad member, so the module is fine
    const replaced = await runCli(['validate', '--context-checks', 'c.mjs'], {
      cwd: contextDir(
        'export default { has_ticket: "yes" };\nexport const has_ticket = () => true;\n',
      ),
    });
    expect(replaced.code).toBe(0);
    // an unnamed default function cannot be a context_check
    const unnamed = await runCli(['validate', '--context-checks', 'c.mjs'], {
      cwd: contextDir('export default () => true;\n'),
    });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(
      /^toolcap: --context-checks: the default export of c\.mjs is a function, but a context_check names its predicate: export it by that name/,
    );
  });

  it('merges a default-export object with the named exports; a named export wins', async () => {
    const dir = contextDir(
      [
        'export default { has_ticket: () => false, other: () => true };',
        'export function has_ticket(context) { return context.ticket != null; }',
        '',
      ].join('\n'),
    );
    // has_ticket comes from the named export (the default's member would drop the group)
    const selected = await runCli(
      ['select', '--json', '--context-checks', 'c.mjs', '--context', 'ticket=T-1', 'close it'],
      { cwd: dir },
    );
    expect(selected.code).toBe(0);
    const names = (selected.json() as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toEqual(['close_ticket']);
  });
});

describe('toolcap list', () => {
  it('prints the tool table in catalog order', async () => {
    const result = await runCli(['list'], { cwd: ROOT });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TOOL\s+GROUP\s+CATEGORY\s+EXECUTOR\s+COST\/LATENCY\s+CONTEXT$/);
    expect(lines[1]).toMatch(
      /^create_event\s+calendar@1\.1\.1\s+creation\s+calendar\s+low\/fast\s+user_id$/,
    );
    expect(lines).toHaveLength(17);
  });

  it('prints {tools, diagnostics} with --json and exits 0 even when files were skipped', async () => {
    const dir = brokenDir();
    const result = await runCli(['list', '--json', '--schemas', dir]);
    expect(result.code).toBe(0);
    const output = result.json() as { tools: unknown[]; diagnostics: unknown[] };
    expect(output.tools).toEqual([
      {
        name: 'good_tool',
        group: 'good',
        version: '1.0.0',
        category: 'retrieval',
        executor: 'things',
        cost_estimate: 'low',
        latency_estimate: 'fast',
        requires_context: [],
      },
      expect.objectContaining({ name: 'warn_tool' }),
    ]);
    expect(output.diagnostics).toHaveLength(2);
  });

  it('sends diagnostics to stderr in human mode', async () => {
    const dir = brokenDir();
    const result = await runCli(['list', '--schemas', dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/INVALID_VERSION/);
    expect(result.stderr).toMatch(/bad_tools\.json:3:3: error INVALID_VERSION/);
  });
});

describe('toolcap (general)', () => {
  it('shows help, command usage and the version', async () => {
    const help = await runCli(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: toolcap <command> \[options\]/);
    expect(help.stdout).toMatch(/validate\s+check group files/);
    const usage = await runCli(['help', 'validate']);
    expect(usage.stdout).toMatch(
      /^toolcap validate \[--schemas PATH\]\.\.\. \[--check-handlers\] \[--provider PROVIDER\]\.\.\.\n\s+\[--strict\] \[--json\]/,
    );
    const flag = await runCli(['list', '--help']);
    expect(flag.code).toBe(0);
    expect(flag.stdout).toMatch(/^Usage: toolcap list/);
    const version = await runCli(['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const bare = await runCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/Usage: toolcap <command>/);
  });

  it('exits 2 with a suggestion on usage errors', async () => {
    const command = await runCli(['valdate']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command "valdate"\. Did you mean "toolcap validate"\?/);
    const option = await runCli(['validate', '--jsn']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(
      /unknown option --jsn for "toolcap validate"; did you mean --json\?/,
    );
    expect(option.stderr).toMatch(/Run "toolcap help validate" for its options\./);
    const extra = await runCli(['list', 'stray']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toMatch(/"toolcap list" takes 0 argument\(s\) \(none\), got 1: "stray"/);
    const pin = await runCli(['list', '--pin', 'calendar']);
    expect(pin.code).toBe(2);
    expect(pin.stderr).toMatch(/--pin expects GROUP=RANGE/);
  });
});
