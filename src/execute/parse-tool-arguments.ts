import { errorMessage } from '../util/error-message.js';
import type { ToolCallError } from './types.js';

/** The outcome of `parseToolArguments`. */
export type ParsedArguments = { ok: true; input: unknown } | { ok: false; error: ToolCallError };

/**
 * A call's arguments as a value: a string (OpenAI sends the arguments as JSON text) is parsed,
 * an empty or blank one meaning `{}`; anything else is returned as it is, for validation to
 * judge. Text longer than `maxInputBytes` is refused (`INPUT_TOO_LARGE`) before it is parsed;
 * text that is not JSON is `INVALID_INPUT` with the parser's reason, which the model can act on.
 */
export function parseToolArguments(
  toolName: string,
  input: unknown,
  maxInputBytes: number,
): ParsedArguments {
  if (typeof input !== 'string') return { ok: true, input };
  // a string of n characters takes at least n and at most 3n bytes of UTF-8
  if (input.length * 3 > maxInputBytes) {
    const bytes = Buffer.byteLength(input, 'utf8');
    if (bytes > maxInputBytes) {
      return failure(
        'INPUT_TOO_LARGE',
        `The arguments for tool "${toolName}" are ${bytes} bytes of JSON, more than the ${maxInputBytes}-byte limit (executionLimits.maxInputBytes). Send a shorter input, e.g. split the content over several calls.`,
        { bytes, limit: maxInputBytes },
      );
    }
  }
  if (input.trim() === '') return { ok: true, input: {} };
  try {
    return { ok: true, input: JSON.parse(input) as unknown };
  } catch (error) {
    const reason = errorMessage(error);
    return failure(
      'INVALID_INPUT',
      `The arguments for tool "${toolName}" are not valid JSON (${reason}). Send the arguments as one JSON object, e.g. {"name": "value"}, and call the tool again.`,
      { reason },
    );
  }
}

function failure(
  code: string,
  message: string,
  details: { [key: string]: string | number },
): ParsedArguments {
  return { ok: false, error: { code, message, details } };
}
