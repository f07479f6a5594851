import { deletionVariants, isWithinOneEdit } from './typo-distance.js';

/** Shortest word that typo tolerance applies to (shorter words have too many neighbours). */
export const MIN_TYPO_LENGTH = 5;

const PLAIN_LETTERS = /^[a-z]+$/;

/** Whether typo tolerance may apply to `word`: plain letters, at least five of them. */
export function isTypoCandidate(word: string): boolean {
  return word.length >= MIN_TYPO_LENGTH && PLAIN_LETTERS.test(word);
}

/**
 * Finds the known words one Damerau-Levenshtein edit away from a word, by symmetric deletion:
 * every known word and its one-character deletions are keys, so a lookup costs the word's
 * length in Map reads instead of a scan of the vocabulary.
 */
export class TypoIndex<T> {
  readonly #byKey = new Map<string, { word: string; value: T }[]>();

  /** Adds `word` (ignored unless `isTypoCandidate`) with the value a lookup returns. */
  add(word: string, value: T): void {
    if (!isTypoCandidate(word)) return;
    const entry = { word, value };
    for (const key of [word, ...deletionVariants(word)]) {
      const list = this.#byKey.get(key);
      if (list === undefined) this.#byKey.set(key, [entry]);
      else if (!list.some((other) => other.word === word && other.value === value))
        list.push(entry);
    }
  }

  /** Known words within one edit of `word` (not `word` itself), with their values. */
  lookup(word: string): { word: string; value: T }[] {
    if (!isTypoCandidate(word)) return [];
    const found: { word: string; value: T }[] = [];
    const seen = new Set<{ word: string; value: T }>();
    for (const key of [word, ...deletionVariants(word)]) {
      const list = this.#byKey.get(key);
      if (list === undefined) continue;
      for (const entry of list) {
        if (seen.has(entry) || entry.word === word) continue;
        seen.add(entry);
        if (isWithinOneEdit(word, entry.word)) found.push(entry);
      }
    }
    return found;
  }
}
