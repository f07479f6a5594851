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
 * OpenAI's to answer and are skipped.
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
