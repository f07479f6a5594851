import { ToolcapError } from '../errors/toolcap-error.js';
import {
  checkOptions,
  describeValue,
  isBoolean,
  isFunction,
  isObject,
  type OptionCheck,
  type OptionSpec,
} from '../util/check-options.js';

const isLimit =
  (unit: string): OptionCheck =>
  (value) =>
    typeof value === 'number' && value > 0
      ? undefined
      : `a positive number of ${unit} (Infinity for no limit)`;

const isNames = (value: unknown): boolean =>
  Array.isArray(value) && value.every((name) => typeof name === 'string');

const isAllowed: OptionCheck = (value) => {
  if (isNames(value)) return undefined;
  const names = isObject(value) === undefined ? (value as { names?: unknown }).names : undefined;
  return isNames(names)
    ? undefined
    : 'an array of tool names or a Selection (an object whose names is an array of tool names)';
};

// AbortSignal.any and the MCP SDK hand out real signals, but a polyfilled one works as well
const isSignal: OptionCheck = (value) => {
  const signal = value as { aborted?: unknown; addEventListener?: unknown } | null;
  return typeof signal === 'object' &&
    signal !== null &&
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function'
    ? undefined
    : 'an AbortSignal';
};

const isNeedsApproval: OptionCheck = (value) =>
  typeof value === 'boolean' || typeof value === 'function'
    ? undefined
    : 'true, false or a function (tool) => boolean';

/** The checks of `ExecuteOptions`, by option name. */
export const EXECUTE_OPTIONS: OptionSpec = {
  timeoutMs: isLimit('milliseconds'),
  signal: isSignal,
  maxInputBytes: isLimit('bytes'),
  maxOutputBytes: isLimit('bytes'),
  services: isObject,
  allowed: isAllowed,
  approve: isFunction,
  needsApproval: isNeedsApproval,
  applyDefaults: isBoolean,
};

/**
 * Checks the options of one `execute` (or `executeToolCalls`, with its own `extra` options)
 * call and throws a `ToolcapError` `INVALID_OPTION` naming the first unknown or malformed one:
 * a bad option is a bug in the host, not something the model can fix, so it is thrown rather
 * than returned as a tool error.
 */
export function checkExecuteOptions(
  caller: string,
  options: unknown,
  extra: OptionSpec = {},
): void {
  checkOptions(caller, options, { ...EXECUTE_OPTIONS, ...extra });
}

/**
 * Checks the `context` of one `execute` or `executeToolCalls` call and throws a `ToolcapError`
 * `INVALID_OPTION` when it is not an object of context values: a string or an array there is a
 * host bug that would otherwise read as "no context" and fail every call that needs a key.
 */
export function checkExecuteContext(caller: string, context: unknown): void {
  if (context === undefined) return;
  if (context === null || typeof context !== 'object' || Array.isArray(context)) {
    throw new ToolcapError(
      'INVALID_OPTION',
      `${caller}: context must be an object of context values, such as { user_id: "u1" } (or {} for none), got ${describeValue(context)}`,
    );
  }
}
