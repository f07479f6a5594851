import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import {
  ALPHA_SERVER,
  BETA_SERVER,
  connectClient,
  fixtureServer,
  REPO_ROOT,
  textOf,
  waitFor,
} from './gateway-helpers.js';

const LATE_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'late-server.mjs');

type Response = Extract<JSONRPCMessage, { id: RequestId }> & { result?: unknown };

/** A session of `gateway` driven with raw JSON-RPC messages, keeping every answer it gets. */
async function memorySession(gateway: Gateway) {
  const session = gateway.createSession();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const received: JSONRPCMessage[] = [];
  clientSide.onmessage = (message) => {
    received.push(message);
  };
  await clientSide.start();
  const responses = (id: RequestId) =>
    received.filter(
      (message): message is Response =>
        !('method' in message) && 'id' in message && message.id === id,
    );
  const send = (message: Record<string, unknown>) =>
    clientSide.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  return {
    call(id: RequestId, name: string, args: Record<string, unknown>) {
      return send({ id, method: 'tools/call', params: { name, arguments: args } });
    },
    send,
    responses,
    async answer(id: RequestId): Promise<Response> {
      await waitFor(() => responses(id).length > 0);
      return responses(id)[0]!;
    },
    async close() {
      await clientSide.close();
      session.dispose();
    },
  };
}

describe('forwarded calls beside the SDK client on one upstream connection', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await createGateway({
      upstreams: [fixtureServer('alpha', ALPHA_SERVER), fixtureServer('beta', BETA_SERVER)],
      restartInitialDelayMs: 100,
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it("answers each call with the caller's own id while the gateway re-lists the same server", async () => {
    const session = await memorySession(gateway);
    // the first calls on this connection: still running while the gateway's SDK client sends
    // its tools/list pages upstream (grow makes the server send list_changed)
    const sleeps = [0, 1, 2, 3, 4, 5, 6, 7];
    for (const id of sleeps) await session.call(id, 'sleep', { ms: 500 });
    await session.call('grow', 'grow', { name: 'relisted_tool' });
    // the caller's ids: numbers, and strings that look like the gateway's own
    const ids: RequestId[] = Array.from({ length: 30 }, (_, index) =>
      index % 2 === 0 ? 100 + index : `toolcap-call-${index}`,
    );
    for (const id of ids) await session.call(id, 'echo', { text: `message ${id}` });
    await session.send({ id: 'list', method: 'tools/list', params: {} });
    for (const id of sleeps) {
      expect(textOf((await session.answer(id)).result)).toBe('slept 500 ms');
      expect(session.responses(id)).toHaveLength(1);
    }
    for (const id of ids) {
      const response = await session.answer(id);
      expect(response.result).toEqual({
        content: [{ type: 'text', text: `message ${id}` }],
        structuredContent: { text: `message ${id}`, server: 'alpha' },
      });
      expect(session.responses(id)).toHaveLength(1);
    }
    expect(textOf((await session.answer('grow')).result)).toBe('added relisted_tool');
    expect((await session.answer('list')).result).toMatchObject({ tools: expect.any(Array) });
    await waitFor(() => gateway.listing().tools.includes('relisted_tool'));
    await session.close();
  });

  it('gives every call in flight an isError result when the server crashes, on either path', async () => {
    const { client } = await connectClient(gateway);
    const sleeps = [1, 2, 3].map(() =>
      client.callTool({ name: 'sleep', arguments: { ms: 20_000 } }),
    );
    // a request with _meta goes through the SDK server's request handling
    const withMeta = client.callTool({
      name: 'sleep',
      arguments: { ms: 20_000 },
      _meta: { 'toolcap/context': { user_id: 'u1' } },
    });
    const crashed = client.callTool({ name: 'crash', arguments: {} });
    const results = await Promise.all([...sleeps, withMeta, crashed]);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'UPSTREAM_UNAVAILABLE: The MCP server "alpha" closed the connection during the call (it crashed or exited); the gateway is restarting it. Try again in a few seconds.',
      );
    }
    // the other server's calls are untouched, and the crashed one comes back
    expect(textOf(await client.callTool({ name: 'multiply', arguments: { a: 6, b: 7 } }))).toBe(
      '42',
    );
    await waitFor(() => gateway.status().servers[0]?.state === 'available', 5_000);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
    await client.close();
  });
});

