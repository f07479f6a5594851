import { checkExecuteOptions } from '../execute/check-execute-options.js';
import type { ExecuteOptions, ToolContext } from '../execute/types.js';
import { isFunction, isObject, type OptionCheck, type OptionSpec } from '../util/check-options.js';
import { errorMessage } from '../util/error-message.js';

/** What every adapter's tool factory takes. */
export interface AdapterToolOptions {
  /** Names of the tools to expose, in that order. Default: every tool, in catalog order. */
  tools?: readonly string[];
  /**
   * The context every call runs with (`user_id`, `workspace_root`, ...). Default: the
   * framework's per-run context object (see each adapter), else `{}`.
   */
  context?: ToolContext;
  /**
   * Options for each `registry.execute` call (timeouts, services, ...). The framework's abort
   * signal is added as `signal` (combined with one given here).
   */
  executeOptions?: ExecuteOptions;
}

const isNameList: OptionCheck = (value) =>
  Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? undefined
    : 'an array of tool names';

/** The checks of `AdapterToolOptions`. */
export const ADAPTER_TOOL_OPTIONS: OptionSpec = {
  tools: isNameList,
  context: isObject,
  // checked with execute's own rules now, so a typo fails when the tools are built
  executeOptions: (value) => {
    if (isObject(value) !== undefined) return 'an object of execute options';
    try {
      checkExecuteOptions('executeOptions', value);
      return undefined;
    } catch (error) {
      return { problem: `is wrong: ${errorMessage(error).replace(/^executeOptions: /, '')}` };
    }
  },
};

/** The checks of an adapter's `needsApproval` option. */
export const NEEDS_APPROVAL_OPTION: OptionSpec = { needsApproval: isFunction };

/**
 * The context of one call: the adapter's `context` option, else the framework's per-run value
 * when it is a plain object, else `{}`.
 */
export function callContext(
  option: ToolContext | undefined,
  frameworkContext: unknown,
): ToolContext {
  if (option !== undefined) return option;
  return isObject(frameworkContext) === undefined ? (frameworkContext as ToolContext) : {};
}

/** `executeOptions` with the framework's abort signal for this call. */
export function callOptions(
  options: ExecuteOptions | undefined,
  signal: AbortSignal | undefined,
): ExecuteOptions {
  if (signal === undefined) return options ?? {};
  const own = options?.signal;
  return { ...options, signal: own === undefined ? signal : AbortSignal.any([own, signal]) };
}
