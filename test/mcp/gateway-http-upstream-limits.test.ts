import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import {
  connectClient,
  REPO_ROOT,
  startHttpFixture,
  stopFixture,
  textOf,
} from './gateway-helpers.js';

const RAW_RPC_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'raw-rpc-server.mjs');
const tool = (name: string) => ({
  name,
  description: `${name} tool`,
  inputSchema: { type: 'object', properties: { chars: { type: 'integer' } } },
});
const RAW_TOOLS = JSON.stringify(
  ['fine', 'big', 'null_result', 'extra_member', 'noise'].map((name) => tool(name)),
);

const gateways: Gateway[] = [];
afterEach(async () => {
  for (const gateway of gateways.splice(0)) await gateway.close();
});

/** A gateway in front of the HTTP fixture at `url`, collecting the problems it reports. */
async function gatewayFor(url: string, maxUpstreamMessageBytes: number) {
  const problems: string[] = [];
  const gateway = await createGateway({
    upstreams: [{ transport: 'http', name: 'remote', group: 'remote', url, headers: {} }],
    maxUpstreamMessageBytes,
    // a reconnection would hide a connection the gateway dropped
    restartInitialDelayMs: 60_000,
    onEvent: (event) => {
      if (event.type === 'upstream-problem') problems.push(`${event.server}: ${event.problem}`);
    },
  });
  gateways.push(gateway);
  const { client } = await connectClient(gateway);
  return { gateway, client, problems };
}

// One fixture process per block, killed by its pid after it.
describe.each([
  ['JSON bodies', undefined],
  ['SSE streams', 'crlf'],
])('an HTTP upstream answering with %s', (_answers, sse) => {
  let child: ChildProcess | undefined;
  let url: string;

  beforeAll(async () => {
    ({ child, url } = await startHttpFixture(RAW_RPC_SERVER, {
      ...process.env,
      RAW_TOOLS,
      ...(sse === undefined ? {} : { RAW_HTTP_SSE: sse }),
    }));
  });
  afterAll(() => stopFixture(child));

  it('fails only the call whose answer is over --max-upstream-message-bytes; the connection stays', async () => {
    const { gateway, client } = await gatewayFor(url, 4096);
    // large enough to arrive in several chunks
    const result = await client.callTool({ name: 'big', arguments: { chars: 200_000 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^UPSTREAM_RESULT_TOO_LARGE: The MCP server "remote" answered with 2000\d\d bytes, more than the gateway's 4096-byte limit for a message from an upstream server; the answer was dropped unread \(the server stays connected\)\. Ask for less data \(e\.g\. a smaller limit or range\)\.$/,
    );
    // under the limit, the same tool answers, and other tools too
    expect(textOf(await client.callTool({ name: 'big', arguments: { chars: 3000 } }))).toBe(
      'x'.repeat(3000),
    );
    expect(textOf(await client.callTool({ name: 'fine', arguments: {} }))).toMatch(
      /^fine called by pid \d+$/,
    );
    expect(gateway.status().servers[0]).toMatchObject({ state: 'available', restarts: 0 });
  });

  it('answers UPSTREAM_INVALID_RESULT at once for an invalid answer', async () => {
    const { gateway, client, problems } = await gatewayFor(url, 4096);
    // the call limit is 60 s, beyond the test's own: an answer now is no timeout
    expect(textOf(await client.callTool({ name: 'null_result', arguments: {} }))).toBe(
      'UPSTREAM_INVALID_RESULT: The MCP server "remote" answered with a message that is not a valid JSON-RPC response: its "result" is null, not an object.',
    );
    expect(textOf(await client.callTool({ name: 'extra_member', arguments: {} }))).toBe(
      'UPSTREAM_INVALID_RESULT: The MCP server "remote" answered with a message that is not a valid JSON-RPC response: it has members a response does not have ("extra").',
    );
    expect(gateway.status().servers[0]).toMatchObject({ state: 'available', restarts: 0 });
    expect(problems).toEqual([]);
  });
});

describe('an HTTP upstream writing what answers no request on its SSE stream', () => {
  let child: ChildProcess | undefined;
  let url: string;

  beforeAll(async () => {
    ({ child, url } = await startHttpFixture(RAW_RPC_SERVER, {
      ...process.env,
      RAW_TOOLS,
      RAW_HTTP_SSE: 'lf',
    }));
  });
  afterAll(() => stopFixture(child));

  it('drops and reports it; the call itself is answered', async () => {
    const { client, problems } = await gatewayFor(url, 4096);
    const result = await client.callTool({ name: 'noise', arguments: { chars: 5000 } });
    expect(textOf(result)).toBe('after the noise');
    expect(problems).toEqual([
      // the parser's own words differ between Node versions
      expect.stringMatching(
        /^remote: an event on its SSE stream is not JSON \(.+\), dropped: "starting up\.\.\."$/,
      ),
      'remote: a message of 5086 bytes on its SSE stream, more than the limit of 4096 bytes, was dropped unread; it showed no response id at either end, so a call waiting for it ends at its time limit',
    ]);
  });
});
