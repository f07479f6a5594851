import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALPHA_SERVER, BETA_SERVER, BIN, REPO_ROOT } from './gateway-helpers.js';

/** A `toolcap mcp` process started by a test, and what it wrote on stderr. */
export interface CliGateway {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** Waits until stderr matches `pattern` (bounded); returns the match. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /**
   * Stops it and waits for it to exit: a stdio gateway by closing its stdin, an HTTP one with
   * SIGTERM by its pid; SIGKILL by pid if it is still running 10 s later. Resolves with the exit
   * code.
   */
  stop(): Promise<number | null>;
  /** Waits for it to exit on its own (bounded: SIGKILL by pid after 15 s). */
  exited(): Promise<number | null>;
}

/** Writes an mcpServers file naming the two fixture servers; returns its path. */
export function writeUpstreamConfig(dir: string): string {
  const file = join(dir, 'servers.json');
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        alpha: { command: process.execPath, args: [ALPHA_SERVER] },
        beta: { command: process.execPath, args: [BETA_SERVER] },
      },
    }),
  );
  return file;
}

/** Starts the built CLI with `args` (`npm test` builds first). */
export function startCliGateway(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): CliGateway {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    stderr: () => stderr,
    async waitForStderr(pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stderr);
        if (match !== null) return match;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`no ${pattern} on stderr; it has:\n${stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) {
        if (args.includes('--http')) process.kill(child.pid, 'SIGTERM');
        else child.stdin.end();
        const timer = setTimeout(() => {
          if (child.exitCode === null && child.pid !== undefined)
            process.kill(child.pid, 'SIGKILL');
        }, 10_000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return exited;
    },
    async exited() {
      const timer = setTimeout(() => {
        if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
      }, 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * Sends raw lines to a stdio process and reads its JSON-RPC answers by id (for messages the SDK
 * client would never send).
 */
export function rawSession(child: ChildProcessWithoutNullStreams) {
  const answers = new Map<unknown, Record<string, unknown>>();
  const all: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const message = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
      all.push(message);
      if ('id' in message) answers.set(message.id, message);
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
  });
  return {
    all,
    send(message: unknown) {
      child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    },
    async answer(id: unknown, timeoutMs = 15_000): Promise<Record<string, unknown>> {
      const deadline = Date.now() + timeoutMs;
      while (!answers.has(id)) {
        if (Date.now() > deadline)
          throw new Error(
            `no answer to ${JSON.stringify(id)}; answers: ${JSON.stringify(all).slice(0, 2000)}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return answers.get(id)!;
    },
  };
}

/** The initialize request and initialized notification of a raw session. */
export const HANDSHAKE = [
  {
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];
