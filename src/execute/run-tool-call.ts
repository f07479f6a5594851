import type { RegisteredTool } from '../format/types.js';
import { applySchemaDefaults } from '../json-schema/compile-schema.js';
import { removeNullOptionals } from '../json-schema/remove-null-optionals.js';
import { isPlainObject } from '../json-schema/schema-node.js';
import { boundToolError } from './bound-tool-error.js';
import { type CallGate, executeTool } from './execute-tool.js';
import { DEFAULT_EXECUTION_LIMITS } from './execution-limits.js';
import type { ExecutionTarget } from './execution-target.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import type { ExecuteOptions, ExecuteResult, ToolCallError, ToolContext } from './types.js';

/** Names shown in a `NOT_SELECTED` message before "and N more". */
const LISTED_NAMES = 20;

/** The names of `options.allowed`, or undefined when every tool is allowed. */
export function allowedNames(allowed: ExecuteOptions['allowed']): ReadonlySet<string> | undefined {
  if (allowed === undefined) return undefined;
  return new Set(Array.isArray(allowed) ? allowed : (allowed as { names: string[] }).names);
}

/**
 * One call to a known tool, after the checks `registry.execute` leaves to `executeTool`: the
 * tool must be in `allowed` (`NOT_SELECTED`), JSON-string arguments are parsed, and with
 * `applyDefaults` (the call's, else the registry's) the schema's defaults are filled into a copy
 * of the input. Then `executeTool`
 * validates, checks the context, passes `gate` (approval) and runs the handler. A failure is
 * bounded by `maxOutputBytes` like an output (`boundToolError`).
 */
export async function runToolCall(
  target: ExecutionTarget,
  tool: RegisteredTool,
  input: unknown,
  context: ToolContext,
  options: ExecuteOptions,
  allowed: ReadonlySet<string> | undefined,
  gate: CallGate | undefined,
): Promise<ExecuteResult> {
  const limits = target.settings.executionLimits ?? DEFAULT_EXECUTION_LIMITS;
  const result = await runChecked(target, tool, input, context, options, allowed, gate);
  if (result.ok) return result;
  const error = boundToolError(result.error, options.maxOutputBytes ?? limits.maxOutputBytes);
  return error === result.error ? result : { ok: false, error };
}

function runChecked(
  target: ExecutionTarget,
  tool: RegisteredTool,
  input: unknown,
  context: ToolContext,
  options: ExecuteOptions,
  allowed: ReadonlySet<string> | undefined,
  gate: CallGate | undefined,
): Promise<ExecuteResult> {
  if (allowed !== undefined && !allowed.has(tool.name)) {
    return Promise.resolve({ ok: false, error: notSelected(tool.name, allowed) });
  }
  const limits = target.settings.executionLimits ?? DEFAULT_EXECUTION_LIMITS;
  const maxInputBytes = options.maxInputBytes ?? limits.maxInputBytes;
  const parsed = parseToolArguments(tool.name, input, maxInputBytes);
  if (!parsed.ok) return Promise.resolve(parsed);
  const applyDefaults = options.applyDefaults ?? target.settings.applyDefaults;
  const value =
    applyDefaults === true ? withDefaults(tool, parsed.input, maxInputBytes) : parsed.input;
  return executeTool(target, tool.name, value, context, options, gate);
}

function notSelected(name: string, allowed: ReadonlySet<string>): ToolCallError {
  const names = [...allowed];
  const listed = names.slice(0, LISTED_NAMES).join(', ');
  const more = names.length > LISTED_NAMES ? `, and ${names.length - LISTED_NAMES} more` : '';
  const offer =
    names.length === 0
      ? 'No tools are available now.'
      : `The tools you can call now: ${listed}${more}.`;
  return {
    code: 'NOT_SELECTED',
    message: `Tool "${name}" is not available in this turn, so it did not run. ${offer}`,
    details: { tool: name, allowed: names },
  };
}

/**
 * A copy of `input` (through JSON) with the nulls of left-out optional parameters removed and
 * the schema's defaults filled in; `input` itself when it is not a plain JSON object, is too
 * large, or the schema does not compile (validation then reports the problem).
 */
function withDefaults(tool: RegisteredTool, input: unknown, maxInputBytes: number): unknown {
  if (!isPlainObject(input)) return input;
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch {
    return input;
  }
  if (json === undefined || json.length > maxInputBytes) return input;
  const copy = removeNullOptionals(tool.input_schema, JSON.parse(json) as unknown);
  try {
    applySchemaDefaults(tool.input_schema, copy);
  } catch {
    return input;
  }
  return copy;
}
