import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/format/types.js';
import { anthropicToolCalls } from '../../src/providers/anthropic-tool-calls.js';
import { bedrockToolCalls } from '../../src/providers/bedrock-tool-calls.js';
import { googleToolCalls } from '../../src/providers/google-tool-calls.js';
import { openAIChatToolCalls } from '../../src/providers/openai-chat-tool-calls.js';
import { openAIResponsesToolCalls } from '../../src/providers/openai-responses-tool-calls.js';
import { ProviderResponseError } from '../../src/providers/provider-response-error.js';
import { toolCallCodec } from '../../src/providers/tool-call-codecs.js';
import type { ToolCallOutcome } from '../../src/providers/tool-call-types.js';
import { translate } from '../../src/providers/translate.js';

const ok = (output: unknown) => ({ ok: true as const, output: output as never });
const failed = (code: string, message: string) => ({
  ok: false as const,
  error: { code, message },
});
const noTranslate = () => [];

describe('OpenAI Chat Completions', () => {
  const message = {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'list_tasks', arguments: '{"a":1}' } },
      { id: 'call_2', type: 'custom', custom: { name: 'raw', input: 'free text' } },
    ],
  };

  it('reads the calls of a completion (first choice) or of its message, arguments as sent', () => {
    const calls = [
      { kind: 'tool', id: 'call_1', name: 'list_tasks', arguments: '{"a":1}' },
      { kind: 'tool', id: 'call_2', name: 'raw', arguments: 'free text' },
    ];
    expect(openAIChatToolCalls.readCalls({ choices: [{ message }] })).toEqual(calls);
    expect(openAIChatToolCalls.readCalls(message)).toEqual(calls);
  });

  it('reads no calls from a text answer or an empty choice list', () => {
    expect(
      openAIChatToolCalls.readCalls({
        choices: [{ message: { role: 'assistant', content: 'hi' } }],
      }),
    ).toEqual([]);
    expect(openAIChatToolCalls.readCalls({ role: 'assistant', tool_calls: null })).toEqual([]);
    expect(openAIChatToolCalls.readCalls({ choices: [] })).toEqual([]);
  });

  it('writes one tool message per call, string content, errors as {"error"}', () => {
    const outcomes: ToolCallOutcome[] = [
      { call: { kind: 'tool', id: 'call_1', name: 'a', arguments: '{}' }, result: ok({ n: 1 }) },
      { call: { kind: 'tool', id: 'call_2', name: 'b', arguments: '{}' }, result: ok('plain') },
      {
        call: { kind: 'tool', id: 'call_3', name: 'c', arguments: '{}' },
        result: failed('NOT_APPROVED', 'No.'),
      },
    ];
    expect(openAIChatToolCalls.writeResults(outcomes, noTranslate)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '{"n":1}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'plain' },
      {
        role: 'tool',
        tool_call_id: 'call_3',
        content: '{"error":{"code":"NOT_APPROVED","message":"No."}}',
      },
    ]);
  });
});

