import { ToolcapError } from '../errors/toolcap-error.js';

/** Stable codes of `ProviderResponseError`. */
export type ProviderResponseErrorCode =
  /** The provider has no tool-call responses (`mcp`, `canonical`) or is not a provider id. */
  | 'UNSUPPORTED_PROVIDER'
  /** The value is not something the provider returns (another provider's response, say). */
  | 'INVALID_RESPONSE'
  /** A streamed response ended with the service's error event (throttling, a model error). */
  | 'STREAM_ERROR';

/**
 * Thrown by `executeToolCalls` and `assembleStream` when they cannot read the response at all:
 * a bug in the host (the wrong provider, or the wrong value), or a stream the service ended
 * with an error event (`STREAM_ERROR`), never something the model did. What the model did
 * wrong (bad arguments, unknown tools) comes back as tool errors instead.
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
  return new ProviderResponseError(
    'INVALID_RESPONSE',
    provider,
    `executeToolCalls("${provider}", response) expects ${expected}; got ${describeValue(value)}. Pass the provider's response as it came back (or the message it holds), with the provider it came from`,
  );
}

/** Whether `value` is a non-null object that is not an array (SDK class instances included). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
