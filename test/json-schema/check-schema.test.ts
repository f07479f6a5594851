import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../src/format/limits.js';
import {
  checkSchema,
  measureAndFreeze,
  schemaDialect,
  suggestJsonSchemaType,
} from '../../src/json-schema/check-schema.js';

const check = (schema: Record<string, unknown>) =>
  checkSchema(schema, DEFAULT_LOAD_LIMITS).map((problem) => [problem.code, problem.pointer]);

describe('checkSchema', () => {
  it('accepts typed properties, compositions, local refs and anchors', () => {
    expect(
      check({
        type: 'object',
        properties: {
          a: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          b: { $ref: '#/$defs/b' },
          c: { $ref: '#anchored' },
          d: { type: 'array', prefixItems: [{ type: 'string' }] },
          e: { allOf: [{ type: 'object', properties: { x: { type: 'integer' } } }] },
          f: { $ref: '#' },
        },
        $defs: { b: { type: 'string' }, c: { $anchor: 'anchored', type: 'number' } },
      }),
    ).toEqual([]);
  });

  it('refuses $ref loops that never reach a schema, naming the loop (REF_CYCLE)', () => {
    const full = (schema: Record<string, unknown>) =>
      checkSchema(schema, DEFAULT_LOAD_LIMITS).map(({ code, pointer, message }) => ({
        code,
        pointer,
        message,
      }));
    const fix =
      'so checking any value would follow it forever; point it at a schema that describes the value (such as {"type": "string"} under "$defs"), or let the recursion go through "properties" or "items"';
    expect(full({ type: 'object', properties: { x: { $ref: '#/properties/x' } } })).toEqual([
      {
        code: 'REF_CYCLE',
        pointer: '/properties/x/$ref',
        message: `$ref "#/properties/x" refers to the schema that holds it, ${fix}`,
      },
    ]);
    expect(
      full({
        type: 'object',
        $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
        properties: { x: { $ref: '#/$defs/a' } },
      }),
    ).toEqual([
      {
        code: 'REF_CYCLE',
        pointer: '/$defs/a/$ref',
        message: `$ref "#/$defs/b" loops back without reaching a schema of its own (#/$defs/a → #/$defs/b → #/$defs/a), ${fix}`,
      },
    ]);
    // siblings of the $ref, or an anyOf branch, do not stop the loop: each checks the same value
    expect(
      check({
        type: 'object',
        $defs: {
          a: { type: 'object', $ref: '#/$defs/b' },
          b: { $ref: '#/$defs/a' },
          c: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/c' }] },
          d: { $anchor: 'dee', allOf: [{ not: { $ref: '#dee' } }] },
        },
        properties: { x: { $ref: '#/$defs/a' }, y: { $ref: '#/$defs/c' } },
        allOf: [{ $ref: '#' }],
      }),
    ).toEqual([
      ['REF_CYCLE', '/$defs/a/$ref'],
      ['REF_CYCLE', '/$defs/c/anyOf/1/$ref'],
      ['REF_CYCLE', '/$defs/d/allOf/0/not/$ref'],
      ['REF_CYCLE', '/allOf/0/$ref'],
    ]);
  });

  it('accepts recursion that goes through properties or items', () => {
    expect(
      check({
        type: 'object',
        $defs: {
          node: {
            type: 'object',
            properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } },
          },
          list: {
            anyOf: [
              { type: 'null' },
              { type: 'object', properties: { next: { $ref: '#/$defs/list' } } },
            ],
          },
          alias: { $ref: '#/$defs/node' },
        },
        properties: {
          tree: { $ref: '#/$defs/alias' },
          list: { $ref: '#/$defs/list' },
          self: { $ref: '#' },
          map: { type: 'object', additionalProperties: { $ref: '#/properties/map' } },
        },
      }),
    ).toEqual([]);
  });

  it('lets composition branches require properties of the enclosing object', () => {
    expect(
      check({
        type: 'object',
        properties: { email: { type: 'string' }, phone: { type: 'string' } },
        anyOf: [{ required: ['email'] }, { required: ['phone'] }],
        if: { required: ['email'] },
        then: { required: ['phone'] },
      }),
    ).toEqual([]);
    expect(
      check({
        type: 'object',
        properties: { a: { type: 'string' } },
        oneOf: [{ required: ['zzz'] }],
      }),
    ).toEqual([['REQUIRED_NOT_DEFINED', '/oneOf/0/required/0']]);
  });

  it('finds problems at every depth', () => {
    expect(
      check({
        type: 'object',
        properties: {
          list: {
            type: 'array',
            items: { type: 'object', properties: { deep: { type: 'array' } }, required: ['gone'] },
          },
          untyped_items: { type: 'array', items: { description: 'anything' } },
          bool: true,
          unknown_anchor: { $ref: '#nowhere' },
          bad_key: {
            type: 'object',
            properties: {},
            patternProperties: { '(': { type: 'string' } },
          },
          object_without_properties: { type: 'object', required: ['x'] },
        },
      }),
    ).toEqual([
      ['REQUIRED_NOT_DEFINED', '/properties/list/items/required/0'],
      ['ARRAY_ITEMS_MISSING', '/properties/list/items/properties/deep'],
      ['PROPERTY_TYPE_MISSING', '/properties/untyped_items/items'],
      ['PROPERTY_TYPE_MISSING', '/properties/bool'],
      ['INVALID_PATTERN', '/properties/bad_key/patternProperties/('],
      ['REQUIRED_NOT_DEFINED', '/properties/object_without_properties/required/0'],
      ['REF_NOT_FOUND', '/properties/unknown_anchor/$ref'],
    ]);
  });

  it("suggests the type an untyped value's keywords constrain", () => {
    const messages = checkSchema(
      {
        type: 'object',
        properties: {
          count: { minimum: 0 },
          tags: { minItems: 1 },
          level: { enum: [1, 2] },
          mode: { enum: [1, 2.5, 'auto'] },
          mixed: { minimum: 0, minLength: 1 },
          note: { description: 'x' },
        },
      },
      DEFAULT_LOAD_LIMITS,
    ).map((problem) => problem.message);
    expect(messages).toEqual([
      'property "count" has no "type"; add "type": "number" (or anyOf/oneOf/allOf/$ref for unions)',
      'property "tags" has no "type"; add "type": "array" (or anyOf/oneOf/allOf/$ref for unions)',
      'property "level" has no "type"; add "type": "integer" (or anyOf/oneOf/allOf/$ref for unions)',
      'property "mode" has no "type"; add "type": ["number","string"] (or anyOf/oneOf/allOf/$ref for unions)',
      'property "mixed" has no "type"; add "type": ["string","number"] (or anyOf/oneOf/allOf/$ref for unions)',
      'property "note" has no "type"; add "type": "string" (or anyOf/oneOf/allOf/$ref for unions)',
    ]);
  });

  it('rejects over-long patterns', () => {
    const problems = checkSchema(
      { type: 'object', properties: { a: { type: 'string', pattern: 'a'.repeat(20) } } },
      { maxPatternLength: 10 },
    );
    expect(problems[0]?.message).toMatch(
      /pattern is 20 characters, longer than 10 \(limits\.maxPatternLength\)/,
    );
  });

  it('walks draft-07 tuple items and dependencies', () => {
    expect(
      check({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'array' }] } },
        dependencies: { pair: { required: ['missing'] } },
      }),
    ).toEqual([
      ['ARRAY_ITEMS_MISSING', '/properties/pair/items/1'],
      ['REQUIRED_NOT_DEFINED', '/dependencies/pair/required/0'],
    ]);
  });
});

