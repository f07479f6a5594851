import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type DistanceFunction = (
  source: string,
  target: string,
  options?: { transposition_cost?: number },
) => number;
let damerauLevenshtein: DistanceFunction | undefined;

/** Damerau-Levenshtein distance from natural, loaded on first use (only error paths need it). */
export function editDistance(source: string, target: string): number {
  damerauLevenshtein ??= (
    require('natural/lib/natural/distance/levenshtein_distance.js') as {
      DamerauLevenshteinDistance: DistanceFunction;
    }
  ).DamerauLevenshteinDistance;
  return damerauLevenshtein(source, target, { transposition_cost: 1 });
}

/**
 * The candidates closest to `name` ("did you mean …?"), best first: those within an edit
 * distance of a third of the name's length (at least 1), plus case-insensitive and
 * separator-insensitive matches. At most `limit` results.
 */
export function suggestSimilar(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const folded = fold(name);
  const maxDistance = Math.max(1, Math.floor(name.length / 3));
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance =
      fold(candidate) === folded ? 0 : editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= maxDistance) scored.push({ candidate, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map((entry) => entry.candidate);
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}
