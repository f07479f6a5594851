import { describe, expect, it } from 'vitest';
import {
  distributeTypeIntoBranches,
  splitTypeUnion,
} from '../../src/json-schema/split-type-union.js';

describe('splitTypeUnion', () => {
  it('leaves single types and [T, null] alone', () => {
    const nullable = { type: ['string', 'null'] };
    expect(splitTypeUnion(nullable)).toBe(nullable);
    const single = { type: 'string' };
    expect(splitTypeUnion(single)).toBe(single);
  });

  it('splits into one branch per type with the keywords and values of that type', () => {
    expect(
      splitTypeUnion({
        type: ['string', 'integer', 'array', 'object', 'null'],
        description: 'Mixed',
        minLength: 1,
        minimum: 0,
        items: { type: 'string' },
        properties: { a: { type: 'string' } },
        enum: ['x', 1, ['y'], { a: 'z' }, null],
      }),
    ).toEqual({
      description: 'Mixed',
      anyOf: [
        { type: 'string', minLength: 1, enum: ['x'] },
        { type: 'integer', minimum: 0, enum: [1] },
        { type: 'array', items: { type: 'string' }, enum: [['y']] },
        { type: 'object', properties: { a: { type: 'string' } }, enum: [{ a: 'z' }] },
        { type: 'null' },
      ],
    });
  });

  it('keeps a const only in the branch of its type', () => {
    expect(splitTypeUnion({ type: ['string', 'number'], const: 2.5 })).toEqual({
      anyOf: [{ type: 'number', const: 2.5 }],
    });
  });
});

describe('distributeTypeIntoBranches', () => {
  it('moves the type into untyped branches', () => {
    expect(
      distributeTypeIntoBranches({
        type: 'string',
        anyOf: [{ format: 'ipv4' }, { type: 'string', format: 'ipv6' }],
        description: 'IP',
      }),
    ).toEqual({
      anyOf: [
        { type: 'string', format: 'ipv4' },
        { type: 'string', format: 'ipv6' },
      ],
      description: 'IP',
    });
    expect(distributeTypeIntoBranches({ type: 'string', oneOf: [{ minLength: 1 }] })).toEqual({
      oneOf: [{ type: 'string', minLength: 1 }],
    });
  });

  it('leaves nodes without type, without branches, or with typed branches alone', () => {
    for (const node of [
      { anyOf: [{}] },
      { type: 'string' },
      { type: 'string', anyOf: [{ type: 'string' }] },
    ]) {
      expect(distributeTypeIntoBranches(node)).toBe(node);
    }
  });
});
