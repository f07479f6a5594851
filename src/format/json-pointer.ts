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
