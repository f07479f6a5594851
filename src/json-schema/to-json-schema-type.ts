import type { SchemaNode } from './schema-node.js';
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

/** The JSON types that together accept every JSON value (`number` covers `integer`). */
export const ANY_JSON_TYPES: readonly string[] = Object.freeze([
  'string',
  'number',
  'boolean',
  'object',
  'array',
  'null',
]);

/**
 * A schema group files accept that validates every JSON value, as `{}` does: every JSON type,
 * and items of any JSON, since a group file's arrays need `items` with a type or a composition
 * keyword (`{"allOf": [{}]}` is one that accepts everything).
 */
export function anyJsonSchema(): SchemaNode {
  return { type: [...ANY_JSON_TYPES], items: { allOf: [{}] } };
}

/** Whether a type list accepts every JSON value (all of ANY_JSON_TYPES). */
export function acceptsEveryType(types: readonly unknown[]): boolean {
  return ANY_JSON_TYPES.every((type) => types.includes(type));
}

/**
 * Non-standard type names found in real tool lists, mapped as BFCL maps them for OpenAI
 * (`bfcl_eval/constants` GORILLA_TO_OPENAPI): `dict` → object, `float` → number, `tuple` →
 * array, and the Java/Python spellings. `any` (BFCL, Python `Any`) and TypeScript's `unknown`
 * mean any JSON value: every JSON type (BFCL narrows it to string, which refuses the objects
 * and numbers the tool took).
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

/** Type names meaning any JSON value. */
const ANY_TYPE_NAMES: ReadonlySet<string> = new Set(['any', 'unknown']);

/**
 * The JSON Schema type a type name stands for: a JSON Schema type in any case (`String` →
 * string), or a BFCL or language spelling (`str`, `int`, `dict`, `float`, `HashMap`, ...);
 * for `any`/`unknown`, the list of every JSON type (ANY_JSON_TYPES); undefined for a name with
 * no known meaning.
 */
export function toJsonSchemaType(name: string): string | readonly string[] | undefined {
  const lower = name.toLowerCase();
  if (JSON_SCHEMA_TYPES.has(lower)) return lower;
  if (ANY_TYPE_NAMES.has(lower)) return ANY_JSON_TYPES;
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
): string | readonly string[] | undefined {
  if (JSON_SCHEMA_TYPES.has(type)) return type;
  const mapped = toJsonSchemaType(type);
  sink?.add(
    'TYPE_CONVERTED',
    type,
    pointer,
    mapped === undefined
      ? `type "${type}" is not a JSON Schema type and was removed`
      : typeof mapped === 'string'
        ? `type "${type}" is not a JSON Schema type; it became "${mapped}"`
        : `type "${type}" is not a JSON Schema type; it means any JSON value, so it became every JSON type ${JSON.stringify(mapped)} (arrays with "items": {"allOf": [{}]}, any JSON too); narrow it to the real type if you know it`,
  );
  return mapped;
}
