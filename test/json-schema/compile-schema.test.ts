import { describe, expect, it } from 'vitest';
import { compileSchema, getCompileCount } from '../../src/json-schema/compile-schema.js';

describe('compileSchema', () => {
  it('compiles once per schema object and reports issues with JSON pointers', () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        when: { type: 'string', format: 'date-time' },
        level: { enum: ['low', 'high'] },
        kind: { const: 'event' },
      },
      required: ['title'],
      additionalProperties: false,
    };
    const before = getCompileCount();
    const validate = compileSchema(schema);
    expect(compileSchema(schema)).toBe(validate);
    expect(getCompileCount()).toBe(before + 1);
    expect(validate({ title: 'x', when: '2026-11-27T10:00:00Z' })).toEqual({ valid: true });
    const result = validate({ when: 'tomorrow', level: 'mid', kind: 'task', extra: 1 });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.issues).toEqual([
      { pointer: '/title', keyword: 'required', message: 'missing required property "title"' },
      {
        pointer: '/extra',
        keyword: 'additionalProperties',
        message: 'unexpected property "extra"; it is not defined in the schema',
      },
      { pointer: '/when', keyword: 'format', message: '/when must match format "date-time"' },
      { pointer: '/level', keyword: 'enum', message: '/level must be one of "low", "high"' },
      { pointer: '/kind', keyword: 'const', message: '/kind must be "event"' },
    ]);
  });

  it('says where a nested required property is missing', () => {
    const validate = compileSchema({
      type: 'object',
      properties: {
        order: {
          type: 'object',
          properties: {
            lines: {
              type: 'array',
              items: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
            },
          },
        },
      },
    });
    const result = validate({ order: { lines: [{ sku: 'a' }, {}] } });
    expect(result.valid ? [] : result.issues).toEqual([
      {
        pointer: '/order/lines/1/sku',
        keyword: 'required',
        message: 'missing required property "sku" in /order/lines/1',
      },
    ]);
  });

  it('names a $ref loop it cannot compile instead of a stack overflow', () => {
    const attempt = () =>
      compileSchema({ type: 'object', properties: { x: { $ref: '#/properties/x' } } });
    expect(attempt).toThrow(
      'a $ref leads back to itself without reaching a schema (REF_CYCLE), or the schema nests too deeply to compile; point the $ref at a schema that describes the value',
    );
    expect(attempt).not.toThrow(/Maximum call stack/);
  });

  it('uses the draft-07 engine when $schema says so', () => {
    const validate = compileSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } },
    });
    expect(validate({ pair: ['a', 1] })).toEqual({ valid: true });
    const result = validate({ pair: ['a', 'b'] });
    expect(result.valid === false && result.issues[0]).toEqual({
      pointer: '/pair/1',
      keyword: 'type',
      message: '/pair/1 must be integer',
    });
  });
});
