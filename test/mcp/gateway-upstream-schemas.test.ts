import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCompileCount } from '../../src/json-schema/compile-schema.js';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import {
  connectClient,
  fixtureServer,
  RAW_SCHEMA_SERVER,
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
