import type { ModelMessage } from 'ai';
import type { ConversationMessage } from '../../providers/tool-call-types.js';
import { type SelectionTurn, turnFromConversation } from '../../toolcap/turn-from-conversation.js';

/**
 * Reads a step's `messages` as a selection turn: the last user message is the turn's message;
 * earlier user messages and the assistant's tool calls (of earlier turns and of this turn's
 * earlier steps) form the history, in conversation order.
 */
export function turnFromMessages(messages: readonly ModelMessage[]): SelectionTurn {
  return turnFromConversation(messages.flatMap(readMessage));
}

/** A user message's text, or an assistant message's tool calls; nothing for the other roles. */
function readMessage(entry: ModelMessage): ConversationMessage[] {
  if (entry.role === 'user') return [{ role: 'user', text: userText(entry.content) }];
  if (entry.role !== 'assistant' || typeof entry.content === 'string') return [];
  const tools = entry.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolName] : []));
  return [{ role: 'assistant', tools }];
}

function userText(content: Extract<ModelMessage, { role: 'user' }>['content']): string {
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
