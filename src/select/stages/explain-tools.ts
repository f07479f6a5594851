import { shortenName } from '../../util/shorten-name.js';
import { suggestSimilar } from '../../util/suggest-similar.js';
import { analyzeTurn } from '../analyze-turn.js';
import { correctTypos } from '../correct-typos.js';
import { rankFused } from '../rank-fused.js';
import { roundScore } from '../round-score.js';
import { FALLBACK, RELEVANCE, type Turn } from '../turn.js';
import type {
  DropCode,
  DroppedTool,
  ExplanationStatus,
  Selection,
  SelectionReason,
  ToolExplanation,
} from '../types.js';
import { normalizeScore } from './score-candidates.js';

/** Keywords quoted in one explanation, at most; the rest are counted. */
const LISTED_KEYWORDS = 20;
/** Close-word hints in one explanation, at most. */
const LISTED_HINTS = 3;

const STATUS_OF_DROP: Readonly<Record<DropCode, ExplanationStatus>> = {
  MISSING_CONTEXT: 'needs-context',
  CONTEXT_NOT_MET: 'needs-context',
  CATEGORY_EXCLUDED: 'excluded',
  OVER_MAX_COST: 'excluded',
  OVER_MAX_LATENCY: 'excluded',
  OVER_MAX_TOOLS: 'dropped',
  OVER_MAX_TOKENS: 'dropped',
};

/** The ranking of this turn's relevance or fallback: each ranked tool's place and score. */
interface Ranking {
  places: Map<number, { rank: number; score: number }>;
  count: number;
}

/**
 * After the stages, with the `explain` option: why each named tool was or was not offered this
 * turn. Selected and dropped tools give their reason; a tool that never became a candidate
 * belongs to a keyword group, which either did not match (its keywords, and message words one
 * edit away or part of a multi-word keyword) or was ranked by `relevance` or the fallback (its
 * rank and score against `k` and `minScore`, from the same scores the stage used).
 */
export function explainTools(turn: Turn, selection: Selection): ToolExplanation[] {
  let ranking: Ranking | undefined;
  const rankingOf = () => {
    ranking ??= rankTurn(turn);
    return ranking;
  };
  return turn.settings.explain!.map((name) => explainTool(turn, selection, name, rankingOf));
}

function explainTool(
  turn: Turn,
  selection: Selection,
  name: string,
  rankingOf: () => Ranking,
): ToolExplanation {
  const { index, settings } = turn;
  const tool = index.toolPosition(name);
  if (tool === undefined) return unknownTool(turn, name);
  const group = index.toolGroups[tool]!;
  const groupPosition = index.groupOfTool[tool]!;
  const selected = selection.tools.find((candidate) => candidate.name === name);
  if (selected !== undefined) {
    const reason = selectedReason(turn, selected.reason, groupPosition);
    return { tool: name, status: 'selected', reason, group };
  }
  const drop = selection.dropped.find((candidate) => candidate.name === name);
  if (drop !== undefined) return droppedTool(drop);
  // not a candidate: pinned and context tools always are, so this is a keyword group's tool
  const alsoNeeds = contextNote(turn, tool);
  if (settings.relevance !== undefined) {
    const ranked = relevanceVerdict(turn, tool, rankingOf());
    return {
      tool: name,
      status: 'below-cutoff',
      reason: `relevance ranked the tools of keyword groups against this turn and ${ranked.text}${alsoNeeds}`,
      group,
      ...ranked.place,
    };
  }
  const keywords = unmatchedGroup(turn, groupPosition);
  if (settings.fallback !== undefined && fallbackRan(turn)) {
    const ranked = fallbackVerdict(turn, tool, rankingOf());
    return {
      tool: name,
      status: 'below-cutoff',
      reason: `${keywords}; no keyword group matched, so the fallback ranked the tools of keyword groups and ${ranked.text}${alsoNeeds}`,
      group,
      ...ranked.place,
    };
  }
  return {
    tool: name,
    status: 'not-matched',
    reason: `${keywords}${closestWords(turn, groupPosition)}${fallbackNote(turn)}${alsoNeeds}`,
    group,
  };
}

