import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import {
  ALPHA_SERVER,
  connectClient,
  fixtureServer,
  REPO_ROOT,
  textOf,
} from './gateway-helpers.js';

const LATE_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'late-server.mjs');

// Real upstream processes (the fixtures), stopped by gateway.close().
describe('JSON-RPC errors an upstream answers, whatever their code', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await createGateway({
      upstreams: [fixtureServer('alpha', ALPHA_SERVER), fixtureServer('late', LATE_SERVER)],
      // no restart during the test unless a server really went down
      restartInitialDelayMs: 60_000,
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const pids = () => gateway.status().servers.map((server) => [server.state, server.pid]);

  it.each([
    [-32000, 'kaboom from upstream'],
    [-32001, 'custom failure'],
    [-32603, 'internal trouble'],
    [-32099, 'edge of the range'],
  ])('an SDK server throwing McpError(%i) is UPSTREAM_ERROR with its message; the server stays up', async (code, message) => {
    const before = pids();
    const { client } = await connectClient(gateway);
    const result = await client.callTool({ name: 'reject', arguments: { code, message } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `UPSTREAM_ERROR: The MCP server "alpha" answered with an error: ${message}`,
    );
    // the same process answers the next call: nothing was restarted
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
    expect(pids()).toEqual(before);
    expect(gateway.status().servers[0]).toMatchObject({ state: 'available', restarts: 0 });
    await client.close();
  });

  it.each([
    [-32000, 'connection-ish failure'],
    [-32001, 'custom failure'],
  ])('a raw error answer with code %i is UPSTREAM_ERROR with its message, not a timeout or a crash', async (code, message) => {
    const before = pids();
    const { client } = await connectClient(gateway);
    const result = await client.callTool({ name: 'error', arguments: { code, message } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `UPSTREAM_ERROR: The MCP server "late" answered with an error: ${message}`,
    );
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'up' } }))).toBe('up');
    expect(pids()).toEqual(before);
    expect(gateway.status().servers[1]).toMatchObject({ state: 'available', restarts: 0 });
    await client.close();
  });
});
