/** Every provider `translate` and `fromProvider` support. */
export const PROVIDER_IDS = [
  'openai',
  'openai-responses',
  'anthropic',
  'google',
  'bedrock',
  'mcp',
  'canonical',
] as const;

/** A provider id: `openai` is Chat Completions, `openai-responses` the Responses API. */
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** Whether `value` is a provider id. */
export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);
}
