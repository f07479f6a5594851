import { anthropicToolCalls } from './anthropic-tool-calls.js';
import { bedrockToolCalls } from './bedrock-tool-calls.js';
import { googleToolCalls } from './google-tool-calls.js';
import { openAIChatToolCalls } from './openai-chat-tool-calls.js';
import { openAIResponsesToolCalls } from './openai-responses-tool-calls.js';
import { ProviderResponseError } from './provider-response-error.js';
import {
  TOOL_CALL_PROVIDER_IDS,
  type ToolCallCodec,
  type ToolCallProviderId,
} from './tool-call-types.js';

/** Each provider's round trip: reading its calls and writing its result messages. */
export const TOOL_CALL_CODECS: { readonly [P in ToolCallProviderId]: ToolCallCodec<P> } = {
  openai: openAIChatToolCalls,
  'openai-responses': openAIResponsesToolCalls,
  anthropic: anthropicToolCalls,
  google: googleToolCalls,
  bedrock: bedrockToolCalls,
};

/** The codec of `provider`; throws `UNSUPPORTED_PROVIDER` for any other value. */
export function toolCallCodec<P extends ToolCallProviderId>(provider: P): ToolCallCodec<P> {
  if (typeof provider !== 'string' || !Object.hasOwn(TOOL_CALL_CODECS, provider)) {
    throw new ProviderResponseError(
      'UNSUPPORTED_PROVIDER',
      String(provider),
      `executeToolCalls cannot read responses of ${JSON.stringify(provider)}: it reads ${TOOL_CALL_PROVIDER_IDS.map((id) => `"${id}"`).join(', ')}. MCP clients call tools through createMcpServer instead`,
    );
  }
  return TOOL_CALL_CODECS[provider] as ToolCallCodec<P>;
}
