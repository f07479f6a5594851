import { describe, expect, it } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import { allowedToolChoice } from '../../src/providers/allowed-tools.js';
import { translate } from '../../src/providers/translate.js';
import { createTranslator } from '../../src/providers/translator.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { makeRegisteredTool, makeTool } from './tool-fixtures.js';

const registry = await loadRegistry({ dirs: ['schemas'], strict: true });
const schema = { type: 'object', properties: { q: { type: 'string' } } };

describe('allowedToolChoice', () => {
  it('openai: the Chat Completions allowed_tools shape, mode auto by default', () => {
    expect(allowedToolChoice('openai', ['a', 'b'])).toEqual({
      type: 'allowed_tools',
      allowed_tools: {
        mode: 'auto',
        tools: [
          { type: 'function', function: { name: 'a' } },
          { type: 'function', function: { name: 'b' } },
        ],
      },
    });
  });

  it('openai-responses: the flat Responses shape; a selection’s names, each once; mode required', () => {
    expect(
      allowedToolChoice('openai-responses', { names: ['a', 'b', 'a'] }, { mode: 'required' }),
    ).toEqual({
      type: 'allowed_tools',
      mode: 'required',
      tools: [
        { type: 'function', name: 'a' },
        { type: 'function', name: 'b' },
      ],
    });
  });

  it('google: the toolConfig that narrows Gemini to the selection, VALIDATED or ANY', async () => {
    expect(allowedToolChoice('google', { names: ['a', 'b', 'a'] })).toEqual({
      functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['a', 'b'] },
    });
    expect(allowedToolChoice('google', ['a'], { mode: 'required' })).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a'] },
    });
    // Gemini takes no empty list either: no tool may be called
    expect(allowedToolChoice('google', [])).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    // the modes are the SDK's own values
    const { FunctionCallingConfigMode } = await import('@google/genai');
    for (const names of [['a'], []]) {
      for (const mode of ['auto', 'required'] as const) {
        const { functionCallingConfig } = allowedToolChoice('google', names, { mode });
        expect(Object.values(FunctionCallingConfigMode)).toContain(functionCallingConfig.mode);
      }
    }
  });

  it('gives "none" for an empty selection (no tool may be called)', () => {
    expect(allowedToolChoice('openai', [])).toBe('none');
    expect(allowedToolChoice('openai-responses', { names: [] })).toBe('none');
  });

  it('refuses providers without an allowed-tools tool_choice, saying what to do instead', () => {
    expect(() => allowedToolChoice('anthropic' as never, ['a'])).toThrow(
      'allowedToolChoice: "anthropic" has no allowed-tools setting; use "openai", "openai-responses" or "google" (for Anthropic and Bedrock, defer the tools outside the selection instead)',
    );
    expect(() => allowedToolChoice('toString' as never, ['a'])).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
    expect(() => allowedToolChoice('mcp' as never, ['a'])).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message: expect.stringContaining('allowedToolChoice: "mcp" has no allowed-tools setting'),
      }),
    );
    // Gemini has the setting, under the provider id google
    expect(() => allowedToolChoice('gemini' as never, ['a'])).toThrow(
      'allowedToolChoice: "gemini" is not a provider id; Gemini\'s is "google"',
    );
  });

  it('refuses a second argument that is not a list of names or a Selection', () => {
    const selectionMessage = (given: string) =>
      `allowedToolChoice: the second argument must be an array of tool names or a Selection (an object whose names is an array of tool names), got ${given}`;
    const cases: [unknown, string][] = [
      ['add_task', '"add_task"'],
      [{ tools: [] }, 'an object'],
      [null, 'null'],
      [undefined, 'undefined'],
      [[1, 2], 'an array of 2'],
    ];
    for (const [given, described] of cases) {
      expect(() => allowedToolChoice('openai', given as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTION', message: selectionMessage(described) }),
      );
    }
  });

  it('refuses a mode other than auto or required, for every provider', () => {
    for (const provider of ['openai', 'openai-responses', 'google'] as const) {
      for (const mode of ['ANY', 'none']) {
        expect(() => allowedToolChoice(provider, ['a'], { mode: mode as never })).toThrow(
          expect.objectContaining({
            code: 'INVALID_OPTION',
            message: `allowedToolChoice: option "mode" must be "auto" (the default) or "required", got "${mode}"`,
          }),
        );
      }
    }
    expect(() => allowedToolChoice('openai', ['a'], { mod: 'required' } as never)).toThrow(
      'allowedToolChoice: unknown option "mod"; did you mean "mode"? Options: mode',
    );
  });
});

