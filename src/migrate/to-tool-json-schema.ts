import type { JsonSchema } from '../format/types.js';
import { errorMessage } from '../util/error-message.js';

/** A tool schema as JSON Schema, or why it cannot be one. */
export type ToolJsonSchema = { schema: JsonSchema } | { problem: string };

const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');
const DEFAULT_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The JSON Schema of a schema as frameworks hold them: the AI SDK's `jsonSchema()` (or a lazy
 * schema), any Standard JSON Schema such as Zod 4.2+ (its own JSON Schema output, of the input
 * side: what the model sends), or a plain JSON Schema object. Zod 3 and older Zod 4 releases
 * have no JSON Schema output of their own: they are a problem, with the fix.
 */
export async function toToolJsonSchema(value: unknown): Promise<ToolJsonSchema> {
  try {
    return await convert(typeof value === 'function' ? (value as () => unknown)() : value);
  } catch (error) {
    const message = errorMessage(error);
    return {
      problem: `its schema cannot be converted to JSON Schema: ${message}; ${fixFor(message)}`,
    };
  }
}

/**
 * What to write instead of a type JSON Schema cannot express, by the start of Zod's message
 * (`Date cannot be represented in JSON Schema`): tool arguments arrive as JSON.
 */
const FIXES: readonly (readonly [string, string])[] = [
  [
    'Date ',
    'describe the date as a string: z.iso.datetime() (or z.iso.date()), or z.string() with a format, and make a Date from it in execute',
  ],
  ['BigInt ', 'use z.number().int(), or a string of digits'],
  ['Map ', 'use z.record(z.string(), ...) for a map with string keys'],
  ['Set ', 'use z.array(...)'],
  ['Undefined ', 'make the property optional (.optional()) instead'],
  ['Void ', 'make the property optional (.optional()) instead'],
];

function fixFor(message: string): string {
  return (
    FIXES.find(([start]) => message.startsWith(start))?.[1] ??
    'give each value a schema type JSON Schema can express (string, number, integer, boolean, object, array, null)'
  );
}

async function convert(value: unknown): Promise<ToolJsonSchema> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problem: `its schema is ${describe(value)}, not a schema object` };
  }
  const record = value as Record<string | symbol, unknown>;
  if (record[AI_SDK_SCHEMA] === true) {
    return plainSchema(await (record.jsonSchema as unknown));
  }
  const standard = record['~standard'] as Record<string, unknown> | undefined;
  if (standard !== null && typeof standard === 'object') {
    const converter = standard.jsonSchema as { input?: unknown } | undefined;
    if (typeof converter?.input === 'function') {
      return plainSchema(converter.input({ target: 'draft-2020-12' }));
    }
    const vendor = String(standard.vendor);
    return {
      problem:
        vendor === 'zod'
          ? 'its schema is a Zod schema without JSON Schema output (Zod 3, or Zod 4 before 4.2): use zod 4.2 or later, or give a JSON Schema (the AI SDK: jsonSchema({...}))'
          : `its schema is a ${vendor} schema without JSON Schema output; give a JSON Schema instead`,
    };
  }
  if ('_def' in record || '_zod' in record) {
    return {
      problem:
        'its schema is a Zod schema without JSON Schema output (Zod 3, or Zod 4 before 4.2): use zod 4.2 or later, or give a JSON Schema',
    };
  }
  return plainSchema(value);
}

/** A plain JSON Schema object, copied, without a `$schema` that names the default dialect. */
function plainSchema(value: unknown): ToolJsonSchema {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problem: `its JSON Schema is ${describe(value)}, not an object` };
  }
  const { $schema, ...rest } = structuredClone(value) as JsonSchema;
  return {
    schema: $schema === undefined || $schema === DEFAULT_DIALECT ? rest : { $schema, ...rest },
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