describe('measureAndFreeze', () => {
  it('freezes every object and array, and measures depth and size without recursion', () => {
    const schema = { type: 'object', properties: { a: { enum: [[1], [2]] } } };
    expect(measureAndFreeze(schema, DEFAULT_LOAD_LIMITS)).toBeUndefined();
    expect(Object.isFrozen(schema.properties.a.enum[0])).toBe(true);
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(measureAndFreeze(deep, DEFAULT_LOAD_LIMITS)?.code).toBe('SCHEMA_TOO_DEEP');
    expect(
      measureAndFreeze(
        Array.from({ length: 30 }, () => 1),
        { maxSchemaDepth: 5, maxSchemaNodes: 10 },
      )?.code,
    ).toBe('SCHEMA_TOO_LARGE');
  });

  it('reports the first too-deep node in document order, with an escaped pointer', () => {
    const limits = { maxSchemaDepth: 3, maxSchemaNodes: 100 };
    const schema = { a: 1, 'x/y~': [{ deep: { deeper: 1 } }], z: { b: { c: { d: 1 } } } };
    expect(measureAndFreeze(schema, limits)).toMatchObject({
      code: 'SCHEMA_TOO_DEEP',
      pointer: '/x~1y~0/0/deep',
    });
    // the buffers reused between calls start clean after a failure
    expect(measureAndFreeze({ z: { b: 1 } }, limits)).toBeUndefined();
    expect(measureAndFreeze({ z: { b: { c: { d: 1 } } } }, limits)?.pointer).toBe('/z/b/c');
    expect(measureAndFreeze(7, limits)).toBeUndefined();
  });
});

describe('schemaDialect', () => {
  it('defaults to 2020-12 and recognizes draft-07 with or without the trailing #', () => {
    expect(schemaDialect({})).toBe('2020-12');
    expect(schemaDialect({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe(
      '2020-12',
    );
    expect(schemaDialect({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('draft-07');
    expect(schemaDialect({ $schema: 'https://json-schema.org/draft-07/schema' })).toBe('draft-07');
    expect(schemaDialect({ $schema: 'http://json-schema.org/draft-04/schema#' })).toBeUndefined();
    expect(schemaDialect({ $schema: 7 })).toBeUndefined();
  });
});

describe('suggestJsonSchemaType', () => {
  it('maps common non-JSON-Schema type names', () => {
    expect(suggestJsonSchemaType('dict')).toBe('object');
    expect(suggestJsonSchemaType('Float')).toBe('number');
    expect(suggestJsonSchemaType('tuple')).toBe('array');
    expect(suggestJsonSchemaType('any')).toBeUndefined();
    expect(suggestJsonSchemaType('constructor')).toBeUndefined();
  });
});