describe('OpenAI Responses', () => {
  const output = [
    { type: 'reasoning', id: 'rs_1', summary: [] },
    {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_1',
      name: 'list_tasks',
      arguments: '{}',
      namespace: 'tasks',
    },
    { type: 'tool_search_call', call_id: 'call_2', execution: 'client', arguments: { query: 'x' } },
    { type: 'tool_search_call', call_id: null, execution: 'server', arguments: { paths: ['crm'] } },
    { type: 'message', role: 'assistant', content: [] },
  ];

  it('reads function calls and client tool searches (by call_id) from a response, its items, or one item', () => {
    const calls = [
      { kind: 'tool', id: 'call_1', name: 'list_tasks', arguments: '{}' },
      { kind: 'tool_search', id: 'call_2', name: 'tool_search', arguments: { query: 'x' } },
    ];
    expect(openAIResponsesToolCalls.readCalls({ output })).toEqual(calls);
    expect(openAIResponsesToolCalls.readCalls(output)).toEqual(calls);
    expect(openAIResponsesToolCalls.readCalls(output[1])).toEqual([calls[0]]);
  });

  it('writes function_call_output items, and tool_search_output items with deferred definitions', () => {
    const loaded: ToolDefinition[] = [
      {
        name: 'list_tasks',
        description: 'List tasks.',
        category: 'retrieval',
        input_schema: { type: 'object', properties: {} },
        metadata: {
          executor: 'x',
          requires_context: [],
          cost_estimate: 'low',
          latency_estimate: 'fast',
        },
      },
    ];
    const items = openAIResponsesToolCalls.writeResults(
      [
        { call: { kind: 'tool', id: 'call_1', name: 'a', arguments: '{}' }, result: ok([1]) },
        {
          call: { kind: 'tool_search', id: 'call_2', name: 'tool_search', arguments: {} },
          result: ok({ tools: ['list_tasks'] }),
          loaded,
        },
      ],
      (tools) => translate(tools, 'openai-responses', { deferLoading: true }).payload,
    );
    expect(items).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: '[1]' },
      {
        type: 'tool_search_output',
        execution: 'client',
        call_id: 'call_2',
        status: 'completed',
        // the hosted search tool the translation adds is not a loaded tool
        tools: [
          {
            type: 'function',
            name: 'list_tasks',
            description: 'List tasks.',
            parameters: {
              type: 'object',
              properties: {},
              required: [],
              additionalProperties: false,
            },
            strict: true,
            defer_loading: true,
          },
        ],
      },
    ]);
  });

  it('defers the functions inside a namespace the translation groups them in', () => {
    const [item] = openAIResponsesToolCalls.writeResults(
      [
        {
          call: { kind: 'tool_search', id: 'call_2', name: 'tool_search', arguments: {} },
          result: ok({ tools: ['a'] }),
          loaded: [],
        },
      ],
      () => [
        {
          type: 'namespace',
          name: 'tasks',
          description: 'Tasks.',
          tools: [{ type: 'function', name: 'a', parameters: {}, strict: true }],
        },
      ],
    );
    expect(item).toMatchObject({
      tools: [{ type: 'namespace', tools: [{ name: 'a', defer_loading: true }] }],
    });
  });
});

describe('Anthropic', () => {
  const content = [
    { type: 'text', text: 'Checking.' },
    { type: 'tool_use', id: 'toolu_1', name: 'list_tasks', input: { status: 'open' } },
    { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
    { type: 'tool_use', id: 'toolu_2', name: 'search_tools', input: { query: 'files' } },
  ];

  it('reads tool_use blocks from a message or its content', () => {
    const calls = [
      { kind: 'tool', id: 'toolu_1', name: 'list_tasks', arguments: { status: 'open' } },
      { kind: 'tool', id: 'toolu_2', name: 'search_tools', arguments: { query: 'files' } },
    ];
    expect(anthropicToolCalls.readCalls({ role: 'assistant', content })).toEqual(calls);
    expect(anthropicToolCalls.readCalls(content)).toEqual(calls);
    expect(anthropicToolCalls.searchToolName).toBe('search_tools');
  });

  it('writes one user message of tool_result blocks: is_error on failures, tool_reference for loaded tools', () => {
    const tool = { name: 'file_read' } as ToolDefinition;
    const messages = anthropicToolCalls.writeResults(
      [
        { call: { kind: 'tool', id: 'toolu_1', name: 'a', arguments: {} }, result: ok({ n: 1 }) },
        {
          call: { kind: 'tool', id: 'toolu_2', name: 'b', arguments: {} },
          result: failed('INVALID_INPUT', 'Bad.'),
        },
        {
          call: { kind: 'tool', id: 'toolu_3', name: 'search_tools', arguments: {} },
          result: ok({ query: 'q', tools: ['file_read'] }),
          loaded: [tool],
        },
        {
          call: { kind: 'tool', id: 'toolu_4', name: 'search_tools', arguments: {} },
          result: ok({ query: 'none', tools: [] }),
          loaded: [],
        },
      ],
      noTranslate,
    );
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"n":1}' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: '{"error":{"code":"INVALID_INPUT","message":"Bad."}}',
            is_error: true,
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_3',
            content: [{ type: 'tool_reference', tool_name: 'file_read' }],
          },
          // an empty reference list is not a valid result: the search says what it found
          { type: 'tool_result', tool_use_id: 'toolu_4', content: '{"query":"none","tools":[]}' },
        ],
      },
    ]);
    expect(anthropicToolCalls.writeResults([], noTranslate)).toEqual([]);
  });
});

