import type { ToolCallError } from './types.js';

/**
 * The room a tool error always has, in bytes of its JSON, however small `maxOutputBytes` is:
 * the library's own messages (a few hundred bytes) are never cut by a tiny output limit.
 */
export const MIN_ERROR_BYTES = 4 * 1024;

/**
 * `error` made to fit `maxOutputBytes` (bytes of its JSON, at least `MIN_ERROR_BYTES`), as
 * the output limit protects memory and the model's context from errors too: details that do
 * not fit in half the room become `{ truncated: true, bytes }`, then a message that still does
 * not fit is cut and ends with where it was cut and its length. `error` itself when it fits.
 */
export function boundToolError(error: ToolCallError, maxOutputBytes: number): ToolCallError {
  const room = Math.max(maxOutputBytes, MIN_ERROR_BYTES);
  if (jsonBytes(error) <= room) return error;
  const detailsBytes = jsonBytes(error.details);
  const details =
    detailsBytes > room / 2 ? { truncated: true, bytes: detailsBytes } : error.details;
  const bounded = { code: error.code, message: error.message, details };
  if (jsonBytes(bounded) <= room) return bounded;
  const frame = jsonBytes({ ...bounded, message: '' });
  return { ...bounded, message: cutMessage(error.message, room - frame) };
}

/**
 * `message` cut so that its JSON string (quotes and escapes included) takes at most `bytes`,
 * ending with "… [cut after K of N characters]".
 */
function cutMessage(message: string, bytes: number): string {
  // the note is longest when K has as many digits as N
  const budget = bytes - (jsonBytes(note(message.length, message.length)) - 2);
  let used = 0;
  let kept = 0;
  // whole code points only: a cut never leaves half a surrogate pair
  while (kept < message.length) {
    const code = message.codePointAt(kept)!;
    used += jsonCharacterBytes(code);
    if (used > budget) break;
    kept += code > 0xffff ? 2 : 1;
  }
  return `${message.slice(0, kept)}${note(kept, message.length)}`;
}

function note(kept: number, length: number): string {
  return `… [cut after ${kept} of ${length} characters]`;
}

/** Control characters JSON writes as a backslash and a letter (\b \t \n \f \r). */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/** What one code point takes in `JSON.stringify`'s output, in UTF-8 bytes. */
function jsonCharacterBytes(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2; // \" \\
  if (code < 0x20) return SHORT_ESCAPES.has(code) ? 2 : 6; // \n or \u0001
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 6; // a lone surrogate is written \udXXX
  return code > 0xffff ? 4 : 3;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}
