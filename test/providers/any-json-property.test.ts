/**
 * A property that takes any JSON (`z.any()`, Python `Any`, `{}`) is imported as every JSON type
 * with items of any JSON. Each translator must still give its provider something it accepts,
 * and the JSON Schema providers must keep accepting every value.
 */
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/json-schema/compile-schema.js';
import { fromProvider } from '../../src/providers/from-provider.js';
import { PROVIDER_IDS } from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { schemaNodes } from './tool-fixtures.js';

const [imported] = fromProvider('mcp', [
  {
    name: 'log_event',
    description: 'Log an event.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, meta: { description: 'Anything.' } },
      required: ['name', 'meta'],
    },
  },
]).tools;
const tool = imported!;

const ANY_VALUES: unknown[] = [{ source: 'crm' }, 'crm', 3, 2.5, true, null, [[1], { a: [] }]];

function expectAcceptsAnyJson(parameters: unknown): void {
  const validate = compileSchema(parameters as Record<string, unknown>);
  for (const meta of ANY_VALUES) expect(validate({ name: 'x', meta }).valid).toBe(true);
}

describe('a property of any JSON, translated', () => {
  it('is every JSON type in the group file', () => {
    expect(tool.input_schema.properties).toEqual({
      name: { type: 'string' },
      meta: {
        type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
        items: { allOf: [{}] },
        description: 'Anything.',
      },
    });
  });

  it.each([
    'openai',
    'openai-responses',
  ] as const)('%s: sent non-strict, the type list kept and items present', (provider) => {
    const { payload, warnings } = translate([tool], provider);
    const entry = payload[0] as unknown as Record<string, unknown>;
    const fn = (provider === 'openai' ? entry.function : entry) as Record<string, unknown>;
    expect(fn.strict).toBe(false);
    const parameters = fn.parameters as { properties: Record<string, unknown> };
    expect(parameters.properties.meta).toEqual({
      type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
      items: {},
      // OpenAI drops objects without properties
      properties: {},
      description: 'Anything.',
    });
    expect(warnings.map((warning) => warning.code)).toEqual(['STRICT_DISABLED']);
    expectAcceptsAnyJson(parameters);
  });

  it.each([
    ['anthropic', (entry: Record<string, unknown>) => entry.input_schema],
    [
      'bedrock',
      (entry: Record<string, unknown>) => {
        const spec = entry.toolSpec as { inputSchema: { json: unknown } };
        return spec.inputSchema.json;
      },
    ],
    ['mcp', (entry: Record<string, unknown>) => entry.inputSchema],
    ['canonical', (entry: Record<string, unknown>) => entry.parameters],
  ] as const)('%s: sent as it is, without warnings', (provider, schemaOf) => {
    const { payload, warnings } = translate([tool], provider);
    const schema = schemaOf(payload[0] as unknown as Record<string, unknown>) as {
      properties: Record<string, unknown>;
    };
    expect(schema).toEqual(tool.input_schema);
    expect(warnings).toEqual([]);
    expectAcceptsAnyJson(schema);
  });

  it('google: no type arrays (Gemini rejects them): an anyOf of every type, nullable', () => {
    const { payload, warnings } = translate([tool], 'google');
    const declaration = (
      payload[0] as unknown as { functionDeclarations: Record<string, unknown>[] }
    ).functionDeclarations[0]!;
    const parameters = declaration.parameters as { properties: Record<string, unknown> };
    expect(parameters.properties.meta).toEqual({
      description: 'Anything.',
      anyOf: [
        { type: 'STRING', nullable: true },
        { type: 'NUMBER', nullable: true },
        { type: 'BOOLEAN', nullable: true },
        { type: 'OBJECT', nullable: true },
        {
          type: 'ARRAY',
          // typed items; an ARRAY branch here would need the same again without end
          items: {
            anyOf: [
              { type: 'STRING', nullable: true },
              { type: 'NUMBER', nullable: true },
              { type: 'BOOLEAN', nullable: true },
              { type: 'OBJECT', nullable: true },
            ],
          },
          nullable: true,
        },
      ],
    });
    for (const node of schemaNodes(parameters)) {
      expect(Array.isArray(node.type)).toBe(false);
      expect(typeof node.type === 'string' || Array.isArray(node.anyOf)).toBe(true);
    }
    expect(warnings.map((warning) => [warning.code, warning.pointer])).toEqual([
      ['ANY_JSON_ITEMS_NARROWED', '/properties/meta/anyOf/4/items'],
    ]);
    expect(warnings[0]!.message).toContain(
      'items of any JSON were declared as an anyOf of STRING, NUMBER, BOOLEAN and OBJECT (nullable), so arrays nested in this array are not declared',
    );
  });
});

describe('a property of any JSON, sent and read back', () => {
  it.each(
    PROVIDER_IDS,
  )('%s: translate → fromProvider → translate gives the same payload', (provider) => {
    const sent = translate([tool], provider);
    const back = fromProvider(provider, sent.payload);
    // no type inferred for what the translation sent: the type list would nest one level deeper
    expect(back.warnings.filter((warning) => warning.code === 'TYPE_INFERRED')).toEqual([]);
    expect(translate(back.tools, provider).payload).toEqual(sent.payload);
    const again = fromProvider(provider, translate(back.tools, provider).payload);
    expect(again.tools[0]!.input_schema).toEqual(back.tools[0]!.input_schema);
  });

  it.each([
    'openai',
    'openai-responses',
  ] as const)('%s: "items": {} and "properties": {} read back as the any-JSON form', (provider) => {
    const back = fromProvider(provider, translate([tool], provider).payload);
    expect(back.tools[0]!.input_schema.properties).toEqual(tool.input_schema.properties);
    expect(back.warnings).toEqual([]);
  });

  it('google: read back, arrays keep items of every type but array (not only strings)', () => {
    const back = fromProvider('google', translate([tool], 'google').payload);
    const properties = back.tools[0]!.input_schema.properties as Record<string, unknown>;
    const meta = properties.meta as { anyOf: { items?: unknown }[] };
    expect(meta.anyOf[4]!.items).toEqual({
      anyOf: [
        { type: ['string', 'null'] },
        { type: ['number', 'null'] },
        { type: ['boolean', 'null'] },
        { type: ['object', 'null'] },
      ],
    });
  });

  it('a type list of every JSON type without items gets the any-JSON items, as before', () => {
    const { tools, warnings } = fromProvider('mcp', [
      {
        name: 'log_event',
        description: 'Log an event.',
        inputSchema: {
          type: 'object',
          properties: {
            meta: { type: ['string', 'number', 'boolean', 'object', 'array', 'null'] },
          },
        },
      },
    ]);
    expect(tools[0]!.input_schema.properties).toEqual({
      meta: {
        type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
        items: { allOf: [{}] },
      },
    });
    expect(warnings.map((warning) => warning.code)).toEqual(['ARRAY_ITEMS_ADDED']);
  });
});
