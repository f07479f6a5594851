import type { CallResultLike } from './tool-call-types.js';

/**
 * A result as the text providers put in a tool message: a string output as it is, any other
 * output as JSON, and a failure as `{"error":{"code","message"}}` so the model reads the code
 * and how to fix the call (details stay with the host).
 */
export function resultText(result: CallResultLike): string {
  if (!result.ok) {
    return JSON.stringify({ error: { code: result.error.code, message: result.error.message } });
  }
  return typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
}
