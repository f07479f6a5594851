import type { TypoMatch } from './types.js';

/** What brought candidates in: shared by the tools of one group. */
export interface Evidence {
  matched: readonly string[];
  typos: readonly TypoMatch[] | undefined;
  /** A frozen copy of `matched` for new reasons, made once for all the group's tools. */
  frozenMatched: readonly string[] | undefined;
}

/**
 * The candidates of one turn, as parallel typed arrays (one entry per tool, no objects), reused
 * from turn to turn (grown by doubling). `count` entries are valid.
 */
export class Candidates {
  count = 0;
  tools = new Int32Array(256);
  strata = new Uint8Array(256);
  /** Index into `evidence`. */
  evidenceOf = new Int32Array(256);
  evidence: Evidence[] = [];
  /** Raw relevance; NaN when the stratum is not ranked. */
  raw = new Float64Array(256);
  /**
   * Catalog ranges (`[start, end)` pairs) of the ranked candidates (keyword and history), in
   * slot order: their tools are exactly the ranked slots.
   */
  ranges: number[] = [];

  reset(): void {
    this.count = 0;
    this.evidence.length = 0;
    this.ranges.length = 0;
  }

  reserve(extra: number): void {
    const needed = this.count + extra;
    if (needed <= this.tools.length) return;
    const size = Math.max(needed, this.tools.length * 2);
    const grow = <T extends Int32Array | Uint8Array | Float64Array>(array: T, fresh: T): T => {
      fresh.set(array.subarray(0, this.count));
      return fresh;
    };
    this.tools = grow(this.tools, new Int32Array(size));
    this.strata = grow(this.strata, new Uint8Array(size));
    this.evidenceOf = grow(this.evidenceOf, new Int32Array(size));
    this.raw = grow(this.raw, new Float64Array(size));
  }
}
