import { describe, expect, it } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import type { ToolDefinition } from '../../src/format/types.js';
import { checkSchema } from '../../src/json-schema/check-schema.js';
import { fromProvider } from '../../src/providers/from-provider.js';
import { PROVIDER_IDS, type ProviderId } from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { loadCorpus } from './corpus-helpers.js';
import { makeTool } from './tool-fixtures.js';

const registry = await loadRegistry({ dirs: ['schemas'], strict: true });
const bundled: readonly ToolDefinition[] = registry.list();

/** The parts of a tool every format can carry. */
function essentials(tool: ToolDefinition) {
  return { name: tool.name, description: tool.description, input_schema: tool.input_schema };
}

describe('fromProvider: round trips', () => {
  it.each([
    'anthropic',
    'mcp',
    'canonical',
  ] as const)('canonical → %s → canonical gives back the same tools', (provider) => {
    const { payload } = translate(bundled, provider);
    const result = fromProvider(provider, payload);
    expect(result.warnings).toEqual([]);
    expect(result.nameMap).toEqual({});
    expect(result.tools.map(essentials)).toEqual(bundled.map(essentials));
  });

  it('mcp keeps title, output schema, and every annotation; the category comes back from the hints', () => {
    const { payload } = translate(bundled, 'mcp');
    const back = fromProvider('mcp', payload).tools;
    expect(back.map((tool) => [tool.name, tool.category, tool.title])).toEqual(
      bundled.map((tool) => [tool.name, tool.category, tool.title]),
    );
    // the translation of the import is the same payload, byte for byte
    expect(JSON.stringify(translate(back, 'mcp').payload)).toBe(JSON.stringify(payload));
  });

  it('canonical keeps group-file fields when the entry carries them', () => {
    const entries = bundled.map((tool) => ({ ...tool, parameters: tool.input_schema }));
    const back = fromProvider('canonical', entries).tools;
    expect(back.map((tool) => [tool.category, tool.metadata, tool.tags])).toEqual(
      bundled.map((tool) => [
        tool.category,
        { ...tool.metadata, requires_context: [...tool.metadata.requires_context] },
        tool.tags,
      ]),
    );
  });

  it.each(
    PROVIDER_IDS,
  )('%s: every bundled tool comes back with its name and a loadable schema', (provider: ProviderId) => {
    const { payload } = translate(bundled, provider);
    const back = fromProvider(provider, payload).tools;
    expect(back.map((tool) => tool.name)).toEqual(bundled.map((tool) => tool.name));
    for (const tool of back) {
      expect(checkSchema(tool.input_schema, { maxPatternLength: 1000 }), tool.name).toEqual([]);
    }
  });

  it('gemini parameters come back as JSON Schema (types, nullable, int64 strings)', () => {
    const tool = makeTool({
      type: 'object',
      properties: {
        text: { type: 'string', minLength: 1 },
        note: { type: ['string', 'null'] },
        pick: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
        mood: { type: ['string', 'null'], enum: ['good', 'bad', null] },
      },
      required: ['text'],
    });
    const { payload } = translate([tool], 'google');
    const [back] = fromProvider('google', payload).tools;
    expect(back!.input_schema).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', minLength: 1 },
        note: { type: ['string', 'null'] },
        pick: { anyOf: [{ type: ['string', 'null'] }, { type: ['integer', 'null'] }] },
        mood: { type: ['string', 'null'], enum: ['good', 'bad', null] },
      },
      required: ['text'],
    });
  });
});

