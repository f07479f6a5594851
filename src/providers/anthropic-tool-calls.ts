import { contentText, onlyBlocks } from './content-text.js';
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
 * one per tool found, which load those deferred tools' definitions. In a conversation, a user
 * message's text is its string content or its `text` blocks (a message of `tool_result` blocks
 * only is no user turn); an assistant message's calls are its `tool_use` blocks.
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
  conversationField: 'messages',
  messageShape:
    'an Anthropic message: { role: "user" | "assistant", content: a string or an array of content blocks }',
  readMessage(message) {
    const { role, content } = message;
    if (typeof role !== 'string') return { problem: 'has no "role"' };
    if (typeof content !== 'string' && !Array.isArray(content)) {
      return { problem: '"content" is neither a string nor an array of content blocks' };
    }
    if (role === 'user') {
      if (Array.isArray(content) && onlyBlocks(content, (block) => block.type === 'tool_result')) {
        return undefined;
      }
      const text = contentText(content, (block) =>
        block.type === 'text' ? block.text : undefined,
      );
      return { role: 'user', text: text ?? '' };
    }
    if (role !== 'assistant') {
      return {
        problem: `has the role ${JSON.stringify(role)}; Anthropic messages are "user" or "assistant" (a system prompt goes in the request's "system" field)`,
      };
    }
    const tools: string[] = [];
    for (const [index, block] of (typeof content === 'string' ? [] : content).entries()) {
      if (!isRecord(block) || block.type !== 'tool_use') continue;
      if (typeof block.name !== 'string') {
        return { problem: `has content[${index}], a "tool_use" block, without a "name"` };
      }
      // the client tool search toolcap answers is not a tool of the registry (as for Responses)
      if (block.name === ANTHROPIC_CLIENT_SEARCH_TOOL_NAME) continue;
      tools.push(block.name);
    }
    return { role: 'assistant', tools };
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
