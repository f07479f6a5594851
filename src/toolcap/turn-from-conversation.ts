import type { ConversationMessage } from '../providers/tool-call-types.js';
import type { HistoryEntry } from '../select/types.js';

/** One turn as `registry.select` takes it. */
export interface SelectionTurn {
  /** The text of the last user message ("" when there is none). */
  message: string;
  /** Oldest first: the other user messages, and every tool the model called. */
  history: HistoryEntry[];
}

/**
 * Reads a conversation as a selection turn: the last user message is the turn's message;
 * the earlier user messages and every tool call (of earlier turns, and of this turn's earlier
 * steps) form the history, in conversation order.
 */
export function turnFromConversation(messages: readonly ConversationMessage[]): SelectionTurn {
  const last = messages.findLastIndex((entry) => entry.role === 'user');
  const current = messages[last];
  return {
    message: current?.role === 'user' ? current.text : '',
    history: conversationHistory(messages, last),
  };
}

/**
 * `select`'s history of a conversation, oldest first: each user message's text (empty ones
 * left out) and each called tool as `{ tool }`; the message at index `skip` is left out.
 */
export function conversationHistory(
  messages: readonly ConversationMessage[],
  skip = -1,
): HistoryEntry[] {
  return messages.flatMap((entry, index): HistoryEntry[] => {
    if (entry.role === 'assistant') return entry.tools.map((tool) => ({ tool }));
    return index === skip || entry.text === '' ? [] : [entry.text];
  });
}
