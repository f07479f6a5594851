/** Integer ids for index terms, shared by the keyword index and the relevance index. */
export class TermVocabulary {
  readonly #ids = new Map<string, number>();
  readonly #terms: string[] = [];
  /**
   * For each term, the shortest word of the tools' text that gave it (then the first in
   * code-unit order): terms are stems ("dai" for "day"), shown to users as this word.
   */
  readonly #words: (string | undefined)[] = [];

  /** The id of `term`, or -1. */
  idOf(term: string): number {
    return this.#ids.get(term) ?? -1;
  }

  /** The id of `term`, adding it when new; `word` is the word it came from, when known. */
  add(term: string, word?: string): number {
    let id = this.#ids.get(term);
    if (id === undefined) {
      id = this.#terms.length;
      this.#ids.set(term, id);
      this.#terms.push(term);
      this.#words.push(word);
    } else if (word !== undefined && isBetterWord(word, this.#words[id])) {
      this.#words[id] = word;
    }
    return id;
  }

  /** The term of `id`. */
  termOf(id: number): string {
    return this.#terms[id] ?? '';
  }

  /** A readable word for `id` (see above), else the term itself. */
  wordOf(id: number): string {
    return this.#words[id] ?? this.termOf(id);
  }

  /** Number of terms. */
  get size(): number {
    return this.#terms.length;
  }
}

/** Whether `word` names a term better than `current`: shorter, then first in code-unit order. */
export function isBetterWord(word: string, current: string | undefined): boolean {
  if (current === undefined) return true;
  if (word.length !== current.length) return word.length < current.length;
  return word < current;
}
