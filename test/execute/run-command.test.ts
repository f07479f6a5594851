import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { makeTempDir } from './testing-registry.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(REPO_ROOT, 'dist', 'cli', 'toolcap.mjs');

async function runCli(
  argv: readonly string[],
  options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {},
) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? {},
    isTty: false,
    ...(options.stdin !== undefined ? { stdin: Readable.from([Buffer.from(options.stdin)]) } : {}),
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, unknown> };
}

describe('toolcap run', () => {
  it('prints the ok result and exits 0', async () => {
    const dataDir = await makeTempDir();
    const added = await runCli([
      'run',
      'add_task',
      '--input',
      '{"title": "write docs"}',
      '--context',
      'user_id=u1',
      '--data-dir',
      dataDir,
    ]);
    expect(added.code).toBe(0);
    expect(added.json()).toMatchObject({ ok: true, output: { task: { title: 'write docs' } } });
    const listed = await runCli(['run', '--context', 'user_id=u1', 'list_tasks'], {
      env: { TOOLCAP_DATA_DIR: dataDir },
    });
    expect(listed.json()).toMatchObject({ ok: true, output: { count: 1 } });
    expect(await readFile(join(dataDir, 'tasks', 'u1.json'), 'utf8')).toContain('write docs');
  });

  it('defaults the data dir to .toolcap/data under the working directory', async () => {
    const cwd = await makeTempDir();
    const result = await runCli(
      [
        'run',
        '--schemas',
        join(REPO_ROOT, 'schemas'),
        '--handlers',
        join(REPO_ROOT, 'handlers'),
        'write_journal',
        '--input',
        '{"text": "hello"}',
        '--context',
        'user_id=me',
      ],
      { cwd },
    );
    expect(result.code).toBe(0);
    expect(await readFile(join(cwd, '.toolcap', 'data', 'journal', 'me.jsonl'), 'utf8')).toContain(
      'hello',
    );
  });

  it('reads --input - from stdin', async () => {
    const dataDir = await makeTempDir();
    const result = await runCli(
      ['run', 'add_task', '--input', '-', '--context', 'user_id=u1', '--data-dir', dataDir],
      { stdin: '{"title": "from stdin"}' },
    );
    expect(result.json()).toMatchObject({ ok: true, output: { task: { title: 'from stdin' } } });
  });

  it('exits 1 with a JSON error for invalid input, a failed call and an unknown tool', async () => {
    const invalid = await runCli([
      'run',
      'add_task',
      '--input',
      '{"title": 1}',
      '--context',
      'user_id=u',
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.json()).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        details: [{ pointer: '/title', message: '/title must be string' }],
      },
    });
    const missing = await runCli(['run', 'add_task', '--input', '{"title": "x"}']);
    expect(missing.code).toBe(1);
    expect(missing.json()).toMatchObject({ error: { code: 'MISSING_CONTEXT' } });
    const unknown = await runCli(['run', 'add_tsk']);
    expect(unknown.code).toBe(1);
    expect(unknown.json()).toEqual({
      ok: false,
      error: {
        code: 'TOOL_NOT_FOUND',
        message: 'There is no tool named "add_tsk". Did you mean "add_task"?',
        details: { tool: 'add_tsk', suggestions: ['add_task'] },
      },
    });
    const prefixed = await runCli(['run', 'functions.add_task', '--input', '{"title": "x"}']);
    expect(prefixed.code).toBe(1);
    expect(prefixed.json()).toEqual({
      ok: false,
      error: {
        code: 'TOOL_NOT_FOUND',
        message:
          'There is no tool named "functions.add_task". Did you mean "add_task"? Call it by its name alone, without the prefix "functions.".',
        details: { tool: 'functions.add_task', suggestions: ['add_task'] },
      },
    });
  });

  it('runs external tools and applies --timeout', async () => {
    const tools = join('test', 'fixtures', 'external-tools');
    const counted = await runCli([
      'run',
      '--tools-dir',
      tools,
      'word_count',
      '--input',
      '{"text": "a b"}',
    ]);
    expect(counted.code).toBe(0);
    expect(counted.json()).toEqual({ ok: true, output: { words: 2 } });
    expect(counted.stderr).toContain('EXTERNAL_NAME_MISMATCH');
    const hung = await runCli([
      'run',
      '--tools-dir',
      tools,
      '--group',
      'ext',
      'hangs',
      '--timeout',
      '200',
    ]);
    expect(hung.code).toBe(1);
    expect(hung.json()).toMatchObject({ error: { code: 'TIMEOUT', details: { timeout_ms: 200 } } });
    // a limit too long for a Node timer is no limit, not 1 ms
    const long = await runCli([
      'run',
      '--tools-dir',
      tools,
      'word_count',
      '--input',
      '{"text": "a b c"}',
      '--timeout',
      '3000000000',
    ]);
    expect(long.json()).toEqual({ ok: true, output: { words: 3 } });
  });

  it('exits 2 on usage errors, naming the JSON parse position', async () => {
    const bad = await runCli(['run', 'add_task', '--input', '{"title": }']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('--input is not valid JSON');
    expect(bad.stderr).toContain('line 1, column 11');
    expect((await runCli(['run', 'add_task', '--input', '  '])).stderr).toContain(
      '--input is empty',
    );
    expect((await runCli(['run'])).code).toBe(2);
    expect((await runCli(['run', 'a', 'b'])).code).toBe(2);
    expect((await runCli(['run', 'add_task', '--timeout', 'soon'])).code).toBe(2);
    expect((await runCli(['run', 'add_task', '--context', 'novalue'])).code).toBe(2);
    const group = await runCli(['run', 'add_task', '--group', 'x']);
    expect(group.code).toBe(2);
    expect(group.stderr).toContain('--tools-dir');
    const noStdin = await runCli(['run', 'add_task', '--input', '-']);
    expect(noStdin.stderr).toContain('reads stdin');
    const help = await runCli(['run', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('toolcap run');
  });
});

describe('the built CLI from the repository root (plain Node, compiled handlers)', () => {
  it('runs add_task with the built CLI (node dist/cli/toolcap.mjs)', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
    const dataDir = await makeTempDir();
    const result = spawnSync(
      process.execPath,
      [BIN, 'run', 'add_task', '--input', '{"title":"x"}', '--context', 'user_id=u1'],
      { cwd: REPO_ROOT, env: { ...process.env, TOOLCAP_DATA_DIR: dataDir }, encoding: 'utf8' },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, output: { task: { title: 'x' } } });
  });
});

