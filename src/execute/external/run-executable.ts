import { spawn } from 'node:child_process';
import { errorMessage } from '../../util/error-message.js';

/** Options of `runExecutable`. */
export interface RunExecutableOptions {
  /** Written to stdin, then stdin is closed; `undefined` gives the process no stdin. */
  stdin?: string;
  /** Kills the process (and its process group) when aborted. */
  signal?: AbortSignal;
  /** Kills the process once stdout exceeds this many bytes. */
  maxOutputBytes: number;
  /** stderr bytes kept (the last ones). Default 8 KiB. */
  maxStderrBytes?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** How an executable run ended. */
export type ExecutableOutcome =
  | {
      kind: 'exit';
      exitCode: number | null;
      signal: NodeJS.Signals | null;
      stdout: string;
      stderr: string;
    }
  | { kind: 'output-too-large'; stderr: string }
  | { kind: 'aborted' }
  | { kind: 'spawn-error'; message: string; code: string };

/** Process groups of the executables still running (their leaders' pids). */
const running = new Set<number>();

/**
 * Kills (SIGKILL) the process group of every executable still running, at once and
 * synchronously: for a process about to exit on a second stop signal, which would otherwise
 * leave them running.
 */
export function killRunningExecutables(): void {
  for (const pid of running) {
    try {
      if (process.platform !== 'win32') process.kill(-pid, 'SIGKILL');
      else process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
}

/**
 * Runs an executable without a shell, in its own process group so that a timeout or an
 * oversized output kills the whole tree (a script that forks `sleep` cannot keep the pipe
 * open). Settles once the process is gone or killed; never rejects.
 */
export function runExecutable(
  command: string,
  args: readonly string[],
  options: RunExecutableOptions,
): Promise<ExecutableOutcome> {
  const maxStderrBytes = options.maxStderrBytes ?? 8 * 1024;
  return new Promise((resolve) => {
    if (options.signal?.aborted === true) {
      resolve({ kind: 'aborted' });
      return;
    }
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, [...args], {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      resolve(spawnError(error));
      return;
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let settled = false;
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);
    const finish = (outcome: ExecutableOutcome) => {
      if (settled) return;
      settled = true;
      if (pid !== undefined) running.delete(pid);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const kill = () => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32')
          process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
    };
    const onAbort = () => {
      kill();
      finish({ kind: 'aborted' });
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => {
      kill();
      finish(spawnError(error));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxOutputBytes) {
        kill();
        finish({ kind: 'output-too-large', stderr: stderr.toString('utf8') });
        return;
      }
      stdout.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > maxStderrBytes) stderr = stderr.subarray(stderr.length - maxStderrBytes);
    });
    child.on('close', (exitCode, signal) => {
      finish({
        kind: 'exit',
        exitCode,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: stderr.toString('utf8'),
      });
    });
    if (child.stdin !== null && options.stdin !== undefined) {
      // a tool that exits without reading its input makes the write fail with EPIPE: not our error
      child.stdin.on('error', () => {});
      child.stdin.end(options.stdin);
    }
  });
}

function spawnError(error: unknown): ExecutableOutcome {
  const message = errorMessage(error);
  const code =
    error !== null && typeof error === 'object' && 'code' in error ? String(error.code) : 'UNKNOWN';
  return { kind: 'spawn-error', message, code };
}
