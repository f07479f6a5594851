import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolcapError } from '../../src/errors/toolcap-error.js';
import { ProviderResponseError } from '../../src/providers/provider-response-error.js';
import type { ToolCallProviderId } from '../../src/providers/tool-call-types.js';
import { historyFromMessages } from '../../src/toolcap/history-from-messages.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { TURNS } from '../e2e/conversation.js';

const ROOT = join(import.meta.dirname, '../..');

/** The conversation of a request the end-to-end tests recorded (each provider's own format). */
function recordedConversation(directory: string, request: number): unknown[] {
  const body = JSON.parse(
    readFileSync(join(ROOT, 'test/e2e/expected', directory, `request-${request}.json`), 'utf8'),
  ) as { messages?: unknown[]; input?: unknown[]; contents?: unknown[] };
  return body.messages ?? body.input ?? body.contents ?? [];
}

const ASK = 'Add a task to renew my passport';
const CONFIRM = 'Shall I add "Renew my passport" to your to-do list? Any due date?';
const YES = 'yes, do it';
const TITLE = { title: 'Renew my passport' };

/**
 * Turn 1 of each provider's conversation (the user asks, the model asks to confirm in text),
 * and the response of turn 2 (the model calls add_task), in each provider's format.
 */
const PASSPORT: Record<ToolCallProviderId, { conversation: unknown[]; call: unknown }> = {
  openai: {
    conversation: [
      { role: 'system', content: 'Be helpful.' },
      { role: 'user', content: ASK },
      { role: 'assistant', content: CONFIRM, refusal: null, annotations: [] },
    ],
    call: {
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'add_task', arguments: JSON.stringify(TITLE) },
              },
            ],
          },
        },
      ],
    },
  },
  'openai-responses': {
    conversation: [
      { role: 'developer', content: 'Be helpful.' },
      { role: 'user', content: [{ type: 'input_text', text: ASK }] },
      { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAA' },
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: CONFIRM, annotations: [] }],
      },
    ],
    call: [
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'add_task',
        arguments: JSON.stringify(TITLE),
      },
    ],
  },
  anthropic: {
    conversation: [
      { role: 'user', content: ASK },
      { role: 'assistant', content: [{ type: 'text', text: CONFIRM }] },
    ],
    call: {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'add_task', input: TITLE }],
    },
  },
  google: {
    conversation: [
      { role: 'user', parts: [{ text: ASK }] },
      { role: 'model', parts: [{ text: 'Checking.', thought: true }, { text: CONFIRM }] },
    ],
    call: {
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { name: 'add_task', args: TITLE } }] },
        },
      ],
    },
  },
  bedrock: {
    conversation: [
      { role: 'user', content: [{ text: ASK }] },
      { role: 'assistant', content: [{ text: CONFIRM }] },
    ],
    call: {
      output: {
        message: {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'add_task', input: TITLE } }],
        },
      },
    },
  },
};

/** The same user message in each provider's format. */
const USER_MESSAGE: Record<ToolCallProviderId, (text: string) => unknown> = {
  openai: (text) => ({ role: 'user', content: text }),
  'openai-responses': (text) => ({ role: 'user', content: text }),
  anthropic: (text) => ({ role: 'user', content: [{ type: 'text', text }] }),
  google: (text) => ({ role: 'user', parts: [{ text }] }),
  bedrock: (text) => ({ role: 'user', content: [{ text }] }),
};