describe('openai-responses: namespaces', () => {
  const tools = [
    makeRegisteredTool(schema, { name: 'a1', group: 'alpha' }),
    makeTool(schema, { name: 'loose' }),
    makeRegisteredTool(schema, { name: 'b1', group: 'beta' }),
    makeRegisteredTool(schema, { name: 'a2', group: 'alpha' }),
  ];
  const shape = (payload: readonly unknown[]) =>
    payload.map((entry) => {
      const item = entry as { type: string; name?: string; tools?: { name: string }[] };
      return item.type === 'namespace'
        ? `${item.name}[${item.tools!.map((tool) => tool.name).join(',')}]`
        : (item.name ?? item.type);
    });

  it('groups tools by group where the group’s first tool was; tools outside a group stay top-level', () => {
    const { payload } = translate(tools, 'openai-responses', { namespaces: true });
    expect(shape(payload)).toEqual(['alpha[a1,a2]', 'loose', 'beta[b1]']);
    expect(payload[0]).toMatchObject({
      type: 'namespace',
      name: 'alpha',
      description: 'Tools of the alpha group.',
    });
  });

  it('takes descriptions from the option, else from the registry it translates for', () => {
    const given = translate(tools, 'openai-responses', {
      namespaces: { alpha: ' Alpha things. ' },
    }).payload;
    expect(given[0]).toMatchObject({ description: 'Alpha things.' });
    expect(given[2]).toMatchObject({ description: 'Tools of the beta group.' });
    const fromRegistry = registry.translate(registry.list(), 'openai-responses', {
      namespaces: true,
    }).payload;
    expect(fromRegistry[0]).toMatchObject({
      type: 'namespace',
      name: 'calendar',
      description: registry.group('calendar')!.description,
    });
  });

  it('defers the functions inside namespaces, and puts the tool search in front', () => {
    const { payload } = translate(tools, 'openai-responses', {
      namespaces: true,
      deferLoading: ['a2', 'b1'],
    });
    expect(shape(payload)).toEqual(['tool_search', 'alpha[a1,a2]', 'loose', 'beta[b1]']);
    const alpha = payload[1] as { tools: { defer_loading?: boolean }[] };
    expect(alpha.tools.map((tool) => tool.defer_loading)).toEqual([undefined, true]);
  });

  it('counts deferred functions in namespaces toward the 128 tools; deferLoading names only tools it was given', () => {
    const many = Array.from({ length: 200 }, (_, index) =>
      makeRegisteredTool(schema, { name: `tool_${index}`, group: `group_${index % 10}` }),
    );
    const names = many.map((tool) => tool.name);
    const result = translate(many, 'openai-responses', {
      namespaces: true,
      deferLoading: [...names, 'ghost'],
    });
    const functions = result.payload.flatMap((entry) =>
      entry.type === 'namespace' ? entry.tools : entry.type === 'function' ? [entry] : [],
    );
    expect(functions).toHaveLength(128);
    expect(functions.every((entry) => entry.defer_loading === true)).toBe(true);
    expect(result.warnings.map((warning) => warning.code)).toEqual([
      'TOO_MANY_TOOLS',
      'UNKNOWN_TOOL_OPTION',
    ]);
    // the 72 tools the limit left out are named once, by TOO_MANY_TOOLS
    expect(result.warnings[1]!.message).toBe(
      'deferLoading names tools that are not in this list: ghost; they were ignored',
    );
    expect(
      translate(many, 'openai-responses', { namespaces: true, deferLoading: names }).warnings.map(
        (warning) => warning.code,
      ),
    ).toEqual(['TOO_MANY_TOOLS']);
  });
});

