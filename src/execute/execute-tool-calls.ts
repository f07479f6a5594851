import { createApprovalGates } from './approval-gate.js';
import { checkExecuteContext, checkExecuteOptions } from './check-execute-options.js';
import type { ExecutionTarget } from './execution-target.js';
import { allowedNames, runToolCall } from './run-tool-call.js';
import { toolNotFound } from './tool-not-found.js';
import type { ExecuteOptions, ExecuteResult, ToolCallResult, ToolContext } from './types.js';

/** One call to run: the provider's id, the tool name and the arguments as sent. */
export interface ToolCallRequest {
  id: string;
  name: string;
  /** An object, or a JSON string (parsed first). */
  input: unknown;
}

/**
 * `registry.execute`: one call, as in `executeToolCalls`: an unknown name is `TOOL_NOT_FOUND`,
 * JSON-string input is parsed, and `allowed`, `applyDefaults` and `approve` apply. Options
 * that are unknown or malformed throw `INVALID_OPTION` (a host bug, not a tool error).
 */
export function executeToolCall(
  target: ExecutionTarget,
  name: string,
  input: unknown,
  context: ToolContext,
  options: ExecuteOptions,
): Promise<ExecuteResult> {
  checkExecuteOptions('execute', options);
  checkExecuteContext('execute', context);
  const tool = typeof name === 'string' ? target.get(name) : undefined;
  const allowed = allowedNames(options.allowed);
  if (tool === undefined) {
    return Promise.resolve({ ok: false, error: toolNotFound(target, name, allowed) });
  }
  const gates = createApprovalGates(options);
  return runToolCall(target, tool, input, context, options, allowed, gates?.(undefined));
}

/**
 * Runs a model's calls in parallel, each with its own time and size limits and the caller's
 * signal, and returns one result per call in the calls' order. Nothing throws: an unknown
 * name is `TOOL_NOT_FOUND`, a tool outside `allowed` is `NOT_SELECTED`, arguments that are not
 * JSON are `INVALID_INPUT`, a refused approval is `NOT_APPROVED`. The approval hook is asked
 * one call at a time, in the calls' order; approved calls start at once. The caller checks
 * `options` first (`checkExecuteOptions`), with the options of its own it adds.
 */
export function executeToolCalls(
  target: ExecutionTarget,
  calls: readonly ToolCallRequest[],
  context: ToolContext,
  options: ExecuteOptions,
): Promise<ToolCallResult[]> {
  const allowed = allowedNames(options.allowed);
  const gates = createApprovalGates(options);
  // each call runs synchronously up to its approval, so calls reach the approval queue in order
  return Promise.all(
    calls.map(async (call): Promise<ToolCallResult> => {
      const tool = typeof call.name === 'string' ? target.get(call.name) : undefined;
      if (tool === undefined) {
        return {
          id: call.id,
          name: call.name,
          ok: false,
          error: toolNotFound(target, call.name, allowed),
        };
      }
      const result = await runToolCall(
        target,
        tool,
        call.input,
        context,
        options,
        allowed,
        gates?.(call.id),
      );
      return result.ok
        ? { id: call.id, name: call.name, ok: true, output: result.output }
        : { id: call.id, name: call.name, ok: false, error: result.error };
    }),
  );
}
