import type { RegisteredTool } from '../format/types.js';
import type { FallbackExecute } from '../registry/fallback-tools.js';
import type { ExecutionLimits } from './execution-limits.js';
import type { HandlerModule } from './load-handler.js';

/** What `execute` needs to know about where tools run. */
export interface ExecutionSettings {
  /** Directories searched for `handlers/<executor>` modules, absolute. */
  handlerDirs: readonly string[];
  /** Handler modules given in memory, by executor; they win over the handler dirs. */
  handlerModules?: ReadonlyMap<string, HandlerModule>;
  /** Implementations of code-defined (fallback) tools, by tool name. */
  fallbackImplementations: ReadonlyMap<string, FallbackExecute>;
  /** Values handed to handlers beyond the call context; also satisfy `requires_context` keys. */
  services?: ReadonlyMap<string, unknown>;
  /** Absolute directory for the handlers' stores. Default `<cwd>/.toolcap/data`. */
  dataDir?: string;
  /** Timeouts and size limits of `execute`; see `DEFAULT_EXECUTION_LIMITS`. */
  executionLimits?: ExecutionLimits;
  /** The default of the calls' `applyDefaults` option. Default false. */
  applyDefaults?: boolean;
}

/** The tools a call may name and the settings they run with: what a registry hands `execute`. */
export interface ExecutionTarget {
  /** The tool named `name`, or undefined (a `Map` lookup: safe for model-supplied names). */
  get(name: string): RegisteredTool | undefined;
  /** Every tool, for "did you mean" suggestions. */
  list(): readonly RegisteredTool[];
  readonly settings: ExecutionSettings;
}
