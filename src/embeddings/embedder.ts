/** Options of one `Embedder.embed` call. */
export interface EmbedOptions {
  /** Aborts the call; it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Turns texts into vectors for semantic scoring: a word-vector file, an embeddings endpoint, or
 * your own. Vectors of one embedder must all have the same length; their cosine is their
 * similarity (they need not be normalized).
 */
export interface Embedder {
  /**
   * Names the model and every setting that changes the vectors (for example
   * `openai-compatible:https://api.openai.com/v1/text-embedding-3-small`). Cached tool vectors
   * are keyed by it: change it whenever the vectors would change.
   */
  readonly id: string;
  /** One vector per text, in order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<readonly ArrayLike<number>[]>;
}
