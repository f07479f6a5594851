import { HISTORY, KEYWORD, type Turn } from '../turn.js';

/**
 * Stage 2: the raw relevance of every keyword and history candidate to the turn's query (the
 * message, plus the history words at a lower weight), and the query's maximum score, which
 * turns raw scores into the 0-1 scores selected tools report. Only the candidates are scored,
 * never the whole catalog. (Fallback candidates were scored when they were found.)
 */
export function scoreCandidates(turn: Turn): number {
  const relevance = turn.index.relevance();
  const ranked = turn.candidates.filter(
    (candidate) => candidate.stratum === KEYWORD || candidate.stratum === HISTORY,
  );
  if (ranked.length > 0) {
    const docs = ranked.map((candidate) => candidate.tool);
    const scores: number[] = new Array(ranked.length);
    relevance.scoreRanges(turn.query, turn.rankedRanges, docs, 0, ranked.length, scores);
    ranked.forEach((candidate, position) => {
      candidate.raw = scores[position]!;
    });
  }
  return relevance.maxScore(turn.query);
}
