import type { ModelMessage } from 'ai';
import type { HistoryEntry } from '../../select/types.js';

/** One turn as `registry.select` takes it. */
export interface SelectionTurn {
  /** The text of the last user message ("" when there is none). */
  message: string;
  /** Oldest first: earlier user messages, and every tool call the assistant made. */
  history: HistoryEntry[];
}

/**
 * Reads a step's `messages` as a selection turn: the last user message is the turn's message;
 * earlier user messages and the assistant's tool calls (of earlier turns and of this turn's
 * earlier steps) form the history, in conversation order.
 */
export function turnFromMessages(messages: readonly ModelMessage[]): SelectionTurn {
  let last = -1;
  messages.forEach((entry, index) => {
    if (entry.role === 'user') last = index;
  });
  const history: HistoryEntry[] = [];
  messages.forEach((entry, index) => {
    if (entry.role === 'user' && index !== last) {
      const text = userText(entry.content);
      if (text !== '') history.push(text);
    } else if (entry.role === 'assistant' && typeof entry.content !== 'string') {
      for (const part of entry.content) {
        if (part.type === 'tool-call') history.push({ tool: part.toolName });
      }
    }
  });
  const current = messages[last];
  return {
    message: current?.role === 'user' ? userText(current.content) : '',
    history,
  };
}

function userText(content: Extract<ModelMessage, { role: 'user' }>['content']): string {
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