describe('Gemini', () => {
  const parts = [
    { text: 'Let me look.' },
    { functionCall: { name: 'list_tasks', args: { status: 'open' } }, thoughtSignature: 'sig' },
    { functionCall: { id: 'fc_7', name: 'get_agenda', args: { from: '2026-03-02' } } },
    { functionCall: { name: 'recall_journal' } },
  ];

  it('reads functionCall parts, giving calls without an id call_<n> by position among the calls', () => {
    const calls = [
      {
        kind: 'tool',
        id: 'call_0',
        name: 'list_tasks',
        arguments: { status: 'open' },
        idGenerated: true,
      },
      { kind: 'tool', id: 'fc_7', name: 'get_agenda', arguments: { from: '2026-03-02' } },
      { kind: 'tool', id: 'call_2', name: 'recall_journal', arguments: {}, idGenerated: true },
    ];
    expect(
      googleToolCalls.readCalls({ candidates: [{ content: { role: 'model', parts } }] }),
    ).toEqual(calls);
    expect(googleToolCalls.readCalls({ role: 'model', parts })).toEqual(calls);
    // the same response always gives the same ids
    expect(googleToolCalls.readCalls({ role: 'model', parts })).toEqual(calls);
  });

  it('reads no calls from a response without candidates or parts', () => {
    expect(googleToolCalls.readCalls({ candidates: [] })).toEqual([]);
    expect(googleToolCalls.readCalls({ candidates: [{ finishReason: 'SAFETY' }] })).toEqual([]);
  });

  it('writes one user Content of functionResponse parts; an id only where the call had one', () => {
    const messages = googleToolCalls.writeResults(
      [
        {
          call: {
            kind: 'tool',
            id: 'call_0',
            name: 'list_tasks',
            arguments: {},
            idGenerated: true,
          },
          result: ok({ count: 0 }),
        },
        {
          call: { kind: 'tool', id: 'fc_7', name: 'get_agenda', arguments: {} },
          result: failed('INVALID_INPUT', 'Bad date.'),
        },
      ],
      noTranslate,
    );
    expect(messages).toEqual([
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'list_tasks', response: { output: { count: 0 } } } },
          {
            functionResponse: {
              id: 'fc_7',
              name: 'get_agenda',
              response: { error: { code: 'INVALID_INPUT', message: 'Bad date.' } },
            },
          },
        ],
      },
    ]);
  });
});

