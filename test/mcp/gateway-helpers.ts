import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from '../../src/mcp/gateway/create-gateway.js';
import type { UpstreamServer } from '../../src/mcp/gateway/upstream-config.js';

/** The repository root. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The two upstream fixtures, written with the MCP SDK. */
export const ALPHA_SERVER = join(
  REPO_ROOT,
  'test',
  'fixtures',
  'mcp-upstreams',
  'alpha-server.mjs',
);
export const BETA_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'beta-server.mjs');
/** Fixtures whose input schemas a group file would narrow or reject (see each file). */
export const ZOD_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'zod-server.mjs');
export const RAW_SCHEMA_SERVER = join(
  REPO_ROOT,
  'test',
  'fixtures',
  'mcp-upstreams',
  'raw-schema-server.mjs',
);
/** A fixture whose tools have property keys Anthropic and Bedrock reject (`filter[id]`, ...). */
export const ODD_KEYS_SERVER = join(
  REPO_ROOT,
  'test',
  'fixtures',
  'mcp-upstreams',
  'odd-keys-server.mjs',
);
/** The built CLI (`npm test` builds first). */
export const BIN = join(REPO_ROOT, 'dist', 'cli', 'toolcap.mjs');

/** A stdio upstream running one of the fixtures with this Node. */
export function fixtureServer(name: string, script: string, group = name): UpstreamServer {
  return { transport: 'stdio', name, group, command: process.execPath, args: [script], env: {} };
}

/** A client connected in memory to a new session of `gateway`, counting list_changed notices. */
export async function connectClient(
  gateway: Gateway,
  options: ClientOptions = {},
): Promise<{ client: Client; changes: () => number; nextChange: () => Promise<void> }> {
  const session = gateway.createSession();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client({ name: 'gateway-test', version: '1.0.0' }, options);
  let changes = 0;
  const waiters: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
    for (const waiter of waiters.splice(0)) waiter();
  });
  await client.connect(clientSide);
  const previous = session.server.onclose;
  session.server.onclose = () => {
    previous?.();
    session.dispose();
  };
  return {
    client,
    changes: () => changes,
    nextChange: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
      }),
  };
}

/** Polls `condition` every 20 ms until it holds (bounded). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? '') as string;
}

/**
 * Starts an HTTP fixture server (`node SCRIPT --http 0`) and resolves with the process and the
 * URL it prints on stderr (`listening URL`). Stop it with `stopFixture`.
 */
export async function startHttpFixture(
  script: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script, '--http', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /listening (\S+)/.exec(text);
      if (match !== null) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`the HTTP fixture exited: ${text}`)));
  });
  return { child, url };
}

/** Kills a fixture process by its pid, unless it has exited already. */
export function stopFixture(child: ChildProcess | undefined): void {
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    process.kill(child.pid, 'SIGKILL');
  }
}
