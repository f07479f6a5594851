import { fuseCandidateScores } from '../rank-fused.js';
import type { Turn } from '../turn.js';

/**
 * Stage 3: the relevance of every keyword and history candidate to the turn's query (the
 * message, plus the history words at a lower weight): the BM25F score over the query's maximum
 * score, 0-1. Only the candidates are scored, never the whole catalog. (Fallback and relevance
 * candidates were scored when they were found.) With a semantic turn, each score is fused with
 * the tool's semantic score (see `fuseScores`).
 */
export function scoreCandidates(turn: Turn): void {
  const { candidates, rankedStart, rankedEnd } = turn;
  if (rankedEnd === rankedStart) return;
  const relevance = turn.index.relevance();
  relevance.scoreRanges(
    turn.reading.query,
    turn.rankedRanges,
    candidates.tools,
    rankedStart,
    rankedEnd,
    candidates.scores,
  );
  const maxScore = relevance.maxScore(turn.reading.query);
  for (let slot = rankedStart; slot < rankedEnd; slot++) {
    candidates.scores[slot] = normalizeScore(candidates.scores[slot]!, maxScore);
  }
  if (turn.semantic !== undefined) {
    fuseCandidateScores(turn.semantic, candidates.tools, candidates.scores, rankedStart, rankedEnd);
  }
}

/** A raw BM25F score over the query's maximum: 0-1, and 0 for a query without words. */
export function normalizeScore(raw: number, maxScore: number): number {
  return maxScore > 0 ? raw / maxScore : 0;
}
