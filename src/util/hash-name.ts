const HASH_LENGTH = 8;

/**
 * A short stable hash of `text`: 32-bit FNV-1a of its UTF-16 code units, as 8 hex digits. It
 * keeps shortened or converted names apart (the same on every run and machine); not for security.
 */
export function hashName(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(HASH_LENGTH, '0');
}
