import { basename } from 'node:path';
import type { JsonSchema, RegisteredTool } from '../format/types.js';
import { type CompiledSchema, compileSchema } from '../json-schema/compile-schema.js';
import { removeNullOptionals } from '../json-schema/remove-null-optionals.js';
import { errorMessage } from '../util/error-message.js';
import type { InputProblem, ToolCallError } from './types.js';

/** The outcome of `validateToolInput`. */
export type InputValidation =
  | { ok: true; input: Record<string, unknown> }
  | { ok: false; error: ToolCallError };

/**
 * Validates a model's arguments against the tool's `input_schema` (compiled once per tool, on
 * first use), or against `schema` when the tool is served with another one (an upstream MCP
 * tool with its server's schema). `undefined` and `null` count as `{}`. When the input fails and
 * contains `null`s sent for optional parameters (OpenAI strict mode sends them for every omitted
 * field), those are removed and the input is validated again; a `null` the schema allows is kept.
 */
export function validateToolInput(
  tool: RegisteredTool,
  input: unknown,
  schema: JsonSchema = tool.input_schema,
): InputValidation {
  const value = input ?? {};
  let validate: CompiledSchema;
  try {
    validate = compileSchema(schema);
  } catch (error) {
    return compileFailure(tool, 'input_schema', error);
  }
  const first = validate(value);
  if (first.valid) return { ok: true, input: value as Record<string, unknown> };
  let result = first;
  const stripped = removeNullOptionals(schema, value);
  if (stripped !== value) {
    const second = validate(stripped);
    if (second.valid) return { ok: true, input: stripped as Record<string, unknown> };
    result = second;
  }
  const problems: InputProblem[] = result.issues.map((issue) => ({
    pointer: issue.pointer,
    message: issue.message,
    keyword: issue.keyword,
  }));
  return { ok: false, error: invalidInputError(tool.name, problems) };
}

/** The `INVALID_INPUT` error of a call of `toolName` whose arguments have these problems. */
export function invalidInputError(
  toolName: string,
  problems: readonly InputProblem[],
): ToolCallError {
  // each message already names its field ("/title must be string", "missing required property")
  const listed = problems.slice(0, 10).map((problem) => problem.message);
  const more =
    problems.length > listed.length ? `; and ${problems.length - listed.length} more` : '';
  return {
    code: 'INVALID_INPUT',
    message: `Invalid input for tool "${toolName}": ${listed.join('; ')}${more}. Fix these arguments and call the tool again.`,
    details: problems.map((problem) => ({ ...problem })),
  };
}

/** Compiles a tool's schema, or describes why it cannot be compiled. */
export function compileOrError(
  tool: RegisteredTool,
  schema: JsonSchema,
  field: 'input_schema' | 'output_schema',
): CompiledSchema | { ok: false; error: ToolCallError } {
  try {
    return compileSchema(schema);
  } catch (error) {
    return compileFailure(tool, field, error);
  }
}

function compileFailure(
  tool: RegisteredTool,
  field: 'input_schema' | 'output_schema',
  error: unknown,
): { ok: false; error: ToolCallError } {
  const reason = errorMessage(error);
  return {
    ok: false,
    error: {
      code: 'SCHEMA_COMPILE_FAILED',
      // the model reads this: the file's name, not where it lives on the server
      message: `The ${field} of tool "${tool.name}" could not be compiled (${reason}); fix the group file${tool.file === undefined ? '' : ` ${basename(tool.file)}`}.`,
      details: { field, reason },
    },
  };
}
