import { randomUUID } from 'node:crypto';
import { ToolError } from '../execute/tool-error.js';
import type { InputProblem } from '../execute/types.js';
import { invalidInputError } from '../execute/validate-tool-input.js';
import { formatPointer } from '../format/json-pointer.js';
import type { FallbackExecute } from '../registry/fallback-tools.js';
import { errorMessage } from '../util/error-message.js';

const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/** An AI SDK tool as `tool({ inputSchema, execute })` makes it. */
export interface AiSdkTool {
  inputSchema?: unknown;
  execute: (input: unknown, options: Record<string, unknown>) => unknown;
}

type Parsed = { value: unknown } | { problems: InputProblem[] };

/**
 * A fallback tool's `execute` that runs an AI SDK tool's own `execute(input, options)` the way
 * the AI SDK runs it: the input (already valid against the tool's JSON Schema) is parsed with
 * the tool's schema first, so Zod defaults and transforms apply as before; the second argument
 * is `{ toolCallId, messages, abortSignal, experimental_context }` with a generated
 * `toolCallId` (handlers are not given the provider's call id), `messages: []` (toolcap has no
 * conversation) and the call's signal and context; a streaming `execute` (an async iterable)
 * gives its last value. Input the schema refuses (a Zod refinement JSON Schema cannot express)
 * is an `INVALID_INPUT` tool error naming each problem (keyword `schema`: the code's schema).
 */
export function runAiSdkTool(tool: AiSdkTool): FallbackExecute {
  return async (input, context, options) => {
    const parsed = await parseWithSchema(tool.inputSchema, input);
    if ('problems' in parsed) {
      const { code, message, details } = invalidInputError(options.toolName, parsed.problems);
      throw new ToolError(code, message, details);
    }
    const result = tool.execute(parsed.value, {
      toolCallId: `toolcap-${randomUUID()}`,
      messages: [],
      abortSignal: options.signal,
      experimental_context: context,
    });
    if (!isAsyncIterable(result)) return await result;
    let last: unknown;
    for await (const part of result) last = part;
    return last;
  };
}

/** The input as the tool's schema parses it (AI SDK `jsonSchema()`, Standard Schema, lazy). */
async function parseWithSchema(schema: unknown, input: unknown): Promise<Parsed> {
  const resolved = typeof schema === 'function' ? (schema as () => unknown)() : schema;
  if (resolved === null || typeof resolved !== 'object') return { value: input };
  const record = resolved as Record<string | symbol, unknown>;
  if (record[AI_SDK_SCHEMA] === true) {
    if (typeof record.validate !== 'function') return { value: input };
    const result = (await record.validate(input)) as
      | { success: true; value: unknown }
      | { success: false; error: unknown };
    return result.success
      ? { value: result.value }
      : { problems: [{ pointer: '', message: errorMessage(result.error), keyword: 'schema' }] };
  }
  const standard = record['~standard'] as { validate?: unknown } | undefined;
  if (typeof standard?.validate !== 'function') return { value: input };
  const result = (await standard.validate(input)) as {
    value?: unknown;
    issues?: readonly { message: string; path?: readonly unknown[] }[];
  };
  if (result.issues === undefined) return { value: result.value };
  return {
    problems: result.issues.map((issue) => {
      // a Standard Schema path holds keys or { key } segments
      const pointer = formatPointer(
        (issue.path ?? []).map((key) =>
          typeof key === 'object' && key !== null
            ? String((key as { key: unknown }).key)
            : String(key),
        ),
      );
      const where = pointer === '' ? 'input' : pointer;
      return { pointer, message: `${where}: ${issue.message}`, keyword: 'schema' };
    }),
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
  );
}
