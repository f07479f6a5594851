import { queryWord } from '../build-ranking-query.js';
import { callContextCheck, contextCheckFailure } from '../call-context-check.js';
import { fuseScores } from '../fuse-scores.js';
import type { GroupMatch } from '../keyword-index.js';
import { rankFused } from '../rank-fused.js';
import { roundScore } from '../round-score.js';
import {
  ALWAYS,
  CONTEXT,
  type Evidence,
  evidenceWithoutKinds,
  FALLBACK,
  HISTORY,
  KEYWORD,
  NO_MATCHES,
  RELEVANCE,
  type Stratum,
  type Turn,
} from '../turn.js';
import { missingContextDrop } from './filter-candidates.js';
import type { HistoryMatch } from './read-turn.js';
import { normalizeScore } from './score-candidates.js';

const NOTHING_MATCHED = evidenceWithoutKinds(NO_MATCHES);

/**
 * Stage 2: the candidates of each strategy, in budget priority order. Pinned (`always`)
 * groups; `context` groups whose check passes (or, without a check, each of their tools whose
 * `requires_context` keys are set), the others reported as dropped; `keyword` groups the message
 * matches; groups kept by history (which also adds the history words to the ranking query);
 * and, when no keyword or history group matched, the relevance fallback.
 */
export function collectCandidates(turn: Turn): void {
  const { candidates, index, reading } = turn;
  candidates.add(index.alwaysTools, ALWAYS, NOTHING_MATCHED, NaN);
  for (const group of index.contextGroups) addContextGroup(turn, group);
  turn.rankedStart = candidates.count;
  turn.rankedEnd = candidates.count;
  if (turn.settings.relevance !== undefined) {
    addByRelevance(turn);
    return;
  }
  const matched = new Set<number>();
  for (const match of reading.messageMatches) {
    if (index.strategyOfGroup[match.group] !== 'keyword') continue;
    matched.add(match.group);
    addRankedGroup(turn, match, KEYWORD, match.keywords, NO_MATCHES);
  }
  // groups kept by history: keyword groups the message itself did not match
  let kept = 0;
  for (const match of reading.historyMatches) {
    if (index.strategyOfGroup[match.group] !== 'keyword' || matched.has(match.group)) continue;
    kept++;
    addRankedGroup(turn, match, HISTORY, match.historyKeywords, match.calledTools);
  }
  turn.rankedEnd = candidates.count;
  if (matched.size === 0 && kept === 0 && turn.settings.fallback !== undefined) addFallback(turn);
}

/**
 * A keyword or history group: its tools, and its catalog ranges for scoring. `keywords` and
 * `calledTools` are the two kinds of `match.keywords`.
 */
function addRankedGroup(
  turn: Turn,
  match: GroupMatch,
  stratum: Stratum,
  keywords: readonly string[],
  calledTools: readonly string[],
): void {
  const evidence: Evidence = {
    matched: match.keywords,
    typos: match.typos.length > 0 ? match.typos : undefined,
    words: NO_MATCHES,
    keywords,
    calledTools,
    raisedBy: undefined,
  };
  turn.candidates.add(turn.index.toolsOfGroup[match.group]!, stratum, evidence, 0);
  turn.rankedRanges.push(...turn.index.rangesOfGroup[match.group]!);
}

function addContextGroup(turn: Turn, group: number): void {
  const { index, settings } = turn;
  const definition = index.groups[group]!;
  const checkName = definition.selection.context_check;
  const tools = index.toolsOfGroup[group]!;
  if (checkName === undefined) {
    // each tool whose own keys are set is in; the others are dropped, naming the keys.
    // requireContext: false offers them as if the keys were set, as it keeps other tools
    for (const tool of tools) {
      const keys = index.keyLists[index.keyListOfTool[tool]!]!;
      if (
        !settings.requireContext ||
        keys.every((key) => index.hasContextKey(settings.context, key))
      ) {
        turn.candidates.add([tool], CONTEXT, evidenceWithoutKinds(keys), NaN);
      } else {
        turn.dropped.push(missingContextDrop(turn, tool, 'context group'));
      }
    }
    return;
  }
  const notMet = (reason: string) => {
    for (const tool of tools) {
      turn.dropped.push({
        name: index.toolNames[tool]!,
        group: index.toolGroups[tool]!,
        code: 'CONTEXT_NOT_MET',
        reason,
      });
    }
  };
  const check = index.contextChecks.get(checkName);
  if (check === undefined) {
    turn.warnings.push({
      code: 'UNKNOWN_CONTEXT_CHECK',
      message: `group "${definition.group}" names context_check "${checkName}", which is not registered; pass it in loadRegistry({ contextChecks: { ${checkName}: (context, message) => ... } }). The group is left out`,
    });
    notMet(`its group's context_check "${checkName}" is not registered (see the warnings)`);
    return;
  }
  const outcome = callContextCheck(check, settings.context, turn.message);
  if ('problem' in outcome) {
    turn.warnings.push({
      code: 'CONTEXT_CHECK_FAILED',
      message: `context_check "${checkName}" of group "${definition.group}" ${outcome.problem}; the group is left out of this turn`,
    });
    notMet(`its group's context_check "${checkName}" ${contextCheckFailure(outcome.problem)}`);
    return;
  }
  const { applies } = outcome;
  if (applies) turn.candidates.add(tools, CONTEXT, evidenceWithoutKinds([checkName]), NaN);
  else notMet(`its group's context_check "${checkName}" returned false for this turn's context`);
}

