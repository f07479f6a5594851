/** Names quoted in messages are cut after this many characters. */
export const MAX_QUOTED_NAME_LENGTH = 64;

/**
 * `name` as it may appear in a message: a name longer than `MAX_QUOTED_NAME_LENGTH` (longer
 * than any valid tool name, so a caller's mistake or an attack) is cut and ends with "…" and
 * its length (`"aaaa… (100000 characters)"`), so a 100,000-character name never reaches a log
 * or a model's context whole, and the reader still learns it was cut and by how much.
 */
export function shortenName(name: string): string {
  if (name.length <= MAX_QUOTED_NAME_LENGTH) return name;
  let end = MAX_QUOTED_NAME_LENGTH;
  // never split a surrogate pair: the message would hold half a character
  const code = name.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${name.slice(0, end)}… (${name.length} characters)`;
}