describe('Bedrock Converse', () => {
  const message = {
    role: 'assistant',
    content: [
      { text: 'Looking.' },
      { toolUse: { toolUseId: 'tooluse_1', name: 'list_tasks', input: { status: 'open' } } },
    ],
  };

  it('reads toolUse blocks from a ConverseResponse or its message', () => {
    const calls = [
      { kind: 'tool', id: 'tooluse_1', name: 'list_tasks', arguments: { status: 'open' } },
    ];
    expect(bedrockToolCalls.readCalls({ output: { message }, stopReason: 'tool_use' })).toEqual(
      calls,
    );
    expect(bedrockToolCalls.readCalls(message)).toEqual(calls);
  });

  it('writes one user message of toolResult blocks with text content, status "error" on failures', () => {
    expect(
      bedrockToolCalls.writeResults(
        [
          { call: { kind: 'tool', id: 't1', name: 'a', arguments: {} }, result: ok({ n: 1 }) },
          {
            call: { kind: 'tool', id: 't2', name: 'b', arguments: {} },
            result: failed('TIMEOUT', 'Slow.'),
          },
        ],
        noTranslate,
      ),
    ).toEqual([
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 't1', content: [{ text: '{"n":1}' }] } },
          {
            toolResult: {
              toolUseId: 't2',
              content: [{ text: '{"error":{"code":"TIMEOUT","message":"Slow."}}' }],
              status: 'error',
            },
          },
        ],
      },
    ]);
  });
});

