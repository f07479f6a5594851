import { describe, expect, it } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import { inlineRefs } from '../../src/json-schema/inline-refs.js';
import { collect } from './sink.js';

describe('inlineRefs', () => {
  it('returns a schema without $ref or $defs unchanged (same object)', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(inlineRefs(schema, collect().sink)).toBe(schema);
  });

  it('inlines $defs, definitions, anchors and pointers into properties; drops the definitions', () => {
    const { sink, codes } = collect();
    const schema = {
      type: 'object',
      $defs: { Name: { type: 'string', minLength: 1 } },
      definitions: { Age: { type: 'integer', $anchor: 'age' } },
      properties: {
        name: { $ref: '#/$defs/Name' },
        age: { $ref: '#age' },
        alias: { $ref: '#/properties/name' },
        legacy: { $ref: '#/definitions/Age' },
        encoded: { $ref: '#/$defs/N%61me' },
      },
    };
    expect(inlineRefs(schema, sink)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        age: { type: 'integer' },
        alias: { type: 'string', minLength: 1 },
        legacy: { type: 'integer' },
        encoded: { type: 'string', minLength: 1 },
      },
    });
    expect(codes()).toEqual([]);
  });

  it('merges sibling keywords over the target (required and properties united)', () => {
    const schema = {
      type: 'object',
      $defs: {
        Point: {
          type: 'object',
          properties: { x: { type: 'number' } },
          required: ['x'],
          description: 'A point',
        },
      },
      properties: {
        at: {
          $ref: '#/$defs/Point',
          description: 'Where',
          properties: { y: { type: 'number' } },
          required: ['y'],
        },
        any: { $ref: '#/$defs/Any', description: 'Anything' },
        never: { $ref: '#/$defs/Never', description: 'Nothing' },
      },
    };
    (schema.$defs as Record<string, unknown>).Any = true;
    (schema.$defs as Record<string, unknown>).Never = false;
    expect(inlineRefs(schema, collect().sink).properties).toEqual({
      at: {
        type: 'object',
        properties: { x: { type: 'number' }, y: { type: 'number' } },
        required: ['x', 'y'],
        description: 'Where',
      },
      any: { description: 'Anything' },
      never: false,
    });
  });

  it('unrolls recursion recursionDepth levels, then drops the recursive property (and its required entry)', () => {
    const { sink, warnings } = collect();
    const schema = {
      type: 'object',
      properties: {
        tree: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/properties/tree' } },
          },
          required: ['name', 'children'],
        },
      },
    };
    const result = inlineRefs(schema, sink, { recursionDepth: 1 });
    expect(result.properties).toEqual({
      tree: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
        required: ['name', 'children'],
      },
    });
    expect(warnings()).toEqual([
      expect.objectContaining({
        code: 'RECURSIVE_SCHEMA_UNROLLED',
        pointer: '/properties/tree/properties/children/items/properties/children/items',
      }),
    ]);
  });

  it('drops recursive anyOf branches and constraints, and a whole allOf that recursed', () => {
    const schema = {
      type: 'object',
      $defs: {
        Expr: {
          anyOf: [
            { type: 'number' },
            { type: 'object', properties: { not: { $ref: '#/$defs/Expr' } } },
          ],
        },
        Loop: { allOf: [{ $ref: '#/$defs/Loop' }] },
        Guard: {
          type: 'object',
          not: { $ref: '#/$defs/Guard' },
          patternProperties: { '^x': { $ref: '#/$defs/Guard' } },
        },
      },
      properties: {
        expr: { $ref: '#/$defs/Expr' },
        loop: { $ref: '#/$defs/Loop' },
        guard: { $ref: '#/$defs/Guard' },
      },
    };
    const result = inlineRefs(schema, collect().sink, { recursionDepth: 1 });
    // depth 1: each definition is expanded once; where it recurs, the property, branch or
    // constraint goes, and a recursive allOf takes its whole property with it
    expect(result.properties).toEqual({
      expr: { anyOf: [{ type: 'number' }, { type: 'object', properties: {} }] },
      guard: { type: 'object', patternProperties: {} },
    });
    const deeper = inlineRefs(schema, collect().sink, { recursionDepth: 2 });
    expect((deeper.properties as Record<string, unknown>).expr).toEqual({
      anyOf: [
        { type: 'number' },
        {
          type: 'object',
          properties: { not: { anyOf: [{ type: 'number' }, { type: 'object', properties: {} }] } },
        },
      ],
    });
  });

  it('keeps draft-07 dependencies, expanding their schemas', () => {
    const schema = {
      type: 'object',
      $defs: { Card: { required: ['billing'] } },
      properties: { card: { type: 'string' }, billing: { type: 'string' } },
      dependencies: { card: { $ref: '#/$defs/Card' }, billing: ['card'] },
    };
    expect(inlineRefs(schema, collect().sink).dependencies).toEqual({
      card: { required: ['billing'] },
      billing: ['card'],
    });
  });

  it('throws UNRESOLVABLE_REF for external, missing and self-only refs', () => {
    const external = { type: 'object', properties: { a: { $ref: 'other.json#/x' } } };
    expect(() => inlineRefs(external, collect().sink)).toThrow(
      expect.objectContaining({ code: 'UNRESOLVABLE_REF', pointer: '/properties/a' }),
    );
    const missing = { type: 'object', properties: { a: { $ref: '#/$defs/nope' } } };
    expect(() => inlineRefs(missing, collect().sink)).toThrow(/does not resolve/);
    const anchor = { type: 'object', properties: { a: { $ref: '#nowhere' } } };
    expect(() => inlineRefs(anchor, collect().sink)).toThrow(TranslationError);
    expect(() => inlineRefs({ $ref: '#' }, collect().sink, { recursionDepth: 0 })).toThrow(
      /refers to itself at the root/,
    );
  });

  it('refuses expansions that explode (SCHEMA_TOO_COMPLEX)', () => {
    const schema = {
      type: 'object',
      $defs: {
        Leaf: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } },
      },
      properties: Object.fromEntries(
        Array.from({ length: 20 }, (_, index) => [`p${index}`, { $ref: '#/$defs/Leaf' }]),
      ),
    };
    expect(() => inlineRefs(schema, collect().sink, { maxNodes: 30 })).toThrow(
      expect.objectContaining({ code: 'SCHEMA_TOO_COMPLEX' }),
    );
  });
});
