import { resolve } from 'node:path';
import type { JsonValue, RegisteredTool } from '../format/types.js';
import { errorIdentity, errorMessage } from '../util/error-message.js';
import { codeToolWithoutHandler } from './code-tool-without-handler.js';
import { DEFAULT_EXECUTION_LIMITS, type ExecutionLimits } from './execution-limits.js';
import type { ExecutionTarget } from './execution-target.js';
import { runExternalTool } from './external/run-external-tool.js';
import { MAX_INPUT_DEPTH, nestsDeeperThan } from './input-depth.js';
import { resolveHandler } from './load-handler.js';
import { collectServices, contextValue, missingContextKeys } from './missing-context-keys.js';
import { runWithDeadline } from './run-with-deadline.js';
import { ToolError, toErrorCode } from './tool-error.js';
import { toolNotFound } from './tool-not-found.js';
import type {
  ExecuteOptions,
  ExecuteResult,
  ToolCallError,
  ToolContext,
  ToolHandlerOptions,
} from './types.js';
import { compileOrError, validateToolInput } from './validate-tool-input.js';

/**
 * A last check before the handler runs, given the valid input (`approve` uses it): a
 * `ToolCallError` refuses the call.
 */
export type CallGate = (
  tool: RegisteredTool,
  input: Record<string, unknown>,
) => Promise<ToolCallError | undefined>;

/** The data dir used when a registry sets none: `.toolcap/data` under the current directory. */
export const DEFAULT_DATA_DIR = '.toolcap/data';

/**
 * `registry.execute`: the six steps of a tool call. (1) An unknown name is a `TOOL_NOT_FOUND`
 * tool error; (2) the input is validated (nulls for optional parameters dropped);
 * (3) `requires_context` keys are checked and only they reach the handler; (4) the handler runs
 * with a timeout and an AbortSignal; (5) the output is checked against `output_schema`;
 * (6) every failure after (1) is returned as `{ ok: false, error }`, never thrown.
 */
export async function executeTool(
  registry: ExecutionTarget,
  name: string,
  input: unknown,
  context: ToolContext,
  options: ExecuteOptions,
  gate?: CallGate,
): Promise<ExecuteResult> {
  const tool = typeof name === 'string' ? registry.get(name) : undefined;
  if (tool === undefined) return { ok: false, error: toolNotFound(registry, name, undefined) };
  const { settings } = registry;
  const limits = settings.executionLimits ?? DEFAULT_EXECUTION_LIMITS;
  const sizeProblem = checkInputSize(tool, input, options.maxInputBytes ?? limits.maxInputBytes);
  if (sizeProblem !== undefined) return sizeProblem;
  const validation = validateToolInput(tool, input);
  if (!validation.ok) return validation;

  const services = collectServices(settings.services, options.services);
  const handlerContext = pickContext(tool, context, services);
  if ('code' in handlerContext) return { ok: false, error: handlerContext };
  const refusal = gate === undefined ? undefined : await gate(tool, validation.input);
  if (refusal !== undefined) return { ok: false, error: refusal };

  const timeoutMs = chooseTimeout(tool, options, limits);
  const maxOutputBytes = options.maxOutputBytes ?? limits.maxOutputBytes;
  const dataDir = settings.dataDir ?? resolve(DEFAULT_DATA_DIR);

  const outcome = await runWithDeadline(
    (signal) =>
      invoke(
        registry,
        tool,
        validation.input,
        handlerContext.context,
        {
          signal,
          toolName: tool.name,
          dataDir,
          services: Object.freeze(Object.fromEntries(services)),
        },
        maxOutputBytes,
      ),
    timeoutMs,
    options.signal,
  );
  switch (outcome.kind) {
    case 'timeout':
      return failure(
        'TIMEOUT',
        outcome.late
          ? `Tool "${tool.name}" finished after its ${timeoutMs} ms time limit (its handler kept the event loop busy, so it could not be stopped in time); its result was discarded. Try a smaller request or try again later.`
          : `Tool "${tool.name}" did not finish within ${timeoutMs} ms and was stopped. Try a smaller request or try again later.`,
        outcome.late ? { timeout_ms: timeoutMs, finished_late: true } : { timeout_ms: timeoutMs },
      );
    case 'aborted':
      return failure('ABORTED', `The call to tool "${tool.name}" was cancelled.`, {
        reason: describeReason(outcome.reason),
      });
    case 'error':
      return handlerFailure(tool, outcome.error);
    case 'ok':
      if ('error' in outcome.value) return { ok: false, error: outcome.value.error };
      return finishOutput(tool, outcome.value.output, maxOutputBytes);
  }
}

