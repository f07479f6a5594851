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
        message: 'No tool named "add_tsk". Did you mean "add_task"?',
        details: { tool: 'add_tsk', suggestions: ['add_task'] },
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
