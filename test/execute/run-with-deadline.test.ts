import { describe, expect, it } from 'vitest';
import {
  killRunningExecutables,
  runExecutable,
} from '../../src/execute/external/run-executable.js';
import { MAX_TIMER_DELAY_MS, runWithDeadline } from '../../src/execute/run-with-deadline.js';

describe('runWithDeadline', () => {
  it('reports a task that throws synchronously as an error outcome', async () => {
    const failure = new Error('sync');
    expect(
      await runWithDeadline(() => {
        throw failure;
      }, 1_000),
    ).toEqual({ kind: 'error', error: failure });
  });

  it('settles once: a late result after the timeout is ignored', async () => {
    const outcome = await runWithDeadline(
      () => new Promise((resolve) => setTimeout(() => resolve('late'), 50)),
      10,
    );
    expect(outcome).toEqual({ kind: 'timeout', late: false });
    await new Promise((resolve) => setTimeout(resolve, 60));
  });

  it('counts a result that arrives after the deadline as a timeout, aborting the signal', async () => {
    let seen: AbortSignal | undefined;
    const outcome = await runWithDeadline((signal) => {
      seen = signal;
      // a synchronous loop holds the thread far past the deadline: the timer cannot fire first
      const started = performance.now();
      while (performance.now() - started < 200) {
        // busy
      }
      return 'late';
    }, 20);
    expect(outcome).toEqual({ kind: 'timeout', late: true });
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as Error).name).toBe('TimeoutError');
  });

  it('treats a time limit too long for a timer (2^31 ms or more) as no limit', async () => {
    // a Node timer given more than 2^31 - 1 ms fires after 1 ms instead
    for (const timeoutMs of [MAX_TIMER_DELAY_MS + 1, 3_000_000_000]) {
      const outcome = await runWithDeadline(
        () => new Promise((resolve) => setTimeout(() => resolve('done'), 30)),
        timeoutMs,
      );
      expect(outcome).toEqual({ kind: 'ok', value: 'done' });
    }
  });
});

describe('runExecutable', () => {
  it('does not start when the signal is already aborted', async () => {
    expect(
      await runExecutable('/bin/sh', ['-c', 'exit 0'], {
        signal: AbortSignal.abort(),
        maxOutputBytes: 10,
      }),
    ).toEqual({ kind: 'aborted' });
  });

  it('reports a command that does not exist', async () => {
    expect(
      await runExecutable('/nonexistent/toolcap-command', [], { maxOutputBytes: 10, stdin: '{}' }),
    ).toMatchObject({ kind: 'spawn-error', code: 'ENOENT' });
  });

  it('keeps only the tail of a long stderr', async () => {
    const outcome = await runExecutable(
      '/bin/sh',
      ['-c', 'head -c 3000 /dev/zero | tr "\\0" e >&2; echo done >&2'],
      { maxOutputBytes: 10, maxStderrBytes: 100 },
    );
    expect(outcome).toMatchObject({ kind: 'exit', exitCode: 0 });
    if (outcome.kind === 'exit') {
      expect(outcome.stderr.length).toBe(100);
      expect(outcome.stderr.endsWith('done\n')).toBe(true);
    }
  });

  it('killRunningExecutables kills the process group of every executable still running', async () => {
    // a tool that forks: its child keeps stdout open, so only a group kill ends the run
    const running = runExecutable('/bin/sh', ['-c', 'sleep 300 & sleep 300'], {
      maxOutputBytes: 10,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    killRunningExecutables();
    expect(await running).toMatchObject({ kind: 'exit', signal: 'SIGKILL' });
    // nothing is left to kill
    killRunningExecutables();
  });
});
