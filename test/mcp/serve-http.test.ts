import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import { isLoopback } from '../../src/mcp/gateway/serve-http.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { JSON_HEADERS, rawHttpRequest } from './raw-http-request.js';

const TOKEN = 'in-process-token';
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

const gateways: Gateway[] = [];
afterEach(async () => {
  for (const gateway of gateways.splice(0)) await gateway.close();
});

async function localGateway(): Promise<Gateway> {
  const registry = createRegistry({
    fallbackTools: [
      {
        name: 'shout',
        description: 'Upper-case a text.',
        execute: (input) => String(input.text).toUpperCase(),
      },
    ],
  });
  const gateway = await createGateway({ registry });
  gateways.push(gateway);
  return gateway;
}

describe('gateway.listen (Streamable HTTP, in process)', () => {
  it('refuses to listen beyond loopback without a token', async () => {
    const gateway = await localGateway();
    await expect(gateway.listen({ host: '0.0.0.0', port: 0 })).rejects.toThrow(
      'refusing to listen on 0.0.0.0 without a bearer token: anyone who reaches it could call the tools. Set a token (TOOLCAP_MCP_TOKEN for toolcap mcp) or listen on 127.0.0.1',
    );
    expect(isLoopback('127.0.0.5')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
  });

  it('serves a session: initialize, calls, the GET stream, DELETE', async () => {
    const gateway = await localGateway();
    const http = await gateway.listen({ port: 0, token: TOKEN });
    const client = new Client({ name: 'in-process', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.callTool({ name: 'shout', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ type: 'text', text: 'HI' }],
    });
    const auth = { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}` };
    // a request for a session this process does not hold
    const lost = await rawHttpRequest(http.url, {
      headers: { ...auth, 'mcp-session-id': 'nope' },
      body: INITIALIZE,
    });
    expect(lost.status).toBe(404);
    expect(JSON.parse(lost.body)).toMatchObject({
      error: { message: expect.stringContaining('session not found') },
    });
    const noSession = await rawHttpRequest(http.url, {
      headers: auth,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    expect(noSession.body).toContain('no Mcp-Session-Id header: send initialize first');
    expect((await rawHttpRequest(http.url, { method: 'GET', headers: auth })).status).toBe(400);
    expect((await rawHttpRequest(http.url, { method: 'PUT', headers: auth })).status).toBe(405);
    await transport.terminateSession();
    await client.close();
    await http.close();
  });

  it('answers health, readiness and unknown paths, and checks bodies before the SDK sees them', async () => {
    const gateway = await localGateway();
    const http = await gateway.listen({
      port: 0,
      maxBodyBytes: 1_000,
      allowedHosts: ['gateway.internal'],
    });
    const base = http.url.replace(/\/mcp$/, '');
    expect((await rawHttpRequest(`${base}/healthz`, { method: 'GET' })).body).toBe(
      '{"status":"ok"}',
    );
    expect(JSON.parse((await rawHttpRequest(`${base}/readyz`, { method: 'GET' })).body)).toEqual({
      ready: true,
      upstreams: {},
    });
    expect((await rawHttpRequest(`${base}/other`, { method: 'GET' })).status).toBe(404);
    const host = { ...JSON_HEADERS, host: 'gateway.internal:80' };
    // --allow-host replaces the loopback rule
    expect(
      (await rawHttpRequest(http.url, { headers: { ...JSON_HEADERS }, body: INITIALIZE })).status,
    ).toBe(403);
    const declared = await rawHttpRequest(http.url, {
      headers: { ...host, 'content-length': '5000' },
      body: Buffer.alloc(5_000, 32),
    });
    expect(declared.status).toBe(413);
    const streamed = await rawHttpRequest(http.url, {
      headers: { ...host, 'transfer-encoding': 'chunked' },
      body: Buffer.alloc(5_000, 32),
    });
    expect(streamed.status).toBe(413);
    const garbage = await rawHttpRequest(http.url, { headers: host, body: '{"jsonrpc": ' });
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ id: null, error: { code: -32700 } });
    const badParams = await rawHttpRequest(http.url, {
      headers: host,
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 1 } }),
    });
    expect(badParams.status).toBe(200);
    expect(JSON.parse(badParams.body)).toMatchObject({ id: 4, error: { code: -32602 } });
    expect((await rawHttpRequest(http.url, { headers: host, body: INITIALIZE })).status).toBe(200);
    await http.close();
  });

  it('refuses a batch (a JSON array) with -32600 as stdio does, whatever it holds', async () => {
    const gateway = await localGateway();
    const http = await gateway.listen({ port: 0 });
    const refusal = {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message:
          'a message must be one JSON object; batches (arrays) are not supported: send each message on its own',
      },
    };
    const init = await rawHttpRequest(http.url, { headers: JSON_HEADERS, body: INITIALIZE });
    const headers = {
      ...JSON_HEADERS,
      'mcp-session-id': String(init.headers['mcp-session-id']),
      'mcp-protocol-version': '2025-06-18',
    };
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect(
      (await rawHttpRequest(http.url, { headers, body: JSON.stringify(initialized) })).status,
    ).toBe(202);
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    const batch = await rawHttpRequest(http.url, {
      headers,
      body: JSON.stringify([ping(2), ping(3)]),
    });
    expect(batch.status).toBe(400);
    expect(JSON.parse(batch.body)).toEqual(refusal);
    // one message alone is answered
    const single = await rawHttpRequest(http.url, { headers, body: JSON.stringify(ping(4)) });
    expect(JSON.parse(single.body)).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    const initializeBatch = await rawHttpRequest(http.url, {
      headers: JSON_HEADERS,
      body: `[${INITIALIZE}]`,
    });
    expect(initializeBatch.status).toBe(400);
    expect(JSON.parse(initializeBatch.body)).toEqual(refusal);

    // stdio answers the same batch with the same error
    const input = new PassThrough();
    let output = '';
    const served = gateway.serveStdio({
      input,
      write: (text) => {
        output += text;
      },
    });
    input.end(`${INITIALIZE}\n${JSON.stringify([ping(2), ping(3)])}\n`);
    await served;
    expect(
      output
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toContainEqual(refusal);
  });

  it('in stateless mode answers every POST alone and refuses GET', async () => {
    const gateway = await localGateway();
    const http = await gateway.listen({ port: 0, stateless: true });
    const call = await rawHttpRequest(http.url, {
      headers: JSON_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'shout', arguments: { text: 'x' } },
      }),
    });
    expect(JSON.parse(call.body)).toMatchObject({ id: 3, result: { content: [{ text: 'X' }] } });
    expect(call.headers['mcp-session-id']).toBeUndefined();
    expect((await rawHttpRequest(http.url, { method: 'GET', headers: JSON_HEADERS })).status).toBe(
      405,
    );
    await gateway.close();
    gateways.splice(0);
  });

  it('turns new sessions away when full, and readiness off while closing', async () => {
    const gateway = await localGateway();
    const http = await gateway.listen({ port: 0, maxSessions: 1 });
    expect(
      (await rawHttpRequest(http.url, { headers: JSON_HEADERS, body: INITIALIZE })).status,
    ).toBe(200);
    const full = await rawHttpRequest(http.url, { headers: JSON_HEADERS, body: INITIALIZE });
    expect(full.status).toBe(503);
    expect(full.headers['retry-after']).toBe('5');
    await gateway.close();
    gateways.splice(0);
    expect(gateway.status().ready).toBe(false);
  });
});

describe('stopping an HTTP gateway with a call in progress', () => {
  it('answers /readyz 503 and new requests 503 until the call in progress is answered, then stops listening', async () => {
    let started!: () => void;
    let release!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'hold',
          description: 'Answer once the test releases it.',
          execute: async () => {
            started();
            await gate;
            return 'released';
          },
        },
      ],
    });
    const gateway = await createGateway({ registry });
    gateways.push(gateway);
    const http = await gateway.listen({ port: 0, stateless: true });
    const base = http.url.replace(/\/mcp$/, '');
    const callBody = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'hold', arguments: {} },
      });
    const inFlight = rawHttpRequest(http.url, { headers: JSON_HEADERS, body: callBody(1) });
    await running;
    const closing = gateway.close();
    try {
      const ready = await rawHttpRequest(`${base}/readyz`, { method: 'GET' });
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toEqual({ ready: false, reason: 'stopping', upstreams: {} });
      const health = await rawHttpRequest(`${base}/healthz`, { method: 'GET' });
      expect(health.status).toBe(200);
      expect(health.body).toBe('{"status":"ok"}');
      const refused = await rawHttpRequest(http.url, { headers: JSON_HEADERS, body: callBody(2) });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(JSON.parse(refused.body)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'the gateway is shutting down; retry on another replica' },
      });
    } finally {
      release();
    }
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({
      id: 1,
      result: { content: [{ type: 'text', text: 'released' }] },
    });
    await closing;
    gateways.splice(0);
    await expect(
      rawHttpRequest(`${base}/healthz`, { method: 'GET', agent: false }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('stopping an HTTP gateway whose call never ends', () => {
  it('cuts the call once the drain limit has passed, and stops listening', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'forever',
          description: 'Never answer.',
          execute: () => {
            started();
            return new Promise(() => {});
          },
        },
      ],
    });
    const gateway = await createGateway({ registry });
    gateways.push(gateway);
    const http = await gateway.listen({ port: 0, stateless: true, drainTimeoutMs: 50 });
    const inFlight = rawHttpRequest(http.url, {
      headers: JSON_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'forever', arguments: {} },
      }),
      agent: false,
    });
    inFlight.catch(() => {});
    await running;
    const base = http.url.replace(/\/mcp$/, '');
    await gateway.close();
    gateways.splice(0);
    await expect(inFlight).rejects.toThrow(/socket hang up|ECONNRESET/);
    await expect(
      rawHttpRequest(`${base}/healthz`, { method: 'GET', agent: false }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
