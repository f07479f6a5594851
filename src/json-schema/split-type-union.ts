import { defineEntry, isPlainObject, jsonTypeOf, type SchemaNode } from './schema-node.js';

/** Keywords that only constrain one JSON type, by type (`integer` values are `number`s). */
export const TYPE_KEYWORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set([
    'minLength',
    'maxLength',
    'pattern',
    'format',
    'contentMediaType',
    'contentEncoding',
  ]),
  number: new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']),
  array: new Set([
    'items',
    'prefixItems',
    'minItems',
    'maxItems',
    'uniqueItems',
    'contains',
    'minContains',
    'maxContains',
    'unevaluatedItems',
  ]),
  object: new Set([
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
    'unevaluatedProperties',
  ]),
};
const TYPED_KEYWORDS = new Set(Object.values(TYPE_KEYWORDS).flatMap((keywords) => [...keywords]));

/**
 * Splits a multi-type node (`type: ["string", "integer", "null"]`) into `anyOf` branches, one
 * per type, each carrying the keywords that constrain that type (and the `enum`/`const` values
 * of that type); annotations stay on the wrapper. A `"null"` type becomes a `{type: "null"}`
 * branch. Returns `node` itself when it has at most one non-null type.
 */
export function splitTypeUnion(node: SchemaNode): SchemaNode {
  if (!Array.isArray(node.type)) return node;
  const types = node.type.filter((type): type is string => typeof type === 'string');
  const nonNull = types.filter((type) => type !== 'null');
  if (nonNull.length <= 1) return node;

  const wrapper: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'enum' || key === 'const' || TYPED_KEYWORDS.has(key)) continue;
    defineEntry(wrapper, key, value);
  }
  const branches: SchemaNode[] = nonNull.map((type) => {
    const branch: SchemaNode = { type };
    const keywords = TYPE_KEYWORDS[type === 'integer' ? 'number' : type];
    for (const [key, value] of Object.entries(node)) {
      if (keywords?.has(key)) defineEntry(branch, key, value);
    }
    if (Array.isArray(node.enum)) {
      const values = node.enum.filter((value) => matchesType(value, type));
      branch.enum = values;
    }
    if (Object.hasOwn(node, 'const')) {
      // a const of another type rules this branch out
      if (matchesType(node.const, type)) branch.const = node.const;
      else branch.enum = [];
    }
    return branch;
  });
  const kept = branches.filter((branch) => !Array.isArray(branch.enum) || branch.enum.length > 0);
  if (types.includes('null')) kept.push({ type: 'null' });
  wrapper.anyOf = kept;
  return wrapper;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = jsonTypeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/**
 * Moves a node's `type` into the `anyOf`/`oneOf` branches that have none
 * (`{type: "string", anyOf: [{format: "ipv4"}, {format: "ipv6"}]}` → typed branches), so
 * providers that need every branch typed, or forbid `type` beside `anyOf`, get an equivalent
 * schema. Returns `node` itself when there is nothing to move.
 */
export function distributeTypeIntoBranches(node: SchemaNode): SchemaNode {
  const keyword = Array.isArray(node.anyOf)
    ? 'anyOf'
    : Array.isArray(node.oneOf)
      ? 'oneOf'
      : undefined;
  if (keyword === undefined || node.type === undefined) return node;
  const branches = node[keyword] as unknown[];
  if (!branches.some((branch) => isPlainObject(branch) && !Object.hasOwn(branch, 'type')))
    return node;
  const result: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    defineEntry(
      result,
      key,
      key === keyword
        ? branches.map((branch) =>
            isPlainObject(branch) && !Object.hasOwn(branch, 'type')
              ? { type: node.type, ...branch }
              : branch,
          )
        : value,
    );
  }
  return result;
}