describe('calls in flight when the gateway itself stops', () => {
  it('get an isError result that says the gateway stopped, not that the server crashed', async () => {
    const gateway = await createGateway({ upstreams: [fixtureServer('alpha', ALPHA_SERVER)] });
    const { client } = await connectClient(gateway);
    const call = client.callTool({ name: 'sleep', arguments: { ms: 20_000 } });
    // a later call answered means the sleep was sent upstream before it (one connection, in order)
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe(
      'after',
    );
    await gateway.close();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'UPSTREAM_UNAVAILABLE: The gateway stopped while the MCP server "alpha" was answering this call; the call may or may not have completed there. Try again once the gateway is back (or on another replica).',
    );
  });
});

describe('a server that answers calls it was told to cancel', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await createGateway({
      upstreams: [fixtureServer('late', LATE_SERVER)],
      callTimeoutMs: 1_000,
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  interface Log {
    calls: RequestId[];
    cancellations: { requestId: RequestId; reason?: string }[];
    answered: RequestId[];
  }
  const readLog = async (session: Awaited<ReturnType<typeof memorySession>>, id: string) => {
    await session.call(id, 'log', {});
    return (await session.answer(id)).result as { structuredContent: Log };
  };

  it('drops the late answers of a cancelled call and of a timed-out one; the server hears of both', async () => {
    const session = await memorySession(gateway);
    await session.call('cancelled', 'slow', { ms: 1_500 });
    await session.call('timed-out', 'slow', { ms: 1_500 });
    let log = (await readLog(session, 'log-1')).structuredContent;
    expect(log.calls).toHaveLength(3);
    await session.send({
      method: 'notifications/cancelled',
      params: { requestId: 'cancelled', reason: 'the user stopped it' },
    });
    expect(textOf((await session.answer('timed-out')).result)).toBe(
      'UPSTREAM_TIMEOUT: The MCP server "late" did not answer within 1000 ms; the call was cancelled there.',
    );
    const [cancelledId, timedOutId] = log.calls as [RequestId, RequestId];
    // both late answers were sent to the gateway; neither reaches the caller
    let round = 0;
    await waitFor(async () => {
      log = (await readLog(session, `log-wait-${round++}`)).structuredContent;
      return log.answered.includes(cancelledId) && log.answered.includes(timedOutId);
    });
    await session.call('after', 'echo', { text: 'still here' });
    expect(textOf((await session.answer('after')).result)).toBe('still here');
    expect(session.responses('cancelled')).toEqual([]);
    expect(session.responses('timed-out')).toHaveLength(1);
    // the gateway's own ids went upstream, never the caller's
    expect(cancelledId).not.toBe('cancelled');
    expect(log.cancellations).toHaveLength(2);
    expect(log.cancellations).toEqual(
      expect.arrayContaining([
        { requestId: cancelledId, reason: 'the user stopped it' },
        { requestId: timedOutId, reason: expect.stringMatching(/timed out/i) },
      ]),
    );
    await session.close();
  });

  it('cancels the calls still running upstream when the session closes', async () => {
    // its own gateway: no call time limit cancels the call meanwhile
    const patient = await createGateway({ upstreams: [fixtureServer('late', LATE_SERVER)] });
    try {
      const session = await memorySession(patient);
      await session.call('running', 'slow', { ms: 30_000 });
      const before = (await readLog(session, 'log-before')).structuredContent;
      const runningId = before.calls.at(-2);
      await session.close();
      const observer = await memorySession(patient);
      let round = 0;
      await waitFor(async () => {
        const { cancellations } = (await readLog(observer, `log-${round++}`)).structuredContent;
        return cancellations.some((cancellation) => cancellation.requestId === runningId);
      });
      await observer.close();
    } finally {
      await patient.close();
    }
  });
});
