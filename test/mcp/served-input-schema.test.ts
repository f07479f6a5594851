import { describe, expect, it } from 'vitest';
import { buildUpstreamGroup } from '../../src/mcp/gateway/build-upstream-group.js';
import { servedInputSchema } from '../../src/mcp/gateway/served-input-schema.js';
import { fixtureServer } from './gateway-helpers.js';

describe('servedInputSchema', () => {
  it("keeps the server's schema, adjusting only what MCP requires of the root", () => {
    const listed = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { value: {}, list: { type: 'array' }, when: { type: 'dict' } },
      required: ['value'],
    };
    expect(servedInputSchema(listed)).toEqual(listed);
    expect(servedInputSchema({ type: ['object', 'null'], properties: {} })).toEqual({
      type: 'object',
      properties: {},
    });
    expect(servedInputSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(servedInputSchema('none')).toEqual({ type: 'object', properties: {} });
  });

  it('lists boolean property schemas in their object form and drops invalid root keywords', () => {
    const listed = JSON.parse(
      '{"properties": {"any": true, "never": false, "__proto__": true}, "required": ["any", 3]}',
    );
    const served = servedInputSchema(listed)!;
    expect(served).toEqual({
      type: 'object',
      properties: JSON.parse('{"any": {}, "never": {"not": {}}, "__proto__": {}}'),
      required: ['any'],
    });
    expect(Object.getPrototypeOf(served.properties)).toBe(Object.prototype);
    // the listing itself is left as it was
    expect(listed.properties.any).toBe(true);
    expect(servedInputSchema({ type: 'object', properties: [], required: 'all' })).toEqual({
      type: 'object',
    });
  });

  it('is a frozen copy, and undefined when it cannot be served', () => {
    const listed = { type: 'object', properties: { a: { type: 'string' } } };
    const served = servedInputSchema(listed)!;
    expect(Object.isFrozen(served.properties)).toBe(true);
    expect(served.properties).not.toBe(listed.properties);
    expect(servedInputSchema({ type: 'string' })).toBeUndefined();
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 100; level++) deep = { type: 'object', properties: { a: deep } };
    expect(servedInputSchema(deep)).toBeUndefined();
  });
});

describe("buildUpstreamGroup and the servers' schemas", () => {
  it('skips a tool whose schema is too deep to serve, and says why', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 100; level++) deep = { type: 'object', properties: { a: deep } };
    const group = buildUpstreamGroup({
      server: fixtureServer('deep', 'deep-server.mjs'),
      listing: {
        tools: [
          { name: 'nested', description: 'Read a nested record.', inputSchema: deep },
          { name: 'bare', description: 'Ping the service.', inputSchema: 'none' },
        ],
      },
      overlay: undefined,
      reserved: new Set(),
    });
    expect([...group.routes.keys()]).toEqual(['bare']);
    expect(group.inputSchemas.get('bare')).toEqual({ type: 'object', properties: {} });
    expect(group.notes).toEqual([
      // the server listed no schema object: what is listed instead is worth a note
      'SCHEMA_REPLACED bare: the input schema was "none", not an object; the tool takes no parameters now (at the root)',
      expect.stringMatching(
        /^TOOL_SKIPPED nested: tool "nested" was left out because the loader rejects it: SCHEMA_TOO_DEEP/,
      ),
    ]);
  });
});
