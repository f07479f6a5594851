import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ToolError } from './tool-error.js';
import type { ToolContext } from './types.js';

/**
 * Small helpers shared by the bundled handlers (handlers/*.ts) and useful to custom ones.
 * @module
 */

/** A context value as a non-empty string (numbers are accepted); otherwise an `INVALID_CONTEXT` error. */
export function requireContextString(context: ToolContext, key: string): string {
  const value = Object.hasOwn(context, key) ? context[key] : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw new ToolError(
    'INVALID_CONTEXT',
    `The context value "${key}" must be a non-empty string, got ${value === undefined ? 'nothing' : (JSON.stringify(value) ?? typeof value)}; this is a host setup problem.`,
    { key },
  );
}

/**
 * A file name that stands for `id` and nothing else: `[a-z0-9_-]` are kept, every other byte
 * (including `.`, `/` and upper-case letters, so case-insensitive file systems cannot merge two
 * ids) becomes `%XX`. Long names are cut and suffixed with a hash of the whole id.
 */
export function encodeFileName(id: string): string {
  let name = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const isPlain =
      (byte >= 0x61 && byte <= 0x7a) ||
      (byte >= 0x30 && byte <= 0x39) ||
      byte === 0x5f ||
      byte === 0x2d;
    name += isPlain
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (name.length > 120) {
    // "~" is always encoded above, so a shortened name never equals a plain one
    name = `${name.slice(0, 80)}~${createHash('sha256').update(id).digest('hex').slice(0, 32)}`;
  }
  return name;
}

/** `<dataDir>/<area>/<encoded id><extension>`: one store file per user or project. */
export function storeFile(dataDir: string, area: string, id: string, extension: string): string {
  return join(dataDir, area, `${encodeFileName(id)}${extension}`);
}

/** Today's date in UTC, `YYYY-MM-DD`. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A short unique id such as `task_lq3k9x2a7f3c`: time-ordered prefix plus random bits. */
export function createId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

/** Lower-cased words (letters and digits in any script), for simple search. */
export function tokenizeWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * How well `text` matches `terms`: one point per distinct term found as a word, half a point
 * for a term found as a word prefix (so "meet" finds "meeting"). 0 means no match.
 */
export function scoreText(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0;
  const words = new Set(tokenizeWords(text));
  let score = 0;
  for (const term of new Set(terms)) {
    if (words.has(term)) {
      score += 1;
      continue;
    }
    for (const word of words) {
      if (word.startsWith(term)) {
        score += 0.5;
        break;
      }
    }
  }
  return score;
}
