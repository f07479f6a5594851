import { resolve } from 'node:path';
import { type ExecutionLimitsInput, resolveExecutionLimits } from '../execute/execution-limits.js';
import type { RegistrySettings } from './registry.js';

/** The `loadRegistry` / `createRegistry` options that configure `execute`. */
export interface ExecutionOptions {
  /**
   * Values handed to every handler in `options.services`; a service also satisfies a
   * `requires_context` key the call context lacks (e.g. a `calendar_manager` instance).
   */
  services?: Readonly<Record<string, unknown>>;
  /** Where the bundled handlers keep their stores (relative to cwd). Default `.toolcap/data`. */
  dataDir?: string;
  /** Timeouts and output limits; see `DEFAULT_EXECUTION_LIMITS`. */
  executionLimits?: ExecutionLimitsInput;
}

/** The registry settings `options` describe. */
export function resolveExecutionSettings(
  options: ExecutionOptions,
  cwd: string,
): Pick<RegistrySettings, 'services' | 'dataDir' | 'executionLimits'> {
  return {
    services: new Map(Object.entries(options.services ?? {})),
    dataDir: resolve(cwd, options.dataDir ?? '.toolcap/data'),
    executionLimits: resolveExecutionLimits(options.executionLimits),
  };
}
