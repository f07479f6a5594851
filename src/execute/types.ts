import type { JsonValue, RegisteredTool, ToolHandlerOptions } from '../format/types.js';

export type { ToolHandlerOptions } from '../format/types.js';

/** The context a host passes with a call (`user_id`, `workspace_root`, ...). */
export type ToolContext = Readonly<Record<string, unknown>>;

/** One tool's implementation: `handlers/<executor>` exports one per tool name. */
export type ToolHandler = (
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
) => unknown;

/** A handler module's catch-all: `export function execute(toolName, input, context, options)`. */
export type ToolDispatcher = (
  toolName: string,
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
) => unknown;

/**
 * Options of `registry.execute`. An unknown option or a malformed value (a limit that is not a
 * positive number, `allowed` that is not a list of names) throws `INVALID_OPTION`.
 */
export interface ExecuteOptions {
  /** Cancels the call; the result is an `ABORTED` tool error. */
  signal?: AbortSignal;
  /** Run-time limit in ms (`Infinity` for none). Default from `latency_estimate`. */
  timeoutMs?: number;
  /** Largest input, in bytes of JSON (`Infinity` for none). Default `executionLimits.maxInputBytes`. */
  maxInputBytes?: number;
  /** Largest output, in bytes of JSON (`Infinity` for none). Default `executionLimits.maxOutputBytes`. */
  maxOutputBytes?: number;
  /** Services for this call only, merged over the registry's services. */
  services?: Readonly<Record<string, unknown>>;
  /**
   * The tools this turn offered: a `Selection` (its `names`) or a list of names. A call to any
   * other tool is refused with `NOT_SELECTED` before anything else runs. Default: every tool.
   */
  allowed?: readonly string[] | { readonly names: readonly string[] };
  /**
   * Asked before a gated tool runs (see `needsApproval`), after its input is valid and its
   * context present; only `true` lets it run, anything else (or a throw) is `NOT_APPROVED`.
   * `executeToolCalls` asks one call at a time, in the order the model made them.
   */
  approve?: ApproveToolCall;
  /**
   * Which tools `approve` is asked about: `true` every tool, or a test. Default: tools of
   * category `mutation` and tools annotated `destructiveHint: true`.
   */
  needsApproval?: boolean | ((tool: RegisteredTool) => boolean);
  /**
   * Fill in the input schema's `default`s for parameters the call left out (and the `null`s
   * OpenAI strict mode sends for them) before validation, so the handler sees them. The
   * caller's input is never changed. Default: the registry's `applyDefaults` option, else false.
   */
  applyDefaults?: boolean;
}

/** A tool call as the approval hook sees it: input parsed, validated, defaults applied. */
export interface ToolCall {
  /** The provider's call id; absent for `registry.execute`. */
  id?: string;
  name: string;
  input: Record<string, unknown>;
}

/** The approval hook: `true` runs the call; anything else refuses it with `NOT_APPROVED`. */
export type ApproveToolCall = (call: ToolCall, tool: RegisteredTool) => boolean | Promise<boolean>;

/** One reason an input failed its schema. */
export interface InputProblem {
  /** JSON Pointer into the input (`""` for the whole input). */
  pointer: string;
  /** What is wrong, naming the field and what it should be. */
  message: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`, ...). */
  keyword: string;
}

/** A failed call as data the agent can show the model. */
export interface ToolCallError {
  /** Stable code: one of `EXECUTE_ERROR_CODES`, or a handler's own `ToolError` code. */
  code: string;
  /** What went wrong and how to fix the call. */
  message: string;
  /** Machine-readable particulars; for `INVALID_INPUT` an array of `InputProblem`. */
  details: JsonValue;
}

/** The outcome of `registry.execute`: a failed call is a result, never thrown. */
export type ExecuteResult = { ok: true; output: JsonValue } | { ok: false; error: ToolCallError };

/** One call's outcome in `registry.executeToolCalls`, with the provider's call id. */
export type ToolCallResult =
  | { id: string; name: string; ok: true; output: JsonValue }
  | { id: string; name: string; ok: false; error: ToolCallError };
