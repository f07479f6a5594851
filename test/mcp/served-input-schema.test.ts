import { describe, expect, it } from 'vitest';
import { buildUpstreamGroup } from '../../src/mcp/gateway/build-upstream-group.js';
import { servedInputSchema } from '../../src/mcp/gateway/served-input-schema.js';
import { UpstreamInputChecks } from '../../src/mcp/gateway/upstream-input-checks.js';
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

  it('notes a $ref loop once per tool, with the count of further loops, and never a tree', () => {
    const loop = (name: string) => ({ $ref: `#/properties/${name}`, description: name });
    const tree = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      $defs: {
        node: {
          type: 'object',
          properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
    };
    const listing = {
      tools: [
        {
          name: 'two_loops',
          description: 'Two looping properties.',
          inputSchema: { type: 'object', properties: { a: loop('a'), b: loop('b') } },
        },
        { name: 'tree', description: 'A tree.', inputSchema: tree },
        {
          name: 'hidden_loop',
          description: 'Hidden.',
          inputSchema: { type: 'object', properties: { c: loop('c') } },
        },
      ],
    };
    const group = buildUpstreamGroup({
      server: fixtureServer('loops', 'loop-schema-server.mjs'),
      listing,
      overlay: {
        group: 'loops',
        file: 'loops_tools.json',
        description: 'Loops.',
        selection: { strategy: 'always', keywords: [] },
        hidden: ['hidden_loop'],
        pinned: [],
        tools: new Map(),
      },
      reserved: new Set(),
    });
    expect([...group.routes.keys()]).toEqual(['two_loops', 'tree']);
    expect(group.notes).toEqual([
      expect.stringMatching(
        /^tool "two_loops": inputSchema at "\/properties\/a\/\$ref" has a \$ref loop \(REF_CYCLE\) \(and 1 more \$ref loop\(s\)\): \$ref "#\/properties\/a" refers to the schema that holds it/,
      ),
    ]);
    // the call-time check agrees: the loop is forwarded unchecked, the tree is checked
    const checks = new UpstreamInputChecks();
    const registered = { name: 'x' } as never;
    expect(checks.check(registered, group.inputSchemas.get('two_loops')!, { a: 1 })).toEqual({
      ok: true,
      input: { a: 1 },
    });
    expect(
      checks.check(registered, group.inputSchemas.get('tree')!, { root: { kids: [{ kids: 3 }] } })
        .ok,
    ).toBe(false);
  });
});
