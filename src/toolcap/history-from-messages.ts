import { readConversation } from '../providers/read-conversation.js';
import type { ToolCallProviderId } from '../providers/tool-call-types.js';
import type { HistoryEntry } from '../select/types.js';
import { checkOptions, isBoolean } from '../util/check-options.js';
import { conversationHistory, turnFromConversation } from './turn-from-conversation.js';

/** Options of `historyFromMessages`. */
export interface HistoryFromMessagesOptions {
  /**
   * Leave out the last user message: `messages` already holds the turn's own message (the
   * text you pass to `select`). Default false: every message is from an earlier turn.
   */
  excludeLastUserMessage?: boolean;
}

/**
 * `select`'s `history` from a conversation kept in a provider's request format: OpenAI Chat
 * `messages`, OpenAI Responses `input` items, Anthropic or Bedrock Converse `messages`, Gemini
 * `contents`. Oldest first: the text of each user message and, as `{ tool }`, each tool the
 * model called; system prompts, assistant text and tool results are left out. With
 * `excludeLastUserMessage`, the last user message (the turn's own) is left out too. Throws a
 * `ProviderResponseError`: `UNSUPPORTED_PROVIDER` for another provider, `INVALID_MESSAGES` for
 * a malformed message (naming its index) or another provider's; `INVALID_OPTION` (a
 * `ToolcapError`) for a bad option.
 */
export function historyFromMessages(
  provider: ToolCallProviderId,
  messages: readonly unknown[],
  options: HistoryFromMessagesOptions = {},
): HistoryEntry[] {
  checkOptions('historyFromMessages', options, { excludeLastUserMessage: isBoolean });
  const conversation = readConversation('historyFromMessages', provider, messages);
  return options.excludeLastUserMessage === true
    ? turnFromConversation(conversation).history
    : conversationHistory(conversation);
}
