import { describe, expect, it } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import { PROVIDER_IDS, type ProviderId } from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { createTranslator } from '../../src/providers/translator.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { makeRegisteredTool, makeTool } from './tool-fixtures.js';

const registry = await loadRegistry({ dirs: ['schemas'], strict: true });

describe('translate', () => {
  it.each(PROVIDER_IDS)('%s: an empty selection is an empty payload', (provider) => {
    expect(translate([], provider)).toEqual({ payload: [], metadata: {}, warnings: [] });
  });

  it('is pure: every call builds a fresh result, and changing one changes no other', () => {
    const tools = registry.list();
    const first = translate(tools, 'anthropic');
    const second = translate(tools, 'anthropic');
    expect(second).toEqual(first);
    expect(second.payload).not.toBe(first.payload);
    expect(second.payload[0]).not.toBe(first.payload[0]);
    // appending a provider's built-in tool and editing an entry are ordinary things to do
    (first.payload as unknown[]).push({ type: 'web_search_20250305', name: 'web_search' });
    (first.payload[0] as { description?: string }).description = 'X';
    first.metadata[tools[0]!.name]!.executor = 'changed';
    const third = translate(tools, 'anthropic');
    expect(third).toEqual(second);
    expect(third.payload).toHaveLength(tools.length);
  });

  it('keeps options apart: the same options object modified between calls is re-keyed', () => {
    const tools = registry.list().slice(0, 2);
    const options: { cacheControl?: boolean } = {};
    const plain = translate(tools, 'anthropic', options);
    options.cacheControl = true;
    const cached = translate(tools, 'anthropic', options);
    expect(plain.payload[1]).not.toHaveProperty('cache_control');
    expect(cached.payload[1]).toHaveProperty('cache_control');
  });

  it('returns metadata for registry tools and null groups for other tools', () => {
    const result = translate(
      [
        makeRegisteredTool({ type: 'object', properties: {} }),
        makeTool({ type: 'object', properties: {} }, { name: 'other' }),
      ],
      'mcp',
    );
    expect(result.metadata).toEqual({
      sample_tool: {
        group: 'sample',
        executor: 'sample',
        cost_estimate: 'low',
        latency_estimate: 'fast',
      },
      other: { group: null, executor: 'sample', cost_estimate: 'low', latency_estimate: 'fast' },
    });
  });

  it('keeps a tool named __proto__ as a plain metadata key', () => {
    const result = translate(
      [makeTool({ type: 'object', properties: {} }, { name: '__proto__' })],
      'canonical',
    );
    expect(Object.keys(result.metadata)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(result.metadata)).toBe(Object.prototype);
  });

  it('throws UNKNOWN_PROVIDER with a suggestion and the providers', () => {
    const providers =
      'Providers: openai, openai-responses, anthropic, google, bedrock, mcp, canonical';
    expect(() => translate([], 'opneai' as ProviderId)).toThrow(
      `unknown provider "opneai"; did you mean "openai"? ${providers}`,
    );
    // the CLI's alias is not part of the library: the error points at the provider id
    expect(() => translate([], 'gemini' as ProviderId)).toThrow(
      `unknown provider "gemini"; did you mean "google"? ${providers}`,
    );
    expect(() => translate([], 'Claude' as ProviderId)).toThrow(
      `unknown provider "Claude"; did you mean "anthropic"? ${providers}`,
    );
    expect(() => translate([], 'xyz' as ProviderId)).toThrow(
      `unknown provider "xyz". ${providers}`,
    );
    try {
      translate([], 'nope' as ProviderId);
    } catch (error) {
      expect(TranslationError.isInstance(error)).toBe(true);
      expect((error as TranslationError).code).toBe('UNKNOWN_PROVIDER');
    }
  });

  it('throws for a non-array tool list, duplicate names, invalid names and non-object schemas', () => {
    const tool = makeTool({ type: 'object', properties: {} });
    expect(() => translate({} as never, 'openai')).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => translate([tool, { ...tool }], 'openai')).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_TOOL_NAME', tool: 'sample_tool' }),
    );
    expect(() => translate([{ ...tool, name: 'get-user' }], 'openai')).toThrow(
      /e.g. to "get_user"/,
    );
    expect(() => translate([{ ...tool, input_schema: [] as never }], 'openai')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT_SCHEMA' }),
    );
    expect(() => translate([null as never], 'openai')).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL' }),
    );
    expect(() => translate([{ ...tool, metadata: undefined as never }], 'openai')).toThrow(
      /every tool needs a string "name" and a "metadata" object \(tool "sample_tool"\)/,
    );
  });

  it('names the tool and keeps the pointer when a schema cannot be translated', () => {
    const tool = makeTool({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
    expect(() => translate([tool], 'openai')).toThrow(
      expect.objectContaining({
        code: 'UNRESOLVABLE_REF',
        tool: 'sample_tool',
        pointer: '/properties/a',
      }),
    );
    const external = makeTool({
      type: 'object',
      properties: { a: { $ref: 'https://example.com/a.json' } },
    });
    expect(() => translate([external], 'google')).toThrow(
      /tool "sample_tool": "\$ref": "https:\/\/example.com\/a.json" at \/properties\/a points outside the schema/,
    );
  });

  it('sends strict: false on request and warns why when a schema cannot be strict', () => {
    const open = makeTool({
      type: 'object',
      properties: { headers: { type: 'object', additionalProperties: { type: 'string' } } },
    });
    const result = translate([open], 'openai');
    expect(result.payload[0]!.function.strict).toBe(false);
    expect(result.warnings).toEqual([
      expect.objectContaining({
        code: 'STRICT_DISABLED',
        tool: 'sample_tool',
        pointer: '/properties/headers/additionalProperties',
      }),
    ]);
    expect(
      translate([makeTool({ type: 'object', properties: {} })], 'openai', { strict: false })
        .payload[0]!.function.strict,
    ).toBe(false);
  });

  it('leaves metadata out of every payload', () => {
    for (const provider of PROVIDER_IDS) {
      const text = JSON.stringify(translate(registry.list(), provider).payload);
      expect(text, provider).not.toMatch(
        /"executor"|"cost_estimate"|"latency_estimate"|"requires_context"|"category"/,
      );
    }
  });
});

