import { describe, expect, it } from 'vitest';
import { mergeAllOf } from '../../src/json-schema/merge-all-of.js';

describe('mergeAllOf', () => {
  it('returns a node without allOf unchanged', () => {
    const node = { type: 'string' };
    expect(mergeAllOf(node)).toBe(node);
  });

  it('merges properties, required and equal keywords; annotations keep their first value', () => {
    expect(
      mergeAllOf({
        description: 'Outer',
        allOf: [
          {
            type: 'object',
            properties: { a: { type: 'string' } },
            required: ['a'],
            description: 'First',
          },
          {
            type: 'object',
            properties: { b: { type: 'string' }, a: { type: 'string' } },
            required: ['b', 'a'],
          },
          true,
        ],
      }),
    ).toEqual({
      description: 'Outer',
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['a', 'b'],
    });
  });

  it('gives up (undefined) on conflicts, false branches and nested allOf', () => {
    expect(
      mergeAllOf({
        allOf: [
          { properties: { a: { type: 'string' } } },
          { properties: { a: { type: 'number' } } },
        ],
      }),
    ).toBeUndefined();
    expect(mergeAllOf({ allOf: [{ type: 'string' }, { type: 'number' }] })).toBeUndefined();
    expect(mergeAllOf({ allOf: [false] })).toBeUndefined();
    expect(mergeAllOf({ allOf: [{ allOf: [] }] })).toBeUndefined();
  });
});
