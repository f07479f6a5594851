import { fuseScores } from './fuse-scores.js';
import { type RankingQuery, type ScoredDocument, TopK } from './relevance-index.js';
import type { SelectionIndex } from './selection-index.js';
import type { SemanticTurn } from './semantic-index.js';

/**
 * The `k` tools with the best fused score (see `fuseScores`), best first, ties in catalog
 * order, over every tool `accept` allows: dense retrieval over the whole catalog, so a tool
 * that shares no word with the query is found. `raw` holds the fused score (0-1). Cost: the
 * query's postings plus one dot product per tool.
 */
export function rankFused(
  index: SelectionIndex,
  query: RankingQuery,
  semantic: SemanticTurn,
  k: number,
  accept?: (doc: number) => boolean,
): ScoredDocument[] {
  const relevance = index.relevance();
  const count = index.tools.length;
  const maxScore = relevance.maxScore(query);
  const docs = Array.from({ length: count }, (_, doc) => doc);
  const raw = new Array<number>(count).fill(0);
  if (maxScore > 0 && count > 0) relevance.scoreRanges(query, [0, count], docs, 0, count, raw);
  const best = new TopK(k);
  for (let doc = 0; doc < count; doc++) {
    if (accept !== undefined && !accept(doc)) continue;
    const lexical = maxScore > 0 ? raw[doc]! / maxScore : 0;
    const fused = fuseScores(lexical, semantic.score(doc), semantic.weight);
    if (fused > 0) best.offer(doc, fused);
  }
  return best.results();
}

/**
 * Replaces the lexical scores (0-1) of `scores[from..to)`, for the tools `docs[from..to)`, by
 * their fused scores.
 */
export function fuseCandidateScores(
  semantic: SemanticTurn,
  docs: ArrayLike<number>,
  scores: { [slot: number]: number },
  from: number,
  to: number,
): void {
  for (let slot = from; slot < to; slot++) {
    scores[slot] = fuseScores(scores[slot]!, semantic.score(docs[slot]!), semantic.weight);
  }
}
