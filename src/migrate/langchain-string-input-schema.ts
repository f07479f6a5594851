import type { JsonSchema } from '../format/types.js';

/**
 * The JSON Schema of LangChain's built-in schema for a string-input tool, or undefined when
 * `schema` is something else. `tool(fn, { name, description })` without a schema (and
 * `DynamicTool`, or any subclass of `Tool`) carries `z.object({ input: z.string().optional()
 * }).transform((args) => args.input)`, written with Zod 3, which has no JSON Schema output of
 * its own; LangChain describes it to models as an object with an optional string `input` (and
 * passes that string to the function), so that is what the tool is imported as.
 */
export function langChainStringInputSchema(schema: unknown): JsonSchema | undefined {
  const effects = zod3Definition(schema);
  if (effects?.typeName !== 'ZodEffects') return undefined;
  if ((effects.effect as { type?: unknown } | undefined)?.type !== 'transform') return undefined;
  const object = zod3Definition(effects.schema);
  if (object?.typeName !== 'ZodObject' || typeof object.shape !== 'function') return undefined;
  const shape = (object.shape as () => unknown)();
  if (shape === null || typeof shape !== 'object') return undefined;
  const keys = Object.keys(shape);
  if (keys.length !== 1 || keys[0] !== 'input') return undefined;
  const optional = zod3Definition((shape as Record<string, unknown>).input);
  if (optional?.typeName !== 'ZodOptional') return undefined;
  const text = zod3Definition(optional.innerType);
  if (text?.typeName !== 'ZodString' || !Array.isArray(text.checks) || text.checks.length > 0) {
    return undefined;
  }
  return { type: 'object', properties: { input: { type: 'string' } }, additionalProperties: false };
}

function zod3Definition(value: unknown): Record<string, unknown> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const definition = (value as { _def?: unknown })._def;
  return definition !== null && typeof definition === 'object'
    ? (definition as Record<string, unknown>)
    : undefined;
}
