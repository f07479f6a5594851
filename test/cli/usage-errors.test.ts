import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const ROOT = join(import.meta.dirname, '../..');

describe('usage errors', () => {
  it('print the one-line error and where the help is, not the whole help', async () => {
    const result = await runCli(['validate', '--jsn']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'toolcap: unknown option --jsn for "toolcap validate"; did you mean --json?\nRun "toolcap help validate" for its options.\n',
    );
  });

  it('--pin without =RANGE shows a pin example', async () => {
    const result = await runCli(['list', '--pin', 'calendar'], { cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'toolcap: --pin expects GROUP=RANGE (e.g. --pin calendar=^1.2.0), got "calendar"\nRun "toolcap help list" for its options.\n',
    );
  });

  it('--pin with a range semver cannot read is a usage error, not an empty run', async () => {
    const result = await runCli(['list', '--pin', 'tasks=notarange'], { cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'toolcap: --pin tasks=notarange: "notarange" is not a semver range; use a version or range such as 1.2.0, ^1.0.0 or ~2.1\nRun "toolcap help list" for its options.\n',
    );
  });

  it('--pin of one group twice is a usage error, not "the last pin wins"', async () => {
    const result = await runCli(['list', '--pin', 'tasks=^1', '--pin', 'tasks=^2'], { cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'toolcap: --pin tasks: the group is pinned twice (tasks=^1 and tasks=^2); pin each group once\nRun "toolcap help list" for its options.\n',
    );
  });

  it('--pin with an empty range is a usage error, not "any version"', async () => {
    for (const pin of ['tasks=', 'tasks= ']) {
      const result = await runCli(['list', '--pin', pin], { cwd: ROOT });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        'toolcap: --pin tasks=: the range is empty; give a version or range such as --pin tasks=^1.0.0, or leave the pin out for the highest version (an empty range is usually an unset environment variable)\nRun "toolcap help list" for its options.\n',
      );
    }
  });

  it('a flag followed by a negative number says how to pass it', async () => {
    const result = await runCli(['select', '--max-tools', '-1', 'x'], { cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'toolcap: --max-tools -1: a value that starts with "-" is read as an option; write --max-tools=-1 to pass it\nRun "toolcap help select" for its options.\n',
    );
    const written = await runCli(['select', '--max-tools=-1', 'x'], { cwd: ROOT });
    expect(written.stderr).toMatch(/^toolcap: --max-tools must be a positive integer, got "-1"\n/);
  });

  it('--context without =VALUE keeps its own example', async () => {
    const result = await runCli(['select', '--context', 'user_id', 'hi'], { cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^toolcap: --context expects KEY=VALUE \(e\.g\. --context user_id=u1\), got "user_id"\n/,
    );
  });

  it('toolcap help nope is an unknown command, as toolcap nope is', async () => {
    const help = await runCli(['help', 'nope']);
    const bare = await runCli(['nope']);
    expect(help.code).toBe(2);
    expect(help.stdout).toBe('');
    expect(help.stderr).toBe(bare.stderr);
    expect(help.stderr).toBe('toolcap: unknown command "nope". Run "toolcap help" for the list.\n');
    const typo = await runCli(['help', 'valdate']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/Did you mean "toolcap validate"\?/);
  });

  it('toolcap help COMMAND with more arguments is a usage error, not the usage', async () => {
    const result = await runCli(['help', 'select', 'extra', 'args']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'toolcap: "toolcap help" takes 0 to 1 argument(s) (COMMAND), got 3: "select" "extra" "args"\nRun "toolcap help select" for its options.\n',
    );
    const unknown = await runCli(['--help', 'nope', 'extra']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'toolcap: "toolcap --help" takes 0 to 1 argument(s) (COMMAND), got 2: "nope" "extra"\nRun "toolcap help" for the list.\n',
    );
    const version = await runCli(['--version', 'extra']);
    expect(version.code).toBe(2);
    expect(version.stdout).toBe('');
    expect(version.stderr).toBe(
      'toolcap: "toolcap --version" takes 0 argument(s) (none), got 1: "extra"\nRun "toolcap help" for the list.\n',
    );
  });

  it('toolcap help COMMAND SUBCOMMAND shows the usage, as toolcap COMMAND --help SUBCOMMAND does', async () => {
    const help = await runCli(['help', 'migrate', 'status']);
    const flag = await runCli(['migrate', '--help', 'status']);
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout).toBe(flag.stdout.replace(/^Usage: /, ''));
    expect(help.stdout).toMatch(/^toolcap migrate status /);
    const extra = await runCli(['help', 'migrate', 'status', 'extra']);
    expect(extra.code).toBe(2);
    expect(extra.stdout).toBe('');
    expect(extra.stderr).toBe(
      'toolcap: "toolcap help" takes 0 to 2 argument(s) (COMMAND SUBCOMMAND), got 3: "migrate" "status" "extra"\nRun "toolcap help migrate" for its options.\n',
    );
    const unknown = await runCli(['help', 'migrate', 'stats']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'toolcap: "toolcap help migrate stats": migrate has no subcommand "stats"; its subcommands: "migrate status"\nRun "toolcap help migrate" for its options.\n',
    );
  });

  it('toolcap --help COMMAND shows the usage, as toolcap help COMMAND does', async () => {
    const flag = await runCli(['--help', 'select']);
    const help = await runCli(['help', 'select']);
    expect(flag.code).toBe(0);
    expect(flag.stdout).toBe(help.stdout);
    expect(flag.stdout).toMatch(/^toolcap select /);
  });

  it('toolcap COMMAND --help with a stray argument is the same usage error as without --help', async () => {
    const withHelp = await runCli(['list', '--help', 'stray']);
    const without = await runCli(['list', 'stray']);
    expect(withHelp.code).toBe(2);
    expect(withHelp.stdout).toBe('');
    expect(withHelp.stderr).toBe(without.stderr);
    expect(withHelp.stderr).toBe(
      'toolcap: "toolcap list" takes 0 argument(s) (none), got 1: "stray"\nRun "toolcap help list" for its options.\n',
    );
    const tooMany = await runCli(['select', '--help', 'one', 'two']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(
      /^toolcap: "toolcap select" takes 1 argument\(s\) \(MESSAGE\), got 2: "one" "two"\n/,
    );
    // the arguments a command takes, or fewer, still show its usage
    const within = await runCli(['select', '--help', 'add a task']);
    expect(within.code).toBe(0);
    expect(within.stdout).toMatch(/^Usage: toolcap select/);
    const missing = await runCli(['diff', '--help']);
    expect(missing.code).toBe(0);
    expect(missing.stdout).toMatch(/^Usage: toolcap diff/);
  });

  it('translate --tools "" and search "" are usage errors', async () => {
    const tools = await runCli(['translate', '--provider', 'openai', '--tools', ''], { cwd: ROOT });
    expect(tools.code).toBe(2);
    expect(tools.stdout).toBe('');
    expect(tools.stderr).toMatch(
      /^toolcap: --tools names no tool; give tool names separated by commas \(e\.g\. --tools add_task,list_tasks\), or leave --tools out for every tool\n/,
    );
    const spaces = await runCli(['translate', '--provider', 'openai', '--tools', ' , '], {
      cwd: ROOT,
    });
    expect(spaces.code).toBe(2);
    const search = await runCli(['search', '  '], { cwd: ROOT });
    expect(search.code).toBe(2);
    expect(search.stdout).toBe('');
    expect(search.stderr).toMatch(
      /^toolcap: QUERY is empty; give the words to look for, e.g\. toolcap search "create a task"\n/,
    );
  });
});

describe('--provider', () => {
  it('accepts gemini as another name for google in translate and select', async () => {
    const gemini = await runCli(['translate', '--provider', 'gemini', '--tools', 'add_task'], {
      cwd: ROOT,
    });
    const google = await runCli(['translate', '--provider', 'google', '--tools', 'add_task'], {
      cwd: ROOT,
    });
    expect(gemini.code).toBe(0);
    expect(gemini.stdout).toBe(google.stdout);
    const select = await runCli(['select', '--provider', 'gemini', '--json', 'add a task'], {
      cwd: ROOT,
    });
    expect(select.code).toBe(0);
    const help = await runCli(['help', 'translate']);
    expect(help.stdout).toMatch(/gemini \(the same as google\)/);
  });

  it('accepts --from gemini in toolcap import', async () => {
    const dir = createTempDir({
      'gemini.json': [
        { functionDeclarations: [{ name: 'find_places', description: 'Find places.' }] },
      ],
    });
    const result = await runCli(
      ['import', '--from', 'gemini', 'gemini.json', '--group', 'places'],
      {
        cwd: dir,
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const help = await runCli(['help', 'import']);
    expect(help.stdout).toMatch(/gemini \(the same as google\)/);
  });

  it('suggests the closest provider for an unknown one', async () => {
    const result = await runCli(['translate', '--provider', 'antropic'], { cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^toolcap: unknown provider "antropic"; did you mean "anthropic"\?/,
    );
  });
});

describe('--schemas FILE', () => {
  it('loads just that group file', async () => {
    const dir = createTempDir({
      'schemas/one_tools.json': makeGroup('one', { tools: [makeTool({ name: 'one_tool' })] }),
      'schemas/two_tools.json': makeGroup('two', { tools: [makeTool({ name: 'two_tool' })] }),
    });
    const result = await runCli(['list', '--schemas', 'schemas/one_tools.json', '--json'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect((result.json() as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual(
      ['one_tool'],
    );
    const validate = await runCli(['validate', '--schemas', 'schemas/two_tools.json'], {
      cwd: dir,
    });
    expect(validate.stdout).toBe('1 group(s), 1 tool(s): 0 error(s), 0 warning(s)\n');
  });

  it('says what a group file is called when the file is not one', async () => {
    const dir = createTempDir({ 'tools.json': makeGroup('one'), 'notes.json': { a: 1 } });
    const result = await runCli(['validate', '--schemas', 'tools.json'], { cwd: dir });
    expect(result.code).toBe(1);
    // a group file under another name: the name it needs
    expect(result.stdout).toMatch(
      /^tools\.json: error SCHEMAS_DIR_NOT_FOUND tools\.json looks like a group file .* rename it to one_tools\.json/,
    );
    const other = await runCli(['validate', '--schemas', 'notes.json'], { cwd: dir });
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(
      /^notes\.json: error SCHEMAS_DIR_NOT_FOUND notes\.json is a file, not a directory of group files, and its name does not end in _tools\.json; give the directory that holds the group files, or a file named <group>_tools\.json/,
    );
  });
});

describe('toolcap migrate status', () => {
  it('accepts --handlers and --context-checks like every loading command', async () => {
    const dir = createTempDir({
      'schemas/one_tools.json': makeGroup('one', { tools: [makeTool({ name: 'one_tool' })] }),
      'fallback.mjs': 'export default [{ name: "one_tool", description: "d", params: [] }];\n',
      'checks.mjs': 'export function always() { return true; }\n',
      'handlers/things.mjs': 'export function one_tool() { return {}; }\n',
    });
    const result = await runCli(
      [
        'migrate',
        'status',
        '--fallback',
        'fallback.mjs',
        '--handlers',
        'handlers',
        '--context-checks',
        'checks.mjs',
        '--json',
      ],
      { cwd: dir },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ both: ['one_tool'] });
  });
});