describe('responses that are not the provider’s', () => {
  const PASS_AS_IT_CAME =
    ". Pass the provider's response as it came back (or the message it holds), with the provider it came from";
  it.each([
    [
      'openai',
      { content: [{ type: 'tool_use' }] },
      'executeToolCalls("openai", response) expects a ChatCompletion (an object with "choices"; the first choice is read) or its assistant message (an object with "tool_calls"); got an object with the keys "content", which looks like an Anthropic message (a "tool_use" block): pass it with the provider "anthropic"',
    ],
    [
      'openai-responses',
      { choices: [] },
      'executeToolCalls("openai-responses", response) expects a Response (an object with an "output" array), its output items, or one output item; got an object with the keys "choices", which looks like an OpenAI Chat Completions response or message: pass it with the provider "openai"',
    ],
    [
      'anthropic',
      'hello',
      `executeToolCalls("anthropic", response) expects a Message (an object with a "content" array) or its content blocks (an array); got string${PASS_AS_IT_CAME}`,
    ],
    [
      'google',
      { output: [] },
      'executeToolCalls("google", response) expects a GenerateContentResponse (an object with "candidates"; the first candidate is read) or a Content (an object with "parts"); got an object with the keys "output", which looks like an OpenAI Responses response: pass it with the provider "openai-responses"',
    ],
    [
      'bedrock',
      null,
      `executeToolCalls("bedrock", response) expects a ConverseResponse (an object with "output.message") or its message (an object with a "content" array); got null${PASS_AS_IT_CAME}`,
    ],
  ] as const)('%s: names what it expects and what it got', (provider, response, message) => {
    let error: unknown;
    try {
      toolCallCodec(provider).readCalls(response);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', provider });
    expect((error as Error).message).toBe(message);
  });

  const ANSWER = ". Pass the provider's response as it came back (or the message it holds)";
  const OPENAI_EXPECTS =
    'executeToolCalls("openai", response) expects a ChatCompletion (an object with "choices"; the first choice is read) or its assistant message (an object with "tool_calls"); ';
  const ANTHROPIC_EXPECTS =
    'executeToolCalls("anthropic", response) expects a Message (an object with a "content" array) or its content blocks (an array); ';
  const GOOGLE_EXPECTS =
    'executeToolCalls("google", response) expects a GenerateContentResponse (an object with "candidates"; the first candidate is read) or a Content (an object with "parts"); ';
  const BEDROCK_EXPECTS =
    'executeToolCalls("bedrock", response) expects a ConverseResponse (an object with "output.message") or its message (an object with a "content" array); ';
  const RESPONSES_EXPECTS =
    'executeToolCalls("openai-responses", response) expects a Response (an object with an "output" array), its output items, or one output item; ';
  it.each([
    [
      'openai',
      { choices: [{ message: { tool_calls: {} } }] },
      `${OPENAI_EXPECTS}choices[0].message.tool_calls is an object, not an array`,
    ],
    [
      'openai',
      { choices: [{ message: 'hi' }] },
      `${OPENAI_EXPECTS}choices[0].message is a string, not an object`,
    ],
    [
      'openai',
      { choices: [{}] },
      `${OPENAI_EXPECTS}choices[0].message is missing (it must be an object)`,
    ],
    ['openai', { choices: [null] }, `${OPENAI_EXPECTS}choices[0] is null, not an object`],
    ['openai', { choices: {} }, `${OPENAI_EXPECTS}choices is an object, not an array`],
    [
      'openai',
      { role: 'assistant', tool_calls: 'x' },
      `${OPENAI_EXPECTS}tool_calls is a string, not an array`,
    ],
    ['anthropic', { content: 'hello' }, `${ANTHROPIC_EXPECTS}content is a string, not an array`],
    ['google', { candidates: {} }, `${GOOGLE_EXPECTS}candidates is an object, not an array`],
    [
      'google',
      { candidates: [{ content: { parts: {} } }] },
      `${GOOGLE_EXPECTS}candidates[0].content.parts is an object, not an array`,
    ],
    ['google', { parts: 3 }, `${GOOGLE_EXPECTS}parts is a number, not an array`],
    [
      'bedrock',
      { output: { message: 'x' } },
      `${BEDROCK_EXPECTS}output.message is a string, not an object`,
    ],
    [
      'bedrock',
      { output: { message: { content: {} } } },
      `${BEDROCK_EXPECTS}output.message.content is an object, not an array`,
    ],
    ['bedrock', { output: 'x' }, `${BEDROCK_EXPECTS}output is a string, not an object`],
    [
      'bedrock',
      { role: 'assistant', content: 'x' },
      `${BEDROCK_EXPECTS}content is a string, not an array`,
    ],
    ['openai-responses', { output: 'x' }, `${RESPONSES_EXPECTS}output is a string, not an array`],
  ] as const)('%s: names the field of the wrong type (%j)', (provider, response, message) => {
    expect(() => toolCallCodec(provider).readCalls(response)).toThrowError(
      expect.objectContaining({
        code: 'INVALID_RESPONSE',
        provider,
        message: `${message}${ANSWER}`,
      }),
    );
  });

  // each of these has the shape another codec reads (a message with "role" and a "content"
  // array), so without the check its calls would be read as none and lost without a word
  const anthropicMessage = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'tu_1', name: 'list_tasks', input: {} }],
    stop_reason: 'tool_use',
  };
  const bedrockMessage = {
    role: 'assistant',
    content: [{ toolUse: { toolUseId: 't1', name: 'list_tasks', input: {} } }],
  };
  it.each([
    ['openai', anthropicMessage, 'anthropic'],
    ['openai-responses', anthropicMessage, 'anthropic'],
    ['bedrock', anthropicMessage, 'anthropic'],
    ['anthropic', bedrockMessage, 'bedrock'],
    ['openai', bedrockMessage, 'bedrock'],
    [
      'anthropic',
      { output: [{ type: 'function_call', call_id: 'c', name: 'x' }] },
      'openai-responses',
    ],
  ] as const)('%s refuses a message of %s that its codec would read as no calls', (provider, response, source) => {
    expect(() => toolCallCodec(provider).readCalls(response)).toThrowError(
      expect.objectContaining({
        code: 'INVALID_RESPONSE',
        message: expect.stringContaining(`: pass it with the provider "${source}"`),
      }),
    );
    expect(toolCallCodec(source).readCalls(response)).toHaveLength(1);
  });

  it('refuses providers without tool-call responses', () => {
    expect(() => toolCallCodec('mcp' as never)).toThrow(
      'executeToolCalls cannot read responses of "mcp": it reads "openai", "openai-responses", "anthropic", "google", "bedrock". MCP clients call tools through createMcpServer instead',
    );
    expect(() => toolCallCodec('__proto__' as never)).toThrowError(
      expect.objectContaining({ code: 'UNSUPPORTED_PROVIDER' }),
    );
  });
});
