import type { Warning } from '../format/types.js';
import type { Candidates } from './candidates.js';
import type { ResolvedSelectOptions } from './resolve-select-options.js';
import type { SelectionIndex } from './selection-index.js';
import type { SemanticTurn } from './semantic-index.js';
import type { TurnReading } from './stages/read-turn.js';
import type { DroppedTool } from './types.js';

export {
  ALWAYS,
  Candidates,
  CONTEXT,
  type Evidence,
  evidenceWithoutKinds,
  FALLBACK,
  HISTORY,
  KEYWORD,
  NO_MATCHES,
  RELEVANCE,
  STRATEGY_OF_STRATUM,
  type Stratum,
} from './candidates.js';

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
  /**
   * With the `relevance` option and `explain`: the tools `relevance` ranked, best first, as it
   * walked them to fill `k` (kept for explaining the tools it left out).
   */
  relevanceRanking?: readonly RelevanceRanked[];
}

/** A tool `relevance` ranked: its score with the boosts, and the score `minScore` gates. */
export interface RelevanceRanked {
  doc: number;
  score: number;
  gate: number;
}
