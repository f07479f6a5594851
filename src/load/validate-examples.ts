import type { JsonObject, JsonSchema } from '../format/types.js';
import { compileSchema } from '../json-schema/compile-schema.js';

/** One failing example. */
export interface ExampleProblem {
  index: number;
  pointer: string;
  message: string;
}

/**
 * Validates a tool's example inputs against its input_schema. Only tools that declare
 * examples pay for compiling their schema.
 */
export function validateExamples(
  schema: JsonSchema,
  examples: readonly JsonObject[],
): ExampleProblem[] {
  if (examples.length === 0) return [];
  let validate: ReturnType<typeof compileSchema>;
  try {
    validate = compileSchema(schema);
  } catch (error) {
    return [
      { index: 0, pointer: '', message: `the schema could not be compiled (${String(error)})` },
    ];
  }
  const problems: ExampleProblem[] = [];
  examples.forEach((example, index) => {
    const result = validate(example);
    if (!result.valid) {
      for (const issue of result.issues)
        problems.push({ index, pointer: issue.pointer, message: issue.message });
    }
  });
  return problems;
}
