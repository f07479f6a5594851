import type { LatencyEstimate } from '../format/types.js';
import type { ExternalEnvironmentOptions } from './external/external-environment.js';

/** Limits that protect the host from slow or noisy tools; each has a safe default. */
export interface ExecutionLimits {
  /**
   * Default run time per call by `latency_estimate`, in ms (`TIMEOUT` when hit). Defaults:
   * fast 5,000, medium 30,000, slow 120,000: 50x, 30x and 2 minutes past the estimate's bound,
   * so only a stuck call is cut off. `execute(..., { timeoutMs })` overrides per call.
   */
  timeoutsMs: Readonly<Record<LatencyEstimate, number>>;
  /**
   * Largest tool-call input, in bytes of its JSON (`INPUT_TOO_LARGE`, checked before
   * validation, so a huge model argument never reaches ajv or a handler). Default 1 MiB.
   */
  maxInputBytes: number;
  /**
   * Largest handler output (bytes of JSON) or external-tool stdout (`OUTPUT_TOO_LARGE`), and
   * the size tool errors are cut to (at least `MIN_ERROR_BYTES`). Default 1 MiB.
   */
  maxOutputBytes: number;
  /** Run time of one external tool's `--schema` answer during discovery. Default 5,000 ms. */
  discoveryTimeoutMs: number;
  /** Largest `--schema` answer, in bytes. Default 256 KiB. */
  maxSchemaBytes: number;
  /** External tools run at the same time during discovery. Default 8. */
  discoveryConcurrency: number;
  /**
   * The host variables external tools see: by default all of them (every secret of the
   * host); `{ allow: [...] }` passes only the basics (PATH, HOME, LANG, ...) and these names.
   */
  externalEnv?: ExternalEnvironmentOptions;
}

/** The defaults; see each field. */
export const DEFAULT_EXECUTION_LIMITS: Readonly<ExecutionLimits> = Object.freeze({
  timeoutsMs: Object.freeze({ fast: 5_000, medium: 30_000, slow: 120_000 }),
  maxInputBytes: 1024 * 1024,
  maxOutputBytes: 1024 * 1024,
  discoveryTimeoutMs: 5_000,
  maxSchemaBytes: 256 * 1024,
  discoveryConcurrency: 8,
});

/** Partial limits, as accepted by `loadRegistry({ executionLimits })`. */
export type ExecutionLimitsInput = Partial<Omit<ExecutionLimits, 'timeoutsMs'>> & {
  timeoutsMs?: Partial<Record<LatencyEstimate, number>>;
};

/** Fills unspecified limits with the defaults. */
export function resolveExecutionLimits(limits: ExecutionLimitsInput | undefined): ExecutionLimits {
  return {
    ...DEFAULT_EXECUTION_LIMITS,
    ...limits,
    timeoutsMs: { ...DEFAULT_EXECUTION_LIMITS.timeoutsMs, ...limits?.timeoutsMs },
  };
}
