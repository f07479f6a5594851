/** Relevance rounded to 4 decimals in [0, 1], so explanations print the same everywhere. */
export function roundScore(score: number): number {
  if (!Number.isFinite(score) || score <= 0) return 0;
  return Math.min(1, Math.round(score * 10_000) / 10_000);
}