describe('client-side tool search', () => {
  const tools = [makeTool(schema, { name: 'one' }), makeTool(schema, { name: 'two' })];

  it('openai-responses: toolSearch "client" puts a client-executed tool_search with a query in front', () => {
    const { payload } = translate(tools, 'openai-responses', {
      deferLoading: ['two'],
      toolSearch: 'client',
    });
    expect(payload[0]).toEqual({
      type: 'tool_search',
      execution: 'client',
      description:
        'Search the tools you have not loaded yet by what you need to do (for example "cancel a meeting"), and load the best matches so you can call them.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you need a tool for, in a few words' },
        },
        required: ['query'],
        additionalProperties: false,
      },
    });
    // nothing deferred: no search tool
    expect(translate(tools, 'openai-responses', { toolSearch: 'client' }).payload).toHaveLength(2);
  });

  it('anthropic: toolSearch "client" puts the search_tools custom tool in front', () => {
    const { payload } = translate(tools, 'anthropic', {
      deferLoading: ['two'],
      toolSearch: 'client',
    });
    expect(payload.map((entry) => entry.name)).toEqual(['search_tools', 'one', 'two']);
    expect(payload[0]).toMatchObject({
      name: 'search_tools',
      input_schema: { type: 'object', required: ['query'] },
    });
    expect(payload[0]).not.toHaveProperty('defer_loading');
  });

  it('anthropic: refuses a tool that already has the search tool’s name', () => {
    const taken = [makeTool(schema, { name: 'search_tools' }), makeTool(schema, { name: 'x' })];
    let error: unknown;
    try {
      translate(taken, 'anthropic', { deferLoading: ['x'], toolSearch: 'client' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TranslationError);
    expect(error).toMatchObject({
      code: 'DUPLICATE_TOOL_NAME',
      message:
        'a tool is named "search_tools", the name of the search tool toolSearch: "client" adds; rename that tool, or use toolSearch: "bm25"',
    });
  });
});

describe('anthropic: input_examples', () => {
  const examples = [{ q: 'first' }, { q: 'second' }];

  it('sends examples as input_examples only when asked, and leaves tools without examples alone', () => {
    const tools = [
      makeTool(schema, { name: 'with', examples }),
      makeTool(schema, { name: 'without' }),
    ];
    const [withExamples, without] = translate(tools, 'anthropic', { inputExamples: true }).payload;
    expect(withExamples).toMatchObject({ name: 'with', input_examples: examples });
    expect(without).not.toHaveProperty('input_examples');
    expect(translate(tools, 'anthropic').payload[0]).not.toHaveProperty('input_examples');
  });

  it('a translator does not reuse a tool translated with other examples', () => {
    const translator = createTranslator();
    const first = makeTool(schema, { name: 'with', examples });
    const other = { ...first, examples: [{ q: 'other' }] };
    translator.translate([first], 'anthropic', { inputExamples: true });
    expect(
      translator.translate([other], 'anthropic', { inputExamples: true }).payload[0],
    ).toMatchObject({ input_examples: [{ q: 'other' }] });
  });
});

describe('google: parametersJsonSchema', () => {
  it('sends the JSON Schema ($ref and $defs kept, $schema left out) in parametersJsonSchema', () => {
    const tool = makeTool({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        point: { $ref: '#/definitions/point' },
        pair: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] },
      },
      definitions: { point: { type: 'object', properties: { x: { type: 'number' } } } },
      additionalProperties: false,
    });
    const [declaration] = translate([tool], 'google', { parametersJsonSchema: true }).payload[0]!
      .functionDeclarations;
    expect(declaration).toEqual({
      name: 'sample_tool',
      description: 'A sample tool.',
      parametersJsonSchema: {
        type: 'object',
        properties: {
          point: { $ref: '#/definitions/point' },
          // draft-07 tuples become 2020-12 prefixItems
          pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] },
        },
        definitions: { point: { type: 'object', properties: { x: { type: 'number' } } } },
        additionalProperties: false,
      },
    });
    expect(declaration).not.toHaveProperty('parameters');
  });

  it('sends no schema for a tool without parameters, and merges a root composition', () => {
    const empty = makeTool({ type: 'object', properties: {} }, { name: 'empty' });
    const composed = makeTool(
      { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }] },
      { name: 'composed' },
    );
    const declarations = translate([empty, composed], 'google', { parametersJsonSchema: true })
      .payload[0]!.functionDeclarations;
    expect(declarations[0]).toEqual({ name: 'empty', description: 'A sample tool.' });
    expect(declarations[1]!.parametersJsonSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });
});