describe('the built CLI in a CommonJS project', () => {
  it('says how to make an import/export handler load (HANDLER_LOAD_FAILED)', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
    const { mkdir, writeFile } = await import('node:fs/promises');
    const project = await makeTempDir();
    // what npm init writes: this Node.js loads .js files here as CommonJS
    await writeFile(join(project, 'package.json'), '{ "name": "app", "type": "commonjs" }\n');
    await mkdir(join(project, 'schemas'));
    await mkdir(join(project, 'handlers'));
    await writeFile(
      join(project, 'schemas', 'tasks_tools.json'),
      JSON.stringify({
        group: 'tasks',
        version: '1.0.0',
        description: 'Tasks.',
        selection: { strategy: 'always' },
        tools: [
          {
            name: 'add_task',
            description: 'Add a task.',
            category: 'creation',
            input_schema: { type: 'object', properties: {} },
            metadata: { executor: 'tasks' },
          },
        ],
      }),
    );
    await writeFile(
      join(project, 'handlers', 'tasks.js'),
      "import { randomUUID } from 'node:crypto';\nexport function add_task() { return { id: randomUUID() }; }\n",
    );
    const result = spawnSync(process.execPath, [BIN, 'run', 'add_task', '--input', '{}'], {
      cwd: project,
      encoding: 'utf8',
    });
    const output = JSON.parse(result.stdout) as {
      ok: boolean;
      error: { code: string; message: string };
    };
    expect(output).toMatchObject({ ok: false, error: { code: 'HANDLER_LOAD_FAILED' } });
    expect(output.error.message).toMatch(
      /^Handler module handlers\/tasks\.js for executor "tasks" could not be imported: .*Cannot use import statement outside a module\. The module uses import\/export but Node\.js loads it as CommonJS: add "type": "module" to the package\.json next to it \(npm pkg set type=module\), or name it \.mjs$/s,
    );
  });
});

