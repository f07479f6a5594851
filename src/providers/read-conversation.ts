import { suggestProviderId } from '../format/provider-ids.js';
import { describeValue } from '../util/check-options.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import {
  describeValue as describeResponse,
  isRecord,
  ProviderResponseError,
  responseSource,
} from './provider-response-error.js';
import { TOOL_CALL_CODECS } from './tool-call-codecs.js';
import {
  type ConversationMessage,
  TOOL_CALL_PROVIDER_IDS,
  type ToolCallProviderId,
} from './tool-call-types.js';

/**
 * Reads a request's conversation in `provider`'s format (Chat `messages`, Responses `input`
 * items, Anthropic or Bedrock `messages`, Gemini `contents`), oldest first: the users' texts
 * and the tools the model called; system prompts and tool results are left out. Throws a
 * `ProviderResponseError`: `UNSUPPORTED_PROVIDER` for another provider (with the closest id),
 * `INVALID_MESSAGES` for a value that is not an array or a message the provider would refuse
 * (naming its index), or one that comes from another provider.
 */
export function readConversation(
  caller: string,
  provider: ToolCallProviderId,
  messages: unknown,
): ConversationMessage[] {
  if (typeof provider !== 'string' || !Object.hasOwn(TOOL_CALL_CODECS, provider)) {
    // "gemini" means google and "claude" anthropic, as everywhere a provider is named
    const family = suggestProviderId(provider);
    const similar =
      family !== undefined && (TOOL_CALL_PROVIDER_IDS as readonly string[]).includes(family)
        ? [family]
        : typeof provider === 'string'
          ? suggestSimilar(provider, TOOL_CALL_PROVIDER_IDS)
          : [];
    throw new ProviderResponseError(
      'UNSUPPORTED_PROVIDER',
      String(provider),
      `${caller}: cannot read the messages of ${describeValue(provider)}; it reads ${TOOL_CALL_PROVIDER_IDS.map((id) => `"${id}"`).join(', ')}${similar.length > 0 ? `. Did you mean "${similar[0]}"?` : ''}`,
    );
  }
  const codec = TOOL_CALL_CODECS[provider];
  const invalid = (problem: string) =>
    new ProviderResponseError(
      'INVALID_MESSAGES',
      provider,
      `${caller}("${provider}", messages): ${problem}`,
    );
  if (!Array.isArray(messages)) {
    throw invalid(
      `messages must be an array (the request's "${codec.conversationField}"), got ${describeResponse(messages)}`,
    );
  }
  // another provider's messages might read as messages without calls: the calls would be lost
  messages.forEach((message: unknown, index) => {
    const source = responseSource(message);
    if (source !== undefined && source.provider !== provider) {
      throw invalid(
        `messages[${index}] looks like ${source.what}: pass the messages with the provider "${source.provider}"`,
      );
    }
  });
  const read: ConversationMessage[] = [];
  messages.forEach((message: unknown, index) => {
    const entry = isRecord(message)
      ? codec.readMessage(message)
      : { problem: `is ${describeValue(message)}` };
    if (entry !== undefined && 'problem' in entry) {
      throw invalid(`messages[${index}] ${entry.problem}; each must be ${codec.messageShape}`);
    }
    if (entry !== undefined) read.push(entry);
  });
  return read;
}
