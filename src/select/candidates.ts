import type { SelectionStrategyName, TypoMatch } from './types.js';

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
  /** The query words of `matched` (a reason's `matched_words`). */
  words: readonly string[];
  /** The group keywords of `matched` (`matched_keywords`). */
  keywords: readonly string[];
  /** The tools called in the history of `matched` (`matched_history`). */
  calledTools: readonly string[];
  /** The group's best tool, which raised this relevance tool (`raised_by`). */
  raisedBy: string | undefined;
}

/** An empty list of matches, shared. */
export const NO_MATCHES: readonly string[] = Object.freeze([]);

/** Evidence that only lists `matched` (always and context tools), of no kind the reason splits. */
export function evidenceWithoutKinds(matched: readonly string[]): Evidence {
  return {
    matched,
    typos: undefined,
    words: NO_MATCHES,
    keywords: NO_MATCHES,
    calledTools: NO_MATCHES,
    raisedBy: undefined,
  };
}

/** Slots a candidate list holds before it first grows. */
const INITIAL_CAPACITY = 256;

/**
 * The candidate tools of a turn, as parallel arrays indexed by slot (no object per candidate:
 * a large catalog's turn has a hundred or more). Stages pass slots around. A selection index
 * lends one list to each turn and takes it back, so a turn allocates no arrays for it.
 */
export class Candidates {
  /** Catalog position of each candidate. */
  tools = new Int32Array(INITIAL_CAPACITY);
  strata = new Uint8Array(INITIAL_CAPACITY);
  /** What brought it in; one object shared by the candidates of a group. */
  readonly evidence: Evidence[] = [];
  /**
   * Relevance to the turn: the BM25F score over the query's maximum (0-1; with `relevance`,
   * plus the history boost); NaN in the strata that are not ranked.
   */
  scores = new Float64Array(INITIAL_CAPACITY);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** Empties the list for another turn; its arrays are kept (a selection index reuses one). */
  clear(): this {
    this.#count = 0;
    return this;
  }

  /** Adds `tools` with one stratum, evidence and score. */
  add(tools: readonly number[], stratum: Stratum, evidence: Evidence, score: number): void {
    if (this.#count + tools.length > this.tools.length) this.#grow(this.#count + tools.length);
    for (const tool of tools) {
      const slot = this.#count++;
      this.tools[slot] = tool;
      this.strata[slot] = stratum;
      this.evidence[slot] = evidence;
      this.scores[slot] = score;
    }
  }

  /** Higher score first, then catalog order: the order within ranked strata. */
  compare(a: number, b: number): number {
    return this.scores[b]! - this.scores[a]! || this.tools[a]! - this.tools[b]!;
  }

  #grow(needed: number): void {
    const capacity = Math.max(needed, this.tools.length * 2);
    const tools = new Int32Array(capacity);
    tools.set(this.tools);
    this.tools = tools;
    const strata = new Uint8Array(capacity);
    strata.set(this.strata);
    this.strata = strata;
    const scores = new Float64Array(capacity);
    scores.set(this.scores);
    this.scores = scores;
  }
}
