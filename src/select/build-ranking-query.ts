import type { AnalyzedTurn } from './analyze-turn.js';
import type { RankingSettings } from './ranking-settings.js';
import type { LexicalTerm, SelectionIndex } from './selection-index.js';

/**
 * The ranking query of a turn. The first `own` terms are the turn's own words (the message's,
 * then the history's at a lower weight); the rest are related words (synonyms, derived words,
 * hypernyms) that some tool contains. `maxScore` counts only the own words, so a related word
 * adds evidence without making the exact words count less.
 */
export interface TurnQuery {
  ids: number[];
  weights: number[];
  /** The word each term came from (for a related word, the word it is related to; see `queryWord`). */
  words: string[];
  /** How many leading terms are the turn's own words. */
  own: number;
  /** Summed weight of the message words no tool or keyword contains (they count in the max). */
  unknown: number;
}

/**
 * Builds the ranking query: the message's words (weight 1) and its corrected typos, then the
 * words of earlier turns, newest first (weight `historyWeight`; words no tool contains are
 * left out), each weighted down by its commonness in English; then the words related to all
 * of them. A term appears once, with its first weight.
 */
export function buildRankingQuery(
  index: SelectionIndex,
  message: AnalyzedTurn,
  history: readonly AnalyzedTurn[],
  settings: RankingSettings,
): TurnQuery {
  const query: TurnQuery = { ids: [], weights: [], words: [], own: 0, unknown: 0 };
  const damping = settings.commonnessDamping;
  const { ids, weights, words } = query;
  message.queryIds.forEach((id, slot) => {
    ids.push(id);
    words.push(message.queryWords[slot]!);
    weights.push(1 - damping * index.lexicalOf(id).commonness);
  });
  const unknown = message.unknown.map(({ word, term }) => {
    const lexical = index.lexical(term);
    const weight = 1 - damping * lexical.commonness;
    query.unknown += weight;
    return { word, lexical, weight };
  });
  for (const earlier of history) {
    earlier.queryIds.forEach((id, slot) => {
      if (ids.includes(id)) return;
      ids.push(id);
      words.push(earlier.queryWords[slot]!);
      weights.push(settings.historyWeight * (1 - damping * index.lexicalOf(id).commonness));
    });
  }
  const own = ids.length;
  query.own = own;
  if (settings.relatedWeight > 0) {
    const expand = (lexical: LexicalTerm, word: string, weight: number) => {
      let added = 0;
      for (const related of lexical.related) {
        if (added === settings.relatedPerWord) break;
        if (ids.includes(related.id)) continue;
        added++;
        ids.push(related.id);
        words.push(word);
        weights.push(weight * settings.relatedWeight * related.weight);
      }
    };
    for (let slot = 0; slot < own; slot++) {
      expand(index.lexicalOf(ids[slot]!), words[slot]!, weights[slot]!);
    }
    for (const { lexical, word, weight } of unknown) expand(lexical, word, weight);
  }
  return query;
}

/**
 * How term `slot` of `query` is shown in `matched`: the word itself, or `word→related` for a
 * related word, `related` being the shortest word of the tools' text that gave the related term
 * (built only when shown: most related terms are never reported).
 */
export function queryWord(index: SelectionIndex, query: TurnQuery, slot: number): string {
  const word = query.words[slot]!;
  return slot < query.own ? word : `${word}→${index.vocabulary.wordOf(query.ids[slot]!)}`;
}
