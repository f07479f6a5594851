import { describe, expect, it } from 'vitest';
import { validateToolInput } from '../../src/execute/validate-tool-input.js';
import type { JsonSchema, RegisteredTool } from '../../src/format/types.js';
import {
  describeUnsafeProperties,
  errorForClient,
  findUnsafePropertyNames,
  renameProperties,
  toServerArguments,
} from '../../src/mcp/gateway/rename-properties.js';
import { servedInputSchema } from '../../src/mcp/gateway/served-input-schema.js';

const served = (schema: unknown) => servedInputSchema(schema)!;

describe('renameProperties', () => {
  it('renames the top-level keys wherever the schema names them for the same object', () => {
    const schema = served({
      type: 'object',
      properties: {
        'filter[id]': { type: 'string' },
        $top: { type: 'integer' },
        nested: { type: 'object', properties: { 'inner[key]': { type: 'string' } } },
      },
      required: ['filter[id]'],
      dependentRequired: { $top: ['filter[id]'] },
      dependentSchemas: { 'filter[id]': { required: ['$top'] } },
      anyOf: [{ required: ['$top'] }, { properties: { 'filter[id]': { minLength: 2 } } }],
      if: { required: ['$top'] },
      then: { not: { required: ['filter[id]'] } },
      else: { required: ['other'] },
    });
    const renamed = renameProperties(schema)!;
    expect(renamed.servedSchema).toEqual({
      type: 'object',
      properties: {
        filter_id: { type: 'string' },
        top: { type: 'integer' },
        // nested keys keep their names: the APIs check the top level only
        nested: { type: 'object', properties: { 'inner[key]': { type: 'string' } } },
      },
      required: ['filter_id'],
      dependentRequired: { top: ['filter_id'] },
      dependentSchemas: { filter_id: { required: ['top'] } },
      anyOf: [{ required: ['top'] }, { properties: { filter_id: { minLength: 2 } } }],
      if: { required: ['top'] },
      then: { not: { required: ['filter_id'] } },
      else: { required: ['other'] },
    });
    expect([...renamed.toServed]).toEqual([
      ['filter[id]', 'filter_id'],
      ['$top', 'top'],
    ]);
    expect([...renamed.toServer]).toEqual([
      ['filter_id', 'filter[id]'],
      ['top', '$top'],
    ]);
    // the server's schema is unchanged, and what sessions receive cannot change later checks
    expect(renamed.serverSchema).toBe(schema);
    expect(Object.keys(schema.properties as object)).toEqual(['filter[id]', '$top', 'nested']);
    expect(Object.isFrozen(renamed.servedSchema)).toBe(true);
    expect(Object.isFrozen(renamed.servedSchema.properties)).toBe(true);
    expect(Object.isFrozen(renamed.servedSchema.required)).toBe(true);
  });

  it('renames draft-07 dependencies, lists and schemas alike', () => {
    const renamed = renameProperties(
      served({
        $schema: 'http://json-schema.org/draft-07/schema#',
        properties: { 'a b': {}, c: {} },
        dependencies: { 'a b': ['c'], c: { required: ['a b'] } },
      }),
    )!;
    expect(renamed.servedSchema.dependencies).toEqual({ a_b: ['c'], c: { required: ['a_b'] } });
  });

  it('keeps a "__proto__" key as an own property', () => {
    const schema = served(
      JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"$x":{}}}'),
    );
    const properties = renameProperties(schema)!.servedSchema.properties as object;
    expect(Object.keys(properties)).toEqual(['__proto__', 'x']);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it('is undefined when every key is accepted, and findUnsafePropertyNames lists none', () => {
    const schema = served({ type: 'object', properties: { 'x-trace.id': {}, '2fa': {} } });
    expect(renameProperties(schema)).toBeUndefined();
    expect(findUnsafePropertyNames(schema)).toEqual([]);
    expect(renameProperties(served({ type: 'object' }))).toBeUndefined();
    expect(findUnsafePropertyNames(served({ type: 'object', properties: { 'a[0]': {} } }))).toEqual(
      ['a[0]'],
    );
  });
});