describe('fromProvider: payload shapes', () => {
  const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };

  it('reads wrappers: MCP {tools}, Bedrock toolConfig, a single tool, Responses namespaces', () => {
    expect(
      fromProvider('mcp', { tools: [{ name: 'a', description: 'A', inputSchema: schema }] }).tools,
    ).toHaveLength(1);
    expect(
      fromProvider('bedrock', {
        toolConfig: { tools: [{ toolSpec: { name: 'a', inputSchema: { json: schema } } }] },
      }).tools,
    ).toHaveLength(1);
    expect(
      fromProvider('canonical', { name: 'a', description: 'A', parameters: schema }).tools,
    ).toHaveLength(1);
    const namespaced = fromProvider('openai-responses', [
      {
        type: 'namespace',
        name: 'crm',
        description: 'CRM',
        tools: [{ type: 'function', name: 'find_contact', parameters: schema, strict: true }],
      },
    ]);
    expect(namespaced.tools.map((tool) => tool.name)).toEqual(['find_contact']);
    const legacy = fromProvider('openai', [{ name: 'legacy_function', parameters: schema }]);
    expect(legacy.tools.map((tool) => tool.name)).toEqual(['legacy_function']);
    const snake = fromProvider('google', {
      function_declarations: [{ name: 'g', parameters_json_schema: schema }],
    });
    expect(snake.tools[0]!.input_schema).toEqual(schema);
  });

  it('skips entries that are not custom function tools, with a warning each', () => {
    const result = fromProvider('anthropic', [
      { type: 'web_search_20250305', name: 'web_search' },
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
      'junk',
      { description: 'no name', input_schema: schema },
      { name: 'kept', input_schema: schema },
    ]);
    expect(result.tools.map((tool) => tool.name)).toEqual(['kept']);
    expect(result.warnings.map((warning) => `${warning.code} ${warning.pointer}`)).toEqual([
      'ENTRY_SKIPPED /0',
      'ENTRY_SKIPPED /1',
      'ENTRY_SKIPPED /2',
      'ENTRY_SKIPPED /3',
      'DESCRIPTION_MISSING undefined',
    ]);
    const skipped = [
      fromProvider('openai', [{ type: 'custom', name: 'grammar' }]),
      fromProvider('openai-responses', [{ type: 'tool_search' }]),
      fromProvider('google', [{ googleSearch: {} }]),
      fromProvider('bedrock', [{ cachePoint: { type: 'default' } }]),
    ];
    for (const result of skipped) expect(result.tools).toEqual([]);
  });

  it('skips a tool whose schema root is not an object', () => {
    const result = fromProvider('mcp', [{ name: 'bad', inputSchema: { type: 'string' } }]);
    expect(result.tools).toEqual([]);
    expect(result.warnings[0]).toMatchObject({ code: 'ENTRY_SKIPPED' });
  });

  it('says a description of the wrong type is not a string, rather than missing', () => {
    const result = fromProvider('mcp', [
      { name: 'five', description: 5, inputSchema: { type: 'object' } },
      { name: 'none', inputSchema: { type: 'object' } },
      { name: 'blank', title: 'Blank tool', description: '  ', inputSchema: { type: 'object' } },
      { name: 'listed', description: ['a', 'b'], inputSchema: { type: 'object' } },
    ]);
    expect(result.warnings.map((warning) => warning.message)).toEqual([
      'the tool\'s description is 5, not a string; "five" is used, but the model chooses tools by their descriptions, so write a real one',
      'the tool has no description; "none" is used, but the model chooses tools by their descriptions, so write a real one',
      'the tool has no description; "Blank tool" is used, but the model chooses tools by their descriptions, so write a real one',
      'the tool\'s description is a list, not a string; "listed" is used, but the model chooses tools by their descriptions, so write a real one',
    ]);
  });

  it('quotes a long tool name in its warnings cut to 64 characters and its length', () => {
    const long = `a-${'b'.repeat(298)}`;
    const renamed = fromProvider('mcp', [{ name: long, description: 'd', inputSchema: {} }]);
    const quoted = `"a-${'b'.repeat(62)}… \\(300 characters\\)"`;
    expect(renamed.warnings[0]?.message).toMatch(
      new RegExp(
        `^tool name ${quoted} is not valid for every provider; it is "a_b+_[0-9a-f]{8}" now$`,
      ),
    );
    const skipped = fromProvider('mcp', [{ name: long, inputSchema: { type: 'string' } }]);
    expect(skipped.warnings.find((warning) => warning.code === 'ENTRY_SKIPPED')?.message).toBe(
      `tool "a-${'b'.repeat(62)}… (300 characters)" was skipped: its input schema's root is "string", but tool arguments are always a JSON object`,
    );
  });

  it('throws INVALID_PAYLOAD, UNKNOWN_PROVIDER and INVALID_OPTIONS for unusable input', () => {
    expect(() => fromProvider('mcp', 'tools')).toThrow(
      expect.objectContaining({ code: 'INVALID_PAYLOAD' }),
    );
    expect(() => fromProvider('mcp', null)).toThrow(TranslationError);
    expect(() => fromProvider('gpt' as ProviderId, [])).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_PROVIDER' }),
    );
    expect(() => fromProvider('gemini' as ProviderId, [])).toThrow(
      'unknown provider "gemini"; did you mean "google"? Providers: openai, openai-responses, anthropic, google, bedrock, mcp, canonical',
    );
    expect(() => fromProvider('mcp', [], { executor: '../etc' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => fromProvider('mcp', [], { category: 'reading' as never })).toThrow(
      /category "reading" is not one of/,
    );
    // the docs' snake_case field names are not the option names
    expect(() => fromProvider('mcp', [], { cost_estimate: 'low' } as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTIONS',
        message:
          'fromProvider: unknown option "cost_estimate"; did you mean "costEstimate"? Options: executor, category, defaultCategory, costEstimate, latencyEstimate',
      }),
    );
  });
});