describe('historyFromMessages: a follow-up turn keeps its tools', () => {
  it.each(
    Object.keys(PASSPORT) as ToolCallProviderId[],
  )('%s: "yes, do it" gets add_task only with the history', async (provider) => {
    const registry = await loadRegistry({ dirs: ['schemas'], strict: true });
    const context = { user_id: 'u_42' };
    const { conversation, call } = PASSPORT[provider];
    // a gate that refuses: an allowed add_task ends NOT_APPROVED instead of running
    const refuse = { approve: () => false, needsApproval: true };

    const history = historyFromMessages(provider, conversation);
    expect(history).toEqual([ASK]);
    // the turn's message already appended: leave it out
    const appended = [...conversation, USER_MESSAGE[provider](YES)];
    expect(historyFromMessages(provider, appended, { excludeLastUserMessage: true })).toEqual([
      ASK,
    ]);
    expect(historyFromMessages(provider, appended)).toEqual([ASK, YES]);

    const without = registry.select(YES, { context });
    expect(without.names).not.toContain('add_task');
    const refused = await registry.executeToolCalls(provider, call as never, context, {
      ...refuse,
      allowed: without,
    });
    expect(refused.results).toMatchObject([{ ok: false, error: { code: 'NOT_SELECTED' } }]);

    const selection = registry.select(YES, { context, history });
    expect(selection.names).toContain('add_task');
    const allowed = await registry.executeToolCalls(provider, call as never, context, {
      ...refuse,
      allowed: selection,
    });
    expect(allowed.results).toMatchObject([{ ok: false, error: { code: 'NOT_APPROVED' } }]);
  });
});

describe('historyFromMessages: recorded conversations of each provider', () => {
  const earlier = [TURNS[0], { tool: 'list_tasks' }];
  const turn2Calls = [{ tool: 'complete_task' }, { tool: 'cancel_event' }, { tool: 'get_agenda' }];
  it.each([
    ['openai', 'openai', []],
    ['openai-responses', 'openai-responses', []],
    // Anthropic's client tool search is toolcap's, not a tool of the registry: left out
    ['anthropic', 'anthropic', []],
    ['google', 'google', [{ tool: 'read_file' }]],
    ['bedrock', 'bedrock', [{ tool: 'file_read' }]],
  ] as const)('%s: user texts and called tools, oldest first; system prompts, answers and results left out', (provider, directory, lastCall) => {
    const conversation = recordedConversation(directory, 4);
    expect(historyFromMessages(provider, conversation)).toEqual([
      ...earlier,
      TURNS[1],
      ...turn2Calls,
      ...lastCall,
    ]);
    // within turn 2: its message left out, the calls of its earlier steps kept
    expect(historyFromMessages(provider, conversation, { excludeLastUserMessage: true })).toEqual([
      ...earlier,
      ...turn2Calls,
      ...lastCall,
    ]);
    // before turn 2: what the request of turn 2's first step would pass to select
    expect(historyFromMessages(provider, recordedConversation(directory, 2))).toEqual([
      TURNS[0],
      { tool: 'list_tasks' },
    ]);
  });

  it('joins text parts, skips thoughts and result-only user messages, reads role-less Gemini contents', () => {
    expect(
      historyFromMessages('openai', [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is on this receipt?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'text', text: 'Add it to my expenses.' },
          ],
        },
        { role: 'developer', content: 'Be brief.' },
      ]),
    ).toEqual(['What is on this receipt?\nAdd it to my expenses.']);
    expect(
      historyFromMessages('google', [
        { parts: [{ text: 'Plan my week' }] },
        {
          role: 'model',
          parts: [{ text: 'Thinking.', thought: true }, { functionCall: { name: 'get_agenda' } }],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'get_agenda', response: { output: [] } } }],
        },
      ]),
    ).toEqual(['Plan my week', { tool: 'get_agenda' }]);
    expect(
      historyFromMessages(
        'openai-responses',
        [
          { role: 'user', content: 'Fix the typo' },
          { type: 'custom_tool_call', call_id: 'c', name: 'file_edit', input: 'patch' },
          { type: 'custom_tool_call_output', call_id: 'c', output: 'done' },
        ],
        { excludeLastUserMessage: true },
      ),
    ).toEqual([{ tool: 'file_edit' }]);
    expect(
      historyFromMessages(
        'bedrock',
        [
          { role: 'user', content: [{ text: 'Read notes.txt' }] },
          {
            role: 'assistant',
            content: [{ toolUse: { toolUseId: 't', name: 'file_read', input: {} } }],
          },
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 't', content: [{ text: 'hi' }] } }],
          },
        ],
        { excludeLastUserMessage: true },
      ),
    ).toEqual([{ tool: 'file_read' }]);
  });

  it("leaves out Anthropic's client tool search and reads OpenAI's legacy function_call", () => {
    expect(
      historyFromMessages('anthropic', [
        { role: 'user', content: 'find my project docs' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'search_tools', input: { query: 'docs' } },
            { type: 'tool_use', id: 't2', name: 'list_project_docs', input: {} },
          ],
        },
      ]),
    ).toEqual(['find my project docs', { tool: 'list_project_docs' }]);
    expect(
      historyFromMessages('openai', [
        { role: 'user', content: 'what is on today' },
        {
          role: 'assistant',
          content: null,
          function_call: { name: 'get_agenda', arguments: '{}' },
        },
      ]),
    ).toEqual(['what is on today', { tool: 'get_agenda' }]);
  });

  it('gives an empty history for an empty conversation', () => {
    expect(historyFromMessages('anthropic', [])).toEqual([]);
    expect(historyFromMessages('anthropic', [], { excludeLastUserMessage: true })).toEqual([]);
  });
});

