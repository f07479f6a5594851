import type { ProviderId } from '../../../src/providers/provider-types.js';
import { checkAnthropicPayload } from './anthropic-conformance.js';
import { checkBedrockPayload } from './bedrock-conformance.js';
import { checkCanonicalPayload } from './canonical-conformance.js';
import { checkGooglePayload } from './google-conformance.js';
import { checkMcpPayload } from './mcp-conformance.js';
import { checkOpenAIChatPayload, checkOpenAIResponsesPayload } from './openai-conformance.js';

/** The conformance checker of each provider. */
export const CHECKERS: Record<ProviderId, (payload: unknown) => string[]> = {
  openai: checkOpenAIChatPayload,
  'openai-responses': checkOpenAIResponsesPayload,
  anthropic: checkAnthropicPayload,
  google: checkGooglePayload,
  bedrock: checkBedrockPayload,
  mcp: checkMcpPayload,
  canonical: checkCanonicalPayload,
};

/** Problems of `payload` for `provider`. */
export function checkPayload(provider: ProviderId, payload: unknown): string[] {
  return CHECKERS[provider](payload);
}
