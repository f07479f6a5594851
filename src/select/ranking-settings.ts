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
   * Related words found in more than this share of the catalog's tools (0-1), and in more than
   * `RELATED_MIN_DOCUMENTS` tools, are left out: in a large catalog such a word ("time",
   * "list") says little about any one tool, and scoring it costs the most.
   */
  readonly relatedMaxShare: number;
  /**
   * How much a word's commonness in general English (0-1, from the lexicon) lowers its weight:
   * `weight × (1 − commonnessDamping × commonness)`, so "get", "show" or "make" count less
   * than "invoice". English analyzers only.
   */
  readonly commonnessDamping: number;
  /**
   * With the `relevance` option: what a tool gains (on the 0-1 scale) when its group was used
   * earlier in the conversation (a called tool, or a history message matching its keywords),
   * so the next tool of a workflow is offered.
   */
  readonly historyGroupBoost: number;
  /**
   * With the `relevance` option: what the tools of a group that has one of the turn's `k` most
   * relevant tools gain, times that group's best relevance over the turn's best (0-1 scale).
   * Agent tasks often need several tools of one server, and the siblings of the tool that
   * matched best share fewer words with the request than it does.
   */
  readonly relevanceGroupBoost: number;
}

/** A related word found in at most this many tools is never left out for being common. */
export const RELATED_MIN_DOCUMENTS = 20;

/** The most tools a related word may be found in, in a catalog of `tools` tools. */
export function relatedMaxDocuments(settings: RankingSettings, tools: number): number {
  return Math.max(RELATED_MIN_DOCUMENTS, settings.relatedMaxShare * tools);
}

/** The defaults. */
export const DEFAULT_RANKING: RankingSettings = Object.freeze({
  fields: DOCUMENT_FIELDS,
  historyWeight: 0.5,
  relatedWeight: 0.5,
  relatedMinCommonness: 0.05,
  relatedPerWord: 4,
  relatedMaxShare: 0.05,
  commonnessDamping: 0.6,
  historyGroupBoost: 0.2,
  relevanceGroupBoost: 0.2,
});
