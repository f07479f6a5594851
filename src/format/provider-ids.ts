import { describeValue } from '../util/check-options.js';
import { suggestSimilar } from '../util/suggest-similar.js';

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

// model-family names users type for a provider; suggested only, never accepted as ids
const MODEL_FAMILIES: ReadonlyMap<string, ProviderId> = new Map([
  ['gemini', 'google'],
  ['claude', 'anthropic'],
]);

/**
 * The provider id a value that is not one most likely means: `google` for `gemini`,
 * `anthropic` for `claude`, else the closest spelling (`opneai` → `openai`); undefined when
 * nothing is close.
 */
export function suggestProviderId(value: unknown): ProviderId | undefined {
  if (typeof value !== 'string') return undefined;
  const family = MODEL_FAMILIES.get(value.trim().toLowerCase());
  if (family !== undefined) return family;
  return suggestSimilar(value, PROVIDER_IDS)[0] as ProviderId | undefined;
}

/** `; did you mean "google"?` for a value that is not a provider id, or '' when nothing is close. */
export function providerSuggestionHint(value: unknown): string {
  const suggestion = suggestProviderId(value);
  return suggestion === undefined ? '' : `; did you mean "${suggestion}"?`;
}

/**
 * The message for a provider that is not a provider id: the value, a did-you-mean and the
 * providers, e.g. `unknown provider "gemini"; did you mean "google"? Providers: openai, ...`.
 */
export function describeUnknownProvider(value: unknown): string {
  const hint = providerSuggestionHint(value);
  return `unknown provider ${describeValue(value)}${hint === '' ? '.' : hint} Providers: ${PROVIDER_IDS.join(', ')}`;
}
