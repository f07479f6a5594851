import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const ROOT = join(import.meta.dirname, '../..');

describe('toolcap select --history with an unknown tool name', () => {
  it('warns with a did-you-mean and counts the value as a message', async () => {
    const result = await runCli(
      ['select', '--context', 'user_id=u1', '--history', 'add_tsk', 'yes do it'],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'warning UNKNOWN_HISTORY_TOOL --history "add_tsk" looks like a tool name, but the registry has no such tool (did you mean "add_task"?); it counts as an earlier user message, not as a call\n',
    );
    // not a call: the tasks group is not kept by history
    expect(result.stdout).not.toMatch(/add_task\s+tasks@/);
  });

  it('without a close name, warns without a suggestion; --json lists the warning', async () => {
    const result = await runCli(
      ['select', '--json', '--history', 'refund_issue', '--history', 'plain words', 'yes do it'],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect((result.json() as { warnings: unknown[] }).warnings).toEqual([
      {
        code: 'UNKNOWN_HISTORY_TOOL',
        message:
          '--history "refund_issue" looks like a tool name, but the registry has no such tool; it counts as an earlier user message, not as a call',
        tool: 'refund_issue',
      },
    ]);
  });

  it('a known tool name and a message are taken without a warning', async () => {
    const result = await runCli(
      ['select', '--context', 'user_id=u1', '--history', 'add_task', 'and another one'],
      { cwd: ROOT },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/add_task\s+tasks@1\.0\.0\s+history\s+earlier turns: add_task/);
  });
});
