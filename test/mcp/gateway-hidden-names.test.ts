import { describe, expect, it } from 'vitest';
import {
  createGateway,
  type Gateway,
  type GatewayRegistrySource,
} from '../../src/mcp/gateway/create-gateway.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';
import { createTempDir, makeGroup } from '../helpers/temp-files.js';
import { ALPHA_SERVER, connectClient, fixtureServer, textOf } from './gateway-helpers.js';

/** A registry holding one overlay of the upstream group `alpha` that hides `hidden`. */
async function overlayRegistry(hidden: readonly string[]): Promise<Registry> {
  const dir = createTempDir({
    'schemas/alpha_tools.json': {
      ...makeGroup('alpha', { selection: { strategy: 'always' }, tools: [] }),
      'x-upstream': { hidden },
    },
  });
  return loadRegistry({ dirs: ['schemas'], cwd: dir });
}

/** A source whose snapshot the test replaces, as `--watch` does on an edit. */
function swappableSource(first: Registry) {
  let current = first;
  const listeners = new Set<() => void>();
  const source: GatewayRegistrySource = {
    current: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    source,
    swap(next: Registry) {
      current = next;
      for (const listener of listeners) listener();
    },
  };
}

const pidOf = async (client: Awaited<ReturnType<typeof connectClient>>['client'], name: string) =>
  ((await client.callTool({ name, arguments: {} })).structuredContent as { pid: number }).pid;

// Two upstream processes of the same fixture (the same tools), stopped by gateway.close().
describe('tools an overlay hides keep their names', () => {
  const upstreams = [fixtureServer('alpha', ALPHA_SERVER), fixtureServer('beta', ALPHA_SERVER)];
  const betaNames = [
    'beta_echo',
    'beta_add',
    'beta_sleep',
    'beta_crash',
    'beta_fail',
    'beta_reject',
    'beta_grow',
    'beta_whoami',
  ];

  it("never give another server's tool the hidden name; calling it is an unknown tool", async () => {
    const gateway = await createGateway({
      registry: await overlayRegistry(['whoami', 'reject']),
      upstreams,
    });
    try {
      expect(gateway.listing().tools).toEqual([
        'echo',
        'add',
        'sleep',
        'crash',
        'fail',
        'grow',
        ...betaNames,
      ]);
      const { client } = await connectClient(gateway);
      await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: 'MCP error -32602: Unknown tool: "whoami".',
      });
      // a near miss is not pointed at the hidden tool
      await expect(client.callTool({ name: 'whoamii', arguments: {} })).rejects.toMatchObject({
        message: 'MCP error -32602: Unknown tool: "whoamii".',
      });
      await expect(client.callTool({ name: 'rejct', arguments: {} })).rejects.toMatchObject({
        message: 'MCP error -32602: Unknown tool: "rejct".',
      });
      expect(textOf(await client.callTool({ name: 'beta_whoami', arguments: {} }))).toMatch(
        /^\{"pid":\d+/,
      );
      // the hidden tools are not reported as renamed: they are not served at all
      expect(gateway.status().catalog.renamed.map((entry) => entry.to)).toEqual(betaNames);
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it('keep every name stable when the hidden list changes while serving', async () => {
    const { source, swap } = swappableSource(await overlayRegistry([]));
    let gateway: Gateway | undefined;
    try {
      gateway = await createGateway({ registry: source, upstreams, expose: 'search' });
      const { client } = await connectClient(gateway);
      const alphaPid = await pidOf(client, 'whoami');
      const betaPid = await pidOf(client, 'beta_whoami');
      expect(alphaPid).not.toBe(betaPid);
      const before = gateway.listing().tools;

      swap(await overlayRegistry(['whoami', 'reject']));
      expect(gateway.listing().tools).toEqual(
        before.filter((name) => name !== 'whoami' && name !== 'reject'),
      );
      // the name found before the edit does not move to the other server
      expect(
        textOf(
          await client.callTool({
            name: 'call_tool',
            arguments: { name: 'whoami', arguments: {} },
          }),
        ),
      ).toBe('TOOL_NOT_FOUND: Unknown tool: "whoami". Search the catalog with find_tools.');
      expect(await pidOf(client, 'beta_whoami')).toBe(betaPid);
      const found = await client.callTool({
        name: 'find_tools',
        arguments: { query: 'report the process id', limit: 20 },
      });
      const names = (found.structuredContent as { tools: { name: string }[] }).tools.map(
        (tool) => tool.name,
      );
      expect(names).toContain('beta_whoami');
      expect(names).not.toContain('whoami');

      swap(await overlayRegistry([]));
      expect(gateway.listing().tools).toEqual(before);
      expect(await pidOf(client, 'whoami')).toBe(alphaPid);
      await client.close();
    } finally {
      await gateway?.close();
    }
  });
});