describe('translate: property names a provider rejects', () => {
  const long = 'k'.repeat(70);
  const tool = makeTool(
    {
      type: 'object',
      properties: {
        'filter[id]': { type: 'string' },
        'Account Number': { type: 'string' },
        $top: { type: 'integer' },
        [long]: { type: 'string' },
        'max-results': { type: 'integer' },
        'v1.name': { type: 'string' },
        nested: { type: 'object', properties: { 'a b': { type: 'string' } } },
      },
    },
    { name: 'get_x' },
  );
  const fix =
    'Rename the property in input_schema and in the handler that reads it (e.g. to "filter_id"); toolcap does not rename parameters, because that would change the arguments the handler receives';

  it.each([
    ['anthropic', 'Anthropic'],
    ['bedrock', 'Bedrock'],
  ] as const)('%s: warns about each top-level key outside its pattern, and keeps the tool', (provider, label) => {
    const result = translate([tool], provider);
    const invalid = result.warnings.filter((warning) => warning.code === 'PARAMETER_NAME_INVALID');
    expect(invalid.map((warning) => [warning.tool, warning.pointer])).toEqual([
      ['get_x', '/properties/filter[id]'],
      ['get_x', '/properties/Account Number'],
      ['get_x', '/properties/$top'],
      ['get_x', `/properties/${long}`],
    ]);
    expect(invalid[0]!.message).toBe(
      `property name "filter[id]" does not match ^[a-zA-Z0-9_.-]{1,64}$ (letters, digits, "_", "." and "-", 1 to 64 characters): ${label} rejects the whole request with 400 "Property keys should match pattern", whichever tool has the key. ${fix} (at /properties/filter[id])`,
    );
    expect(invalid[1]!.message).toContain('(e.g. to "Account_Number")');
    expect(invalid[2]!.message).toContain('(e.g. to "top")');
    expect(invalid[3]!.message).toContain(`(e.g. to "${'k'.repeat(64)}")`);
    // warned, not dropped or renamed: renaming would change the handler's arguments
    expect(JSON.stringify(result.payload)).toContain('"filter[id]"');
    expect(Object.keys(result.metadata)).toEqual(['get_x']);
  });

  it('anthropic: checks the keys of a flattened root anyOf, which end up at the top level', () => {
    const union = makeTool({
      type: 'object',
      properties: {},
      anyOf: [
        { properties: { id: { type: 'string' } }, required: ['id'] },
        { properties: { 'q?': { type: 'string' } }, required: ['q?'] },
      ],
    });
    const warnings = translate([union], 'anthropic').warnings;
    expect(
      warnings.filter((warning) => warning.code === 'PARAMETER_NAME_INVALID').map((w) => w.pointer),
    ).toEqual(['/properties/q?']);
  });

  it('google uses the same check with its own pattern; openai and mcp check no property names', () => {
    const google = translate([tool], 'google').warnings.filter(
      (warning) => warning.code === 'PARAMETER_NAME_INVALID',
    );
    // Gemini's pattern also refuses "-" and "." and checks nested objects
    expect(google).toHaveLength(7);
    expect(google[0]!.message).toBe(
      `property name "filter[id]" does not match ^[A-Za-z_][A-Za-z0-9_]{0,63}$ (letters, digits and underscores, starting with a letter or underscore, at most 64 characters): Gemini documents parameter names this way and may reject the request. ${fix} (at /properties/filter[id])`,
    );
    for (const provider of ['openai', 'openai-responses', 'mcp', 'canonical'] as const) {
      const codes = translate([tool], provider).warnings.map((warning) => warning.code);
      expect(codes).not.toContain('PARAMETER_NAME_INVALID');
    }
  });

  it('suggests no name when nothing Latin is left', () => {
    const warnings = translate(
      [makeTool({ type: 'object', properties: { 天気: { type: 'string' } } })],
      'anthropic',
    ).warnings;
    expect(warnings[0]!.message).toContain(
      'Anthropic rejects the whole request with 400 "Property keys should match pattern", whichever tool has the key. Rename the property in input_schema and in the handler that reads it; toolcap',
    );
  });
});

