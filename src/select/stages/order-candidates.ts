import { type Candidate, HISTORY, KEYWORD } from '../turn.js';

/**
 * Stage 4: survivors in budget priority order. Strata in order (pinned, context, keyword,
 * history, fallback). Pinned and context tools keep catalog order and fallback tools their
 * search order; keyword and then history tools go round-robin over their groups: the best
 * tool of every group before the second of any, groups ordered by their best tool (higher
 * score first, ties by catalog order), each group's tools by score (ties by catalog order), so
 * a message about two topics keeps a tool of each.
 */
export function orderCandidates(survivors: readonly Candidate[]): Candidate[] {
  const ordered: Candidate[] = [];
  let start = 0;
  while (start < survivors.length) {
    const stratum = survivors[start]!.stratum;
    let end = start;
    while (end < survivors.length && survivors[end]!.stratum === stratum) end++;
    const run = survivors.slice(start, end);
    ordered.push(...(stratum === KEYWORD || stratum === HISTORY ? roundRobin(run) : run));
    start = end;
  }
  return ordered;
}

/** Higher score first, then catalog order. */
function byRelevance(a: Candidate, b: Candidate): number {
  return b.raw - a.raw || a.tool - b.tool;
}

/**
 * The round-robin over the groups of one stratum. A group's candidates are consecutive and
 * share one evidence object, which tells groups apart.
 */
function roundRobin(run: readonly Candidate[]): Candidate[] {
  const groups: Candidate[][] = [];
  for (const candidate of run) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last[0]!.evidence === candidate.evidence) last.push(candidate);
    else groups.push([candidate]);
  }
  for (const group of groups) group.sort(byRelevance);
  groups.sort((a, b) => byRelevance(a[0]!, b[0]!));
  const ordered: Candidate[] = [];
  for (let round = 0; ordered.length < run.length; round++) {
    for (const group of groups) {
      const candidate = group[round];
      if (candidate !== undefined) ordered.push(candidate);
    }
  }
  return ordered;
}
