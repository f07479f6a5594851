import { describe, expect, it } from 'vitest';
import { flattenRootComposition } from '../../src/json-schema/flatten-root-composition.js';
import { collect } from './sink.js';

describe('flattenRootComposition', () => {
  it('returns a plain object root unchanged (same object)', () => {
    const schema = { type: 'object', properties: {} };
    expect(flattenRootComposition(schema, collect().sink)).toBe(schema);
  });

  it('adds type and properties to a bare root', () => {
    const { sink, codes } = collect();
    expect(flattenRootComposition({ description: 'args' }, sink)).toEqual({
      type: 'object',
      description: 'args',
      properties: {},
    });
    expect(codes()).toEqual(['ROOT_TYPE_SET']);
    expect(
      flattenRootComposition(
        { type: ['object', 'null'], properties: { a: { type: 'string' } } },
        collect().sink,
      ),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
  });

  it('merges a root allOf, following $refs, and warns about conflicting definitions', () => {
    const { sink, warnings } = collect();
    const schema = {
      type: 'object',
      $defs: { Base: { properties: { id: { type: 'string' } }, required: ['id'] } },
      allOf: [
        { $ref: '#/$defs/Base' },
        { properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['name'] },
        true,
      ],
    };
    expect(flattenRootComposition(schema, sink)).toEqual({
      type: 'object',
      $defs: schema.$defs,
      properties: { id: { type: 'string' }, name: { type: 'string' } },
      required: ['id', 'name'],
    });
    expect(warnings().map((warning) => warning.message)).toEqual([
      'property "id" is defined differently by several top-level alternatives; the first definition is kept (at /allOf/1)',
      'top-level "allOf" is not accepted by this provider; its schemas were merged into the root object (at /allOf)',
    ]);
  });

  it('merges anyOf/oneOf alternatives, keeping only commonly required parameters and naming the sets', () => {
    const { sink } = collect();
    const schema = {
      type: 'object',
      description: 'Find an event',
      properties: { calendar: { type: 'string' } },
      required: ['calendar'],
      oneOf: [
        {
          properties: { id: { type: 'string' }, limit: { type: 'integer' } },
          required: ['id', 'limit'],
        },
        {
          properties: { query: { type: 'string' }, limit: { type: 'integer' } },
          required: ['query', 'limit'],
        },
        { properties: { all: { type: 'boolean' } } },
      ],
    };
    const result = flattenRootComposition(schema, sink);
    expect(result).toEqual({
      type: 'object',
      description:
        'Find an event (exactly one of these parameter sets: (id, limit) | (query, limit) | (all))',
      properties: {
        calendar: { type: 'string' },
        id: { type: 'string' },
        limit: { type: 'integer' },
        query: { type: 'string' },
        all: { type: 'boolean' },
      },
      required: ['calendar'],
    });
    const anyOf = flattenRootComposition(
      {
        anyOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        ],
      },
      collect().sink,
    );
    expect(anyOf).toMatchObject({
      description: '(at least one of these parameter sets: (a) | (a))',
      required: ['a'],
    });
  });

  it('moves not/if/then/else into the description and drops enum/const', () => {
    const { sink, codes } = collect();
    const result = flattenRootComposition(
      {
        type: 'object',
        properties: { a: { type: 'string' } },
        not: { required: ['b'] },
        if: { required: ['a'] },
        then: { required: ['c'] },
        enum: [{}],
        const: {},
      },
      sink,
    );
    expect(result).toEqual({
      type: 'object',
      description: '(not: {"required":["b"]}; if: {"required":["a"]}; then: {"required":["c"]})',
      properties: { a: { type: 'string' } },
    });
    expect(codes()).toEqual([
      'ROOT_KEYWORD_MOVED_TO_DESCRIPTION',
      'ROOT_KEYWORD_MOVED_TO_DESCRIPTION',
      'ROOT_KEYWORD_MOVED_TO_DESCRIPTION',
      'ROOT_KEYWORD_DROPPED',
      'ROOT_KEYWORD_DROPPED',
    ]);
  });

  it('throws INVALID_INPUT_SCHEMA for a root that cannot be an object', () => {
    expect(() => flattenRootComposition({ type: 'array', items: {} }, collect().sink)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT_SCHEMA' }),
    );
  });
});
