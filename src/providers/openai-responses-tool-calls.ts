import { contentText } from './content-text.js';
import {
  invalidField,
  invalidResponse,
  isRecord,
  rejectOtherProvider,
} from './provider-response-error.js';
import type {
  OpenAINamespaceTool,
  OpenAIResponsesTool,
  OpenAIResponsesToolEntry,
} from './provider-types.js';
import type {
  OpenAIResponsesResultItem,
  ProviderToolCall,
  ToolCallCodec,
} from './tool-call-types.js';
import { resultText } from './tool-result-text.js';

const EXPECTED =
  'a Response (an object with an "output" array), its output items, or one output item';

/**
 * OpenAI Responses: calls are the `function_call` output items (`arguments` is JSON text;
 * a `namespace` is ignored, tool names being unique in a registry) and the client-executed
 * `tool_search_call` items. Each function result is a `function_call_output` item with
 * `call_id` and string `output`; each search is answered by a `tool_search_output` item whose
 * `tools` are the loaded definitions, marked `defer_loading: true` as OpenAI's client search
 * expects. Append them after the response's output items. Hosted (server) tool searches are
 * OpenAI's to answer and are skipped. In a conversation (the `input` items), a user message's
 * text is its string content or its `input_text` parts, and each `function_call` or
 * `custom_tool_call` item is a call.
 */
export const openAIResponsesToolCalls: ToolCallCodec<'openai-responses'> = {
  readCalls(response) {
    rejectOtherProvider('openai-responses', EXPECTED, response);
    let items: readonly unknown[];
    if (Array.isArray(response)) items = response;
    else if (isRecord(response) && Array.isArray(response.output)) items = response.output;
    else if (isRecord(response) && typeof response.type === 'string') items = [response];
    else if (isRecord(response) && 'output' in response) {
      throw invalidField('openai-responses', EXPECTED, 'output', response.output, 'an array');
    } else throw invalidResponse('openai-responses', EXPECTED, response);
    const calls: ProviderToolCall[] = [];
    items.forEach((item, index) => {
      if (!isRecord(item)) return;
      const id = typeof item.call_id === 'string' ? item.call_id : `call_${index}`;
      if (item.type === 'function_call') {
        calls.push({
          kind: 'tool',
          id,
          name: typeof item.name === 'string' ? item.name : '',
          arguments: item.arguments,
        });
      } else if (item.type === 'tool_search_call' && item.execution === 'client') {
        calls.push({ kind: 'tool_search', id, name: 'tool_search', arguments: item.arguments });
      }
    });
    return calls;
  },
  conversationField: 'input',
  messageShape:
    'an OpenAI Responses input item: a message { role, content } or an item with a "type" (function_call, reasoning, ...)',
  readMessage(item) {
    if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      return typeof item.name === 'string'
        ? { role: 'assistant', tools: [item.name] }
        : { problem: `is a "${item.type}" item without a "name"` };
    }
    if (item.type !== undefined && item.type !== 'message') {
      // outputs, reasoning, searches and references hold neither a user's text nor a call
      return typeof item.type === 'string'
        ? undefined
        : { problem: 'has a "type" that is not a string' };
    }
    if (typeof item.role !== 'string') {
      return {
        problem:
          item.type === 'message'
            ? 'is a "message" item without a "role"'
            : 'has neither a "type" nor a "role"',
      };
    }
    if (item.role !== 'user') return undefined;
    const text = contentText(item.content, (part) =>
      part.type === 'input_text' ? part.text : undefined,
    );
    return text === undefined
      ? { problem: 'is a user message whose "content" is neither a string nor an array of parts' }
      : { role: 'user', text };
  },
  writeResults(outcomes, translate) {
    return outcomes.map((outcome): OpenAIResponsesResultItem => {
      if (outcome.call.kind === 'tool_search') {
        const entries = translate(outcome.loaded ?? []) as readonly OpenAIResponsesToolEntry[];
        return {
          type: 'tool_search_output',
          execution: 'client',
          call_id: outcome.call.id,
          status: 'completed',
          tools: entries.flatMap(loadedEntry),
        };
      }
      return {
        type: 'function_call_output',
        call_id: outcome.call.id,
        output: resultText(outcome.result),
      };
    });
  },
};

/** A loaded definition as `tool_search_output` carries it: functions deferred, no search tool. */
function loadedEntry(
  entry: OpenAIResponsesToolEntry,
): (OpenAIResponsesTool | OpenAINamespaceTool)[] {
  switch (entry.type) {
    case 'function':
      return [{ ...entry, defer_loading: true }];
    case 'namespace':
      return [{ ...entry, tools: entry.tools.map((tool) => ({ ...tool, defer_loading: true })) }];
    default:
      return [];
  }
}
