/**
 * One test per real provider error in ../shared/research/PROVIDERS.md §6: the schema shape that
 * caused the error goes in, and the translator's output no longer has that shape (and passes
 * the provider's conformance checker).
 */
import { describe, expect, it } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import type { ToolDefinition } from '../../src/format/types.js';
import { fromProvider } from '../../src/providers/from-provider.js';
import type {
  AnthropicTool,
  BedrockToolSpecEntry,
  GeminiSchema,
  OpenAIChatTool,
  ProviderId,
} from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { checkPayload } from './conformance/check-payload.js';
import { metaSchemaProblems } from './conformance/json-schema-meta.js';
import { makeTool, schemaNodes } from './tool-fixtures.js';

function openai(tool: ToolDefinition): OpenAIChatTool['function'] {
  const { payload } = translate([tool], 'openai');
  expect(checkPayload('openai', payload)).toEqual([]);
  return payload[0]!.function;
}

function anthropic(tool: ToolDefinition): AnthropicTool {
  const { payload } = translate([tool], 'anthropic');
  expect(checkPayload('anthropic', payload)).toEqual([]);
  return payload[0] as AnthropicTool;
}

function gemini(tool: ToolDefinition): GeminiSchema | undefined {
  const { payload } = translate([tool], 'google');
  expect(checkPayload('google', payload)).toEqual([]);
  return payload[0]!.functionDeclarations[0]!.parameters;
}

function bedrock(tool: ToolDefinition): BedrockToolSpecEntry['toolSpec'] {
  const { payload } = translate([tool], 'bedrock');
  expect(checkPayload('bedrock', payload)).toEqual([]);
  return (payload[0] as BedrockToolSpecEntry).toolSpec;
}

function imported(provider: ProviderId, payload: unknown): ToolDefinition {
  const [tool] = fromProvider(provider, payload).tools;
  return tool!;
}