describe('fromProvider: names', () => {
  it('converts invalid names deterministically and reports the mapping', () => {
    const tools = [
      'get-bbc-news',
      'admin.tools.list',
      'get_bbc_news',
      'get bbc news',
      '9to5mac',
    ].map((name) => ({
      name,
      description: name,
      inputSchema: { type: 'object' },
    }));
    const result = fromProvider('mcp', tools);
    // a name that is already valid keeps it; converted names get a suffix on collision
    expect(result.tools.map((tool) => tool.name)).toEqual([
      'get_bbc_news_2',
      'admin_tools_list',
      'get_bbc_news',
      'get_bbc_news_3',
      '_9to5mac',
    ]);
    expect(result.nameMap).toEqual({
      get_bbc_news_2: 'get-bbc-news',
      admin_tools_list: 'admin.tools.list',
      get_bbc_news_3: 'get bbc news',
      _9to5mac: '9to5mac',
    });
    expect(fromProvider('mcp', tools)).toEqual(result);
  });

  it('gives names with no Latin letter or digit distinct names from a hash, not "tool", "tool_2"', () => {
    const tools = ['天気', '日本語ツール', 'получить_погоду'].map((name) => ({
      name,
      description: name,
      inputSchema: { type: 'object' },
    }));
    const result = fromProvider('mcp', tools);
    expect(result.nameMap).toEqual({
      tool_4ad35069: '天気',
      tool_ef0ccef7: '日本語ツール',
      tool_b064bc8d: 'получить_погоду',
    });
    expect(result.warnings.map((warning) => warning.message)).toContain(
      'tool name "天気" is not valid for every provider; it is "tool_4ad35069" now',
    );
  });
});