describe('translate options', () => {
  const tools = [
    makeTool({ type: 'object', properties: {} }, { name: 'one' }),
    makeTool({ type: 'object', properties: {} }, { name: 'two' }),
  ];

  it('anthropic: deferLoading by name, regex tool search, cache_control with ttl on the last loaded tool', () => {
    const result = translate(tools, 'anthropic', {
      deferLoading: ['two', 'ghost'],
      toolSearch: 'regex',
      cacheControl: { type: 'ephemeral', ttl: '1h' },
    });
    // Anthropic rejects cache_control on a deferred tool: the breakpoint goes on "one"
    expect(result.payload).toEqual([
      { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
      {
        name: 'one',
        description: 'A sample tool.',
        input_schema: { type: 'object', properties: {} },
        cache_control: { type: 'ephemeral', ttl: '1h' },
      },
      {
        name: 'two',
        description: 'A sample tool.',
        input_schema: { type: 'object', properties: {} },
        defer_loading: true,
      },
    ]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(['UNKNOWN_TOOL_OPTION']);
    expect(
      translate(tools, 'anthropic', { cacheControl: { type: 'ephemeral' } }).payload[1],
    ).toHaveProperty('cache_control', { type: 'ephemeral' });
  });

  it('anthropic: no cache breakpoint when every tool is deferred, with a warning', () => {
    const result = translate(tools, 'anthropic', { deferLoading: true, cacheControl: true });
    expect(result.payload.filter((entry) => 'cache_control' in entry)).toEqual([]);
    expect(result.warnings).toEqual([
      expect.objectContaining({
        code: 'CACHE_CONTROL_SKIPPED',
        message: expect.stringContaining('every tool is deferred'),
      }),
    ]);
    // with toolSearch: false one tool stays loaded, and it carries the breakpoint
    const kept = translate(tools, 'anthropic', {
      deferLoading: true,
      toolSearch: false,
      cacheControl: true,
    });
    expect(kept.payload.map((entry) => ('cache_control' in entry ? entry.name : '-'))).toEqual([
      'one',
      '-',
    ]);
  });

  it('openai-responses: deferLoading adds the hosted tool_search tool, or keeps one tool loaded', () => {
    const withSearch = translate(tools, 'openai-responses', { deferLoading: true });
    expect(
      withSearch.payload.map((entry) =>
        entry.type === 'function' ? `${entry.name}:${entry.defer_loading}` : entry.type,
      ),
    ).toEqual(['tool_search', 'one:true', 'two:true']);
    const without = translate(tools, 'openai-responses', { deferLoading: true, toolSearch: false });
    expect(without.payload.map((entry) => 'defer_loading' in entry)).toEqual([false, true]);
    expect(without.warnings.map((warning) => warning.code)).toEqual(['DEFER_LOADING_KEPT_ONE']);
    expect(
      translate(tools, 'openai-responses', { deferLoading: ['one'], toolSearch: false }).payload,
    ).toHaveLength(2);
  });

  it('mcp: deriveAnnotations: false sends only the annotations the tool sets', () => {
    const tool = makeTool(
      { type: 'object', properties: {} },
      { category: 'mutation', annotations: { idempotentHint: true } },
    );
    expect(translate([tool], 'mcp', { deriveAnnotations: false }).payload[0]!.annotations).toEqual({
      idempotentHint: true,
    });
    expect(translate([tool], 'mcp').payload[0]!.annotations).toEqual({
      destructiveHint: true,
      idempotentHint: true,
    });
  });

  it('mcp: an output_schema with an object root is sent, any other is left out with a warning', () => {
    const object = makeTool(
      { type: 'object', properties: {} },
      { output_schema: { type: 'object', properties: { id: { type: 'string' } } } },
    );
    expect(translate([object], 'mcp').payload[0]!.outputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
    });
    const list = makeTool(
      { type: 'object', properties: {} },
      { name: 'lister', output_schema: { type: 'array', items: { type: 'string' } } },
    );
    const result = translate([list], 'mcp');
    expect(result.payload[0]).not.toHaveProperty('outputSchema');
    expect(result.warnings.map((warning) => warning.code)).toEqual(['OUTPUT_SCHEMA_DROPPED']);
  });

  it('recursionDepth controls how far recursive schemas are unrolled', () => {
    const tree = makeTool({
      type: 'object',
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
      properties: { root: { $ref: '#/$defs/node' } },
    });
    const depth = (schema: unknown): number => {
      const children = (schema as { properties?: { children?: { items?: unknown } } }).properties
        ?.children;
      return children === undefined ? 1 : 1 + depth(children.items);
    };
    const one = translate([tree], 'bedrock', { recursionDepth: 1 }).payload[0] as unknown as {
      toolSpec: { inputSchema: { json: { properties: { root: unknown } } } };
    };
    const three = translate([tree], 'bedrock').payload[0] as unknown as typeof one;
    expect(depth(one.toolSpec.inputSchema.json.properties.root)).toBe(1);
    expect(depth(three.toolSpec.inputSchema.json.properties.root)).toBe(3);
    expect(translate([tree], 'bedrock').warnings.map((warning) => warning.code)).toEqual([
      'RECURSIVE_SCHEMA_UNROLLED',
    ]);
  });
});

describe('translate: options are checked per provider', () => {
  const tools = [
    makeTool({ type: 'object', properties: {} }, { name: 'one' }),
    makeTool({ type: 'object', properties: {} }, { name: 'two' }),
  ];
  const refused = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(TranslationError);
      expect(error).toMatchObject({ code: 'INVALID_OPTIONS' });
      return (error as Error).message;
    }
    throw new Error('expected a TranslationError');
  };

  it('anthropic: refuses a toolSearch value it does not know instead of sending null', () => {
    // toolSearch: true is valid for openai-responses, so a shared options object hits this
    expect(
      refused(() =>
        translate(tools, 'anthropic', { deferLoading: ['one'], toolSearch: true as never }),
      ),
    ).toBe(
      'translate(tools, "anthropic"): option "toolSearch" must be "bm25" (the default), "regex", "client" or false, got true',
    );
    expect(
      refused(() =>
        translate(tools, 'anthropic', { deferLoading: true, toolSearch: 'BM25' as never }),
      ),
    ).toBe(
      'translate(tools, "anthropic"): option "toolSearch" must be "bm25" (the default), "regex", "client" or false, got "BM25"',
    );
  });

  it('refuses an unknown option with a did-you-mean and the provider’s options', () => {
    expect(refused(() => translate(tools, 'openai', { strcit: false } as never))).toBe(
      'translate(tools, "openai"): unknown option "strcit"; did you mean "strict"? Options: strict, recursionDepth',
    );
    expect(refused(() => translate(tools, 'openai', { cacheControl: true } as never))).toBe(
      'translate(tools, "openai"): "cacheControl" is not an option of openai (it is an option of anthropic); openai options: strict, recursionDepth. Pass each provider its own options',
    );
    expect(refused(() => translate(tools, 'canonical', { strict: true } as never))).toBe(
      'translate(tools, "canonical"): "strict" is not an option of canonical (it is an option of openai, openai-responses); canonical takes no options. Pass each provider its own options',
    );
  });

  it('refuses a value of the wrong type or outside the accepted values, naming them', () => {
    expect(refused(() => translate(tools, 'openai', { strict: 'no' as never }))).toBe(
      'translate(tools, "openai"): option "strict" must be true or false, got "no"',
    );
    expect(
      refused(() =>
        translate(tools, 'anthropic', { cacheControl: { type: 'ephemeral', ttl: '2h' as never } }),
      ),
    ).toBe(
      'translate(tools, "anthropic"): option "cacheControl" has ttl "2h"; ttl must be "5m" (the default) or "1h", the cache lifetimes Anthropic accepts',
    );
    expect(
      refused(() =>
        translate(tools, 'anthropic', { cacheControl: { type: 'persistent' } as never }),
      ),
    ).toBe(
      'translate(tools, "anthropic"): option "cacheControl" has type "persistent"; type must be "ephemeral"',
    );
    for (const recursionDepth of ['x', -1, 1.5]) {
      expect(
        refused(() => translate(tools, 'google', { recursionDepth: recursionDepth as never })),
      ).toBe(
        `translate(tools, "google"): option "recursionDepth" must be a whole number of expansions, 0 or more (default 3), got ${typeof recursionDepth === 'string' ? `"${recursionDepth}"` : recursionDepth}`,
      );
    }
    expect(
      refused(() => translate(tools, 'openai-responses', { deferLoading: 'one' as never })),
    ).toBe(
      'translate(tools, "openai-responses"): option "deferLoading" must be true, false or an array of tool names, got "one"',
    );
    expect(
      refused(() => translate(tools, 'openai-responses', { namespaces: { alpha: 1 } as never })),
    ).toBe(
      'translate(tools, "openai-responses"): option "namespaces" must be true, false or an object of group descriptions by group name; "alpha" is 1, not a string',
    );
    expect(refused(() => translate(tools, 'bedrock', 'fast' as never))).toBe(
      'translate(tools, "bedrock"): options must be an object such as { recursionDepth: ... }, got "fast"',
    );
  });

  it('a translator checks options on every call, cached or not', () => {
    const translator = createTranslator();
    expect(translator.translate(tools, 'openai', { strict: false }).payload).toHaveLength(2);
    // both lists have the cache key "{}" (undefined values are left out): the check comes first
    expect(
      translator.translate(tools, 'openai', { strict: undefined } as never).payload,
    ).toHaveLength(2);
    expect(
      refused(() => translator.translate(tools, 'openai', { strcit: undefined } as never)),
    ).toBe(
      'translate(tools, "openai"): unknown option "strcit"; did you mean "strict"? Options: strict, recursionDepth',
    );
    expect(
      refused(() => registry.translate(tools, 'mcp', { deriveAnotations: false } as never)),
    ).toBe(
      'translate(tools, "mcp"): unknown option "deriveAnotations"; did you mean "deriveAnnotations"? Options: deriveAnnotations',
    );
  });

  it('accepts every documented option and undefined values', () => {
    expect(
      translate(tools, 'anthropic', {
        cacheControl: { type: 'ephemeral', ttl: '5m' },
        deferLoading: ['two'],
        toolSearch: 'client',
        inputExamples: false,
      }).payload,
    ).toHaveLength(3);
    expect(
      translate(tools, 'openai-responses', {
        strict: true,
        recursionDepth: 0,
        deferLoading: false,
        toolSearch: true,
        namespaces: { sample: 'Samples.' },
      }).payload,
    ).toHaveLength(2);
    expect(translate(tools, 'openai', { strict: undefined } as never).payload).toHaveLength(2);
  });
});