function unknownTool(turn: Turn, name: string): ToolExplanation {
  const suggestions = suggestSimilar(name, turn.index.toolNames);
  const hint =
    suggestions.length > 0
      ? `; did you mean ${suggestions.map((suggestion) => `"${suggestion}"`).join(' or ')}?`
      : '';
  return {
    tool: name,
    status: 'unknown',
    reason: `no tool is named ${JSON.stringify(shortenName(name))}${hint}`,
    suggestions,
  };
}

function droppedTool(drop: DroppedTool): ToolExplanation {
  return {
    tool: drop.name,
    status: STATUS_OF_DROP[drop.code],
    reason: `left out (${drop.code}): ${drop.reason}`,
    group: drop.group,
    code: drop.code,
  };
}

/** A selected tool's reason in words. */
function selectedReason(turn: Turn, reason: SelectionReason, group: number): string {
  const score = reason.score === undefined ? '' : ` (score ${reason.score})`;
  const typos = new Map((reason.typos ?? []).map((typo) => [typo.keyword, typo.word]));
  const keywords = (list: readonly string[]) =>
    list
      .map((keyword) => {
        const typo = typos.get(keyword);
        return typo === undefined
          ? JSON.stringify(keyword)
          : `${JSON.stringify(keyword)} (as the typo ${JSON.stringify(typo)})`;
      })
      .join(', ');
  const words = quoteList(reason.matched_words ?? []);
  switch (reason.strategy) {
    case 'always':
      return 'selected: its group is pinned (strategy "always")';
    case 'context':
      return `selected: its context group applies (${contextApplies(turn, reason.matched, group)})`;
    case 'keyword':
      return `selected: the message matched its group's keywords ${keywords(reason.matched)}${score}`;
    case 'history': {
      const parts: string[] = [];
      if (reason.matched_keywords !== undefined) {
        parts.push(`earlier messages matched its keywords ${keywords(reason.matched_keywords)}`);
      }
      if (reason.matched_history !== undefined) {
        parts.push(`earlier turns called ${quoteList(reason.matched_history)}`);
      }
      return `selected: its group is kept by the history: ${parts.join('; ')}${score}`;
    }
    case 'fallback':
      return `selected by the fallback (no keyword group matched): it shares the words ${words} with this turn${score}`;
    default: {
      const parts: string[] = [];
      if (words !== '') parts.push(`it shares the words ${words} with this turn`);
      if (reason.matched_history !== undefined || reason.matched_keywords !== undefined) {
        parts.push('its group was used in earlier turns');
      }
      if (reason.raised_by !== undefined) {
        parts.push(`its group's best tool ${JSON.stringify(reason.raised_by)} raised it`);
      }
      return `selected by relevance: ${parts.join('; ')}${score}`;
    }
  }
}

/** What made a context group apply: its check, its keys, or nothing to check. */
function contextApplies(turn: Turn, matched: readonly string[], group: number): string {
  const check = turn.index.groups[group]!.selection.context_check;
  if (check !== undefined) return `context_check "${check}" returned true`;
  return matched.length === 0 ? 'it needs no context keys' : `context ${matched.join(', ')} is set`;
}

/** The first part of a not-matched keyword group's explanation: its keywords. */
function unmatchedGroup(turn: Turn, group: number): string {
  const definition = turn.index.groups[group]!;
  // a keyword group has keywords (the group format requires them)
  const keywords = definition.selection.keywords ?? [];
  const name = JSON.stringify(definition.group);
  const entries = turn.settings.history.length;
  const where =
    entries === 0
      ? 'the message has none'
      : `neither the message nor the history (${entries} ${entries === 1 ? 'entry' : 'entries'}) has any`;
  return `its keyword group ${name} did not match: ${where} of its keywords ${quoteList(keywords, LISTED_KEYWORDS)}`;
}

/**
 * Message words that came close to the group's keywords: part of a multi-word keyword, or,
 * while typo tolerance is off, typos it would correct so that a keyword matches. Empty when
 * none.
 */