describe('fromProvider: messy schemas (BFCL, real MCP servers)', () => {
  it('converts BFCL types (dict, float, tuple, any) with a warning each', () => {
    const result = fromProvider('canonical', [
      {
        name: 'calculate_distance',
        description: 'Calculate the distance between two GPS coordinates.',
        parameters: {
          type: 'dict',
          properties: {
            coord1: {
              type: 'tuple',
              description: 'The first coordinate as (latitude, longitude).',
              items: { type: 'float' },
            },
            data: { type: 'any', description: 'The training data for the model.' },
            unit: {
              type: 'string',
              description: "The unit of distance. Options: 'miles', 'kilometers'.",
            },
          },
          required: ['coord1', 'unit'],
        },
      },
    ]);
    expect(result.tools[0]!.input_schema).toEqual({
      type: 'object',
      properties: {
        coord1: {
          type: 'array',
          description: 'The first coordinate as (latitude, longitude).',
          items: { type: 'number' },
        },
        // "any" is any JSON value, not a string as BFCL narrows it
        data: {
          type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
          description: 'The training data for the model.',
          items: { allOf: [{}] },
        },
        unit: {
          type: 'string',
          description: "The unit of distance. Options: 'miles', 'kilometers'.",
        },
      },
      required: ['coord1', 'unit'],
    });
    expect(result.warnings.map((warning) => warning.message.split(';')[0])).toEqual([
      'type "float" is not a JSON Schema type',
      'type "tuple" is not a JSON Schema type',
      'type "any" is not a JSON Schema type',
      'type "dict" is not a JSON Schema type',
    ]);
    expect(
      result.warnings.find((warning) => warning.pointer === '/properties/data/type')?.message,
    ).toBe(
      'type "any" is not a JSON Schema type; it means any JSON value, so it became every JSON type ["string","number","boolean","object","array","null"] (arrays with "items": {"allOf": [{}]}, any JSON too); narrow it to the real type if you know it (at /properties/data/type)',
    );
  });

  it('reads "any" inside a type list, and a full type list without items, as any JSON', () => {
    const result = fromProvider('mcp', [
      {
        name: 'store',
        description: 'x',
        inputSchema: {
          type: 'object',
          properties: {
            maybe: { type: ['any', 'null'] },
            every: { type: ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'] },
          },
        },
      },
    ]);
    expect(result.tools[0]!.input_schema.properties).toEqual({
      maybe: {
        type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
        items: { allOf: [{}] },
      },
      every: {
        type: ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'],
        items: { allOf: [{}] },
      },
    });
    expect(result.warnings.map((warning) => warning.message)).toEqual([
      'type ["any","null"] has non-JSON-Schema names; it became ["string","number","boolean","object","array","null"] (at /properties/maybe/type)',
      'a value of every JSON type had no "items"; arrays got "items": {"allOf": [{}]} (any JSON, as before: group files need typed items) (at /properties/every)',
    ]);
  });

  it('adds properties to object roots, items to arrays, and fixes required', () => {
    const result = fromProvider('mcp', [
      { name: 'no_args', description: 'x', inputSchema: { type: 'object' } },
      { name: 'no_schema', description: 'x' },
      {
        name: 'untyped_root',
        description: 'x',
        inputSchema: {
          properties: { paths: { type: 'array', required: true } },
          required: ['ghost'],
        },
      },
      {
        name: 'typed_list',
        description: 'x',
        inputSchema: {
          type: ['object', 'null'],
          properties: { mode: { type: ['String', 'NULL'] }, tags: { type: ['array', 'null'] } },
        },
      },
      { name: 'weird', description: 'x', inputSchema: 42 },
    ]);
    expect(result.tools.map((tool) => tool.input_schema)).toEqual([
      { type: 'object', properties: {} },
      { type: 'object', properties: {} },
      {
        type: 'object',
        properties: { paths: { type: 'array', items: { type: 'string' } } },
        required: ['paths'],
      },
      {
        type: 'object',
        properties: {
          mode: { type: ['string', 'null'] },
          tags: { type: ['array', 'null'], items: { type: 'string' } },
        },
      },
      { type: 'object', properties: {} },
    ]);
    expect(result.warnings.map((warning) => warning.code).sort()).toEqual(
      [
        'ARRAY_ITEMS_ADDED',
        'ARRAY_ITEMS_ADDED',
        'REQUIRED_CONVERTED',
        'REQUIRED_NOT_DEFINED',
        'ROOT_TYPE_SET',
        'SCHEMA_REPLACED',
        'TYPE_CONVERTED',
      ].sort(),
    );
  });

  it('types an untyped value by what constrains it, and never narrows a constrained one to string', () => {
    const result = fromProvider('anthropic', [
      {
        name: 'untyped',
        description: 'x',
        input_schema: {
          type: 'object',
          properties: {
            present: { not: { type: 'null' } },
            described: { description: 'Not empty.', not: { const: '' } },
            mixed: { enum: [1, 'a', null] },
            numbers: { enum: [1, 2.5] },
            listed: { enum: [[1], 'a'] },
            amount: { minimum: 0 },
            both: { minLength: 1, maximum: 9 },
            tags: { minItems: 1 },
            point: { properties: { x: { type: 'number' } } },
            anything: {},
          },
        },
      },
    ]);
    expect(result.tools[0]!.input_schema.properties).toEqual({
      present: { allOf: [{ not: { type: 'null' } }] },
      described: { description: 'Not empty.', allOf: [{ not: { const: '' } }] },
      mixed: { type: ['integer', 'string', 'null'], enum: [1, 'a', null] },
      numbers: { type: 'number', enum: [1, 2.5] },
      listed: { allOf: [{ enum: [[1], 'a'] }] },
      amount: { type: 'number', minimum: 0 },
      both: { type: ['string', 'number'], minLength: 1, maximum: 9 },
      tags: { type: 'array', minItems: 1, items: { type: 'string' } },
      point: { type: 'object', properties: { x: { type: 'number' } } },
      anything: {
        type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
        items: { allOf: [{}] },
      },
    });
    const inferred = new Map(
      result.warnings
        .filter((warning) => warning.code === 'TYPE_INFERRED')
        .map((warning) => [warning.pointer, warning.message]),
    );
    expect(inferred.get('/properties/present')).toBe(
      'an untyped value constrained by "not" was written as "allOf": [{"not": ...}], which accepts the same values (a guessed type would narrow them; group files need a type or a composition keyword); set the real type if you know it (at /properties/present)',
    );
    expect(inferred.get('/properties/amount')).toBe(
      'an untyped value got "type": "number" from "minimum", a keyword that applies only to that type (without a type, values of other types passed unchecked) (at /properties/amount)',
    );
    expect(inferred.get('/properties/both')).toBe(
      'an untyped value got "type": ["string","number"] from "minLength", "maximum", keywords that apply only to those types (without a type, values of other types passed unchecked) (at /properties/both)',
    );
    expect(inferred.get('/properties/anything')).toBe(
      'an untyped value (any JSON) got "type": ["string","number","boolean","object","array","null"] and, for arrays, "items": {"allOf": [{}]}, which accept every JSON value as before (group files need a type); narrow it to the real type if you know it (e.g. "type": "object" for a map of values, without "items") (at /properties/anything)',
    );
  });

  it('upgrades draft-04 leftovers and drops unsupported dialect declarations', () => {
    const result = fromProvider('mcp', [
      {
        name: 'old',
        description: 'x',
        inputSchema: {
          $schema: 'http://json-schema.org/draft-04/schema#',
          type: 'object',
          properties: { n: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
        },
      },
    ]);
    expect(result.tools[0]!.input_schema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { n: { type: 'integer', exclusiveMinimum: 0 } },
    });
    const unsupported = fromProvider('mcp', [
      {
        name: 'v6',
        description: 'x',
        inputSchema: {
          $schema: 'http://json-schema.org/draft-06/schema#',
          type: 'object',
          properties: {},
        },
      },
    ]);
    expect(unsupported.tools[0]!.input_schema).toEqual({ type: 'object', properties: {} });
    expect(unsupported.warnings.map((warning) => warning.code)).toEqual([
      'SCHEMA_DIALECT_CONVERTED',
    ]);
  });

  it('fills defaults: description from the title, category from hints or verbs, metadata from options', () => {
    const result = fromProvider(
      'mcp',
      [
        {
          name: 'fetchUrl',
          title: 'Fetch URL',
          inputSchema: { type: 'object' },
          annotations: { title: null, readOnlyHint: null, openWorldHint: true },
        },
        { name: 'frobnicate', description: 'Does things', inputSchema: { type: 'object' } },
      ],
      {
        executor: 'mcp_proxy',
        defaultCategory: 'analysis',
        costEstimate: 'high',
        latencyEstimate: 'slow',
      },
    );
    expect(result.tools).toEqual([
      {
        name: 'fetchUrl',
        title: 'Fetch URL',
        description: 'Fetch URL',
        category: 'retrieval',
        input_schema: { type: 'object', properties: {} },
        annotations: { openWorldHint: true },
        metadata: {
          executor: 'mcp_proxy',
          requires_context: [],
          cost_estimate: 'high',
          latency_estimate: 'slow',
        },
      },
      {
        name: 'frobnicate',
        description: 'Does things',
        category: 'analysis',
        input_schema: { type: 'object', properties: {} },
        metadata: {
          executor: 'mcp_proxy',
          requires_context: [],
          cost_estimate: 'high',
          latency_estimate: 'slow',
        },
      },
    ]);
    expect(
      fromProvider('mcp', [{ name: 'x', description: 'd' }], { category: 'creation' }).tools[0]!
        .category,
    ).toBe('creation');
  });

  it('imports the 527 LiveMCPBench tools into loadable group-file tools', () => {
    let count = 0;
    for (const server of loadCorpus()) {
      for (const tool of fromProvider('mcp', server.tools).tools) {
        count++;
        expect(
          checkSchema(tool.input_schema, { maxPatternLength: 1000 }).filter(
            (problem) => problem.code !== 'PROPERTY_TYPE_MISSING',
          ),
          tool.name,
        ).toEqual([]);
        expect(tool.name).toMatch(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/);
      }
    }
    expect(count).toBe(527);
  });
});
