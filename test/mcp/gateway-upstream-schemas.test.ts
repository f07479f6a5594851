import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCompileCount } from '../../src/json-schema/compile-schema.js';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import {
  connectClient,
  fixtureServer,
  RAW_SCHEMA_SERVER,
  REPO_ROOT,
  textOf,
  ZOD_SERVER,
} from './gateway-helpers.js';

// Two real upstream processes, stopped by gateway.close(). The gateway converts their tools into
// group-format definitions for search, but lists and checks the servers' own schemas.
describe('a gateway over servers whose schemas the group format narrows or rejects', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await createGateway({
      upstreams: [fixtureServer('zod', ZOD_SERVER), fixtureServer('raw', RAW_SCHEMA_SERVER)],
      expose: 'selected',
      callTimeoutMs: 5_000,
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('lists a z.any() value as the server does and forwards any JSON value for it', async () => {
    const { client } = await connectClient(gateway);
    const compiled = getCompileCount();
    const found = await client.callTool({
      name: 'find_tools',
      arguments: { query: 'store any JSON value', limit: 2 },
    });
    const served = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { key: { type: 'string' }, value: {} },
      required: ['key', 'value'],
    };
    expect(found.structuredContent).toMatchObject({
      tools: [
        { name: 'any_value', group: 'zod', inputSchema: served },
        { name: 'unknown_value', group: 'zod', inputSchema: served },
      ],
    });
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'any_value');
    expect(listed?.inputSchema).toEqual(served);
    // listing and searching compile nothing: a schema is compiled on its tool's first call
    expect(getCompileCount()).toBe(compiled);

    for (const value of [{ x: 1 }, [1, 'two', null], 3.5, 'text', true, null]) {
      const result = await client.callTool({ name: 'any_value', arguments: { key: 'k', value } });
      expect(result.isError).toBeUndefined();
      expect(JSON.parse(textOf(result))).toEqual({ key: 'k', value });
    }
    const unknown = await client.callTool({
      name: 'unknown_value',
      arguments: { key: 'theme', value: { dark: true } },
    });
    expect(JSON.parse(textOf(unknown))).toEqual({ key: 'theme', value: { dark: true } });
    expect(getCompileCount()).toBeGreaterThan(compiled);
    // the server's own constraints are still checked before forwarding
    const missing = await client.callTool({ name: 'any_value', arguments: { value: 1 } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe(
      'INVALID_INPUT: Invalid input for tool "any_value": missing required property "key". Fix these arguments and call the tool again.',
    );
    await client.close();
  });

  it('serves, finds and checks a tool whose schema has `true` for a property', async () => {
    const { client } = await connectClient(gateway);
    const found = await client.callTool({
      name: 'find_tools',
      arguments: { query: 'attach a payload to a slot', limit: 1 },
    });
    // `true` is listed as `{}`, which accepts the same values: MCP wants objects there
    const served = {
      type: 'object',
      properties: { payload: {}, slot: { type: 'integer', description: 'The slot number' } },
      required: ['payload'],
    };
    expect(found.structuredContent).toMatchObject({
      tools: [{ name: 'bool_schema', group: 'raw', inputSchema: served }],
    });
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'bool_schema');
    expect(listed?.inputSchema).toEqual(served);
    const payload = { nested: ['anything', 1] };
    const ok = await client.callTool({ name: 'bool_schema', arguments: { payload, slot: 2 } });
    expect(JSON.parse(textOf(ok))).toEqual({ payload, slot: 2 });
    const bad = await client.callTool({ name: 'bool_schema', arguments: { slot: 'two' } });
    expect(textOf(bad)).toBe(
      'INVALID_INPUT: Invalid input for tool "bool_schema": missing required property "payload"; /slot must be integer. Fix these arguments and call the tool again.',
    );
    await client.close();
  });

  it('gives a root without a type "type": "object", as MCP requires, and checks the rest', async () => {
    const { client } = await connectClient(gateway);
    await client.callTool({ name: 'find_tools', arguments: { query: 'count list items' } });
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'untyped_root');
    expect(listed?.inputSchema).toEqual({
      type: 'object',
      properties: { list: { type: 'string' } },
      required: ['list'],
    });
    const bad = await client.callTool({ name: 'untyped_root', arguments: { list: 7 } });
    expect(textOf(bad)).toBe(
      'INVALID_INPUT: Invalid input for tool "untyped_root": /list must be string. Fix these arguments and call the tool again.',
    );
    await client.close();
  });

  it('forwards unchecked the calls of schemas it cannot check: a remote $ref, draft-04', async () => {
    const { client } = await connectClient(gateway);
    const item = { sku: 'A-1' };
    const remote = await client.callTool({ name: 'remote_ref', arguments: { item } });
    expect(JSON.parse(textOf(remote))).toEqual({ item });
    // draft-04's boolean exclusiveMinimum means "> 0": checking it as 2020-12 would be wrong
    const draft04 = await client.callTool({ name: 'draft04', arguments: { threshold: 0.5 } });
    expect(JSON.parse(textOf(draft04))).toEqual({ threshold: 0.5 });
    await client.close();
  });

  it('reports no schema repair for tools it serves with their own schemas', () => {
    expect(gateway.status().catalog.groups).toEqual([
      { group: 'zod', version: '2.1.0', tools: 2 },
      { group: 'raw', version: '0.3.0', tools: 4 },
    ]);
    expect(gateway.status().catalog.notes).toEqual([]);
  });
});

