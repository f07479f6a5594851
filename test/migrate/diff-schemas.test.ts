import { describe, expect, it } from 'vitest';
import { diffSchemas } from '../../src/migrate/diff-schemas.js';

const OPTIONS = {
  oldPointer: '/old',
  newPointer: '/new',
  rootLabel: 'input_schema',
  noun: 'parameter',
};

function summarize(oldSchema: unknown, newSchema: unknown) {
  return diffSchemas(oldSchema, newSchema, OPTIONS).map((change) => [
    change.kind,
    change.effect,
    change.pointer,
    change.message,
  ]);
}

describe('diffSchemas', () => {
  it('treats boolean schemas by what they accept', () => {
    expect(summarize(true, { type: 'string' })).toEqual([
      [
        'constraint_tightened',
        'narrowed',
        '/new',
        'input_schema is now constrained ({"type":"string"}; was unconstrained)',
      ],
    ]);
    expect(summarize({ type: 'string' }, true)[0]?.slice(0, 2)).toEqual([
      'constraint_relaxed',
      'widened',
    ]);
    expect(summarize({ type: 'string' }, false)[0]?.slice(0, 2)).toEqual([
      'constraint_tightened',
      'narrowed',
    ]);
    expect(summarize(false, { type: 'string' })[0]?.slice(0, 2)).toEqual([
      'constraint_relaxed',
      'widened',
    ]);
    expect(summarize('odd', 'other')[0]?.slice(0, 2)).toEqual(['schema_changed', 'changed']);
    expect(summarize(true, { description: 'anything' })[0]?.slice(0, 2)).toEqual([
      'schema_annotation_changed',
      'annotation',
    ]);
  });

  it('treats an added or removed type as narrowing or widening', () => {
    expect(summarize({}, { type: 'string' })[0]?.slice(0, 2)).toEqual([
      'type_narrowed',
      'narrowed',
    ]);
    expect(summarize({ type: 'string' }, {})[0]?.slice(0, 2)).toEqual(['type_widened', 'widened']);
  });

  it('compares array items, including items added and removed', () => {
    const list = (items?: unknown) => ({
      type: 'object',
      properties: { tags: { type: 'array', ...(items === undefined ? {} : { items }) } },
    });
    expect(summarize(list({ type: 'string' }), list({ type: 'integer' }))).toEqual([
      [
        'type_changed',
        'changed',
        '/new/properties/tags/items/type',
        'parameter "tags[]" type changed from "string" to "integer"',
      ],
    ]);
    expect(summarize(list(), list({ type: 'string' }))[0]?.slice(0, 3)).toEqual([
      'constraint_tightened',
      'narrowed',
      '/new/properties/tags/items',
    ]);
    expect(summarize(list({ type: 'string' }), list())[0]?.slice(0, 3)).toEqual([
      'constraint_relaxed',
      'widened',
      '/new/properties/tags',
    ]);
  });

  it('compares tuples (prefixItems and draft-07 items arrays) position by position', () => {
    const tuple = (...types: string[]) => ({ prefixItems: types.map((type) => ({ type })) });
    expect(summarize(tuple('string', 'number'), tuple('string', 'integer'))[0]?.[0]).toBe(
      'type_narrowed',
    );
    expect(summarize(tuple('string'), tuple('string', 'number'))[0]?.slice(0, 2)).toEqual([
      'constraint_tightened',
      'narrowed',
    ]);
    expect(summarize(tuple('string', 'number'), tuple('string'))[0]?.slice(0, 2)).toEqual([
      'constraint_relaxed',
      'widened',
    ]);
    expect(summarize({}, tuple('string'))[0]?.slice(0, 2)).toEqual([
      'constraint_tightened',
      'narrowed',
    ]);
    expect(
      summarize({ items: [{ type: 'string' }] }, { items: [{ type: 'number' }] })[0]?.slice(0, 3),
    ).toEqual(['type_changed', 'changed', '/new/items/0/type']);
    expect(
      summarize({ items: [{ type: 'string' }] }, { items: { type: 'string' } })[0]?.slice(0, 2),
    ).toEqual(['schema_changed', 'changed']);
  });

  it('matches anyOf and allOf entries wherever they moved, then pairs the rest in order', () => {
    const string = { type: 'string' };
    const number = { type: 'number' };
    expect(summarize({ anyOf: [string, number] }, { anyOf: [number, string] })).toEqual([]);
    expect(
      summarize({ anyOf: [string, number] }, { anyOf: [string, { type: 'integer' }] }),
    ).toEqual([
      [
        'type_narrowed',
        'narrowed',
        '/new/anyOf/1/type',
        'parameter "anyOf[1]" type narrowed from "number" to "integer"',
      ],
    ]);
    expect(summarize({ allOf: [string] }, { allOf: [string, { minLength: 1 }] })[0]).toEqual([
      'constraint_tightened',
      'narrowed',
      '/new/allOf/1',
      'input_schema: allOf entry {"minLength":1} was added',
    ]);
    expect(summarize({ allOf: [string, { minLength: 1 }] }, { allOf: [string] })[0]?.[0]).toBe(
      'constraint_relaxed',
    );
    expect(summarize({ oneOf: [string] }, {})[0]?.slice(0, 2)).toEqual([
      'constraint_relaxed',
      'widened',
    ]);
  });

  it('compares shared $defs recursively', () => {
    expect(
      summarize(
        { $defs: { day: { type: 'string', maxLength: 10 } } },
        { $defs: { day: { type: 'string', maxLength: 8 } } },
      ),
    ).toEqual([
      [
        'constraint_tightened',
        'narrowed',
        '/new/$defs/day/maxLength',
        'parameter "$defs.day": maxLength lowered from 10 to 8',
      ],
    ]);
  });

  it('recurses into an additionalProperties schema, and compares schema ↔ boolean', () => {
    expect(
      summarize(
        { additionalProperties: { type: 'string' } },
        { additionalProperties: { type: 'number' } },
      )[0]?.slice(0, 3),
    ).toEqual(['type_changed', 'changed', '/new/additionalProperties/type']);
    expect(
      summarize(
        { additionalProperties: { type: 'string' } },
        { additionalProperties: false },
      )[0]?.[3],
    ).toBe(
      'input_schema: additionalProperties closed (was {"type":"string"}); undeclared properties are now rejected',
    );
    expect(
      summarize(
        { additionalProperties: false },
        { additionalProperties: { type: 'string' } },
      )[0]?.[3],
    ).toBe('input_schema: additionalProperties opened (now {"type":"string"}; was false)');
    expect(summarize({}, { additionalProperties: { type: 'string' } })[0]?.slice(0, 2)).toEqual([
      'constraint_tightened',
      'narrowed',
    ]);
  });

  it('reports bound keywords written in an unexpected form as changed', () => {
    expect(
      summarize({ exclusiveMinimum: true }, { exclusiveMinimum: false })[0]?.slice(0, 2),
    ).toEqual(['constraint_changed', 'changed']);
    expect(summarize({ maxItems: 3 }, {})[0]?.slice(0, 3)).toEqual([
      'constraint_relaxed',
      'widened',
      '/new',
    ]);
    expect(summarize({}, { minProperties: 1 })[0]?.slice(0, 2)).toEqual([
      'constraint_tightened',
      'narrowed',
    ]);
    expect(summarize({ multipleOf: 10 }, { multipleOf: 5 })[0]?.[0]).toBe('constraint_relaxed');
    expect(summarize({ uniqueItems: true }, {})[0]?.[0]).toBe('constraint_relaxed');
    expect(summarize({ pattern: 'a' }, {})[0]?.[0]).toBe('constraint_relaxed');
    expect(summarize({ const: 1 }, {})[0]?.[0]).toBe('constraint_relaxed');
  });

  it('a removed required name whose property stays is "became optional" at the property', () => {
    expect(
      summarize(
        { properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { a: { type: 'string' } } },
      ),
    ).toEqual([
      ['property_became_optional', 'widened', '/new/properties/a', 'parameter "a" became optional'],
    ]);
    // a required name without a property of its own (declared through a composition)
    expect(summarize({ required: ['a'] }, {})[0]?.slice(0, 3)).toEqual([
      'property_became_optional',
      'widened',
      '/old/required/0',
    ]);
  });
});