describe('PROVIDERS.md §6: OpenAI', () => {
  it('1: optional properties → required lists every key, the optional one nullable', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        properties: { key: { type: 'string' }, content: { type: 'string' } },
        required: ['key'],
      }),
    );
    expect(fn.strict).toBe(true);
    expect(fn.parameters.required).toEqual(['key', 'content']);
    expect(fn.parameters.properties).toEqual({
      key: { type: 'string' },
      content: { type: ['string', 'null'] },
    });
  });

  it('2: the same inside array items', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        properties: {
          organizations: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                roles: { type: 'array', items: { type: 'string' } },
              },
              required: ['name'],
            },
          },
        },
        required: ['organizations'],
      }),
    );
    const items = (fn.parameters.properties as Record<string, { items: Record<string, unknown> }>)
      .organizations!.items;
    expect(items.required).toEqual(['name', 'roles']);
    expect(items.additionalProperties).toBe(false);
  });

  it('3: objects without additionalProperties: false → every object closed, nested ones too', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        properties: { permissions: { type: 'object', properties: { read: { type: 'boolean' } } } },
        required: ['permissions'],
      }),
    );
    const objects = schemaNodes(fn.parameters).filter((node) => node.type === 'object');
    expect(objects).toHaveLength(2);
    for (const node of objects) expect(node.additionalProperties).toBe(false);
  });

  it('4: {"type": "object"} without properties (MCP no-argument form) → properties: {}', () => {
    for (const strict of [true, false]) {
      const { payload } = translate([makeTool({ type: 'object' })], 'openai', { strict });
      expect(payload[0]!.function.parameters).toMatchObject({ type: 'object', properties: {} });
    }
  });

  it('5: an array without items → items (strict: typed by the importer; directly: {} and strict off)', () => {
    const direct = openai(
      makeTool({ type: 'object', properties: { paths: { type: 'array' } }, required: ['paths'] }),
    );
    expect(direct.strict).toBe(false);
    expect((direct.parameters.properties as Record<string, Record<string, unknown>>).paths).toEqual(
      {
        type: 'array',
        items: {},
      },
    );
    const viaImport = openai(
      imported('mcp', [
        {
          name: 'filesystem_read_multiple_files',
          inputSchema: { type: 'object', properties: { paths: { type: 'array' } } },
        },
      ]),
    );
    expect(viaImport.strict).toBe(true);
    expect(viaImport.parameters.properties).toMatchObject({
      paths: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
    });
  });

  it('6: root anyOf with type object → a plain object root', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        properties: { calendarId: { type: 'string' } },
        anyOf: [
          { properties: { eventId: { type: 'string' } }, required: ['eventId'] },
          { properties: { query: { type: 'string' } }, required: ['query'] },
        ],
      }),
    );
    expect(Object.keys(fn.parameters.properties as object)).toEqual([
      'calendarId',
      'eventId',
      'query',
    ]);
    expect(fn.parameters).not.toHaveProperty('anyOf');
  });

  it('7: root oneOf without type → type "object"', () => {
    const fn = openai(
      makeTool({
        oneOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] },
        ],
      }),
    );
    expect(fn.parameters.type).toBe('object');
    expect(fn.parameters).not.toHaveProperty('oneOf');
  });

  it('8: nested allOf → merged', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        properties: {
          data: {
            allOf: [
              { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
              { properties: { icon: { type: 'string' } } },
            ],
          },
        },
        required: ['data'],
      }),
    );
    expect(schemaNodes(fn.parameters).some((node) => 'allOf' in node)).toBe(false);
    expect(fn.parameters.properties).toMatchObject({
      data: {
        type: 'object',
        properties: { title: { type: 'string' }, icon: { type: ['string', 'null'] } },
      },
    });
  });

  it('9: nested oneOf (discriminated union) → anyOf', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        properties: {
          data: {
            oneOf: [
              { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] },
              { type: 'object', properties: { kind: { const: 'b' } }, required: ['kind'] },
            ],
          },
        },
        required: ['data'],
      }),
    );
    expect(schemaNodes(fn.parameters).some((node) => 'oneOf' in node)).toBe(false);
    expect(
      (fn.parameters.properties as Record<string, Record<string, unknown>>).data!.anyOf,
    ).toHaveLength(2);
  });

  it('10: format "uri" → moved into the description', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        properties: { url: { type: 'string', format: 'uri', description: 'Article URL' } },
        required: ['url'],
      }),
    );
    expect(fn.parameters.properties).toEqual({
      url: { type: 'string', description: 'Article URL (format: uri)' },
    });
  });

  it('11: $ref with sibling keywords → inlined, no $ref left', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        $defs: {
          Step: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        },
        properties: {
          step: { $ref: '#/$defs/Step', description: 'The step', title: 'Step', default: null },
        },
        required: ['step'],
      }),
    );
    expect(JSON.stringify(fn.parameters)).not.toContain('$ref');
    expect(fn.parameters.properties).toEqual({
      step: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
        description: 'The step',
        title: 'Step',
      },
    });
  });

  it('12: a non-null default → moved into the description (Azure rejects it)', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        properties: { encoding: { type: 'string', enum: ['utf8', 'ascii'], default: 'utf8' } },
      }),
    );
    expect(schemaNodes(fn.parameters).some((node) => 'default' in node)).toBe(false);
    expect(fn.parameters.properties).toEqual({
      encoding: {
        type: ['string', 'null'],
        enum: ['utf8', 'ascii', null],
        description: '(default: utf8)',
      },
    });
  });

  it('13: names with a space, "/" or "." → rejected by translate, converted by fromProvider', () => {
    expect(() =>
      translate(
        [makeTool({ type: 'object', properties: {} }, { name: 'math.factorial' })],
        'openai',
      ),
    ).toThrow(expect.objectContaining({ code: 'INVALID_TOOL_NAME' }));
    const result = fromProvider('openai', [
      {
        type: 'function',
        function: { name: 'math.factorial', parameters: { type: 'object', properties: {} } },
      },
      {
        type: 'function',
        function: { name: 'files/read all', parameters: { type: 'object', properties: {} } },
      },
    ]);
    const { payload } = translate(result.tools, 'openai');
    expect(payload.map((entry) => entry.function.name)).toEqual([
      'math_factorial',
      'files_read_all',
    ]);
    expect(result.nameMap).toEqual({
      math_factorial: 'math.factorial',
      files_read_all: 'files/read all',
    });
  });

  it('14: a description over 1,024 characters → cut to 1,024', () => {
    const fn = openai(
      makeTool({ type: 'object', properties: {} }, { description: 'x'.repeat(1103) }),
    );
    expect(fn.description).toHaveLength(1024);
    expect(fn.description!.endsWith('…')).toBe(true);
  });

  it('15: more than 128 tools → the first 128, with a warning', () => {
    const tools = Array.from({ length: 133 }, (_, index) =>
      makeTool({ type: 'object', properties: {} }, { name: `tool_${index}` }),
    );
    const result = translate(tools, 'openai');
    expect(result.payload).toHaveLength(128);
    expect(Object.keys(result.metadata)).toHaveLength(128);
    expect(result.warnings.find((warning) => warning.code === 'TOO_MANY_TOOLS')?.message).toContain(
      'tool_132',
    );
    expect(checkPayload('openai', result.payload)).toEqual([]);
  });
});

