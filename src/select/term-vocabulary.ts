/** Integer ids for index terms, shared by the keyword index and the relevance index. */
export class TermVocabulary {
  readonly #ids = new Map<string, number>();
  readonly #terms: string[] = [];

  /** The id of `term`, or -1. */
  idOf(term: string): number {
    return this.#ids.get(term) ?? -1;
  }

  /** The id of `term`, adding it when new. */
  add(term: string): number {
    let id = this.#ids.get(term);
    if (id === undefined) {
      id = this.#terms.length;
      this.#ids.set(term, id);
      this.#terms.push(term);
    }
    return id;
  }

  /** The term of `id`. */
  termOf(id: number): string {
    return this.#terms[id] ?? '';
  }

  /** Number of terms. */
  get size(): number {
    return this.#terms.length;
  }
}
