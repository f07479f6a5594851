import type { JsonValue } from '../format/types.js';

/** The context a host passes with a call (`user_id`, `workspace_root`, ...). */
export type ToolContext = Readonly<Record<string, unknown>>;

/** What a handler receives besides its input and context. */
export interface ToolHandlerOptions {
  /** Aborted when the call times out or the caller cancels it; long handlers should honour it. */
  signal: AbortSignal;
  /** The tool being called (useful for `execute(toolName, ...)` dispatchers). */
  toolName: string;
  /** Absolute directory where handlers keep their stores (`registry.settings.dataDir`). */
  dataDir: string;
  /** The services the host declared (`loadRegistry({ services })` plus per-call `services`). */
  services: Readonly<Record<string, unknown>>;
}

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

/** Options of `registry.execute`. */
export interface ExecuteOptions {
  /** Cancels the call; the result is an `ABORTED` tool error. */
  signal?: AbortSignal;
  /** Run-time limit in ms (`Infinity` for none). Default from `latency_estimate`. */
  timeoutMs?: number;
  /** Largest input, in bytes of JSON (`Infinity` for none). Default `executionLimits.maxInputBytes`. */
  maxInputBytes?: number;
  /** Largest output, in bytes of JSON. Default `executionLimits.maxOutputBytes`. */
  maxOutputBytes?: number;
  /** Services for this call only, merged over the registry's services. */
  services?: Readonly<Record<string, unknown>>;
}

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

/** The outcome of `registry.execute`: never thrown, except for an unknown tool name. */
export type ExecuteResult = { ok: true; output: JsonValue } | { ok: false; error: ToolCallError };
