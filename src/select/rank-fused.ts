import { fuseScores } from './fuse-scores.js';
import { type RankingQuery, type ScoredDocument, topK } from './relevance-index.js';
import type { SelectionIndex } from './selection-index.js';
import type { SemanticTurn } from './semantic-index.js';

/**
 * The `k` tools with the best fused score (see `fuseScores`), best first, ties in catalog
 * order, over every tool `accept` allows: dense retrieval over the whole catalog, so a tool
 * that shares no word with the query is found. `raw` holds the fused score (0-1).
 */
export function rankFused(
  index: SelectionIndex,
  query: RankingQuery,
  semantic: SemanticTurn,
  k: number,
  accept?: (doc: number) => boolean,
): ScoredDocument[] {
  const relevance = index.relevance();
  const maxScore = relevance.maxScore(query);
  const lexical = new Float64Array(index.tools.length);
  if (maxScore > 0) {
    for (const { doc, raw } of relevance.search(query, index.tools.length)) {
      lexical[doc] = raw / maxScore;
    }
  }
  const scored: ScoredDocument[] = [];
  for (let doc = 0; doc < index.tools.length; doc++) {
    if (accept !== undefined && !accept(doc)) continue;
    const raw = fuseScores(lexical[doc]!, semantic.score(doc), semantic.weight);
    if (raw > 0) scored.push({ doc, raw });
  }
  return topK(scored, k);
}

/**
 * Replaces the lexical scores (0-1) of `scores[from..to)`, for the tools `docs[from..to)`, by
 * their fused scores.
 */
export function fuseCandidateScores(
  semantic: SemanticTurn,
  docs: readonly number[],
  scores: number[],
  from: number,
  to: number,
): void {
  for (let slot = from; slot < to; slot++) {
    scores[slot] = fuseScores(scores[slot]!, semantic.score(docs[slot]!), semantic.weight);
  }
}
