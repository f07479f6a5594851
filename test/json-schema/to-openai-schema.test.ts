import { describe, expect, it } from 'vitest';
import { toOpenAISchema } from '../../src/json-schema/to-openai-schema.js';
import { collect } from './sink.js';

function strict(properties: Record<string, unknown>, required: string[] = Object.keys(properties)) {
  const { sink, warnings } = collect();
  const result = toOpenAISchema({ type: 'object', properties, required }, sink, { strict: true });
  return { ...result, warnings: warnings() };
}

describe('toOpenAISchema (strict)', () => {
  it('makes optional properties nullable in the form that fits each type', () => {
    const { schema, strict: isStrict } = strict(
      {
        text: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' }, description: 'Tags' },
        where: { type: 'object', properties: { city: { type: 'string' } }, title: 'Where' },
        mode: { const: 'fast' },
        level: { type: ['integer', 'null'] },
        color: { enum: ['red', 1] },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        legacy: { type: 'string', nullable: true },
        nothing: { const: null },
      },
      [],
    );
    expect(isStrict).toBe(true);
    expect(schema.properties).toEqual({
      text: { type: ['string', 'null'] },
      tags: {
        description: 'Tags',
        anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }],
      },
      where: {
        title: 'Where',
        anyOf: [
          {
            type: 'object',
            properties: { city: { type: ['string', 'null'] } },
            required: ['city'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
      mode: { type: ['string', 'null'], enum: ['fast', null] },
      level: { type: ['integer', 'null'] },
      color: { enum: ['red', 1, null] },
      either: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      legacy: { type: ['string', 'null'] },
      nothing: { const: null },
    });
  });

  it('moves unsupported constraints into the description and drops unknown keywords', () => {
    const { schema, warnings } = strict({
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 20,
        format: 'uri',
        pattern: '^a',
        default: 'a',
        examples: ['ab'],
        'x-order': 1,
      },
      when: { type: 'string', format: 'date-time', deprecated: true },
      list: { type: 'array', items: { type: 'integer' }, uniqueItems: true, minItems: 1 },
    });
    expect(schema.properties).toEqual({
      name: {
        type: 'string',
        pattern: '^a',
        description: '(minLength: 1; maxLength: 20; format: uri; default: a; examples: ["ab"])',
      },
      when: { type: 'string', format: 'date-time', description: '(deprecated: true)' },
      list: {
        type: 'array',
        items: { type: 'integer' },
        minItems: 1,
        description: '(uniqueItems: true)',
      },
    });
    expect(warnings.map((warning) => `${warning.code}:${warning.pointer}`)).toContain(
      'KEYWORD_DROPPED:/properties/name/x-order',
    );
    expect(
      warnings.filter((warning) => warning.code === 'KEYWORD_MOVED_TO_DESCRIPTION'),
    ).toHaveLength(7);
  });

  it('prunes never-branches, collapses single branches, splits type unions, infers types', () => {
    const { schema } = strict({
      count: { anyOf: [{ type: 'number' }, { not: {} }, false], description: 'Count' },
      id: { type: ['string', 'integer'], minLength: 2 },
      shape: { properties: { x: { type: 'number' } } },
      list: { items: { type: 'string' } },
    });
    expect(schema.properties).toEqual({
      count: { description: 'Count', type: 'number' },
      id: { anyOf: [{ type: 'string', description: '(minLength: 2)' }, { type: 'integer' }] },
      shape: {
        type: 'object',
        properties: { x: { type: ['number', 'null'] } },
        required: ['x'],
        additionalProperties: false,
      },
      list: { type: 'array', items: { type: 'string' } },
    });
  });

  it('drops a property whose schema is false', () => {
    const { schema, warnings } = strict({ gone: false, kept: { type: 'string' } });
    expect(schema.properties).toEqual({ kept: { type: 'string' } });
    expect(schema.required).toEqual(['kept']);
    expect(warnings.map((warning) => warning.code)).toEqual(['PROPERTY_DROPPED']);
  });

  it.each([
    [
      'an open map',
      { type: 'object', additionalProperties: { type: 'string' } },
      'additionalProperties other than false',
    ],
    [
      'additionalProperties: true',
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
      'additionalProperties other than false',
    ],
    ['a free-form object', { type: 'object' }, 'an object without declared properties'],
    ['an untyped value', { description: 'anything' }, 'an untyped schema'],
    ['an empty schema', {}, 'an empty schema accepts any value'],
    ['true', true, 'an empty schema accepts any value'],
    ['tuple items', { type: 'array', items: [{ type: 'string' }] }, 'tuple items'],
    [
      'prefixItems',
      { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'string' } },
      'a tuple (prefixItems)',
    ],
    [
      'patternProperties',
      {
        type: 'object',
        properties: {},
        additionalProperties: false,
        patternProperties: { '^x': { type: 'string' } },
      },
      'patternProperties',
    ],
    [
      'oneOf beside anyOf',
      {
        anyOf: [{ type: 'string' }, { type: 'number' }],
        oneOf: [{ type: 'string' }, { type: 'number' }],
      },
      'oneOf beside anyOf',
    ],
    [
      'a conflicting allOf',
      { allOf: [{ type: 'string' }, { type: 'number' }] },
      'allOf whose schemas conflict',
    ],
    ['an array without items', { type: 'array' }, 'an array without items'],
    [
      'an anyOf of nothing',
      { anyOf: [false, { not: {} }] },
      'an anyOf without any possible branch',
    ],
    ['items: false', { type: 'array', items: false }, 'the schema false accepts nothing'],
  ])('falls back to strict: false for %s, saying why', (_label, property, reason) => {
    const { strict: isStrict, warnings, schema } = strict({ value: property });
    expect(isStrict).toBe(false);
    expect(warnings.map((warning) => warning.code)).toEqual(['STRICT_DISABLED']);
    expect(warnings[0]!.message).toContain(reason);
    // the non-strict form keeps the original requirements
    expect(schema.required).toEqual(['value']);
    expect(schema).not.toHaveProperty('additionalProperties');
  });

  it('falls back when a limit is exceeded: depth, properties, enum values, string budget, a large enum', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 10; level++)
      deep = { type: 'object', properties: { next: deep }, required: ['next'] };
    expect(strict({ deep }).warnings[0]!.message).toContain('11 levels of nesting (limit 10)');

    const many = Object.fromEntries(
      Array.from({ length: 5001 }, (_, index) => [`p${index}`, { type: 'integer' }]),
    );
    expect(strict(many).warnings[0]!.message).toContain('5001 properties (limit 5000)');

    const values = Array.from({ length: 600 }, (_, index) => `v${index}`);
    expect(
      strict({ a: { type: 'string', enum: values }, b: { type: 'string', enum: values } })
        .warnings[0]!.message,
    ).toContain('1200 enum values (limit 1000)');

    const long = Array.from({ length: 300 }, (_, index) => `${'x'.repeat(60)}${index}`);
    expect(strict({ a: { type: 'string', enum: long } }).warnings[0]!.message).toContain(
      'an enum of 300 values',
    );

    const names = Object.fromEntries(
      Array.from({ length: 1000 }, (_, index) => [
        `${'n'.repeat(125)}${index}`,
        { type: 'integer', const: 1 },
      ]),
    );
    expect(strict(names).warnings[0]!.message).toContain(
      'characters of property names and enum/const values (limit 120000)',
    );
  });

  it('lists at most five reasons', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 7 }, (_, index) => [`p${index}`, {}]),
    );
    expect(strict(properties).warnings[0]!.message).toContain('; and 2 more');
  });
});

