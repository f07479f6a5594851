import { describe, expect, it } from 'vitest';
import { upgradeToDraft2020 } from '../../src/json-schema/upgrade-to-draft-2020.js';
import { collect } from './sink.js';

describe('upgradeToDraft2020', () => {
  it('returns a 2020-12-clean schema unchanged (same object)', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { type: 'number', exclusiveMinimum: 0 } },
    };
    expect(upgradeToDraft2020(schema, collect().sink)).toBe(schema);
  });

  it('rewrites tuples, boolean exclusive bounds and dependencies, and the declared dialect', () => {
    const { sink, codes } = collect();
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        point: {
          type: 'array',
          items: [{ type: 'number' }, { type: 'number' }],
          additionalItems: false,
        },
        page: {
          type: 'integer',
          minimum: 1,
          exclusiveMinimum: true,
          maximum: 10,
          exclusiveMaximum: true,
        },
        size: {
          type: 'integer',
          minimum: 1,
          exclusiveMinimum: false,
          maximum: 5,
          exclusiveMaximum: false,
        },
      },
      dependencies: { card: ['billing'], billing: { required: ['card'] } },
    };
    expect(upgradeToDraft2020(schema, sink)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        point: {
          type: 'array',
          prefixItems: [{ type: 'number' }, { type: 'number' }],
          items: false,
        },
        page: { type: 'integer', exclusiveMinimum: 1, exclusiveMaximum: 10 },
        size: { type: 'integer', minimum: 1, maximum: 5 },
      },
      dependentRequired: { card: ['billing'] },
      dependentSchemas: { billing: { required: ['card'] } },
    });
    expect(codes()).toEqual([
      'SCHEMA_DIALECT_CONVERTED',
      'SCHEMA_DIALECT_CONVERTED',
      'SCHEMA_DIALECT_CONVERTED',
    ]);
  });

  it('keeps an absent $schema absent', () => {
    const result = upgradeToDraft2020(
      { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } },
      collect().sink,
    );
    expect(result).toEqual({
      type: 'object',
      properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } },
    });
  });
});
