import { existsSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { type CliGateway, startCliGateway } from './cli-gateway-process.js';
import { waitFor } from './gateway-helpers.js';
import { JSON_HEADERS, type RawAnswer, rawHttpRequest } from './raw-http-request.js';

const SERVING = /serving \d+ tool\(s\) at (http:\/\/\S+\/mcp)/;
const LISTENING = /listening at (http:\/\/\S+\/mcp) \(starting\)/;

const running: CliGateway[] = [];
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop();
});

/** One request; `agent` keeps its connection open between requests (keep-alive). */
function send(
  url: string,
  options: { method?: string; body?: string; agent?: Agent } = {},
): Promise<RawAnswer> {
  return rawHttpRequest(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: options.body === undefined ? {} : JSON_HEADERS,
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
  });
}

function callBody(id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'hold_call', arguments: { query: `call ${id}` } },
  });
}

// waits for a file the test writes: the call stays in progress exactly as long as the test needs
const HOLD_HANDLER = `import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const started = fileURLToPath(new URL('../started', import.meta.url));
const release = fileURLToPath(new URL('../release', import.meta.url));

export async function execute() {
  writeFileSync(started, '');
  // bounded, so a failed test leaves no call waiting
  for (let round = 0; round < 2000 && !existsSync(release); round++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { released: existsSync(release) };
}
`;

describe('toolcap mcp --http stopping on SIGTERM', () => {
  it('answers 503 on /readyz and to new requests while the call in progress finishes, then exits', async () => {
    const dir = createTempDir({
      'schemas/hold_tools.json': makeGroup('hold', {
        tools: [makeTool({ name: 'hold_call', metadata: { executor: 'hold' } })],
      }),
      'handlers/hold.js': HOLD_HANDLER,
    });
    const gateway = startCliGateway(
      ['--http', '127.0.0.1:0', '--stateless', '--data-dir', join(dir, 'data')],
      { cwd: dir },
    );
    running.push(gateway);
    const url = (await gateway.waitForStderr(SERVING))[1]!;
    const base = url.replace(/\/mcp$/, '');
    // a load balancer's health checker: one connection, kept open
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const before = await send(`${base}/readyz`, { agent: keepAlive });
      expect(before.status).toBe(200);
      expect(JSON.parse(before.body)).toEqual({ ready: true, upstreams: {} });

      const inFlight = send(url, { body: callBody(1) });
      // awaited below; a failure before that must not surface as an unhandled rejection
      inFlight.catch(() => {});
      await waitFor(() => existsSync(join(dir, 'started')), 15_000);
      process.kill(gateway.child.pid!, 'SIGTERM');
      await gateway.waitForStderr(/toolcap mcp: stopping\n/);

      for (const agent of [keepAlive, undefined]) {
        const ready = await send(`${base}/readyz`, agent === undefined ? {} : { agent });
        expect(ready.status).toBe(503);
        expect(JSON.parse(ready.body)).toEqual({
          ready: false,
          reason: 'stopping',
          upstreams: {},
        });
      }
      const health = await send(`${base}/healthz`, { agent: keepAlive });
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
      const refused = await send(url, { body: callBody(2) });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(JSON.parse(refused.body)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message: 'the gateway is shutting down; retry on another replica',
        },
      });

      writeFileSync(join(dir, 'release'), '');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({
        id: 1,
        result: { structuredContent: { released: true } },
      });
      expect(await gateway.exited()).toBe(0);
    } finally {
      writeFileSync(join(dir, 'release'), '');
      keepAlive.destroy();
    }
  });
});

describe('toolcap mcp --http starting', () => {
  it('answers /healthz at once, and 503 on /readyz and /mcp while an upstream has not answered yet', async () => {
    const dir = createTempDir({
      // an MCP server that never answers the handshake; it exits when the gateway goes away
      'silent-server.mjs':
        "process.stdin.resume();\nprocess.stdin.on('end', () => process.exit(0));\n",
    });
    writeFileSync(
      join(dir, 'servers.json'),
      JSON.stringify({
        mcpServers: {
          silent: { command: process.execPath, args: [join(dir, 'silent-server.mjs')] },
        },
      }),
    );
    const gateway = startCliGateway(['--upstream', 'servers.json', '--http', '127.0.0.1:0'], {
      cwd: dir,
    });
    running.push(gateway);
    const url = (await gateway.waitForStderr(LISTENING))[1]!;
    const base = url.replace(/\/mcp$/, '');

    const health = await send(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
    const ready = await send(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({
      ready: false,
      reason: 'starting',
      upstreams: { connecting: 1 },
    });
    const refused = await send(url, { body: callBody(1) });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: 'the gateway is starting; retry in a moment',
      },
    });
    // still starting: the upstream has not answered, so nothing is served yet
    expect(gateway.stderr()).not.toMatch(SERVING);
  });
});
