import { describe, expect, it } from 'vitest';
import { geminiSchemaToJsonSchema } from '../../../src/providers/import/gemini-schema-to-json-schema.js';

describe('geminiSchemaToJsonSchema', () => {
  it('converts types, nullable, int64 strings, enum formats and examples', () => {
    expect(
      geminiSchemaToJsonSchema({
        type: 'OBJECT',
        propertyOrdering: ['a', 'b'],
        properties: {
          a: {
            type: 'STRING',
            format: 'enum',
            enum: ['x'],
            nullable: true,
            minLength: '1',
            example: 'x',
          },
          b: { type: 'TYPE_UNSPECIFIED', format: 'date-time' },
          c: { anyOf: [{ type: 'INTEGER' }], nullable: true, maxItems: 'many' },
          d: { type: 'ARRAY', items: { type: 'NUMBER', nullable: false } },
          e: { anyOf: 'bad' },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'], enum: ['x', null], minLength: 1, examples: ['x'] },
        b: { format: 'date-time' },
        c: { anyOf: [{ type: 'integer' }, { type: 'null' }], maxItems: 'many' },
        d: { type: 'array', items: { type: 'number' } },
        e: { anyOf: 'bad' },
      },
    });
    expect(geminiSchemaToJsonSchema(undefined)).toBeUndefined();
  });
});
