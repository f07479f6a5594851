/**
 * The catalogue of `registry.execute` tool-error codes. Codes are stable (semver-minor safe);
 * docs/guide/execution.md lists each with its `details`, and a test keeps the two in step. Handlers
 * may add their own codes by throwing a `ToolError`.
 */
export const EXECUTE_ERROR_CODES = {
  TOOL_NOT_FOUND:
    'No tool has the called name (a model inventing a tool, or a typo); details.suggestions lists close names the caller may use, or the tool a prefixed name stands for (functions.NAME, default_api:NAME, mcp__SERVER__NAME), which is never run under the prefixed name.',
  NOT_SELECTED:
    "The tool exists but is not in the turn's allowed set (the allowed option); nothing was validated or run.",
  NOT_APPROVED:
    'The approval hook did not approve the call (it returned something other than true, or threw); the handler did not run.',
  INVALID_INPUT:
    'The input does not match the input_schema, is not JSON-serializable, or nests deeper than 512 levels; details lists { pointer, message, keyword } per problem, or { reason }.',
  INPUT_TOO_LARGE:
    'The input is larger than the input limit (maxInputBytes), in bytes of JSON; nothing was validated or run.',
  MISSING_CONTEXT:
    'A requires_context key is absent or null in the call context and in the services; details.missing lists them.',
  HANDLER_NOT_FOUND:
    'No handler module for the executor in handlerModules or the handler dirs (handlers/<executor>), or it exports no function for the tool; for a code-defined tool with no execute, the message says so.',
  HANDLER_LOAD_FAILED:
    'The handler module exists but could not be imported (syntax error, or TypeScript that is not built).',
  HANDLER_ERROR: 'The handler threw an exception (or rejected).',
  TIMEOUT:
    'The handler or external tool ran longer than its time limit: it was stopped, or it finished after the limit (it blocked the event loop) and its result was discarded.',
  ABORTED: "The caller's AbortSignal cancelled the call.",
  INVALID_OUTPUT:
    'The output does not match the output_schema, is not JSON-serializable, or an external tool printed something that is not JSON.',
  OUTPUT_TOO_LARGE: 'The output is larger than the output limit (maxOutputBytes).',
  EXTERNAL_TOOL_FAILED:
    'An external tool could not be started, exited with a non-zero status, or was killed by a signal.',
  SCHEMA_COMPILE_FAILED: 'The input_schema or output_schema could not be compiled by ajv.',
} as const;

/** A stable execute error code. */
export type ExecuteErrorCode = keyof typeof EXECUTE_ERROR_CODES;
