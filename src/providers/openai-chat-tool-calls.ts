import { contentText } from './content-text.js';
import {
  invalidField,
  invalidResponse,
  isRecord,
  rejectOtherProvider,
} from './provider-response-error.js';
import type {
  OpenAIChatToolMessage,
  ProviderToolCall,
  ReadMessageResult,
  ToolCallCodec,
} from './tool-call-types.js';
import { resultText } from './tool-result-text.js';

const EXPECTED =
  'a ChatCompletion (an object with "choices"; the first choice is read) or its assistant message (an object with "tool_calls")';

const OBJECT = 'an object';

/**
 * OpenAI Chat Completions: calls are the assistant message's `tool_calls` (`arguments` is JSON
 * text); each result is a `{ role: "tool", tool_call_id, content }` message with string
 * content, in the calls' order, to append after the assistant message. In a conversation, a
 * user message's text is its string content or its `text` parts; an assistant message's calls
 * are its `tool_calls`.
 */
export const openAIChatToolCalls: ToolCallCodec<'openai'> = {
  readCalls(response) {
    rejectOtherProvider('openai', EXPECTED, response);
    let message: unknown = response;
    let at = '';
    if (isRecord(response) && Array.isArray(response.choices)) {
      if (response.choices.length === 0) return [];
      const choice: unknown = response.choices[0];
      if (!isRecord(choice)) throw invalidField('openai', EXPECTED, 'choices[0]', choice, OBJECT);
      message = choice.message;
      at = 'choices[0].message';
      if (!isRecord(message)) throw invalidField('openai', EXPECTED, at, message, OBJECT);
      at += '.';
    } else if (isRecord(response) && 'choices' in response) {
      throw invalidField('openai', EXPECTED, 'choices', response.choices, 'an array');
    } else if (!isRecord(response) || !('tool_calls' in response || 'role' in response)) {
      throw invalidResponse('openai', EXPECTED, response);
    }
    const toolCalls = (message as Record<string, unknown>).tool_calls;
    if (toolCalls === undefined || toolCalls === null) return [];
    if (!Array.isArray(toolCalls)) {
      throw invalidField('openai', EXPECTED, `${at}tool_calls`, toolCalls, 'an array');
    }
    return toolCalls.map(readCall);
  },
  conversationField: 'messages',
  messageShape:
    'an OpenAI Chat message: { role, content }, an assistant message with its "tool_calls"',
  readMessage(message) {
    if (typeof message.role !== 'string') return { problem: 'has no "role"' };
    if (message.role === 'user') {
      const text = contentText(message.content, (part) =>
        part.type === 'text' ? part.text : undefined,
      );
      return text === undefined
        ? { problem: 'is a user message whose "content" is neither a string nor an array of parts' }
        : { role: 'user', text };
    }
    if (message.role !== 'assistant') return undefined;
    const read = readAssistantCalls(message.tool_calls);
    // the legacy single function_call, still a ChatCompletionMessageParam
    const legacy = isRecord(message.function_call) ? message.function_call.name : undefined;
    if (read !== undefined && 'tools' in read && typeof legacy === 'string')
      read.tools.push(legacy);
    return read;
  },
  writeResults(outcomes) {
    return outcomes.map(
      (outcome): OpenAIChatToolMessage => ({
        role: 'tool',
        tool_call_id: outcome.call.id,
        content: resultText(outcome.result),
      }),
    );
  },
};

function readCall(entry: unknown, index: number): ProviderToolCall {
  const call = isRecord(entry) ? entry : {};
  const id = typeof call.id === 'string' ? call.id : `call_${index}`;
  // a custom tool call carries free text; this library only declares function tools
  const body = isRecord(call.function) ? call.function : isRecord(call.custom) ? call.custom : {};
  return {
    kind: 'tool',
    id,
    name: typeof body.name === 'string' ? body.name : '',
    arguments: 'arguments' in body ? body.arguments : body.input,
  };
}

/** The tool names of an assistant message's `tool_calls` (function or custom). */
function readAssistantCalls(toolCalls: unknown): ReadMessageResult {
  if (toolCalls === undefined || toolCalls === null) return { role: 'assistant', tools: [] };
  if (!Array.isArray(toolCalls)) return { problem: 'has "tool_calls" that is not an array' };
  const tools: string[] = [];
  for (const [index, entry] of toolCalls.entries()) {
    const body = isRecord(entry) ? (entry.function ?? entry.custom) : undefined;
    const name = isRecord(body) ? body.name : undefined;
    if (typeof name !== 'string') {
      return { problem: `has tool_calls[${index}] without a "function.name"` };
    }
    tools.push(name);
  }
  return { role: 'assistant', tools };
}
