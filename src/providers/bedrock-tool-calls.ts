import { contentText, onlyBlocks } from './content-text.js';
import {
  invalidField,
  invalidResponse,
  isRecord,
  rejectOtherProvider,
} from './provider-response-error.js';
import type { BedrockToolResultBlock, ProviderToolCall, ToolCallCodec } from './tool-call-types.js';
import { resultText } from './tool-result-text.js';

const EXPECTED =
  'a ConverseResponse (an object with "output.message") or its message (an object with a "content" array)';

/**
 * AWS Bedrock Converse: calls are the `toolUse` content blocks (`input` is a JSON document).
 * The results go in ONE user message of `toolResult` blocks, in the calls' order, each with a
 * `text` content block (the JSON text every Converse model reads; `json` blocks are not
 * accepted by every model) and `status: "error"` on failures. In a conversation, a user
 * message's text is its `text` blocks (a message of `toolResult` blocks only is no user turn);
 * an assistant message's calls are its `toolUse` blocks.
 */
export const bedrockToolCalls: ToolCallCodec<'bedrock'> = {
  readCalls(response) {
    rejectOtherProvider('bedrock', EXPECTED, response);
    let message: unknown;
    let at = '';
    if (isRecord(response) && isRecord(response.output)) {
      message = response.output.message;
      at = 'output.message';
      if (!isRecord(message)) throw invalidField('bedrock', EXPECTED, at, message, 'an object');
      at += '.';
    } else if (isRecord(response) && 'output' in response) {
      throw invalidField('bedrock', EXPECTED, 'output', response.output, 'an object');
    } else if (isRecord(response) && 'content' in response) {
      message = response;
    } else {
      throw invalidResponse('bedrock', EXPECTED, response);
    }
    const content = (message as Record<string, unknown>).content;
    if (!Array.isArray(content)) {
      throw invalidField('bedrock', EXPECTED, `${at}content`, content, 'an array');
    }
    const calls: ProviderToolCall[] = [];
    content.forEach((block, index) => {
      if (!isRecord(block) || !isRecord(block.toolUse)) return;
      const toolUse = block.toolUse;
      calls.push({
        kind: 'tool',
        id: typeof toolUse.toolUseId === 'string' ? toolUse.toolUseId : `call_${index}`,
        name: typeof toolUse.name === 'string' ? toolUse.name : '',
        arguments: toolUse.input ?? {},
      });
    });
    return calls;
  },
  conversationField: 'messages',
  messageShape:
    'a Bedrock Converse message: { role: "user" | "assistant", content: an array of content blocks }',
  readMessage(message) {
    const { role, content } = message;
    if (typeof role !== 'string') return { problem: 'has no "role"' };
    if (!Array.isArray(content)) return { problem: '"content" is not an array of content blocks' };
    if (role === 'user') {
      if (onlyBlocks(content, (block) => isRecord(block.toolResult))) return undefined;
      return { role: 'user', text: contentText(content, (block) => block.text) ?? '' };
    }
    if (role !== 'assistant') {
      return {
        problem: `has the role ${JSON.stringify(role)}; Bedrock Converse messages are "user" or "assistant" (a system prompt goes in the request's "system" field)`,
      };
    }
    const tools: string[] = [];
    for (const [index, block] of content.entries()) {
      if (!isRecord(block) || !isRecord(block.toolUse)) continue;
      if (typeof block.toolUse.name !== 'string') {
        return { problem: `has content[${index}], a "toolUse" block, without a "name"` };
      }
      tools.push(block.toolUse.name);
    }
    return { role: 'assistant', tools };
  },
  writeResults(outcomes) {
    if (outcomes.length === 0) return [];
    const content = outcomes.map(
      ({ call, result }): BedrockToolResultBlock => ({
        toolResult: {
          toolUseId: call.id,
          content: [{ text: resultText(result) }],
          ...(result.ok ? {} : { status: 'error' as const }),
        },
      }),
    );
    return [{ role: 'user', content }];
  },
};
