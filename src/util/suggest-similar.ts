import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type DistanceFunction = (
  source: string,
  target: string,
  options?: { transposition_cost?: number; restricted?: boolean },
) => number;
let damerauLevenshtein: DistanceFunction | undefined;

/**
 * Names longer than this get no suggestions: it is the longest valid tool name
 * (`TOOL_NAME_PATTERN` in format/names.ts), and longer than any command, option or field name.
 */
export const MAX_SUGGESTED_NAME_LENGTH = 64;

/**
 * Candidates longer than this are never suggested (folding them would cost time in proportion
 * to their length, and no valid name is that long).
 */
const MAX_CANDIDATE_LENGTH = 2 * MAX_SUGGESTED_NAME_LENGTH;

/**
 * The optimal-string-alignment edit distance from natural (insertions, deletions,
 * substitutions and transpositions of adjacent characters, each counting 1), loaded on first
 * use. The plain reference for `boundedEditDistance`; quadratic in time and memory.
 */
export function editDistance(source: string, target: string): number {
  damerauLevenshtein ??= (
    require('natural/lib/natural/distance/levenshtein_distance.js') as {
      DamerauLevenshteinDistance: DistanceFunction;
    }
  ).DamerauLevenshteinDistance;
  return damerauLevenshtein(source, target, { transposition_cost: 1, restricted: true });
}

/**
 * `editDistance(source, target)` when it is at most `max`, else `max + 1`. Only the diagonal
 * band of width 2·max+1 is computed and the scan stops as soon as a whole row exceeds `max`,
 * so the cost is O(min(n, m)·max) whatever the lengths: strings whose lengths differ by more
 * than `max` cost nothing.
 */
export function boundedEditDistance(source: string, target: string, max: number): number {
  if (source === target) return 0;
  const over = max + 1;
  const sourceLength = source.length;
  const targetLength = target.length;
  if (Math.abs(sourceLength - targetLength) > max) return over;
  if (sourceLength === 0 || targetLength === 0) return Math.max(sourceLength, targetLength);
  // three rows of the dynamic-programming table: i-2 (for transpositions), i-1 and i
  let twoRowsUp = new Int32Array(targetLength + 1);
  let rowAbove = new Int32Array(targetLength + 1);
  let row = new Int32Array(targetLength + 1);
  for (let column = 0; column <= targetLength; column++) {
    rowAbove[column] = Math.min(column, over);
  }
  for (let line = 1; line <= sourceLength; line++) {
    const first = Math.max(1, line - max);
    const last = Math.min(targetLength, line + max);
    // the cell left of the band: column 0 holds the line number, anything else is outside
    row[first - 1] = first === 1 ? Math.min(line, over) : over;
    let rowMinimum = row[first - 1]!;
    const sourceCode = source.charCodeAt(line - 1);
    for (let column = first; column <= last; column++) {
      const targetCode = target.charCodeAt(column - 1);
      let value = Math.min(
        rowAbove[column]! + 1,
        row[column - 1]! + 1,
        rowAbove[column - 1]! + (sourceCode === targetCode ? 0 : 1),
      );
      if (
        line > 1 &&
        column > 1 &&
        sourceCode === target.charCodeAt(column - 2) &&
        source.charCodeAt(line - 2) === targetCode
      ) {
        value = Math.min(value, twoRowsUp[column - 2]! + 1);
      }
      row[column] = Math.min(value, over);
      if (value < rowMinimum) rowMinimum = value;
    }
    // the cell right of the band, read by the next row
    if (last < targetLength) row[last + 1] = over;
    if (rowMinimum > max) return over;
    [twoRowsUp, rowAbove, row] = [rowAbove, row, twoRowsUp];
  }
  return Math.min(rowAbove[targetLength]!, over);
}

/**
 * The candidates closest to `name` ("did you mean …?"), best first: those within an edit
 * distance of a third of the name's length (at least 1), plus case-insensitive and
 * separator-insensitive matches. At most `limit` results. Bounded in time whatever the input:
 * a name longer than `MAX_SUGGESTED_NAME_LENGTH` gets none, and each candidate costs at most
 * a band of the edit-distance table.
 */
export function suggestSimilar(name: string, candidates: Iterable<string>, limit = 3): string[] {
  if (name.length > MAX_SUGGESTED_NAME_LENGTH) return [];
  const lowered = name.toLowerCase();
  const folded = fold(name);
  const maxDistance = Math.max(1, Math.floor(name.length / 3));
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    if (candidate === name || candidate.length > MAX_CANDIDATE_LENGTH) continue;
    const distance =
      fold(candidate) === folded
        ? 0
        : boundedEditDistance(lowered, candidate.toLowerCase(), maxDistance);
    if (distance <= maxDistance) scored.push({ candidate, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map((entry) => entry.candidate);
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}
