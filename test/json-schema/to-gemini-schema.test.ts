import { describe, expect, it } from 'vitest';
import { toGeminiSchema } from '../../src/json-schema/to-gemini-schema.js';
import { collect } from './sink.js';

function convert(properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const { sink, warnings } = collect();
  const schema = toGeminiSchema({ type: 'object', properties, ...extra }, sink);
  return { schema, properties: schema?.properties, warnings: warnings() };
}

describe('toGeminiSchema', () => {
  it('omits parameters for tools without parameters (also when every property was dropped)', () => {
    expect(convert({}).schema).toBeUndefined();
    expect(convert({ never: false, nothing: { type: 'null' } }).schema).toBeUndefined();
  });

  it('keeps properties literally named strict or additionalProperties', () => {
    expect(
      convert({
        strict: { type: 'boolean' },
        additionalProperties: { type: 'string' },
        $schema: { type: 'string' },
      }).properties,
    ).toEqual({
      strict: { type: 'BOOLEAN' },
      additionalProperties: { type: 'STRING' },
      $schema: { type: 'STRING' },
    });
  });

  it('upper-cases types and converts limits to int64 strings, keeping what Gemini supports', () => {
    expect(
      convert({
        name: {
          type: 'string',
          title: 'Name',
          minLength: 1,
          maxLength: 10,
          pattern: '^a',
          default: 'a',
          examples: ['ab'],
          format: 'enum',
          enum: ['a', 'ab'],
        },
        count: {
          type: 'integer',
          minimum: 0,
          maximum: 9,
          format: 'int32',
          example: 3,
          minLength: -1,
        },
        ratio: { type: 'number', format: 'double' },
        list: { type: 'array', items: { type: 'boolean' }, minItems: 1, maxItems: 3 },
        bag: {
          type: 'object',
          properties: { k: { type: 'string' } },
          minProperties: 1,
          maxProperties: 2,
          required: ['k', 'k'],
        },
      }).properties,
    ).toEqual({
      name: {
        type: 'STRING',
        title: 'Name',
        minLength: '1',
        maxLength: '10',
        pattern: '^a',
        default: 'a',
        example: 'ab',
        format: 'enum',
        enum: ['a', 'ab'],
      },
      count: { type: 'INTEGER', minimum: 0, maximum: 9, format: 'int32', example: 3 },
      ratio: { type: 'NUMBER', format: 'double' },
      list: { type: 'ARRAY', items: { type: 'BOOLEAN' }, minItems: '1', maxItems: '3' },
      bag: {
        type: 'OBJECT',
        properties: { k: { type: 'STRING' } },
        minProperties: '1',
        maxProperties: '2',
        required: ['k'],
      },
    });
  });

  it('turns nulls into nullable: type arrays, null branches, null enum values', () => {
    expect(
      convert({
        a: { type: ['integer', 'null'] },
        b: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'B' },
        c: { type: 'string', enum: ['x', null] },
        d: { type: ['string', 'integer', 'null'] },
        e: { type: 'string', nullable: true },
        f: { anyOf: [{ type: 'string' }, { enum: [null] }] },
      }).properties,
    ).toEqual({
      a: { type: 'INTEGER', nullable: true },
      b: { type: 'STRING', nullable: true, description: 'B' },
      c: { type: 'STRING', nullable: true, enum: ['x'] },
      d: {
        anyOf: [
          { type: 'STRING', nullable: true },
          { type: 'INTEGER', nullable: true },
        ],
      },
      e: { type: 'STRING', nullable: true },
      f: { type: 'STRING', nullable: true },
    });
  });

  it('oneOf → anyOf, allOf merged (or described), const → enum, branches get the node type', () => {
    const { properties, warnings } = convert({
      pick: { oneOf: [{ type: 'string' }, { type: 'integer' }], anyOf: [{ type: 'boolean' }] },
      merged: {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { properties: { b: { type: 'string' } } },
        ],
      },
      clash: { allOf: [{ type: 'string' }, { type: 'number' }], type: 'string' },
      fixed: { const: 'on' },
      number: { const: 3 },
      ip: { type: 'string', anyOf: [{ format: 'date-time' }, { pattern: '^1' }] },
    });
    expect(properties).toEqual({
      pick: { anyOf: [{ type: 'BOOLEAN' }, { type: 'STRING' }, { type: 'INTEGER' }] },
      merged: { type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'STRING' } } },
      clash: { type: 'STRING', description: '(allOf: [{"type":"string"},{"type":"number"}])' },
      fixed: { type: 'STRING', enum: ['on'] },
      number: { type: 'INTEGER', description: '(allowed values: 3)' },
      ip: {
        anyOf: [
          { type: 'STRING', format: 'date-time' },
          { type: 'STRING', pattern: '^1' },
        ],
      },
    });
    expect(warnings.map((warning) => warning.code)).toEqual([
      'KEYWORD_MOVED_TO_DESCRIPTION',
      'ENUM_MOVED_TO_DESCRIPTION',
    ]);
  });

  it('moves unsupported constraints and formats into descriptions, drops the rest with warnings', () => {
    const { properties, warnings } = convert({
      n: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5, format: 'float32' },
      s: { type: 'string', format: 'email', description: 'Mail', 'x-secret': true, readOnly: true },
      m: { type: 'object', additionalProperties: { type: 'string' } },
      l: { type: 'array', uniqueItems: true },
      any: true,
      other: 'junk',
      t: { type: 'array', items: [{ type: 'string' }] },
    });
    expect(properties).toEqual({
      n: { type: 'NUMBER', description: '(exclusiveMinimum: 0; multipleOf: 0.5; format: float32)' },
      s: { type: 'STRING', description: 'Mail (format: email)' },
      m: { type: 'OBJECT' },
      l: { type: 'ARRAY', description: '(uniqueItems: true)', items: { type: 'STRING' } },
      any: { type: 'STRING' },
      other: { type: 'STRING' },
      t: { type: 'ARRAY', items: { type: 'STRING' } },
    });
    expect(warnings.map((warning) => warning.code).sort()).toEqual(
      [
        'ARRAY_ITEMS_ADDED',
        'KEYWORD_DROPPED',
        'KEYWORD_DROPPED',
        'KEYWORD_MOVED_TO_DESCRIPTION',
        'KEYWORD_MOVED_TO_DESCRIPTION',
        'KEYWORD_MOVED_TO_DESCRIPTION',
        'KEYWORD_MOVED_TO_DESCRIPTION',
        'KEYWORD_MOVED_TO_DESCRIPTION',
        'UNTYPED_SCHEMA_AS_STRING',
      ].sort(),
    );
  });

  it('declares untyped values STRING, keeping their description and noting dropped details', () => {
    expect(
      convert({
        v: { description: 'Any value', title: 'V', uniqueItems: true },
        w: { enum: [1, 'a'] },
        x: { anyOf: [{ type: 'string' }, false] },
      }).properties,
    ).toEqual({
      v: { type: 'STRING', description: 'Any value (uniqueItems: true)', title: 'V' },
      w: { type: 'STRING', description: '(allowed values: 1, "a")' },
      x: { type: 'STRING' },
    });
  });

  it('keeps empty nested objects without properties, so required stays valid', () => {
    expect(
      convert({ options: { type: 'object', properties: {} } }, { required: ['options'] }).schema,
    ).toEqual({
      type: 'OBJECT',
      properties: { options: { type: 'OBJECT' } },
      required: ['options'],
    });
  });

  it('warns about parameter names Gemini documents as invalid, keeping them', () => {
    const { properties, warnings } = convert({ 'max-results': { type: 'integer' } });
    expect(properties).toEqual({ 'max-results': { type: 'INTEGER' } });
    expect(warnings.map((warning) => warning.code)).toEqual(['PARAMETER_NAME_INVALID']);
  });

  it('refuses schemas nested deeper than it can walk', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 300; level++) deep = { type: 'array', items: deep };
    expect(() => convert({ deep })).toThrow(
      expect.objectContaining({ code: 'SCHEMA_TOO_COMPLEX' }),
    );
  });
});
