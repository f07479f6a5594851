import type { AnalyzedTurn } from './analyze-turn.js';
import type { RankingSettings } from './ranking-settings.js';
import type { SelectionIndex } from './selection-index.js';

/**
 * The ranking query of a turn. The first `own` terms are the turn's own words (the message's,
 * then the history's at a lower weight); the rest are related words (synonyms, derived words,
 * hypernyms) that some tool contains. `maxScore` counts only the own words, so a related word
 * adds evidence without making the exact words count less.
 */
export interface TurnQuery {
  ids: number[];
  weights: number[];
  /** The word each term came from (`word→term` for a related word). */
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
  const { vocabulary } = index;
  const query: TurnQuery = { ids: [], weights: [], words: [], own: 0, unknown: 0 };
  const weightOf = (term: string) =>
    1 - settings.commonnessDamping * index.lexical(term).commonness;
  const weightOfId = (id: number) =>
    1 - settings.commonnessDamping * index.lexicalOf(id).commonness;
  const add = (id: number, word: string, weight: number) => {
    query.ids.push(id);
    query.words.push(word);
    query.weights.push(weight);
  };
  message.queryIds.forEach((id, slot) => {
    add(id, message.queryWords[slot]!, weightOfId(id));
  });
  for (const { term } of message.unknown) query.unknown += weightOf(term);
  for (const earlier of history) {
    earlier.queryIds.forEach((id, slot) => {
      if (query.ids.includes(id)) return;
      add(id, earlier.queryWords[slot]!, settings.historyWeight * weightOfId(id));
    });
  }
  query.own = query.ids.length;
  if (settings.relatedWeight > 0) {
    const sources = [
      ...query.ids.map((id, slot) => ({
        lexical: index.lexicalOf(id),
        word: query.words[slot]!,
        weight: query.weights[slot]!,
      })),
      ...message.unknown.map(({ word, term }) => ({
        lexical: index.lexical(term),
        word,
        weight: weightOf(term),
      })),
    ];
    for (const source of sources) {
      let added = 0;
      for (const related of source.lexical.related) {
        if (added === settings.relatedPerWord) break;
        if (query.ids.includes(related.id)) continue;
        added++;
        add(
          related.id,
          `${source.word}→${vocabulary.termOf(related.id)}`,
          source.weight * settings.relatedWeight * related.weight,
        );
      }
    }
  }
  return query;
}
