import type { SchemaWarningSink } from './schema-warnings.js';

/** The type names JSON Schema defines. */
export const JSON_SCHEMA_TYPES: ReadonlySet<string> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
  'null',
]);

/**
 * Non-standard type names found in real tool lists, mapped as BFCL maps them for OpenAI
 * (`bfcl_eval/constants` GORILLA_TO_OPENAPI): `dict` → object, `float` → number, `tuple` →
 * array, `any` → string, and the Java/Python spellings.
 */
const TYPE_NAMES: Readonly<Record<string, string>> = Object.freeze({
  dict: 'object',
  hashmap: 'object',
  hashtable: 'object',
  map: 'object',
  float: 'number',
  double: 'number',
  decimal: 'number',
  tuple: 'array',
  list: 'array',
  arraylist: 'array',
  queue: 'array',
  stack: 'array',
  set: 'array',
  any: 'string',
  str: 'string',
  char: 'string',
  text: 'string',
  int: 'integer',
  long: 'integer',
  short: 'integer',
  byte: 'integer',
  bigint: 'integer',
  bool: 'boolean',
});

/**
 * The JSON Schema type a type name stands for: a JSON Schema type in any case (`String` →
 * string), or a BFCL or language spelling (`str`, `int`, `dict`, `float`, `HashMap`, ...);
 * undefined for a name with no known meaning.
 */
export function toJsonSchemaType(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (JSON_SCHEMA_TYPES.has(lower)) return lower;
  return Object.hasOwn(TYPE_NAMES, lower) ? TYPE_NAMES[lower] : undefined;
}

/**
 * `type` as a JSON Schema type (see `toJsonSchemaType`); a name that is not one already is
 * reported to `sink` as `TYPE_CONVERTED` at `pointer` (the `type` keyword's), converted or, with
 * no known meaning, removed (undefined).
 */
export function convertTypeName(
  type: string,
  pointer: string,
  sink: SchemaWarningSink | undefined,
): string | undefined {
  if (JSON_SCHEMA_TYPES.has(type)) return type;
  const mapped = toJsonSchemaType(type);
  sink?.add(
    'TYPE_CONVERTED',
    type,
    pointer,
    mapped === undefined
      ? `type "${type}" is not a JSON Schema type and was removed`
      : `type "${type}" is not a JSON Schema type; it became "${mapped}"`,
  );
  return mapped;
}