type InvokeResult = { output: unknown } | { error: ToolCallError };

async function invoke(
  registry: ExecutionTarget,
  tool: RegisteredTool,
  input: Record<string, unknown>,
  context: ToolContext,
  handlerOptions: ToolHandlerOptions,
  maxOutputBytes: number,
): Promise<InvokeResult> {
  const fallback = registry.settings.fallbackImplementations.get(tool.name);
  if (fallback !== undefined) {
    return { output: await fallback(input, context, handlerOptions) };
  }
  if (tool.command !== undefined) {
    return runExternalTool(tool, tool.command, input, {
      signal: handlerOptions.signal,
      maxOutputBytes,
      externalEnv: registry.settings.executionLimits?.externalEnv,
    });
  }
  const handler = await resolveHandler(
    registry.settings.handlerDirs,
    tool.metadata.executor,
    tool.name,
    registry.settings.handlerModules,
  );
  if ('code' in handler) {
    // a code tool nothing can run: no module was found at all (not a module lacking the tool)
    const missingModule =
      tool.source === 'fallback' &&
      handler.code === 'HANDLER_NOT_FOUND' &&
      !Object.hasOwn(handler.details as object, 'file') &&
      !Object.hasOwn(handler.details as object, 'refused');
    return { error: missingModule ? codeToolWithoutHandler(tool, handler) : handler };
  }
  const output =
    handler.kind === 'tool'
      ? await handler.handler(input, context, handlerOptions)
      : await handler.handler(tool.name, input, context, handlerOptions);
  return { output };
}

function pickContext(
  tool: RegisteredTool,
  context: ToolContext,
  services: ReadonlyMap<string, unknown>,
): { context: ToolContext } | ToolCallError {
  const missing = missingContextKeys(tool, context, services);
  if (missing.length > 0) {
    return {
      code: 'MISSING_CONTEXT',
      message: `Tool "${tool.name}" needs the context key${missing.length > 1 ? 's' : ''} ${missing.map((key) => `"${key}"`).join(', ')}, which the host did not provide. This is a setup problem, not a problem with the arguments: the host must pass ${missing.join(', ')} in the call context.`,
      details: { missing, required: [...tool.metadata.requires_context] },
    };
  }
  const entries = tool.metadata.requires_context.map((key): [string, unknown] => [
    key,
    contextValue(key, context, services),
  ]);
  // fromEntries defines own properties, so a key such as "__proto__" stays a plain key
  return { context: Object.freeze(Object.fromEntries(entries)) };
}

function chooseTimeout(
  tool: RegisteredTool,
  options: ExecuteOptions,
  limits: ExecutionLimits,
): number {
  return options.timeoutMs ?? limits.timeoutsMs[tool.metadata.latency_estimate];
}

function handlerFailure(tool: RegisteredTool, error: unknown): ExecuteResult {
  // a handler may throw anything, even a proxy whose every trap throws: nothing here may throw
  const toolError = readToolError(error);
  if (toolError !== undefined) return failure(toolError.code, toolError.message, toolError.details);
  const message = errorMessage(error);
  const { name, code } = errorIdentity(error);
  const details: Record<string, JsonValue> = { name };
  if (code !== undefined) details.error_code = code;
  return failure(
    'HANDLER_ERROR',
    `Tool "${tool.name}" failed: ${message === '' ? 'the handler threw an error without a message' : message}`,
    details,
  );
}

function readToolError(
  error: unknown,
): { code: string; message: string; details: JsonValue } | undefined {
  try {
    if (!ToolError.isInstance(error)) return undefined;
    const { code, message } = error;
    if (typeof code !== 'string' || typeof message !== 'string') return undefined;
    // another copy's code may predate the conversion: convert it here as well
    const converted = toErrorCode(code);
    const details = toJsonDetails(error.details);
    const given = typeof error.givenCode === 'string' ? error.givenCode : code;
    // a code that is no code ("404-missing") is HANDLER_ERROR; the caller still sees what it was
    if (
      converted === 'HANDLER_ERROR' &&
      given.trim() !== '' &&
      given !== converted &&
      typeof details === 'object' &&
      details !== null &&
      !Array.isArray(details) &&
      !Object.hasOwn(details, 'error_code')
    ) {
      return { code: converted, message, details: { ...details, error_code: given } };
    }
    return { code: converted, message, details };
  } catch {
    return undefined;
  }
}

