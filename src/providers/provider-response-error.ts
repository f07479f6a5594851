import { ToolcapError } from '../errors/toolcap-error.js';

/** Stable codes of `ProviderResponseError`. */
export type ProviderResponseErrorCode =
  /** The provider has no tool-call responses (`mcp`, `canonical`) or is not a provider id. */
  | 'UNSUPPORTED_PROVIDER'
  /** The value is not something the provider returns (another provider's response, say). */
  | 'INVALID_RESPONSE'
  /** `historyFromMessages`: a conversation message the provider's API would not take. */
  | 'INVALID_MESSAGES'
  /** A streamed response ended with the service's error event (throttling, a model error). */
  | 'STREAM_ERROR';

/**
 * Thrown by `executeToolCalls`, `assembleStream` and `historyFromMessages` when they cannot read
 * the response (or the conversation) at all: a bug in the host (the wrong provider, or the
 * wrong value), or a stream the service ended with an error event (`STREAM_ERROR`), never
 * something the model did. What the model did wrong (bad arguments, unknown tools) comes back
 * as tool errors instead.
 */
export class ProviderResponseError extends ToolcapError {
  override readonly code: ProviderResponseErrorCode;
  /** The provider the response was read as. */
  readonly provider: string;

  constructor(code: ProviderResponseErrorCode, provider: string, message: string) {
    super(code, message);
    this.name = 'ProviderResponseError';
    this.code = code;
    this.provider = provider;
  }
}

/** A short description of a value for an error message: its type, or an object's first keys. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value !== 'object') return typeof value;
  const keys = Object.keys(value);
  if (keys.length === 0) return 'an empty object';
  const listed = keys
    .slice(0, 6)
    .map((key) => JSON.stringify(key))
    .join(', ');
  return `an object with the keys ${listed}${keys.length > 6 ? ', ...' : ''}`;
}

/** The `INVALID_RESPONSE` error: what was expected of `provider`, and what came instead. */
export function invalidResponse(
  provider: string,
  expected: string,
  value: unknown,
): ProviderResponseError {
  const source = responseSource(value);
  const got =
    source !== undefined && source.provider !== provider
      ? `${describeValue(value)}, which looks like ${source.what}: pass it with the provider "${source.provider}"`
      : `${describeValue(value)}. Pass the provider's response as it came back (or the message it holds), with the provider it came from`;
  return new ProviderResponseError(
    'INVALID_RESPONSE',
    provider,
    `executeToolCalls("${provider}", response) expects ${expected}; got ${got}`,
  );
}

/**
 * The `INVALID_RESPONSE` error for a response of the right shape whose field at `path` (as
 * written in code: `choices[0].message.tool_calls`) has the wrong type: names the field, its
 * type and the type it must have.
 */
export function invalidField(
  provider: string,
  expected: string,
  path: string,
  value: unknown,
  should: string,
): ProviderResponseError {
  const problem =
    value === undefined
      ? `${path} is missing (it must be ${should})`
      : `${path} is ${typeName(value)}, not ${should}`;
  return new ProviderResponseError(
    'INVALID_RESPONSE',
    provider,
    `executeToolCalls("${provider}", response) expects ${expected}; ${problem}. Pass the provider's response as it came back (or the message it holds)`,
  );
}

/** `an object`, `an array`, `a string`, `null`: the type of a value, for a message. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}

/**
 * Throws `INVALID_RESPONSE` when `value` unmistakably comes from another provider than
 * `provider`: its codec would otherwise read it as a response without calls, and the turn's
 * calls would be lost without a word.
 */
export function rejectOtherProvider(provider: string, expected: string, value: unknown): void {
  const source = responseSource(value);
  if (source !== undefined && source.provider !== provider) {
    throw invalidResponse(provider, expected, value);
  }
}

/** Anthropic content block types that no other provider uses. */
const ANTHROPIC_BLOCKS = new Set(['tool_use', 'server_tool_use', 'thinking', 'redacted_thinking']);

/**
 * The provider a response (or message, or list of items) unmistakably comes from, by a mark
 * only that provider's responses carry; undefined when nothing marks it.
 */
export function responseSource(value: unknown): { provider: string; what: string } | undefined {
  const items = Array.isArray(value) ? value : isRecord(value) ? value.content : undefined;
  if (Array.isArray(items)) {
    for (const item of items) {
      if (!isRecord(item)) continue;
      if (typeof item.type === 'string' && ANTHROPIC_BLOCKS.has(item.type)) {
        return { provider: 'anthropic', what: `an Anthropic message (a "${item.type}" block)` };
      }
      if (isRecord(item.toolUse)) {
        return { provider: 'bedrock', what: 'a Bedrock Converse message (a "toolUse" block)' };
      }
      if (item.type === 'function_call') {
        return {
          provider: 'openai-responses',
          what: 'OpenAI Responses output (a "function_call" item)',
        };
      }
    }
  }
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.choices) || Array.isArray(value.tool_calls)) {
    return { provider: 'openai', what: 'an OpenAI Chat Completions response or message' };
  }
  if (value.object === 'response' || Array.isArray(value.output)) {
    return { provider: 'openai-responses', what: 'an OpenAI Responses response' };
  }
  if (value.type === 'function_call') {
    return { provider: 'openai-responses', what: 'an OpenAI Responses "function_call" item' };
  }
  if (Array.isArray(value.candidates) || Array.isArray(value.parts)) {
    return { provider: 'google', what: 'a Gemini response or Content' };
  }
  if (isRecord(value.output) && isRecord(value.output.message)) {
    return { provider: 'bedrock', what: 'a Bedrock ConverseResponse' };
  }
  if (value.type === 'message' && 'stop_reason' in value) {
    return { provider: 'anthropic', what: 'an Anthropic message' };
  }
  return undefined;
}

/** Whether `value` is a non-null object that is not an array (SDK class instances included). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