/**
 * With the `relevance` option: the `k` tools of `keyword` groups most relevant to the query,
 * where each tool of a group the conversation already used (`historyMatches`) is raised by the
 * ranking's `historyGroupBoost`, and, while the conversation has used no group, each tool of a
 * group that has one of the `k` most relevant tools by its `relevanceGroupBoost` times that
 * group's best relevance over the turn's best (ties in catalog order). A tool is offered when
 * it (with the history boost), or the best tool of the group that raised it, reaches
 * `minScore`; abstains with a warning when none does. With a semantic turn, relevance is the
 * fused score.
 */
function addByRelevance(turn: Turn): void {
  const { index, reading, semantic } = turn;
  const { query } = reading;
  const { k, minScore } = turn.settings.relevance!;
  const { historyGroupBoost, relevanceGroupBoost } = index.ranking;
  const relevance = index.relevance();
  const maxScore = relevance.maxScore(query);
  const isKeyword = (group: number) => index.strategyOfGroup[group] === 'keyword';
  const scoreOf = (doc: number, raw: number) => {
    const lexical = normalizeScore(raw, maxScore);
    return semantic === undefined
      ? lexical
      : fuseScores(lexical, semantic.score(doc), semantic.weight);
  };
  // the best k by relevance alone; the first of each group among them is its best tool
  const scores = new Map<number, number>();
  const isKeywordTool = (doc: number) => isKeyword(index.groupOfTool[doc]!);
  const mostRelevant =
    semantic === undefined
      ? relevance
          .search(query, k, isKeywordTool)
          .map(({ doc, raw }) => ({ doc, score: scoreOf(doc, raw) }))
      : rankFused(index, query, semantic, k, isKeywordTool).map(({ doc, raw }) => ({
          doc,
          score: raw,
        }));
  const bestOfGroup = new Map<number, { doc: number; score: number }>();
  for (const entry of mostRelevant) {
    scores.set(entry.doc, entry.score);
    const group = index.groupOfTool[entry.doc]!;
    if (!bestOfGroup.has(group)) bestOfGroup.set(group, entry);
  }
  const topScore = mostRelevant[0]?.score ?? 0;
  const used = new Map<number, HistoryMatch>(
    reading.historyMatches.filter((match) => isKeyword(match.group)).map((m) => [m.group, m]),
  );
  // every tool of a raised group, which the boosts may lift into the k; the group raise stands
  // in for knowing the task's workflow, so it stops once the conversation has used a group
  const raising = relevanceGroupBoost > 0 && used.size === 0;
  const raised = raising ? [...bestOfGroup.keys()] : [];
  for (const group of new Set([...used.keys(), ...raised])) {
    const docs = index.toolsOfGroup[group]!;
    const raws: number[] = [];
    relevance.scoreRanges(query, index.rangesOfGroup[group]!, docs, 0, docs.length, raws);
    docs.forEach((doc, position) => {
      scores.set(doc, scoreOf(doc, raws[position]!));
    });
  }
  const groupBoost = (group: number) => {
    const groupBest = bestOfGroup.get(group);
    return groupBest === undefined || !raising || topScore <= 0
      ? 0
      : (relevanceGroupBoost * groupBest.score) / topScore;
  };
  // minScore gates the relevance before the group raise: a tool passes when it, or the best
  // tool of its group, reaches it, so the raise never turns abstention off
  const ranked = [...scores]
    .map(([doc, score]) => {
      const group = index.groupOfTool[doc]!;
      const own = score + (used.has(group) ? historyGroupBoost : 0);
      const raise = groupBoost(group);
      const gate = raise > 0 ? Math.max(own, bestOfGroup.get(group)!.score) : own;
      return { doc, score: own + raise, gate };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.doc - b.doc);
  if (turn.settings.explain !== undefined) turn.relevanceRanking = ranked;
  let added = 0;
  let best = 0;
  for (const { doc, score, gate } of ranked) {
    if (added === k) break;
    best = Math.max(best, roundScore(gate));
    if (roundScore(gate) < minScore) continue;
    const group = index.groupOfTool[doc]!;
    const words = wordsIn(turn, doc);
    const usedMatch = used.get(group);
    const matched = [...words, ...(usedMatch?.keywords ?? [])];
    // a sibling raised by its group names the group's best tool, which raised it
    const groupBest = bestOfGroup.get(group);
    let raisedBy: string | undefined;
    if (groupBest !== undefined && groupBest.doc !== doc && groupBoost(group) > 0) {
      raisedBy = index.toolNames[groupBest.doc]!;
      matched.push(raisedBy);
    }
    const evidence: Evidence = {
      matched,
      typos: usedMatch !== undefined && usedMatch.typos.length > 0 ? usedMatch.typos : undefined,
      words,
      keywords: usedMatch?.historyKeywords ?? NO_MATCHES,
      calledTools: usedMatch?.calledTools ?? NO_MATCHES,
      raisedBy,
    };
    turn.candidates.add([doc], RELEVANCE, evidence, score);
    added++;
  }
  if (added === 0) {
    turn.warnings.push({
      code: 'RELEVANCE_ABSTAINED',
      message: relevanceAbstained(ranked.length, minScore, best, turn.settings.typoTolerance),
    });
  }
}

/**
 * The warning of a relevance turn that offered nothing: no tool scored at all (`scored` 0), or
 * none reached `minScore`.
 */
function relevanceAbstained(
  scored: number,
  minScore: number,
  best: number,
  typoTolerance: boolean,
): string {
  if (scored > 0) {
    return `no tool reached the minimum relevance ${minScore} (best ${best}), so none is offered by relevance`;
  }
  // with typo tolerance, the words compared are the corrected ones
  const words = typoTolerance
    ? 'a word (or, for words of 5+ letters, a word one typo away)'
    : 'a word';
  return `no tool of a keyword group shares ${words} with the message or the history, so none is offered by relevance`;
}

/** The query words (own and related) that tool `doc` contains, in query order. */
function wordsIn(turn: Turn, doc: number): string[] {
  const { query } = turn.reading;
  const relevance = turn.index.relevance();
  const words: string[] = [];
  query.ids.forEach((id, slot) => {
    if (relevance.hasTerm(doc, id)) words.push(queryWord(turn.index, query, slot));
  });
  return words;
}

/**
 * The `k` tools of `keyword` groups most relevant to the query with a score of at least
 * `minScore` (ties in catalog order); abstains with a warning when none reaches it. With a
 * semantic turn, relevance is the fused score over every such tool (see `rankFused`).
 */
function addFallback(turn: Turn): void {
  const { index } = turn;
  const { query } = turn.reading;
  const fallback = turn.settings.fallback!;
  const relevance = index.relevance();
  const accept = (doc: number) => index.strategyOfGroup[index.groupOfTool[doc]!] === 'keyword';
  const { semantic } = turn;
  const maxScore = semantic === undefined ? relevance.maxScore(query) : 1;
  const results =
    semantic === undefined
      ? relevance.search(query, fallback.k, accept)
      : rankFused(index, query, semantic, fallback.k, accept);
  let best = 0;
  let added = 0;
  for (const { doc, raw } of results) {
    const score = normalizeScore(raw, maxScore);
    best = Math.max(best, roundScore(score));
    if (roundScore(score) < fallback.minScore) continue;
    const words = wordsIn(turn, doc);
    const evidence: Evidence = { ...evidenceWithoutKinds(words), words };
    turn.candidates.add([doc], FALLBACK, evidence, score);
    added++;
  }
  if (added === 0) {
    turn.warnings.push({
      code: 'FALLBACK_ABSTAINED',
      message: `no keyword group matched and no tool reached the fallback's minimum relevance ${fallback.minScore} (best ${best}), so no fallback tools are offered`,
    });
  }
}