describe('PROVIDERS.md §6: Anthropic', () => {
  it('16: a name with "." or "/" → converted on import', () => {
    const tool = anthropic(
      imported('mcp', [{ name: 'hass.turn_on/light', inputSchema: { type: 'object' } }]),
    );
    expect(tool.name).toBe('hass_turn_on_light');
  });

  it('17: a name over 128 characters → at most 64, distinct for distinct names', () => {
    const long = `${'very_long_tool_name_'.repeat(7)}a`;
    const result = fromProvider('anthropic', [
      { name: long, input_schema: { type: 'object' } },
      { name: `${long}b`, input_schema: { type: 'object' } },
    ]);
    const names = result.tools.map((tool) => anthropic(tool).name);
    expect(names[0]!.length).toBeLessThanOrEqual(64);
    expect(new Set(names).size).toBe(2);
  });

  it('18: root oneOf/anyOf/allOf → none at the top level', () => {
    for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
      const tool = anthropic(
        makeTool({
          type: 'object',
          properties: {},
          [keyword]: [
            { properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'integer' } }, required: ['b'] },
          ],
        }),
      );
      expect(tool.input_schema).not.toHaveProperty(keyword);
      expect(Object.keys(tool.input_schema.properties as object)).toEqual(['a', 'b']);
      expect(tool.input_schema.required ?? []).toEqual(keyword === 'allOf' ? ['a', 'b'] : []);
    }
  });

  it('19: draft-04 {"minimum": 0, "exclusiveMinimum": true} → valid 2020-12', () => {
    const schema = {
      type: 'object',
      properties: { page: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
    };
    expect(metaSchemaProblems(schema)).not.toEqual([]);
    const tool = anthropic(makeTool(schema));
    expect(tool.input_schema.properties).toEqual({
      page: { type: 'integer', exclusiveMinimum: 0 },
    });
    expect(metaSchemaProblems(tool.input_schema)).toEqual([]);
  });

  it('20: every tool deferred → a tool-search tool is added, or one tool stays loaded', () => {
    const tools = [
      makeTool({ type: 'object', properties: {} }, { name: 'one' }),
      makeTool({ type: 'object', properties: {} }, { name: 'two' }),
    ];
    const withSearch = translate(tools, 'anthropic', { deferLoading: true });
    expect(withSearch.payload[0]).toEqual({
      type: 'tool_search_tool_bm25_20251119',
      name: 'tool_search_tool_bm25',
    });
    expect(checkPayload('anthropic', withSearch.payload)).toEqual([]);
    const without = translate(tools, 'anthropic', { deferLoading: true, toolSearch: false });
    expect(without.payload.map((entry) => 'defer_loading' in entry)).toEqual([false, true]);
    expect(without.warnings.map((warning) => warning.code)).toEqual(['DEFER_LOADING_KEPT_ONE']);
    expect(checkPayload('anthropic', without.payload)).toEqual([]);
  });
});