/** An external tool that reports which of a few variables it sees, at --schema time and when run. */
const ENV_TOOL = `#!/bin/sh
if [ "$1" = "--schema" ]; then
  echo '{"name": "env_probe", "description": "Reports variables; secret at discovery: '"\${TOOLCAP_TEST_SECRET:-absent}"'", "parameters": {"type": "object", "properties": {}}}'
  exit 0
fi
cat > /dev/null
printf '{"secret": "%s", "allowed": "%s", "prefixed": "%s", "path": "%s"}\\n' "\${TOOLCAP_TEST_SECRET:-absent}" "\${TOOLCAP_TEST_ALLOWED:-absent}" "\${TOOLCAP_PREFIX_ONE:-absent}" "\${PATH:+present}"
`;

describe('toolcap run: what external tools see of the environment', () => {
  it('passes the whole environment by default, and only the basics plus --env-allow names with it', async () => {
    const tools = await makeTempDir();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(tools, 'env-probe'), ENV_TOOL, { mode: 0o755 });
    const saved = { ...process.env };
    Object.assign(process.env, {
      TOOLCAP_TEST_SECRET: 'hunter2',
      TOOLCAP_TEST_ALLOWED: 'yes',
      TOOLCAP_PREFIX_ONE: 'one',
    });
    try {
      const all = await runCli(['run', '--tools-dir', tools, 'env_probe']);
      expect(all.json()).toEqual({
        ok: true,
        output: { secret: 'hunter2', allowed: 'yes', prefixed: 'one', path: 'present' },
      });
      const allowed = await runCli([
        'run',
        '--tools-dir',
        tools,
        '--env-allow',
        'TOOLCAP_TEST_ALLOWED,TOOLCAP_PREFIX_*',
        'env_probe',
      ]);
      expect(allowed.json()).toEqual({
        ok: true,
        output: { secret: 'absent', allowed: 'yes', prefixed: 'one', path: 'present' },
      });
      const basics = await runCli(['run', '--tools-dir', tools, '--env-allow', '', 'env_probe']);
      expect(basics.json()).toMatchObject({
        output: { secret: 'absent', allowed: 'absent', prefixed: 'absent', path: 'present' },
      });
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  it('refuses an --env-allow entry that is not a variable name or NAME*', async () => {
    const bad = await runCli(['run', '--env-allow', 'A=B', 'add_task']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--env-allow takes variable names (letters, digits, _) or NAME* prefixes, got "A=B"',
    );
  });
});

describe('toolcap run stopped by a signal', () => {
  it('kills the external tool it started (SIGTERM and SIGINT) and exits 128 + the signal', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
    const { writeFile, readFile: read } = await import('node:fs/promises');
    const { spawn } = await import('node:child_process');
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      const tools = await makeTempDir();
      const pidFile = join(tools, 'tool.pid');
      await writeFile(
        join(tools, 'sleeper'),
        `#!/bin/sh
if [ "$1" = "--schema" ]; then echo '{"name": "sleeper", "description": "Sleeps.", "parameters": {"type": "object", "properties": {}}}'; exit 0; fi
echo $$ > ${JSON.stringify(pidFile)}
exec sleep 60
`,
        { mode: 0o755 },
      );
      const cli = spawn(process.execPath, [BIN, 'run', '--tools-dir', tools, 'sleeper'], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      cli.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      const exited = new Promise<number | null>((resolve) => cli.once('exit', resolve));
      let toolPid = 0;
      try {
        for (let wait = 0; wait < 200 && toolPid === 0; wait++) {
          toolPid = Number.parseInt(await read(pidFile, 'utf8').catch(() => '0'), 10) || 0;
          if (toolPid === 0) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(toolPid).toBeGreaterThan(0);
        cli.kill(signal);
        expect(await exited).toBe(code);
        expect(JSON.parse(stdout)).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
        let alive = true;
        for (let wait = 0; wait < 100 && alive; wait++) {
          alive = isAlive(toolPid);
          if (alive) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(alive).toBe(false);
      } finally {
        cli.kill('SIGKILL');
        if (toolPid > 0 && isAlive(toolPid)) process.kill(toolPid, 'SIGKILL');
      }
    }
  }, 40_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
