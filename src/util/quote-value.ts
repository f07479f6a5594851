/** Longest quoted value in a message, in characters. */
const DEFAULT_LIMIT = 80;
/** Nesting shown before `{…}` / `[…]`, and entries shown per object or array. */
const MAX_DEPTH = 2;
const MAX_ENTRIES = 5;

/**
 * A short JSON-like rendering of `value` for a diagnostic message. Values in group files are
 * untrusted: a 5,000-deep object must not overflow the stack (as `JSON.stringify` would) and a
 * 300,000-character string must not be copied into every message, so depth, entries and the
 * total length are bounded.
 */
export function quoteValue(value: unknown, limit = DEFAULT_LIMIT): string {
  const text = preview(value, 0, limit);
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

/** A list of names for a message: at most `count` of them, then how many more there are. */
export function listNames(names: readonly string[], count = 20): string {
  const shown = names.slice(0, count).map((name) => truncate(name, DEFAULT_LIMIT));
  return names.length > count
    ? `${shown.join(', ')} … (${names.length - count} more)`
    : shown.join(', ');
}

function preview(value: unknown, depth: number, limit: number): string {
  if (typeof value === 'string') return JSON.stringify(truncate(value, limit));
  if (value === null || typeof value !== 'object') return String(value);
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ENTRIES).map((item) => preview(item, depth + 1, limit));
    if (value.length > MAX_ENTRIES) items.push('…');
    return `[${items.join(', ')}]`;
  }
  const keys = Object.keys(value);
  const entries = keys
    .slice(0, MAX_ENTRIES)
    .map(
      (key) =>
        `${JSON.stringify(truncate(key, limit))}: ${preview((value as Record<string, unknown>)[key], depth + 1, limit)}`,
    );
  if (keys.length > MAX_ENTRIES) entries.push('…');
  return `{${entries.join(', ')}}`;
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
