import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import type { HttpServeHandle } from '../../src/mcp/gateway/serve-http.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadExternalTools } from '../../src/toolcap/load-external-tools.js';
import { createTempDir } from '../helpers/temp-files.js';
import { waitFor } from './gateway-helpers.js';
import { JSON_HEADERS, rawHttpRequest } from './raw-http-request.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '0' },
  },
});

/** Time limits far beyond the test's own bound: only the cancellation can end a call in time. */
const LONG_LIMITS = { timeoutsMs: { fast: 600_000, medium: 600_000, slow: 600_000 } };

const gateways: Gateway[] = [];
const listeners: HttpServeHandle[] = [];
const pids: number[] = [];
afterEach(async () => {
  for (const http of listeners.splice(0)) await http.close();
  for (const gateway of gateways.splice(0)) await gateway.close();
  // an external tool the gateway failed to stop is stopped here, by its pid
  for (const pid of pids.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A gateway over HTTP whose `slow` tool runs until its signal aborts. */
async function slowGateway(stateless: boolean) {
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  let aborted = false;
  const registry = createRegistry({
    executionLimits: LONG_LIMITS,
    fallbackTools: [
      {
        name: 'slow',
        description: 'Waits until it is cancelled.',
        execute: (_input, _context, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('cancelled'));
            });
            started();
          }),
      },
    ],
  });
  const gateway = await createGateway({ registry });
  gateways.push(gateway);
  const http = await gateway.listen({ port: 0, stateless });
  listeners.push(http);
  return { http, running, aborted: () => aborted };
}

/** Headers of a session opened with a raw initialize (stateful mode). */
async function openSession(url: string): Promise<Record<string, string>> {
  const init = await rawHttpRequest(url, { headers: JSON_HEADERS, body: INITIALIZE });
  const headers = {
    ...JSON_HEADERS,
    'mcp-session-id': String(init.headers['mcp-session-id']),
    'mcp-protocol-version': '2025-06-18',
  };
  await rawHttpRequest(url, {
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return headers;
}

/**
 * Posts a `tools/call` on its own connection and returns a function that destroys that
 * connection (the client going away before the answer).
 */
function postCall(
  url: string,
  headers: Record<string, string>,
  id: number,
  name: string,
): { disconnect: () => void; answered: () => boolean } {
  let answered = false;
  const call = httpRequest(url, { method: 'POST', headers, agent: false }, (response) => {
    answered = true;
    response.resume();
  });
  call.on('error', () => {});
  call.end(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name } }));
  return { disconnect: () => call.destroy(), answered: () => answered };
}

describe('toolcap mcp --http: a client that disconnects during a call', () => {
  it.each([
    ['a session', false],
    ['stateless mode', true],
  ])('cancels the call in %s: its handler sees the abort', async (_mode, stateless) => {
    const { http, running, aborted } = await slowGateway(stateless);
    const headers = stateless ? JSON_HEADERS : await openSession(http.url);
    const call = postCall(http.url, headers, 7, 'slow');
    await running;
    call.disconnect();
    await waitFor(aborted);
    expect(call.answered()).toBe(false);
  });

  it('keeps the session serving after a disconnected call', async () => {
    const { http, running, aborted } = await slowGateway(false);
    const headers = await openSession(http.url);
    // a request answered before its connection closed
    const list = await rawHttpRequest(http.url, {
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      agent: false,
    });
    expect(JSON.parse(list.body)).toMatchObject({ id: 2, result: { tools: [{ name: 'slow' }] } });
    const call = postCall(http.url, headers, 3, 'slow');
    await running;
    call.disconnect();
    await waitFor(aborted);
    const ping = await rawHttpRequest(http.url, {
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }),
    });
    expect(JSON.parse(ping.body)).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
  });

  it("stops an external tool's process when its client disconnects", async () => {
    const dir = createTempDir();
    const pidFile = join(dir, 'sleeper.pid');
    const script = join(dir, 'sleeper');
    writeFileSync(
      script,
      [
        '#!/bin/sh',
        'if [ "$1" = "--schema" ]; then',
        `  echo '{"name": "sleeper", "description": "Sleeps until it is stopped.", "parameters": {"type": "object", "properties": {}}}'`,
        '  exit 0',
        'fi',
        `echo $$ > '${pidFile}'`,
        'exec sleep 300',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const registry = await loadExternalTools(createRegistry({ executionLimits: LONG_LIMITS }), {
      dirs: [dir],
    });
    const gateway = await createGateway({ registry });
    gateways.push(gateway);
    const http = await gateway.listen({ port: 0 });
    listeners.push(http);
    const headers = await openSession(http.url);
    const call = postCall(http.url, headers, 5, 'sleeper');
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    pids.push(pid);
    expect(isRunning(pid)).toBe(true);
    call.disconnect();
    await waitFor(() => !isRunning(pid));
    expect(call.answered()).toBe(false);
  });
});
