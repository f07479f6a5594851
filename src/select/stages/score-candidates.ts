import type { Turn } from '../turn.js';

/**
 * Stage 2: the raw relevance of every keyword and history candidate to the turn's query (the
 * message, plus the history words at a lower weight), and the query's maximum score, which
 * turns raw scores into the 0-1 scores selected tools report. Only the candidates are scored,
 * never the whole catalog. (Fallback candidates were scored when they were found.)
 */
export function scoreCandidates(turn: Turn): number {
  const relevance = turn.index.relevance();
  const { candidates, rankedStart, rankedEnd } = turn;
  if (rankedEnd > rankedStart) {
    relevance.scoreRanges(
      turn.reading.query,
      turn.rankedRanges,
      candidates.tools,
      rankedStart,
      rankedEnd,
      candidates.raw,
    );
  }
  return relevance.maxScore(turn.reading.query);
}