function closestWords(turn: Turn, group: number): string {
  const { analyzer } = turn.index;
  const message = analyzer.analyze(turn.message);
  const terms = new Set(message.map((token) => token.term));
  const hints: string[] = [];
  if (!turn.settings.typoTolerance) {
    for (const typo of typoMatches(turn, group)) {
      hints.push(
        `${JSON.stringify(typo.word)} is one edit from the keyword ${JSON.stringify(typo.keyword)} (typoTolerance: true matches it)`,
      );
    }
  }
  for (const keyword of turn.index.groups[group]!.selection.keywords ?? []) {
    const tokens = analyzer.analyze(keyword);
    const present = tokens.filter((token) => terms.has(token.term));
    if (tokens.length > 1 && present.length > 0) {
      hints.push(
        `the message has ${quoteList(present.map((token) => token.word))} but not the whole keyword ${JSON.stringify(keyword)}`,
      );
    }
  }
  return hints.length === 0 ? '' : `; closest: ${hints.slice(0, LISTED_HINTS).join('; ')}`;
}

/**
 * The keywords of `group` that the message matches through typos with `typoTolerance` on, by
 * the very rule the read stage uses (so the hint never promises a match it would not make).
 */
function typoMatches(turn: Turn, group: number): { keyword: string; word: string }[] {
  const { index } = turn;
  const analyzed = analyzeTurn(turn.message, index.words());
  correctTypos(index, turn.message, analyzed);
  const match = index.keywords.matchGroups(analyzed).find((entry) => entry.group === group);
  return match?.typos ?? [];
}

/** Whether the fallback ran: it does when no keyword group matched the message or the history. */
function fallbackRan(turn: Turn): boolean {
  return matchedKeywordGroups(turn).length === 0;
}

/** The keyword groups the message or the history matched, by name, without repeats. */
function matchedKeywordGroups(turn: Turn): string[] {
  const { index, reading } = turn;
  const names: string[] = [];
  for (const match of [...reading.messageMatches, ...reading.historyMatches]) {
    const name = index.groups[match.group]!.group;
    if (index.strategyOfGroup[match.group] === 'keyword' && !names.includes(name)) {
      names.push(name);
    }
  }
  return names;
}

/** Why a fallback did not rank the tool: other groups matched. Empty without a fallback. */
function fallbackNote(turn: Turn): string {
  if (turn.settings.fallback === undefined) return '';
  return `; the fallback ranks tools only when no keyword group matches, and ${quoteList(matchedKeywordGroups(turn))} matched`;
}

/** The context keys the tool requires and the turn lacks, as a note; empty when none. */
function contextNote(turn: Turn, tool: number): string {
  const { index, settings } = turn;
  if (!settings.requireContext) return '';
  const missing = index.keyLists[index.keyListOfTool[tool]!]!.filter(
    (key) => !index.hasContextKey(settings.context, key),
  );
  return missing.length === 0
    ? ''
    : `; it also requires context ${missing.join(', ')}, which this turn does not set`;
}

/**
 * Every tool of a keyword group ranked by this turn's query, with the scores the stage used:
 * the lexical score over the query's maximum, or the fused score with a semantic turn; with
 * `relevance`, the scores it gave the tools it walked (history and group boosts included).
 */
function rankTurn(turn: Turn): Ranking {
  const { index, semantic } = turn;
  const { query } = turn.reading;
  const relevance = index.relevance();
  const count = index.tools.length;
  const accept = (doc: number) => index.strategyOfGroup[index.groupOfTool[doc]!] === 'keyword';
  const maxScore = relevance.maxScore(query);
  const scores = new Map<number, number>(
    semantic === undefined
      ? relevance
          .search(query, count, accept)
          .map(({ doc, raw }) => [doc, normalizeScore(raw, maxScore)])
      : rankFused(index, query, semantic, count, accept).map(({ doc, raw }) => [doc, raw]),
  );
  for (const { doc, score } of turn.relevanceRanking ?? []) scores.set(doc, score);
  const order = [...scores]
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const places = new Map<number, { rank: number; score: number }>();
  order.forEach(([doc, score], position) => {
    places.set(doc, { rank: position + 1, score: roundScore(score) });
  });
  return { places, count: order.length };
}

