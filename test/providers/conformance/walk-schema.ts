/** An independent JSON Schema walker for the conformance checkers (deliberately not src code). */

export type Node = Record<string, unknown>;

export function isObject(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
];
const VALUE_KEYWORDS = [
  'items',
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'not',
];
const LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** Calls `visit` on every schema node (objects and booleans) with its JSON pointer and depth. */
export function walkSchema(
  schema: unknown,
  visit: (node: unknown, pointer: string, parents: readonly unknown[]) => void,
  pointer = '',
  parents: readonly unknown[] = [],
): void {
  visit(schema, pointer, parents);
  if (!isObject(schema)) return;
  const next = [...parents, schema];
  for (const keyword of MAP_KEYWORDS) {
    const map = schema[keyword];
    if (!isObject(map)) continue;
    for (const [name, child] of Object.entries(map)) {
      walkSchema(child, visit, `${pointer}/${keyword}/${name}`, next);
    }
  }
  for (const keyword of VALUE_KEYWORDS) {
    const child = schema[keyword];
    if (child === undefined) continue;
    if (Array.isArray(child)) {
      child.forEach((entry, index) => {
        walkSchema(entry, visit, `${pointer}/${keyword}/${index}`, next);
      });
    } else walkSchema(child, visit, `${pointer}/${keyword}`, next);
  }
  for (const keyword of LIST_KEYWORDS) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((entry, index) => {
      walkSchema(entry, visit, `${pointer}/${keyword}/${index}`, next);
    });
  }
}

/** `type` as a list. */
export function typesOf(node: Node): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.map(String);
  return [];
}