describe('patternProperties', () => {
  const tool = makeRegisteredTool({
    type: 'object',
    properties: {
      headers: {
        type: 'object',
        description: 'HTTP headers',
        properties: { Accept: { type: 'string' } },
        additionalProperties: false,
        patternProperties: { '^X-': { type: 'string' } },
      },
    },
  });

  it.each([
    'openai',
    'openai-responses',
  ] as const)('%s: strict mode rejects it, so the tool is sent with strict: false, saying why', (provider) => {
    const { payload, warnings } = translate([tool], provider);
    expect(JSON.stringify(payload)).toContain('"strict":false');
    // the non-strict form keeps the keyword: only strict mode rejects it
    expect(JSON.stringify(payload)).toContain('"patternProperties":{"^X-":{"type":"string"}}');
    expect(warnings).toEqual([
      {
        code: 'STRICT_DISABLED',
        message:
          "the schema cannot be made strict (patternProperties (an open map) at /properties/headers/patternProperties); sent with strict: false, so the model's arguments are not guaranteed to match the schema (at /properties/headers/patternProperties)",
        tool: 'sample_tool',
        pointer: '/properties/headers/patternProperties',
      },
    ]);
  });

  it('google: Gemini has no such field, so it moves into the description with a warning', () => {
    const { payload, warnings } = translate([tool], 'google');
    expect(payload[0]!.functionDeclarations[0]!.parameters!.properties!.headers).toEqual({
      type: 'OBJECT',
      description: 'HTTP headers (patternProperties: {"^X-":{"type":"string"}})',
      properties: { Accept: { type: 'STRING' } },
    });
    expect(warnings).toEqual([
      {
        code: 'KEYWORD_MOVED_TO_DESCRIPTION',
        message:
          '"patternProperties" is not accepted by Gemini; it was moved into the description (at /properties/headers/patternProperties)',
        tool: 'sample_tool',
        pointer: '/properties/headers/patternProperties',
      },
    ]);
  });

  it.each([
    'anthropic',
    'bedrock',
    'mcp',
  ] as const)('%s: sent as it is, without a warning', (provider) => {
    const { payload, warnings } = translate([tool], provider);
    expect(JSON.stringify(payload)).toContain('"patternProperties":{"^X-":{"type":"string"}}');
    expect(warnings).toEqual([]);
  });
});
