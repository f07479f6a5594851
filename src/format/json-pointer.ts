/** RFC 6901 JSON Pointer helpers. */

/** Escapes one reference token (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string | number): string {
  const text = String(token);
  // most tokens need no escaping: skip the two copies (this runs for every schema node loaded)
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Builds a pointer from path segments: `['tools', 2, 'name']` → `/tools/2/name`. */
export function formatPointer(segments: readonly (string | number)[]): string {
  let pointer = '';
  for (const segment of segments) pointer += `/${escapePointerToken(segment)}`;
  return pointer;
}

/** Longest pointer `abbreviatePointer` leaves whole, and longest token it keeps. */
const POINTER_DISPLAY_LENGTH = 120;
const TOKEN_DISPLAY_LENGTH = 40;

/**
 * A pointer short enough to read in a message: one longer than 120 characters keeps its first
 * and last tokens and says how many are left out between them
 * (`/tools/0/input_schema/properties/a/…58 more…/properties/a`), and a token longer than 40
 * characters is cut with `…`. For display only: diagnostics keep the exact pointer.
 */
export function abbreviatePointer(pointer: string): string {
  if (pointer.length <= POINTER_DISPLAY_LENGTH) return pointer;
  const tokens = pointer
    .slice(1)
    .split('/')
    .map((token) =>
      token.length > TOKEN_DISPLAY_LENGTH ? `${token.slice(0, TOKEN_DISPLAY_LENGTH - 1)}…` : token,
    );
  const budget = POINTER_DISPLAY_LENGTH / 2;
  let head = 0;
  for (let length = 0; head < tokens.length; head++) {
    length += tokens[head]!.length + 1;
    if (length > budget) break;
  }
  let tail = tokens.length;
  for (let length = 0; tail > head; tail--) {
    length += tokens[tail - 1]!.length + 1;
    if (length > budget) break;
  }
  const shown = (list: string[]) => list.map((token) => `/${token}`).join('');
  if (tail <= head) return shown(tokens);
  return `${shown(tokens.slice(0, head))}/…${tail - head} more…${shown(tokens.slice(tail))}`;
}

/** Splits a pointer into unescaped tokens: `/a~1b/0` → `['a/b', '0']`. `""` is the whole document. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) {
    throw new Error(`Invalid JSON pointer "${pointer}": it must be empty or start with "/".`);
  }
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Reads the value at `pointer` inside `document`, using own properties only. */
export function getAtPointer(document: unknown, pointer: string): unknown {
  let current: unknown = document;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object' && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}
