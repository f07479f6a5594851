/** The checkers must fail on the shapes PROVIDERS.md §6 says the APIs reject. */
import { describe, expect, it } from 'vitest';
import { checkPayload } from './check-payload.js';

const fn = (parameters: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'function',
  function: { name: 'tool', parameters, strict: true, ...extra },
});

describe('conformance checkers reject what the providers reject', () => {
  it('openai', () => {
    const bad: [unknown[], string][] = [
      [
        [
          fn({
            type: 'object',
            properties: { a: { type: 'string' } },
            additionalProperties: false,
          }),
        ],
        'required is not every key',
      ],
      [[fn({ type: 'object', properties: {} })], 'additionalProperties is not false'],
      [[fn({ type: 'object' }, { strict: false })], 'object schema missing properties'],
      [
        [fn({ type: 'object', properties: { a: { type: 'array' } } }, { strict: false })],
        'array schema missing items',
      ],
      [[fn({ type: 'object', properties: {}, anyOf: [] }, { strict: false })], 'top-level anyOf'],
      [[fn({ properties: {} }, { strict: false })], 'root type'],
      [
        [
          fn(
            { type: 'object', properties: { a: { $ref: '#/$defs/a', description: 'x' } } },
            { strict: false },
          ),
        ],
        '$ref with sibling',
      ],
      [
        [
          fn({
            type: 'object',
            properties: { u: { type: 'string', format: 'uri' } },
            required: ['u'],
            additionalProperties: false,
          }),
        ],
        'format "uri"',
      ],
      [
        [
          fn({
            type: 'object',
            properties: { d: { type: 'string', default: 'x' } },
            required: ['d'],
            additionalProperties: false,
          }),
        ],
        'keyword "default"',
      ],
      [
        [
          fn({
            type: 'object',
            properties: { e: { type: ['string', 'null'], enum: ['a'] } },
            required: ['e'],
            additionalProperties: false,
          }),
        ],
        'nullable enum without null',
      ],
      [[fn({ type: 'object', properties: {} }, { name: 'a.b' })], 'does not match'],
      [
        [fn({ type: 'object', properties: {} }, { description: 'x'.repeat(1025), strict: false })],
        '1025 characters',
      ],
      [[fn({ type: 'object', properties: {} }, { strict: undefined })], 'strict is not sent'],
      [
        Array.from({ length: 129 }, () =>
          fn({ type: 'object', properties: {} }, { strict: false }),
        ),
        '129 tools',
      ],
    ];
    for (const [payload, problem] of bad) {
      expect(checkPayload('openai', payload).join('\n'), problem).toContain(problem);
    }
    expect(checkPayload('openai-responses', [{ type: 'function', function: {} }]).join()).toContain(
      'not the flat',
    );
    expect(
      checkPayload('openai-responses', [
        {
          type: 'function',
          name: 'a',
          parameters: { type: 'object', properties: {} },
          strict: false,
          defer_loading: true,
        },
      ]).join(),
    ).toContain('every tool is deferred');
  });

  it('anthropic', () => {
    const tool = (input_schema: unknown, extra: Record<string, unknown> = {}) => ({
      name: 'tool',
      input_schema,
      ...extra,
    });
    expect(
      checkPayload('anthropic', [tool({ type: 'object', properties: {}, oneOf: [] })]).join(),
    ).toContain('oneOf at the top level');
    expect(
      checkPayload('anthropic', [
        tool({ type: 'object', properties: { n: { type: 'integer', exclusiveMinimum: true } } }),
      ]).join(),
    ).toContain('not valid 2020-12');
    expect(checkPayload('anthropic', [tool({ type: 'object' }, { name: 'a/b' })]).join()).toContain(
      'does not match',
    );
    expect(
      checkPayload('anthropic', [tool({ type: 'object' }, { defer_loading: true })]).join(),
    ).toContain('every tool has defer_loading=true');
    expect(
      checkPayload('anthropic', [
        tool({ type: 'object' }, { cache_control: { type: 'ephemeral' } }),
        tool({ type: 'object' }),
      ]).join(),
    ).toContain('cache_control on a tool that is not the last');
  });

  it('google', () => {
    const declare = (parameters: unknown, name = 'tool') => [
      { functionDeclarations: [{ name, parameters }] },
    ];
    const bad: [unknown, string][] = [
      [
        declare({
          type: 'OBJECT',
          properties: { a: { type: 'STRING' } },
          additionalProperties: false,
        }),
        'Unknown name "additionalProperties"',
      ],
      [declare({ type: 'OBJECT', properties: {} }), 'should be non-empty for OBJECT type'],
      [
        declare({ type: 'OBJECT', properties: { a: { type: 'INTEGER', enum: ['1'] } } }),
        'only allowed for STRING type',
      ],
      [
        declare({ type: 'OBJECT', properties: { a: { type: ['STRING', 'NULL'] } } }),
        'is not a Type',
      ],
      [declare({ type: 'OBJECT', properties: { a: { description: 'x' } } }), 'must be specified'],
      [
        declare({ type: 'OBJECT', properties: { a: { type: 'STRING' } }, required: ['b'] }),
        'property is not defined',
      ],
      [
        declare({ type: 'OBJECT', properties: { a: { type: 'STRING', format: 'uri' } } }),
        'is not supported for STRING',
      ],
      [
        declare({ type: 'OBJECT', properties: { a: { type: 'STRING', minLength: 1 } } }),
        'not an int64 string',
      ],
      [declare({ type: 'STRING' }), 'should be of type OBJECT'],
      [
        declare({ type: 'OBJECT', properties: { a: { type: 'STRING' } } }, '3d'),
        'Invalid function name',
      ],
      [
        declare({
          type: 'OBJECT',
          properties: { a: { type: 'STRING', anyOf: [{ type: 'STRING' }] } },
        }),
        'type and anyOf',
      ],
      [declare({ type: 'OBJECT', properties: { a: { type: 'ARRAY' } } }), 'ARRAY without items'],
    ];
    for (const [payload, problem] of bad) {
      expect(checkPayload('google', payload).join('\n'), problem).toContain(problem);
    }
  });

  it('bedrock, mcp, canonical', () => {
    expect(
      checkPayload('bedrock', [
        { toolSpec: { name: 'a', description: '', inputSchema: { json: { type: 'object' } } } },
      ]).join(),
    ).toContain('length greater than or equal to 1');
    expect(
      checkPayload('bedrock', [
        { toolSpec: { name: 'a', inputSchema: { json: { oneOf: [] } } } },
      ]).join(),
    ).toContain('must be one of the following: object');
    expect(checkPayload('mcp', [{ name: 'a', inputSchema: { type: 'string' } }]).join()).toContain(
      'rejected by the MCP SDK Tool schema',
    );
    expect(
      checkPayload('mcp', [
        { name: 'a b', inputSchema: { type: 'object', properties: { x: { type: 'nope' } } } },
      ]).join(),
    ).toContain('must be equal to one of the allowed values');
    expect(
      checkPayload('canonical', [
        { name: 'a-b', description: 'x', parameters: { type: 'object', required: ['x'] } },
      ]).join(),
    ).toContain('parameters.properties is missing');
  });
});
