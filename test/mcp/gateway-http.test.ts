import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir } from '../helpers/temp-files.js';
import { type CliGateway, startCliGateway, writeUpstreamConfig } from './cli-gateway-process.js';
import { textOf } from './gateway-helpers.js';

const TOKEN = 'test-token-7f3a';
const BURST = 1_000;
const SERVING = /serving \d+ tool\(s\) at (http:\/\/\S+\/mcp)/;

async function startHttpGateway(extra: string[] = [], env: Record<string, string> = {}) {
  const dir = createTempDir();
  const gateway = startCliGateway(
    ['--upstream', writeUpstreamConfig(dir), '--schemas', dir, '--http', '127.0.0.1:0', ...extra],
    { env: { TOOLCAP_MCP_TOKEN: TOKEN, ...env } },
  );
  const url = (await gateway.waitForStderr(SERVING))[1]!;
  return { gateway, url };
}

async function connect(
  url: string | URL,
  options: ConstructorParameters<typeof StreamableHTTPClientTransport>[1] = {},
) {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      ...options,
    }),
  );
  return client;
}

/** A raw request, for headers fetch will not let a test set (Host). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

describe('the gateway over Streamable HTTP (sessions)', () => {
  let gateway: CliGateway;
  let url: string;

  beforeAll(async () => {
    ({ gateway, url } = await startHttpGateway([
      '--max-message-bytes',
      '200000',
      '--allow-origin',
      'https://app.example.com',
    ]));
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('answers /healthz and /readyz without a token', async () => {
    const base = url.replace(/\/mcp$/, '');
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, upstreams: { available: 2 } });
  });

  it('refuses requests without the token, from a foreign Origin or Host, and over the size limit', async () => {
    const post = (headers: Record<string, string>, body = LIST) =>
      fetch(url, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body });
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await missing.json()).toMatchObject({
      error: { message: 'missing or wrong bearer token: send Authorization: Bearer <token>' },
    });
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    const foreign = await post({
      authorization: `Bearer ${TOKEN}`,
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      error: {
        message: 'Origin "https://evil.example" is not allowed; allow it with --allow-origin',
      },
    });
    const port = new URL(url).port;
    const rebound = await rawPost(
      url,
      { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}`, host: `evil.example:${port}` },
      LIST,
    );
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('(DNS-rebinding protection)');
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x'.repeat(300_000) } },
    });
    const tooLarge = await post({ authorization: `Bearer ${TOKEN}` }, big);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({
      error: {
        message:
          'the request body is larger than the limit of 200000 bytes; send smaller arguments',
      },
    });
    const malformed = await post(
      { authorization: `Bearer ${TOKEN}` },
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: 'echo' }),
    );
    expect(await malformed.json()).toMatchObject({ id: 9, error: { code: -32602 } });
    // an allowed origin with the token gets through to the protocol (no session yet: 400)
    expect(
      (await post({ authorization: `Bearer ${TOKEN}`, origin: 'https://app.example.com' })).status,
    ).toBe(400);
  });

  it(`answers a burst of ${BURST} calls in one session, each with its own result`, async () => {
    const client = await connect(url);
    const calls = Array.from({ length: BURST }, (_, index) =>
      index % 2 === 0
        ? { name: 'echo', arguments: { text: `m${index}` }, expected: `m${index}` }
        : { name: 'multiply', arguments: { a: index, b: 5 }, expected: String(index * 5) },
    );
    const started = performance.now();
    const results = await Promise.all(
      calls.map(({ name, arguments: args }) => client.callTool({ name, arguments: args })),
    );
    const seconds = (performance.now() - started) / 1000;
    expect(results.filter((result, index) => textOf(result) !== calls[index]!.expected)).toEqual(
      [],
    );
    console.log(`HTTP burst: ${BURST} calls answered and matched in ${seconds.toFixed(2)} s`);
    await client.close();
  });

  it('streams tools/list_changed to a session when an upstream changes its tools', async () => {
    const client = await connect(url);
    const changed = new Promise<void>((resolve) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve());
    });
    // the SDK client opens its GET stream after the handshake, in the background: a change made
    // before it is attached reaches no one, so change again until one notification arrives
    let grown = '';
    for (let attempt = 0; attempt < 20 && grown === ''; attempt++) {
      // grow takes lowercase letters only: grown_a, grown_b, ...
      const name = `grown_${String.fromCharCode(97 + attempt)}`;
      await client.callTool({ name: 'grow', arguments: { name } });
      const arrived = await Promise.race([
        changed.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 250)),
      ]);
      if (arrived) grown = name;
    }
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain(grown);
    await client.close();
  });
});

describe('two stateless replicas behind one client', () => {
  let replicas: { gateway: CliGateway; url: string }[] = [];

  beforeAll(async () => {
    replicas = await Promise.all([
      startHttpGateway(['--stateless']),
      startHttpGateway(['--stateless']),
    ]);
  });
  afterAll(async () => {
    for (const { gateway } of replicas) expect(await gateway.stop()).toBe(0);
  });

  it('answers alternately with identical results', async () => {
    const served: string[] = [];
    let next = 0;
    // an ordinary round-robin load balancer: every request goes to the other replica
    const client = await connect(replicas[0]!.url, {
      fetch: (_input, init) => {
        const target = replicas[next++ % 2]!.url;
        served.push(target);
        return fetch(target, init);
      },
    });
    const lists = [await client.listTools(), await client.listTools()];
    expect(lists[0]).toEqual(lists[1]);
    const results = [];
    for (let index = 0; index < 20; index++) {
      results.push(
        textOf(await client.callTool({ name: 'multiply', arguments: { a: index, b: 11 } })),
      );
    }
    expect(results).toEqual(Array.from({ length: 20 }, (_, index) => String(index * 11)));
    const counts = replicas.map(({ url }) => served.filter((target) => target === url).length);
    expect(counts[0]).toBeGreaterThan(10);
    expect(counts[1]).toBeGreaterThan(10);
    // the same questions to each replica alone: the same answers
    const direct = await Promise.all(replicas.map(({ url }) => connect(url)));
    const answers = await Promise.all(
      direct.map(async (one) => [
        await one.listTools(),
        await one.callTool({ name: 'echo', arguments: { text: 'same' } }),
      ]),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.[0]).toEqual(lists[0]);
    await Promise.all([client.close(), ...direct.map((one) => one.close())]);
  });
});

describe('binding beyond loopback', () => {
  it('is refused without TOOLCAP_MCP_TOKEN', async () => {
    const dir = createTempDir();
    const gateway = startCliGateway(
      ['--upstream', writeUpstreamConfig(dir), '--http', '0.0.0.0:0'],
      {
        env: { TOOLCAP_MCP_TOKEN: '' },
      },
    );
    expect(await gateway.exited()).toBe(2);
    expect(gateway.stderr()).toContain(
      'toolcap: --http 0.0.0.0:0 listens beyond this machine: set TOOLCAP_MCP_TOKEN (clients send "Authorization: Bearer <token>"), or listen on 127.0.0.1',
    );
  });
});