describe('historyFromMessages: bad input', () => {
  const fails = (run: () => unknown, code: string, message: string) => {
    let error: unknown;
    try {
      run();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolcapError);
    expect(error).toMatchObject({ code, message });
  };

  it('names the providers it reads, and the closest one', () => {
    fails(
      () => historyFromMessages('opanai' as never, []),
      'UNSUPPORTED_PROVIDER',
      'historyFromMessages: cannot read the messages of "opanai"; it reads "openai", "openai-responses", "anthropic", "google", "bedrock". Did you mean "openai"?',
    );
    fails(
      () => historyFromMessages('mcp' as never, []),
      'UNSUPPORTED_PROVIDER',
      'historyFromMessages: cannot read the messages of "mcp"; it reads "openai", "openai-responses", "anthropic", "google", "bedrock"',
    );
    expect(() => historyFromMessages('opanai' as never, [])).toThrowError(ProviderResponseError);
    // a model family names its provider, as in translate
    fails(
      () => historyFromMessages('gemini' as never, []),
      'UNSUPPORTED_PROVIDER',
      'historyFromMessages: cannot read the messages of "gemini"; it reads "openai", "openai-responses", "anthropic", "google", "bedrock". Did you mean "google"?',
    );
  });

  it('refuses a role the provider has no messages of', () => {
    fails(
      () => historyFromMessages('anthropic', [{ role: 'system', content: 'Be brief.' }]),
      'INVALID_MESSAGES',
      'historyFromMessages("anthropic", messages): messages[0] has the role "system"; Anthropic messages are "user" or "assistant" (a system prompt goes in the request\'s "system" field); each must be an Anthropic message: { role: "user" | "assistant", content: a string or an array of content blocks }',
    );
    fails(
      () => historyFromMessages('bedrock', [{ role: 'system', content: [{ text: 'Be brief.' }] }]),
      'INVALID_MESSAGES',
      'historyFromMessages("bedrock", messages): messages[0] has the role "system"; Bedrock Converse messages are "user" or "assistant" (a system prompt goes in the request\'s "system" field); each must be a Bedrock Converse message: { role: "user" | "assistant", content: an array of content blocks }',
    );
  });

  it('says what the conversation must be when it is not an array', () => {
    fails(
      () => historyFromMessages('google', { contents: [] } as never),
      'INVALID_MESSAGES',
      'historyFromMessages("google", messages): messages must be an array (the request\'s "contents"), got an object with the keys "contents"',
    );
  });

  it('names the index of a malformed message and the shape it must have', () => {
    fails(
      () => historyFromMessages('openai', [{ role: 'user', content: 'hi' }, 'hello']),
      'INVALID_MESSAGES',
      'historyFromMessages("openai", messages): messages[1] is "hello"; each must be an OpenAI Chat message: { role, content }, an assistant message with its "tool_calls"',
    );
    fails(
      () => historyFromMessages('openai', [{ content: 'hi' }]),
      'INVALID_MESSAGES',
      'historyFromMessages("openai", messages): messages[0] has no "role"; each must be an OpenAI Chat message: { role, content }, an assistant message with its "tool_calls"',
    );
    fails(
      () =>
        historyFromMessages('openai', [
          { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function' }] },
        ]),
      'INVALID_MESSAGES',
      'historyFromMessages("openai", messages): messages[0] has tool_calls[0] without a "function.name"; each must be an OpenAI Chat message: { role, content }, an assistant message with its "tool_calls"',
    );
    fails(
      () =>
        historyFromMessages('openai-responses', [
          { role: 'user', content: 'hi' },
          { type: 'function_call', call_id: 'c', arguments: '{}' },
        ]),
      'INVALID_MESSAGES',
      'historyFromMessages("openai-responses", messages): messages[1] is a "function_call" item without a "name"; each must be an OpenAI Responses input item: a message { role, content } or an item with a "type" (function_call, reasoning, ...)',
    );
    fails(
      () =>
        historyFromMessages('anthropic', [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'ok' },
              { type: 'tool_use', id: 't' },
            ],
          },
        ]),
      'INVALID_MESSAGES',
      'historyFromMessages("anthropic", messages): messages[1] has content[1], a "tool_use" block, without a "name"; each must be an Anthropic message: { role: "user" | "assistant", content: a string or an array of content blocks }',
    );
    fails(
      () => historyFromMessages('anthropic', [{ role: 'user' }]),
      'INVALID_MESSAGES',
      'historyFromMessages("anthropic", messages): messages[0] "content" is neither a string nor an array of content blocks; each must be an Anthropic message: { role: "user" | "assistant", content: a string or an array of content blocks }',
    );
    fails(
      () => historyFromMessages('google', [{ role: 'user', parts: 'hi' }]),
      'INVALID_MESSAGES',
      'historyFromMessages("google", messages): messages[0] "parts" is not an array of parts; each must be a Gemini Content: { role: "user" | "model", parts: an array of parts }',
    );
    fails(
      () => historyFromMessages('bedrock', [{ role: 'user', content: 'hi' }]),
      'INVALID_MESSAGES',
      'historyFromMessages("bedrock", messages): messages[0] "content" is not an array of content blocks; each must be a Bedrock Converse message: { role: "user" | "assistant", content: an array of content blocks }',
    );
  });

  it('refuses another provider’s messages instead of losing their tool calls', () => {
    fails(
      () => historyFromMessages('anthropic', recordedConversation('openai', 4)),
      'INVALID_MESSAGES',
      'historyFromMessages("anthropic", messages): messages[2] looks like an OpenAI Chat Completions response or message: pass the messages with the provider "openai"',
    );
    fails(
      () => historyFromMessages('bedrock', recordedConversation('anthropic', 4)),
      'INVALID_MESSAGES',
      'historyFromMessages("bedrock", messages): messages[1] looks like an Anthropic message (a "tool_use" block): pass the messages with the provider "anthropic"',
    );
  });

  it('rejects an unknown or malformed option', () => {
    expect(() =>
      historyFromMessages('openai', [], { excludeLastUserMessage: 'yes' as never }),
    ).toThrowError(
      'historyFromMessages: option "excludeLastUserMessage" must be true or false, got "yes"',
    );
    expect(() => historyFromMessages('openai', [], { excludeLast: true } as never)).toThrowError(
      'historyFromMessages: unknown option "excludeLast". Options: excludeLastUserMessage',
    );
  });
});
