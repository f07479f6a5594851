import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'dist/cli/toolcap.mjs');
const run = promisify(execFile);

const NOT_MATCHED =
  'its keyword group "tasks" did not match: the message has none of its keywords "task", "todo", "to-do", "deadline", "due", "checklist", "backlog", "priority"; it also requires context user_id, which this turn does not set';

describe('toolcap select --why', () => {
  it('prints why each named tool was or was not offered, after the usual tables', async () => {
    // the built command, as a user runs it
    const { stdout, stderr } = await run(
      process.execPath,
      [
        BIN,
        'select',
        '--why',
        'create_event',
        '--why',
        'add_task',
        '--why',
        'creat_event',
        'schedule a meeting',
      ],
      { cwd: ROOT, timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(stderr).toBe('');
    const explained = stdout.slice(stdout.indexOf('\nEXPLAIN'));
    expect(stdout.indexOf('DROPPED')).toBeLessThan(stdout.indexOf('\nEXPLAIN'));
    expect(explained.split('\n').slice(1, 5)).toEqual([
      'EXPLAIN       STATUS         WHY',
      'create_event  needs-context  left out (MISSING_CONTEXT): requires context user_id, which this turn does not set; pass context.user_id',
      `add_task      not-matched    ${NOT_MATCHED}`,
      'creat_event   unknown        no tool is named "creat_event"; did you mean "create_event"?',
    ]);
  });

  it('refuses an empty --why as a usage error', async () => {
    const result = await runCli(['select', '--why', 'add_task', '--why', '', 'a task'], {
      cwd: ROOT,
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'toolcap: --why "": the tool name is empty; give the name of a tool, such as --why create_event (an empty name is usually an unset environment variable)',
    );
  });

  it('adds "explained" to --json only with --why', async () => {
    const plain = await runCli(['select', '--json', 'schedule a meeting'], { cwd: ROOT });
    expect(Object.keys(plain.json() as object)).toEqual(['tools', 'dropped', 'warnings']);
    const result = await runCli(
      ['select', '--json', '--why', 'add_task', '--why', 'add_task', 'schedule a meeting'],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    const output = result.json() as Record<string, unknown>;
    expect(Object.keys(output)).toEqual(['tools', 'dropped', 'warnings', 'explained']);
    expect(output.explained).toEqual([
      { tool: 'add_task', status: 'not-matched', reason: NOT_MATCHED, group: 'tasks' },
    ]);
  });

  it('gives the rank and score against --relevance K', async () => {
    const result = await runCli(
      ['select', '--json', '--relevance', '2', '--why', 'add_task', 'schedule a meeting'],
      { cwd: ROOT },
    );
    const [explained] = (result.json() as { explained: Record<string, unknown>[] }).explained;
    expect(explained).toMatchObject({ tool: 'add_task', status: 'below-cutoff' });
    expect(explained!.rank).toBeGreaterThan(2);
    expect(explained!.reason).toMatch(
      /^relevance ranked the tools of keyword groups against this turn and it ranked \d+ of \d+ with score [\d.]+, outside the best 2 it offers \(relevance\.k 2; lowest score kept [\d.]+\); raise relevance\.k/,
    );
  });
});
