import {
  invalidField,
  invalidResponse,
  isRecord,
  rejectOtherProvider,
} from './provider-response-error.js';
import type {
  AnthropicToolResultBlock,
  ProviderToolCall,
  ToolCallCodec,
} from './tool-call-types.js';
import { resultText } from './tool-result-text.js';

/** The client-side tool search tool `toolSearch: "client"` adds (a plain custom tool). */
export const ANTHROPIC_CLIENT_SEARCH_TOOL_NAME = 'search_tools';

const EXPECTED = 'a Message (an object with a "content" array) or its content blocks (an array)';

/**
 * Anthropic Messages: calls are the `tool_use` blocks (`input` is an object). The results go
 * in ONE user message of `tool_result` blocks, in the calls' order, `is_error: true` on
 * failures. A call to the client-side search tool is answered with `tool_reference` blocks,
 * one per tool found, which load those deferred tools' definitions.
 */
export const anthropicToolCalls: ToolCallCodec<'anthropic'> = {
  searchToolName: ANTHROPIC_CLIENT_SEARCH_TOOL_NAME,
  readCalls(response) {
    rejectOtherProvider('anthropic', EXPECTED, response);
    let blocks: readonly unknown[];
    if (Array.isArray(response)) blocks = response;
    else if (isRecord(response) && Array.isArray(response.content)) blocks = response.content;
    else if (isRecord(response) && 'content' in response) {
      throw invalidField('anthropic', EXPECTED, 'content', response.content, 'an array');
    } else throw invalidResponse('anthropic', EXPECTED, response);
    const calls: ProviderToolCall[] = [];
    blocks.forEach((block, index) => {
      if (!isRecord(block) || block.type !== 'tool_use') return;
      calls.push({
        kind: 'tool',
        id: typeof block.id === 'string' ? block.id : `call_${index}`,
        name: typeof block.name === 'string' ? block.name : '',
        arguments: block.input,
      });
    });
    return calls;
  },
  writeResults(outcomes) {
    if (outcomes.length === 0) return [];
    const content = outcomes.map((outcome): AnthropicToolResultBlock => {
      const loaded = outcome.loaded ?? [];
      if (outcome.result.ok && loaded.length > 0) {
        return {
          type: 'tool_result',
          tool_use_id: outcome.call.id,
          content: loaded.map((tool) => ({ type: 'tool_reference', tool_name: tool.name })),
        };
      }
      return {
        type: 'tool_result',
        tool_use_id: outcome.call.id,
        content: resultText(outcome.result),
        ...(outcome.result.ok ? {} : { is_error: true as const }),
      };
    });
    return [{ role: 'user', content }];
  },
};
