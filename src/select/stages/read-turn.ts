import type { Warning } from '../../format/types.js';
import { suggestSimilar } from '../../util/suggest-similar.js';
import { type AnalyzedTurn, analyzeTurn } from '../analyze-turn.js';
import { buildRankingQuery, type TurnQuery } from '../build-ranking-query.js';
import { correctTypos } from '../correct-typos.js';
import type { GroupMatch } from '../keyword-index.js';
import type { ResolvedSelectOptions } from '../resolve-select-options.js';
import type { SelectionIndex } from '../selection-index.js';

/**
 * A group the history kept. `keywords` holds its keywords and called tools together, newest
 * first (the reason's `matched`); the two kinds are also kept apart, each newest first.
 */
export interface HistoryMatch extends GroupMatch {
  /** The group's keywords the history messages matched. */
  historyKeywords: string[];
  /** The group's tools the history called. */
  calledTools: string[];
}

/** What the words of a turn say: keyword matches of the message and of the history, and the ranking query. */
export interface TurnReading {
  /** Groups whose keywords the message contains, in order of their first match. */
  messageMatches: GroupMatch[];
  /**
   * Groups that the latest history entries matched by keyword or own a tool they called, in
   * catalog order, each with what matched, newest first.
   */
  historyMatches: HistoryMatch[];
  query: TurnQuery;
}

/**
 * Stage 1: reads the message and the history. The message is analyzed (with typo alternatives
 * when `typoTolerance` is on) and matched against every group's keywords; the history entries
 * are read newest first: called tools record their group, messages are matched like the
 * message; then the ranking query is built from all of their words (see `buildRankingQuery`).
 */
export function readTurn(
  index: SelectionIndex,
  message: string,
  settings: ResolvedSelectOptions,
  warnings: Warning[],
): TurnReading {
  const analyze = (text: string): AnalyzedTurn => {
    const analyzed = analyzeTurn(text, index.words());
    if (settings.typoTolerance) correctTypos(index, text, analyzed);
    return analyzed;
  };
  const analyzed = analyze(message);
  const messageMatches = index.keywords.matchGroups(analyzed);
  const matches = new Map<number, HistoryMatch>();
  const record = (
    group: number,
    matched: string,
    typoWord: string | undefined,
    isTool: boolean,
  ) => {
    let match = matches.get(group);
    if (match === undefined) {
      match = { group, keywords: [], typos: [], historyKeywords: [], calledTools: [] };
      matches.set(group, match);
    }
    // a tool and a keyword may share a spelling: `keywords` has it once, each kind has it
    const kind = isTool ? match.calledTools : match.historyKeywords;
    if (!kind.includes(matched)) kind.push(matched);
    if (!match.keywords.includes(matched)) {
      match.keywords.push(matched);
      if (typoWord !== undefined) match.typos.push({ keyword: matched, word: typoWord });
    } else if (typoWord === undefined) {
      match.typos = match.typos.filter((typo) => typo.keyword !== matched);
    }
  };
  const history: AnalyzedTurn[] = [];
  for (let position = settings.history.length - 1; position >= 0; position--) {
    const entry = settings.history[position]!;
    if (typeof entry === 'object' && 'tool' in entry && typeof entry.tool === 'string') {
      const tool = index.toolPosition(entry.tool);
      if (tool === undefined) {
        warnings.push({
          code: 'UNKNOWN_HISTORY_TOOL',
          message: unknownHistoryTool(entry.tool, index.toolNames),
          tool: entry.tool,
        });
        continue;
      }
      const group = index.groupOfTool[tool]!;
      if (group >= 0) record(group, entry.tool, undefined, true);
      continue;
    }
    const text = typeof entry === 'string' ? entry : (entry as { message: string }).message;
    const earlier = analyze(text);
    history.push(earlier);
    for (const match of index.keywords.matchGroups(earlier)) {
      for (const keyword of match.keywords) {
        const typo = match.typos.find((candidate) => candidate.keyword === keyword);
        record(match.group, keyword, typo?.word, false);
      }
    }
  }
  return {
    messageMatches,
    historyMatches: [...matches.values()].sort((a, b) => a.group - b.group),
    query: buildRankingQuery(index, analyzed, history, index.ranking),
  };
}

/** The `UNKNOWN_HISTORY_TOOL` message for `name`, with the closest tool name, if any. */
export function unknownHistoryTool(name: string, toolNames: readonly string[]): string {
  const similar = suggestSimilar(name, toolNames);
  const hint = similar.length > 0 ? ` (did you mean "${similar[0]}"?)` : '';
  return `history names tool "${name}", which is not in the registry${hint}; it is ignored`;
}