const LOOP_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'loop-schema-server.mjs');

// One real upstream process, stopped by gateway.close(): its schemas recurse, with and without
// a loop that never reaches a part of the value.
describe('a gateway over a server whose schemas have $ref loops', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await createGateway({
      upstreams: [fixtureServer('loops', LOOP_SERVER)],
      expose: 'all',
      callTimeoutMs: 5_000,
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('names each looping tool, server and pointer when it builds the tool list', () => {
    expect(gateway.status().catalog.notes).toEqual([
      'server "loops": tool "tag_sibling": inputSchema at "/properties/label/$ref" has a $ref loop (REF_CYCLE): $ref "#/properties/label" refers to the schema that holds it, so checking any value would follow it forever; point it at a schema that describes the value (such as {"type": "string"} under "$defs"), or let the recursion go through "properties" or "items". The tool is listed as the server lists it, and its calls are forwarded unchecked, for the server to check',
      'server "loops": tool "tag_any_of": inputSchema at "/properties/colour/anyOf/0/$ref" has a $ref loop (REF_CYCLE): $ref "#/$defs/colour" loops back without reaching a schema of its own (#/properties/colour/anyOf/0 → #/$defs/colour → #/$defs/colour/allOf/0 → #/properties/colour → #/properties/colour/anyOf/0), so checking any value would follow it forever; point it at a schema that describes the value (such as {"type": "string"} under "$defs"), or let the recursion go through "properties" or "items". The tool is listed as the server lists it, and its calls are forwarded unchecked, for the server to check',
    ]);
  });

  it('forwards the calls of a looping tool unchecked, never overflowing the stack', async () => {
    const { client } = await connectClient(gateway);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(['tag_sibling', 'tag_any_of', 'save_tree']);
    for (const [name, args] of [
      ['tag_sibling', { label: 'urgent' }],
      ['tag_any_of', { colour: 'teal' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBeUndefined();
      expect(JSON.parse(textOf(result))).toEqual(args);
    }
    await client.close();
  });

  it('checks a recursive tree schema, which has no loop, and notes nothing about it', async () => {
    const { client } = await connectClient(gateway);
    const root = { name: 'plan', children: [{ name: 'step', children: [{ name: 'detail' }] }] };
    const ok = await client.callTool({ name: 'save_tree', arguments: { root } });
    expect(JSON.parse(textOf(ok))).toEqual({ root });
    const bad = await client.callTool({
      name: 'save_tree',
      arguments: { root: { name: 'plan', children: [{ children: [] }] } },
    });
    expect(textOf(bad)).toBe(
      'INVALID_INPUT: Invalid input for tool "save_tree": missing required property "name" in /root/children/0. Fix these arguments and call the tool again.',
    );
    await client.close();
  });
});
