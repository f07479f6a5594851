import { DOCUMENT_FIELDS, type DocumentField } from './tool-document.js';

/**
 * How relevance ranking weighs the words of a turn. One set of defaults serves `select` and
 * `search`; the evaluation tunes them on the training half of its data only.
 */
export interface RankingSettings {
  /** The BM25F fields of a tool's document and their weights. */
  readonly fields: readonly DocumentField[];
  /** Weight of a word of an earlier turn (history) relative to a word of the message. */
  readonly historyWeight: number;
  /**
   * Weight of a related word (a WordNet synonym, derived word or hypernym of a query word that
   * some tool contains) relative to the word it comes from, times the lexicon's own weight of
   * the relation. 0 turns related words off. English analyzers only.
   */
  readonly relatedWeight: number;
  /**
   * Related words less common than this in English (0-1, see `commonnessDamping`) are left
   * out: archaic and rare senses ("agone" for "past") match tools by accident.
   */
  readonly relatedMinCommonness: number;
  /** Most related words per own word (the lexicon's strongest first). */
  readonly relatedPerWord: number;
  /**
   * How much a word's commonness in general English (0-1, from the lexicon) lowers its weight:
   * `weight × (1 − commonnessDamping × commonness)`, so "get", "show" or "make" count less
   * than "invoice". English analyzers only.
   */
  readonly commonnessDamping: number;
}

/** The defaults. */
export const DEFAULT_RANKING: RankingSettings = Object.freeze({
  fields: DOCUMENT_FIELDS,
  historyWeight: 0.5,
  relatedWeight: 0.5,
  relatedMinCommonness: 0.05,
  relatedPerWord: 4,
  commonnessDamping: 0.6,
});