/** The lowest score among the tools the relevance or fallback stage kept, or undefined. */
function lowestKept(turn: Turn, stratum: typeof RELEVANCE | typeof FALLBACK): number | undefined {
  const { candidates } = turn;
  let lowest: number | undefined;
  for (let slot = 0; slot < candidates.count; slot++) {
    if (candidates.strata[slot] !== stratum) continue;
    const score = roundScore(candidates.scores[slot]!);
    lowest = lowest === undefined ? score : Math.min(lowest, score);
  }
  return lowest;
}

interface Verdict {
  text: string;
  place: { rank?: number; score?: number };
}

/** A ranked tool's place; undefined when it shares no word with the turn. */
function placeOf(tool: number, ranking: Ranking): { rank: number; score: number } | undefined {
  const place = ranking.places.get(tool);
  return place === undefined ? undefined : { ...place };
}

function noSharedWord(turn: Turn): Verdict {
  const where = turn.settings.history.length > 0 ? 'the message or the history' : 'the message';
  return {
    text: `it shares no word with ${where} (score 0); add the words users say for it to its description, tags or its group's keywords`,
    place: { score: 0 },
  };
}

function cutText(
  turn: Turn,
  option: 'relevance' | 'fallback',
  place: { rank: number; score: number },
  count: number,
  k: number,
): string {
  const lowest = lowestKept(turn, option === 'relevance' ? RELEVANCE : FALLBACK);
  const kept = lowest === undefined ? 'none was kept' : `lowest score kept ${lowest}`;
  return `it ranked ${place.rank} of ${count} with score ${place.score}, outside the best ${k} it offers (${option}.k ${k}; ${kept}); raise ${option}.k or add the words users say for it to its description`;
}

function belowText(
  option: 'relevance' | 'fallback',
  place: { rank: number },
  count: number,
  gate: number,
  minScore: number,
): string {
  return `it ranked ${place.rank} of ${count}, but its relevance ${gate} is below ${option}.minScore ${minScore}; lower ${option}.minScore or add the words users say for it to its description`;
}

/**
 * With `relevance`: where the tool ranked, replaying the stage's walk (it stops after `k`
 * tools and skips those under `minScore`, which does not count towards `k`).
 */
function relevanceVerdict(turn: Turn, tool: number, ranking: Ranking): Verdict {
  const { k, minScore } = turn.settings.relevance!;
  const place = placeOf(tool, ranking);
  if (place === undefined) return noSharedWord(turn);
  const walk = turn.relevanceRanking ?? [];
  const at = walk.findIndex((entry) => entry.doc === tool);
  let cut: boolean;
  let gate = place.score;
  if (at < 0) {
    // not walked: below the k best by relevance alone, so never reached
    cut = place.score >= minScore;
  } else {
    let added = 0;
    for (const entry of walk.slice(0, at)) {
      if (added < k && roundScore(entry.gate) >= minScore) added++;
    }
    cut = added === k;
    gate = roundScore(walk[at]!.gate);
  }
  return {
    text: cut
      ? cutText(turn, 'relevance', place, ranking.count, k)
      : belowText('relevance', place, ranking.count, gate, minScore),
    place,
  };
}

/**
 * With the fallback: where the tool ranked against the fallback's `k` and `minScore` (a tool
 * under `minScore` is skipped whatever its rank, so only `minScore` is named then).
 */
function fallbackVerdict(turn: Turn, tool: number, ranking: Ranking): Verdict {
  const { k, minScore } = turn.settings.fallback!;
  const place = placeOf(tool, ranking);
  if (place === undefined) return noSharedWord(turn);
  // under minScore, a larger k would not offer it either: the fallback skips it at any rank
  return {
    text:
      place.rank > k && place.score >= minScore
        ? cutText(turn, 'fallback', place, ranking.count, k)
        : belowText('fallback', place, ranking.count, place.score, minScore),
    place,
  };
}

/** `"a", "b", "c"`, and how many more past `limit`. */
function quoteList(items: readonly string[], limit = Number.POSITIVE_INFINITY): string {
  const shown = items.slice(0, limit).map((item) => JSON.stringify(item));
  const more = items.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}