describe('calls of a tool with renamed keys', () => {
  const schema = served({
    type: 'object',
    properties: {
      'filter[id]': { type: 'string' },
      'range/from': {
        type: 'object',
        properties: { day: { type: 'integer' } },
        additionalProperties: false,
      },
      query: { type: 'string' },
    },
    required: ['filter[id]', 'query'],
  });
  const renamed = renameProperties(schema)!;
  const tool = { name: 'search' } as RegisteredTool;
  const check = (input: Record<string, unknown>) => {
    const mapped = toServerArguments('search', input, renamed);
    if (!mapped.ok) return mapped.error.message;
    const validation = validateToolInput(tool, mapped.input, schema as JsonSchema);
    return validation.ok
      ? validation.input
      : errorForClient('search', validation.error, mapped.clientNames).message;
  };

  it('maps new keys to the server keys and accepts the server keys too', () => {
    expect(check({ filter_id: 'a', range_from: { day: 1 }, query: 'q' })).toEqual({
      'filter[id]': 'a',
      'range/from': { day: 1 },
      query: 'q',
    });
    expect(check({ 'filter[id]': 'a', query: 'q' })).toEqual({ 'filter[id]': 'a', query: 'q' });
  });

  it('names in problems the key the client sent, and a missing key by its new name', () => {
    expect(check({ filter_id: 1, range_from: { day: 'x', hour: 2 } })).toBe(
      'Invalid input for tool "search": missing required property "query"; /filter_id must be string; unexpected property "hour" in /range_from; it is not defined in the schema; /range_from/day must be integer. Fix these arguments and call the tool again.',
    );
    expect(check({ 'filter[id]': 1, 'range/from': { day: 'x' }, query: 'q' })).toBe(
      'Invalid input for tool "search": /filter[id] must be string; /range~1from/day must be integer. Fix these arguments and call the tool again.',
    );
    expect(check({ query: 'q' })).toBe(
      'Invalid input for tool "search": missing required property "filter_id". Fix these arguments and call the tool again.',
    );
  });

  it("names the client's keys in a dependentRequired problem", () => {
    const dependent = served({
      type: 'object',
      properties: { 'a b': { type: 'string' }, 'c[d]': { type: 'string' } },
      dependentRequired: { 'a b': ['c[d]'] },
    });
    const plan = renameProperties(dependent)!;
    const mapped = toServerArguments('nested', { a_b: 'x' }, plan);
    if (!mapped.ok) throw new Error(mapped.error.message);
    const validation = validateToolInput(tool, mapped.input, dependent as JsonSchema);
    if (validation.ok) throw new Error('expected a problem');
    const { message } = errorForClient('nested', validation.error, mapped.clientNames);
    expect(message).toContain('property c_d when property a_b is present');
    expect(message).not.toContain('c[d]');
  });

  it('refuses a parameter sent under both names', () => {
    expect(check({ filter_id: 'a', 'filter[id]': 'b', query: 'q' })).toBe(
      'Invalid input for tool "search": "filter_id" and "filter[id]" are one parameter ("filter_id" is how this gateway lists the server\'s "filter[id]"); send it once, as "filter_id". Fix these arguments and call the tool again.',
    );
  });
});

describe('describeUnsafeProperties', () => {
  it('lists three tools with three keys each, then how many more', () => {
    const keys = (...names: string[]) => names.map((from) => ({ from }));
    expect(
      describeUnsafeProperties([
        { tool: 'a', keys: keys('$1', '$2', '$3', '$4', '$5') },
        { tool: 'b', keys: keys('x y') },
        { tool: 'c', keys: keys('[c]') },
        { tool: 'd', keys: keys('[d]') },
        { tool: 'e', keys: keys('[e]') },
      ]),
    ).toBe(
      '5 tool(s) have top-level property keys that the Anthropic Messages API and Bedrock Converse reject (they must match ^[a-zA-Z0-9_.-]{1,64}$): a ("$1", "$2", "$3" and 2 more), b ("x y"), c ("[c]") and 2 more. A client that sends these tools to Claude on either (Claude Code does) gets 400 "Property keys should match pattern": the whole request fails, whichever tool it calls. toolcap mcp --safe-property-names (createGateway option safePropertyNames) serves them under names that match',
    );
  });

  it('shortens a key of thousands of characters', () => {
    const text = describeUnsafeProperties([{ tool: 'a', keys: [{ from: '#'.repeat(5_000) }] }]);
    expect(text).toContain(`"${'#'.repeat(64)}… (5000 characters)"`);
    expect(text.length).toBeLessThan(1_000);
  });
});
