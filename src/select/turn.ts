import type { Warning } from '../format/types.js';
import type { AnalyzedTurn } from './analyze-turn.js';
import type { ResolvedSelectOptions } from './resolve-select-options.js';
import type { SelectionIndex } from './selection-index.js';
import type { DroppedTool, SelectionStrategyName, TypoMatch } from './types.js';

/**
 * Budget priority of a candidate, lowest first: pinned (`always`) tools, then `context` tools,
 * then tools of groups the message matched (`keyword`), then groups kept by history, then the
 * relevance fallback.
 */
export const ALWAYS = 0;
export const CONTEXT = 1;
export const KEYWORD = 2;
export const HISTORY = 3;
export const FALLBACK = 4;
/** One of the strata above. */
export type Stratum =
  | typeof ALWAYS
  | typeof CONTEXT
  | typeof KEYWORD
  | typeof HISTORY
  | typeof FALLBACK;

/** The strategy a selected tool of each stratum reports. */
export const STRATEGY_OF_STRATUM: readonly SelectionStrategyName[] = [
  'always',
  'context',
  'keyword',
  'history',
  'fallback',
];

/** What brought a candidate in; one object shared by the tools of a group. */
export interface Evidence {
  /** Keywords, context keys, a check name, called tools or query words (see SelectionReason). */
  matched: readonly string[];
  /** Keywords matched only through typo tolerance. */
  typos: readonly TypoMatch[] | undefined;
}

/** One candidate tool of a turn. */
export interface Candidate {
  /** Catalog position. */
  tool: number;
  stratum: Stratum;
  evidence: Evidence;
  /** Raw relevance to the turn (BM25F); NaN in the strata that are not ranked. */
  raw: number;
}

/** The ranking query of a turn, built by the collect stage (history extends it). */
export interface TurnQuery {
  ids: number[];
  weights: number[];
  /** The word each term came from, for `matched` of fallback tools. */
  words: string[];
  /** Message words whose terms no tool or keyword contains (they count in the max score). */
  unknown: number;
}

/**
 * Everything one `select` call works on, made fresh for the call and dropped after it: the
 * stages read and extend it in order (collect → score → filter → order → budget → build).
 *
 * Invariants the stages keep:
 * - `candidates` are in stratum order, and a tool appears at most once (a tool belongs to one
 *   group, and a group enters through one strategy);
 * - within a stratum, each group's tools are consecutive and in catalog order;
 * - `rankedRanges` are the catalog ranges of exactly the keyword and history candidates.
 */
export interface Turn {
  readonly index: SelectionIndex;
  readonly message: string;
  readonly settings: ResolvedSelectOptions;
  readonly analyzed: AnalyzedTurn;
  readonly query: TurnQuery;
  readonly candidates: Candidate[];
  readonly rankedRanges: number[];
  readonly dropped: DroppedTool[];
  readonly warnings: Warning[];
}
