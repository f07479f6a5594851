import { type Candidates, HISTORY, KEYWORD } from '../turn.js';

/**
 * Stage 5: surviving slots in budget priority order. Strata in order (pinned, context, keyword,
 * history, fallback). Pinned and context tools keep catalog order and fallback tools their
 * search order; keyword and then history tools go round-robin over their groups: the best
 * tool of every group before the second of any, groups ordered by their best tool (higher
 * score first, ties by catalog order), each group's tools by score (ties by catalog order), so
 * a message about two topics keeps a tool of each.
 */
export function orderCandidates(candidates: Candidates, survivors: readonly number[]): number[] {
  const ordered: number[] = [];
  let start = 0;
  while (start < survivors.length) {
    const stratum = candidates.strata[survivors[start]!]!;
    let end = start + 1;
    while (end < survivors.length && candidates.strata[survivors[end]!] === stratum) end++;
    if (stratum === KEYWORD || stratum === HISTORY) {
      roundRobin(candidates, survivors, start, end, ordered);
    } else {
      for (let position = start; position < end; position++) ordered.push(survivors[position]!);
    }
    start = end;
  }
  return ordered;
}

/**
 * The round-robin over the groups of `survivors[from..to)`, appended to `ordered`. A group's
 * slots are consecutive and share one evidence object, which tells groups apart; groups are
 * small, so each is sorted by insertion (stable: ties keep catalog order).
 */
function roundRobin(
  candidates: Candidates,
  survivors: readonly number[],
  from: number,
  to: number,
  ordered: number[],
): void {
  const groups: number[][] = [];
  let current: number[] = [];
  for (let position = from; position < to; position++) {
    const slot = survivors[position]!;
    if (current.length > 0 && candidates.evidence[current[0]!] !== candidates.evidence[slot]) {
      groups.push(current);
      current = [];
    }
    insertSorted(candidates, current, slot);
  }
  groups.push(current);
  const byBest: number[][] = [];
  for (const group of groups) {
    let at = byBest.length;
    while (at > 0 && candidates.compare(group[0]!, byBest[at - 1]![0]!) < 0) at--;
    byBest.splice(at, 0, group);
  }
  for (let round = 0, added = true; added; round++) {
    added = false;
    for (const group of byBest) {
      if (round < group.length) {
        ordered.push(group[round]!);
        added = true;
      }
    }
  }
}

/** Inserts `slot` into `sorted` (best first), after every slot it does not beat. */
function insertSorted(candidates: Candidates, sorted: number[], slot: number): void {
  let at = sorted.length;
  sorted.push(slot);
  while (at > 0 && candidates.compare(slot, sorted[at - 1]!) < 0) {
    sorted[at] = sorted[at - 1]!;
    at--;
  }
  sorted[at] = slot;
}