function finishOutput(tool: RegisteredTool, raw: unknown, maxOutputBytes: number): ExecuteResult {
  let json: string | undefined;
  try {
    json = JSON.stringify(raw === undefined ? null : raw);
  } catch (error) {
    const reason = errorMessage(error);
    return failure(
      'INVALID_OUTPUT',
      `Tool "${tool.name}" returned a value that is not JSON-serializable (${reason}).`,
      { reason },
    );
  }
  if (json === undefined) {
    return failure(
      'INVALID_OUTPUT',
      `Tool "${tool.name}" returned a ${typeof raw}, which is not JSON-serializable.`,
      { reason: typeof raw },
    );
  }
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > maxOutputBytes) {
    return failure(
      'OUTPUT_TOO_LARGE',
      `Tool "${tool.name}" returned ${bytes} bytes of output, more than the ${maxOutputBytes}-byte limit (maxOutputBytes). Ask for less data (e.g. a smaller limit or range).`,
      { bytes, limit: maxOutputBytes },
    );
  }
  // a round trip through JSON hands the caller plain data: no Dates, Maps, getters or prototypes
  const output = JSON.parse(json) as JsonValue;
  if (tool.output_schema !== undefined) {
    const validate = compileOrError(tool, tool.output_schema, 'output_schema');
    if (typeof validate !== 'function') return validate;
    const result = validate(output, 'output');
    if (!result.valid) {
      const problems = result.issues.map((issue) => ({
        pointer: issue.pointer,
        message: issue.message,
        keyword: issue.keyword,
      }));
      return failure(
        'INVALID_OUTPUT',
        // each message already names its field ("output must be object", "/count must be ...")
        `Tool "${tool.name}" returned output that does not match its output_schema: ${problems
          .slice(0, 5)
          .map((problem) => problem.message)
          .join('; ')}. This is a bug in the tool's handler, not in the call.`,
        problems,
      );
    }
  }
  return { ok: true, output };
}

function toJsonDetails(details: unknown): JsonValue {
  try {
    const json = JSON.stringify(details);
    return json === undefined ? {} : (JSON.parse(json) as JsonValue);
  } catch {
    return {};
  }
}

function describeReason(reason: unknown): string {
  return reason === undefined ? 'aborted' : errorMessage(reason);
}

/**
 * `INVALID_INPUT` when the input nests deeper than `MAX_INPUT_DEPTH` (checked first: deeper
 * input would exhaust the stack of the JSON check itself), `INPUT_TOO_LARGE` when its JSON is
 * over `maxInputBytes` (UTF-8 bytes), and `INVALID_INPUT` when it has no JSON form (a BigInt, a
 * cycle); model input always does.
 */
function checkInputSize(
  tool: RegisteredTool,
  input: unknown,
  maxInputBytes: number,
): ExecuteResult | undefined {
  if (nestsDeeperThan(input, MAX_INPUT_DEPTH)) {
    const reason = `the arguments nest deeper than ${MAX_INPUT_DEPTH} levels`;
    return failure(
      'INVALID_INPUT',
      `The input for tool "${tool.name}" is refused: ${reason} of objects and arrays inside each other. Send flatter arguments.`,
      { reason },
    );
  }
  if (maxInputBytes === Number.POSITIVE_INFINITY || input === undefined || input === null) {
    return undefined;
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch (error) {
    // V8's cycle message continues with a path drawing on more lines; the first one says it
    const reason = errorMessage(error).split('\n')[0]!;
    return failure(
      'INVALID_INPUT',
      `The input for tool "${tool.name}" is not JSON-serializable (${reason}); pass plain JSON values (objects, arrays, strings, numbers, booleans, null).`,
      { reason },
    );
  }
  // a string of n characters takes at most 3n bytes of UTF-8: measure only near the limit
  if (json === undefined || json.length * 3 <= maxInputBytes) return undefined;
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes <= maxInputBytes) return undefined;
  return failure(
    'INPUT_TOO_LARGE',
    `The input for tool "${tool.name}" is ${bytes} bytes of JSON, more than the ${maxInputBytes}-byte limit (executionLimits.maxInputBytes). Send a shorter input, e.g. split the content over several calls.`,
    { bytes, limit: maxInputBytes },
  );
}

function failure(code: string, message: string, details: JsonValue): ExecuteResult {
  return { ok: false, error: { code, message, details } };
}