describe('PROVIDERS.md §6: Gemini', () => {
  it('21: additionalProperties anywhere → none left', () => {
    const parameters = gemini(
      makeTool({
        type: 'object',
        additionalProperties: false,
        properties: {
          rows: {
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'string' } },
              additionalProperties: false,
            },
          },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
        },
      }),
    );
    expect(JSON.stringify(parameters)).not.toContain('additionalProperties');
  });

  it('22: $schema at the root → gone', () => {
    const parameters = gemini(
      makeTool({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { q: { type: 'string' } },
      }),
    );
    expect(parameters).toEqual({ type: 'OBJECT', properties: { q: { type: 'STRING' } } });
  });

  it('23: {"type": "object", "properties": {}} → parameters omitted', () => {
    const { payload } = translate([makeTool({ type: 'object', properties: {} })], 'google');
    expect(payload).toEqual([
      { functionDeclarations: [{ name: 'sample_tool', description: 'A sample tool.' }] },
    ]);
  });

  it('24: an integer enum → no enum on a non-string type; the values are described', () => {
    const parameters = gemini(
      makeTool({
        type: 'object',
        properties: { truncateMode: { type: 'integer', enum: [0, 1, 2] } },
      }),
    );
    expect(parameters?.properties?.truncateMode).toEqual({
      type: 'INTEGER',
      description: '(allowed values: 0, 1, 2)',
    });
  });

  it('25: "type": ["string", "null"] → type STRING, nullable', () => {
    const parameters = gemini(
      makeTool({ type: 'object', properties: { note: { type: ['string', 'null'] } } }),
    );
    expect(parameters?.properties?.note).toEqual({ type: 'STRING', nullable: true });
  });

  it('26: const (inside anyOf) → enum', () => {
    const parameters = gemini(
      makeTool({
        type: 'object',
        properties: {
          mode: {
            anyOf: [
              { type: 'string', const: 'fast' },
              { type: 'string', const: 'safe' },
              { type: 'null' },
            ],
          },
        },
      }),
    );
    expect(JSON.stringify(parameters)).not.toContain('const');
    expect(parameters?.properties?.mode).toEqual({
      anyOf: [
        { type: 'STRING', enum: ['fast'], nullable: true },
        { type: 'STRING', enum: ['safe'], nullable: true },
      ],
    });
  });

  it('27: exclusiveMinimum (zod .positive()) → moved into the description', () => {
    const parameters = gemini(
      makeTool({ type: 'object', properties: { count: { type: 'integer', exclusiveMinimum: 0 } } }),
    );
    expect(parameters?.properties?.count).toEqual({
      type: 'INTEGER',
      description: '(exclusiveMinimum: 0)',
    });
  });

  it('28: a property without a type → STRING', () => {
    const parameters = gemini(
      makeTool({ type: 'object', properties: { commit_hash: { description: 'Commit' } } }),
    );
    expect(parameters?.properties?.commit_hash).toEqual({ type: 'STRING', description: 'Commit' });
  });

  it('29: required naming an undefined or dropped property → left out of required', () => {
    const parameters = gemini(
      makeTool({
        type: 'object',
        properties: { ref: { type: 'string' }, nothing: { type: 'null' } },
        required: ['ref', 'missing', 'nothing'],
      }),
    );
    expect(parameters).toEqual({
      type: 'OBJECT',
      properties: { ref: { type: 'STRING' } },
      required: ['ref'],
    });
  });

  it('30: format "uri" → not sent (described instead)', () => {
    const parameters = gemini(
      makeTool({ type: 'object', properties: { issueUrl: { type: 'string', format: 'uri' } } }),
    );
    expect(parameters?.properties?.issueUrl).toEqual({
      type: 'STRING',
      description: '(format: uri)',
    });
  });

  it('31: $ref (and Vertex ref) left in parameters → inlined', () => {
    const parameters = gemini(
      makeTool({
        type: 'object',
        $defs: { Item: { type: 'object', properties: { id: { type: 'string' } } } },
        properties: { items: { type: 'array', items: { $ref: '#/$defs/Item' } } },
      }),
    );
    expect(JSON.stringify(parameters)).not.toMatch(/"\$?ref"|\$defs/);
    expect(parameters?.properties?.items).toEqual({
      type: 'ARRAY',
      items: { type: 'OBJECT', properties: { id: { type: 'STRING' } } },
    });
  });

  it('32: a name with "/" or a leading digit → converted on import', () => {
    const result = fromProvider('google', [
      { functionDeclarations: [{ name: 'github/create_issue' }, { name: '3d_render' }] },
    ]);
    const { payload } = translate(result.tools, 'google');
    expect(payload[0]!.functionDeclarations.map((declaration) => declaration.name)).toEqual([
      'github_create_issue',
      '_3d_render',
    ]);
    expect(checkPayload('google', payload)).toEqual([]);
  });

  it('33: parameters without a root type object (Vertex) → root OBJECT', () => {
    const parameters = gemini(makeTool({ properties: { command: { type: 'string' } } }));
    expect(parameters?.type).toBe('OBJECT');
  });
});

describe('PROVIDERS.md §6: Bedrock', () => {
  it('34: root oneOf without type → inputSchema.json.type "object"', () => {
    const spec = bedrock(
      makeTool({
        oneOf: [
          { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
          { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
        ],
      }),
    );
    expect(spec.inputSchema.json.type).toBe('object');
    expect(spec.inputSchema.json).not.toHaveProperty('oneOf');
  });

  it('35: description "" → omitted', () => {
    const spec = bedrock(makeTool({ type: 'object', properties: {} }, { description: '' }));
    expect(spec).not.toHaveProperty('description');
  });
});

describe('unverified case (third-party summary): enum copied onto a null branch', () => {
  it('an optional enum gets null inside the enum, never an enum on a null branch', () => {
    const fn = openai(
      makeTool({
        type: 'object',
        properties: {
          guide: { anyOf: [{ type: 'string', enum: ['javascript'] }, { type: 'integer' }] },
        },
      }),
    );
    expect(fn.parameters.properties).toEqual({
      guide: {
        anyOf: [{ type: 'string', enum: ['javascript'] }, { type: 'integer' }, { type: 'null' }],
      },
    });
  });
});

describe('impossible input throws a TranslationError with a stable code', () => {
  it('rejects a root that cannot be an object', () => {
    expect(() => translate([makeTool({ type: 'string' })], 'anthropic')).toThrow(TranslationError);
    expect(() => translate([makeTool({ type: 'string' })], 'anthropic')).toThrow(
      /tool "sample_tool": the input schema's root has type "string"/,
    );
  });
});