describe('toOpenAISchema (not strict)', () => {
  it('keeps the schema, fixing only what OpenAI always rejects', () => {
    const { sink, codes } = collect();
    const result = toOpenAISchema(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          meta: { type: 'object' },
          list: { type: 'array' },
          choice: {
            oneOf: [
              { type: 'string', format: 'uri', default: null },
              { type: 'integer', default: 3 },
            ],
          },
          both: { allOf: [{ type: 'string' }, { type: 'number' }] },
          map: { type: 'object', additionalProperties: { type: 'string', 'x-kind': 1 } },
        },
        required: ['meta'],
      },
      sink,
      { strict: false },
    );
    expect(result).toEqual({
      strict: false,
      schema: {
        type: 'object',
        properties: {
          meta: { type: 'object', properties: {} },
          list: { type: 'array', items: {} },
          choice: {
            anyOf: [
              { type: 'string', format: 'uri' },
              { type: 'integer', default: 3 },
            ],
          },
          both: { allOf: [{ type: 'string' }, { type: 'number' }] },
          map: {
            type: 'object',
            additionalProperties: { type: 'string', 'x-kind': 1 },
            properties: {},
          },
        },
        required: ['meta'],
      },
    });
    expect(codes()).toEqual([]);
  });
});

describe('toOpenAISchema with untrusted keys', () => {
  it('keeps "__proto__" keywords and properties as plain keys in both modes', () => {
    const schema = JSON.parse(
      '{"type":"object","__proto__":{"polluted":true},"properties":{"__proto__":{"type":"string","__proto__":{"x":1}}}}',
    ) as Record<string, unknown>;
    for (const strict of [true, false]) {
      const { schema: out } = toOpenAISchema(schema, collect().sink, { strict });
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      const property = Object.getOwnPropertyDescriptor(out.properties, '__proto__')
        ?.value as object;
      expect(Object.getPrototypeOf(property)).toBe(Object.prototype);
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    }
  });
});
