import type { Warning } from '../format/types.js';
import type { ResolvedSelectOptions } from './resolve-select-options.js';
import type { SelectionIndex } from './selection-index.js';
import type { SemanticTurn } from './semantic-index.js';
import type { TurnReading } from './stages/read-turn.js';
import type { DroppedTool, SelectionStrategyName, TypoMatch } from './types.js';

/**
 * Budget priority of a candidate, lowest first: pinned (`always`) tools, then `context` tools,
 * then tools of groups the message matched (`keyword`), then groups kept by history, then the
 * relevance fallback; with the `relevance` option, the tools ranked by relevance follow context.
 */
export const ALWAYS = 0;
export const CONTEXT = 1;
export const KEYWORD = 2;
export const HISTORY = 3;
export const FALLBACK = 4;
/** With the `relevance` option, in place of keyword, history and fallback. */
export const RELEVANCE = 5;
/** One of the strata above. */
export type Stratum =
  | typeof ALWAYS
  | typeof CONTEXT
  | typeof KEYWORD
  | typeof HISTORY
  | typeof FALLBACK
  | typeof RELEVANCE;

/** The strategy a selected tool of each stratum reports. */
export const STRATEGY_OF_STRATUM: readonly SelectionStrategyName[] = [
  'always',
  'context',
  'keyword',
  'history',
  'fallback',
  'relevance',
];

/** What brought a candidate in; one object shared by the tools of a group. */
export interface Evidence {
  /** Keywords, context keys, a check name, called tools or query words (see SelectionReason). */
  matched: readonly string[];
  /** Keywords matched only through typo tolerance. */
  typos: readonly TypoMatch[] | undefined;
}

/**
 * The candidate tools of a turn, as parallel arrays indexed by slot (no object per candidate:
 * a large catalog's turn has a hundred or more). Stages pass slots around.
 */
export class Candidates {
  /** Catalog position of each candidate. */
  readonly tools: number[] = [];
  readonly strata: Stratum[] = [];
  /** What brought it in; one object shared by the candidates of a group. */
  readonly evidence: Evidence[] = [];
  /**
   * Relevance to the turn: the BM25F score over the query's maximum (0-1; with `relevance`,
   * plus the history boost); NaN in the strata that are not ranked.
   */
  readonly scores: number[] = [];

  get count(): number {
    return this.tools.length;
  }

  /** Adds `tools` with one stratum, evidence and score. */
  add(tools: readonly number[], stratum: Stratum, evidence: Evidence, score: number): void {
    for (const tool of tools) {
      this.tools.push(tool);
      this.strata.push(stratum);
      this.evidence.push(evidence);
      this.scores.push(score);
    }
  }

  /** Higher score first, then catalog order: the order within ranked strata. */
  compare(a: number, b: number): number {
    return this.scores[b]! - this.scores[a]! || this.tools[a]! - this.tools[b]!;
  }
}

/**
 * Everything one `select` call works on, made fresh for the call and dropped after it: the
 * stages read and extend it in order (collect → score → filter → order → budget → build).
 *
 * Invariants the stages keep:
 * - `candidates` are in stratum order, and a tool appears at most once (a tool belongs to one
 *   group, and a group enters through one strategy);
 * - within a stratum, each group's tools are consecutive slots, in catalog order, sharing one
 *   evidence object;
 * - the keyword and history candidates are the slots `rankedStart..rankedEnd`, and
 *   `rankedRanges` are exactly their catalog ranges.
 */
export interface Turn {
  readonly index: SelectionIndex;
  readonly message: string;
  readonly settings: ResolvedSelectOptions;
  /** What the message and the history say (stage 1). */
  readonly reading: TurnReading;
  readonly candidates: Candidates;
  readonly rankedRanges: number[];
  /** The slots of the keyword and history candidates: `rankedStart <= slot < rankedEnd`. */
  rankedStart: number;
  rankedEnd: number;
  readonly dropped: DroppedTool[];
  readonly warnings: Warning[];
  /**
   * The semantic scores of this turn when the registry has a semantic scorer and the call gave
   * a query vector: ranked scores are then fused (see `fuseScores`), 0-1.
   */
  readonly semantic: SemanticTurn | undefined;
}
