import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/json-schema/compile-schema.js';
import { removeNullOptionals } from '../../src/json-schema/remove-null-optionals.js';
import { translate } from '../../src/providers/translate.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';

describe('removeNullOptionals', () => {
  const schema = {
    type: 'object',
    properties: {
      title: { type: 'string' },
      end: { type: 'string' },
      note: { type: ['string', 'null'] },
      location: {
        type: 'object',
        properties: { city: { type: 'string' }, room: { type: 'string' } },
        required: ['city'],
      },
      attendees: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, email: { type: 'string' } },
          required: ['name'],
        },
      },
    },
    required: ['title'],
  };

  it('drops nulls of optional properties at every depth, keeps required and nullable ones', () => {
    const input = {
      title: null,
      end: null,
      note: null,
      location: { city: 'Oslo', room: null },
      attendees: [
        { name: 'Dana', email: null },
        { name: 'Lee', email: 'lee@example.com' },
      ],
    };
    expect(removeNullOptionals(schema, input)).toEqual({
      title: null,
      note: null,
      location: { city: 'Oslo' },
      attendees: [{ name: 'Dana' }, { name: 'Lee', email: 'lee@example.com' }],
    });
  });

  it('returns the input itself when nothing changes, and never mutates it', () => {
    const input = { title: 'Review', attendees: [{ name: 'Dana' }] };
    expect(removeNullOptionals(schema, input)).toBe(input);
    const withNull = Object.freeze({ title: 'Review', end: null });
    expect(removeNullOptionals(schema, withNull)).toEqual({ title: 'Review' });
    expect(withNull).toEqual({ title: 'Review', end: null });
    expect(removeNullOptionals(schema, 'text')).toBe('text');
    expect(removeNullOptionals(schema, null)).toBe(null);
  });

  it('follows $ref, allOf, prefixItems, additionalProperties and the best anyOf branch', () => {
    const composed = {
      type: 'object',
      $defs: {
        Range: {
          type: 'object',
          properties: { from: { type: 'string' }, to: { type: 'string' } },
          required: ['from'],
        },
      },
      properties: {
        range: { $ref: '#/$defs/Range' },
        both: { allOf: [{ $ref: '#/$defs/Range' }, { properties: { step: { type: 'integer' } } }] },
        pair: {
          type: 'array',
          prefixItems: [{ $ref: '#/$defs/Range' }],
          items: { type: 'object', properties: { x: { type: 'number' } } },
        },
        map: { type: 'object', additionalProperties: { $ref: '#/$defs/Range' } },
        target: {
          anyOf: [
            {
              type: 'object',
              properties: { path: { type: 'string' }, line: { type: 'integer' } },
              required: ['path'],
            },
            {
              type: 'object',
              properties: { url: { type: 'string' }, anchor: { type: 'string' } },
              required: ['url'],
            },
          ],
        },
        any: {},
        choice: { enum: ['a', null] },
        constant: { const: null },
        untyped: { description: 'anything' },
        union: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        intersection: { allOf: [{ type: 'string' }] },
      },
    };
    const input = {
      range: { from: 'a', to: null },
      both: { from: 'a', to: null, step: null },
      pair: [{ from: 'a', to: null }, { x: null }],
      map: { first: { from: 'a', to: null } },
      target: { url: 'https://example.com', anchor: null },
      any: null,
      choice: null,
      constant: null,
      untyped: null,
      union: null,
      intersection: null,
    };
    expect(removeNullOptionals(composed, input)).toEqual({
      range: { from: 'a' },
      both: { from: 'a' },
      pair: [{ from: 'a' }, {}],
      map: { first: { from: 'a' } },
      target: { url: 'https://example.com' },
      any: null,
      choice: null,
      constant: null,
      untyped: null,
      union: null,
    });
  });

  it('keeps own keys such as __proto__ as plain data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "end": null}') as Record<
      string,
      unknown
    >;
    const cleaned = removeNullOptionals(schema, input) as Record<string, unknown>;
    expect(Object.hasOwn(cleaned, '__proto__')).toBe(true);
    expect(Object.hasOwn(cleaned, 'end')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('turns OpenAI strict arguments back into input the original schema accepts', async () => {
    const registry = await loadRegistry({ dirs: ['schemas'], strict: true });
    const tool = registry.get('create_event')!;
    const { payload } = translate([tool], 'openai');
    const strictParameters = payload[0]!.function.parameters;
    // what a strict model sends when the user gave only title and start
    const modelArguments = {
      title: 'Design review',
      start: '2026-11-27T10:00:00Z',
      end: null,
      attendees: null,
      location: null,
    };
    expect(compileSchema(strictParameters)(modelArguments)).toEqual({ valid: true });
    expect(compileSchema(tool.input_schema)(modelArguments).valid).toBe(false);
    const cleaned = removeNullOptionals(tool.input_schema, modelArguments);
    expect(cleaned).toEqual({ title: 'Design review', start: '2026-11-27T10:00:00Z' });
    expect(compileSchema(tool.input_schema)(cleaned)).toEqual({ valid: true });
  });
});
