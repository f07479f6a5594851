import { appendFileSync } from 'node:fs';
import { basename } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * Run counts for property-based tests. CI runs each property `ciRuns` times (kept small so the
 * whole reliability suite stays fast) from a fixed seed; `TOOLCAP_FUZZ_RUNS=N` (set by
 * `scripts/fuzz.mjs`) runs every property N times from new seeds instead, and
 * `TOOLCAP_FUZZ_SEED` replays a reported failure.
 */
export function fuzzRuns(ciRuns: number): number {
  const override = Number.parseInt(process.env.TOOLCAP_FUZZ_RUNS ?? '', 10);
  return Number.isSafeInteger(override) && override > 0 ? override : ciRuns;
}

/** The seed of every property under CI (`CI` set), unless `TOOLCAP_FUZZ_SEED` is given. */
const CI_SEED = 20_261_125;

/** Whether this is a large run (`TOOLCAP_FUZZ_RUNS` set): slow per-run bounds are relaxed. */
export const isLargeRun = process.env.TOOLCAP_FUZZ_RUNS !== undefined;

/**
 * Asserts `property` for the configured number of runs and records the count in the report
 * file named by `TOOLCAP_FUZZ_REPORT` (one JSON line per property), so the fuzz script can sum
 * what ran.
 */
export async function assertProperty<Ts>(
  name: string,
  property: fc.IRawProperty<Ts>,
  ciRuns: number,
  parameters: fc.Parameters<Ts> = {},
): Promise<void> {
  const numRuns = fuzzRuns(ciRuns);
  const given = Number.parseInt(process.env.TOOLCAP_FUZZ_SEED ?? '', 10);
  // CI replays one fixed sample, so a change is judged on the same inputs every time; local
  // runs and `npm run fuzz` draw new ones (and print the seed of any failure)
  const seed = Number.isSafeInteger(given)
    ? given
    : process.env.CI !== undefined && process.env.CI !== '' && !isLargeRun
      ? CI_SEED
      : Number.NaN;
  await fc.assert(property, {
    numRuns,
    ...(Number.isSafeInteger(seed) ? { seed } : {}),
    ...parameters,
  });
  const report = process.env.TOOLCAP_FUZZ_REPORT;
  if (report !== undefined && report !== '') {
    const file = basename(expect.getState().testPath ?? 'unknown');
    appendFileSync(report, `${JSON.stringify({ file, property: name, runs: numRuns })}\n`);
  }
}
