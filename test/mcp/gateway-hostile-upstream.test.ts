import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogBuilder } from '../../src/mcp/gateway/build-catalog.js';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import type { UpstreamServer } from '../../src/mcp/gateway/upstream-config.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { connectClient, REPO_ROOT, textOf, waitFor } from './gateway-helpers.js';

const RAW_RPC_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'raw-rpc-server.mjs');

/** The raw JSON-RPC fixture listing `tools` as they are (`null` entries included). */
function rawServer(name: string, tools?: readonly unknown[]): UpstreamServer {
  return {
    transport: 'stdio',
    name,
    group: name,
    command: process.execPath,
    args: [RAW_RPC_SERVER],
    env: tools === undefined ? {} : { RAW_TOOLS: JSON.stringify(tools) },
  };
}

const FINE = {
  name: 'fine',
  description: 'fine tool',
  inputSchema: { type: 'object', properties: {} },
};

const LOCAL_GROUP = {
  group: 'local',
  version: '1.0.0',
  description: 'Local tools of the test.',
  selection: { strategy: 'always' },
  tools: [
    {
      name: 'local_note',
      description: 'Write a note locally.',
      category: 'mutation',
      input_schema: { type: 'object', properties: { text: { type: 'string' } } },
      metadata: { executor: 'local_note', latency_estimate: 'fast', cost_estimate: 'low' },
    },
  ],
};

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Each test starts at most two fixture processes, stopped by gateway.close() (or checked gone).
describe('a gateway over an upstream that lists what no SDK server would', () => {
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('skips a null tools/list entry with a note, as other non-objects, and keeps serving', async () => {
    gateway = await createGateway({
      registry: createRegistry().register(LOCAL_GROUP),
      upstreams: [rawServer('raw', [FINE, null, 5])],
    });
    const { client } = await connectClient(gateway);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(['local_note', 'fine']);
    expect(gateway.status().catalog.notes).toEqual([
      'server "raw": ENTRY_SKIPPED: entry 1 of the mcp payload was skipped: it is not an object',
      'server "raw": ENTRY_SKIPPED: entry 2 of the mcp payload was skipped: it is not an object',
    ]);
    expect(textOf(await client.callTool({ name: 'fine', arguments: {} }))).toMatch(
      /^fine called by pid \d+$/,
    );
    await client.close();
  });
});

describe('a gateway over an upstream whose tools MCP clients would reject', () => {
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('repairs or leaves out what would make the SDK client reject the whole tools/list', async () => {
    gateway = await createGateway({
      registry: createRegistry().register(LOCAL_GROUP),
      upstreams: [
        rawServer('raw', [
          FINE,
          {
            name: 'nully',
            description: 'Store a value under a key.',
            inputSchema: {
              type: 'object',
              properties: { a: null, b: 5, c: 'text', d: { type: 'string' } },
              required: ['d'],
            },
          },
          {
            name: 'hinted',
            description: 'Remove a record.',
            inputSchema: { type: 'object', properties: {} },
            annotations: { title: 7, readOnlyHint: 'yes', destructiveHint: true, custom: 'kept' },
          },
          {
            name: 'shaped',
            description: 'Return a shaped value.',
            inputSchema: { type: 'object', properties: {} },
            outputSchema: { type: 'object', properties: { out: null } },
          },
        ]),
      ],
    });
    const { client } = await connectClient(gateway);
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).toEqual([
      'local_note',
      'fine',
      'nully',
      'hinted',
      'shaped',
    ]);
    expect(tools.find((tool) => tool.name === 'nully')?.inputSchema).toEqual({
      type: 'object',
      properties: { a: {}, b: {}, c: {}, d: { type: 'string' } },
      required: ['d'],
    });
    expect(tools.find((tool) => tool.name === 'hinted')?.annotations).toEqual({
      destructiveHint: true,
    });
    expect(gateway.status().catalog.notes).toEqual([
      'server "raw": tool "nully": inputSchema at "/properties/a" is null, not a schema; it is listed as {} (any value), since MCP clients reject a whole tools/list that holds it',
      'server "raw": tool "nully": inputSchema at "/properties/b" is a number, not a schema; it is listed as {} (any value), since MCP clients reject a whole tools/list that holds it',
      'server "raw": tool "nully": inputSchema at "/properties/c" is a string, not a schema; it is listed as {} (any value), since MCP clients reject a whole tools/list that holds it',
      // an output schema is not what the gateway lists: a broken one was left out already
      'server "raw": FIELD_DROPPED shaped: output_schema of "shaped" was left out because the loader rejects it: INVALID_SCHEMA at /output_schema/properties/out: tool "shaped": output_schema/properties/out is not valid JSON Schema: "out" must be object or boolean',
      'server "raw": tool "hinted": annotations.title is 7, not a string; annotations.readOnlyHint is "yes", not a boolean; left out, since MCP clients reject a whole tools/list that holds it (a hint left out never makes the tool look safer)',
    ]);
    // the repaired schema is what calls are checked against: any value for "a"
    const call = await client.callTool({ name: 'nully', arguments: { a: [1], d: 'x' } });
    expect(textOf(call)).toMatch(/^nully called by pid \d+$/);
    await client.close();
  });
});

describe('an unexpected error while the gateway builds its catalog or starts', () => {
  it('costs only the server whose listing caused it, with a note naming the error', () => {
    const hostile = {
      get name(): string {
        throw new Error('a listing no check foresaw');
      },
    };
    const catalog = new CatalogBuilder().build({
      local: createRegistry().register(LOCAL_GROUP),
      overlays: new Map(),
      upstreams: [
        { server: rawServer('odd'), listing: { tools: [FINE, hostile] } },
        { server: rawServer('good'), listing: { tools: [{ ...FINE, name: 'good_tool' }] } },
      ],
      reserved: [],
    });
    expect(catalog.registry.list().map((tool) => tool.name)).toEqual(['local_note', 'good_tool']);
    expect(catalog.notes).toEqual([
      'server "odd": its tools cannot be served (its tools/list could not be read: a listing no check foresaw)',
    ]);
  });

  it('stops the upstream servers it started before createGateway rejects', async () => {
    const pids: number[] = [];
    const registry = createRegistry().register(LOCAL_GROUP);
    const failing = createGateway({
      registry: {
        current: () => registry,
        subscribe: () => {
          throw new Error('the source cannot be watched');
        },
      },
      upstreams: [rawServer('raw')],
      onEvent: (event) => {
        if (event.type === 'upstream' && event.status.pid !== undefined) {
          pids.push(event.status.pid);
        }
      },
    });
    await expect(failing).rejects.toThrow('the source cannot be watched');
    expect(pids).toHaveLength(1);
    // left running, the server's pipes would keep the caller's process alive for good
    await waitFor(() => !isRunning(pids[0]!));
  });
});
