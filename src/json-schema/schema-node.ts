/** Small helpers every schema transform shares. */

/** A JSON Schema object node (boolean schemas are handled where they can appear). */
export type SchemaNode = Record<string, unknown>;

/** Whether `value` is a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is SchemaNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The JSON type of a value as JSON Schema names it (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The declared types of a node as a list (`type: "x"` → `["x"]`), or undefined when untyped. */
export function declaredTypes(node: SchemaNode): string[] | undefined {
  const type = node.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type))
    return type.filter((entry): entry is string => typeof entry === 'string');
  return undefined;
}

/**
 * The single type that fits every value (`integer` widens to `number` beside numbers), or
 * undefined when the values mix types.
 */
export function inferTypeFromValues(values: readonly unknown[]): string | undefined {
  const types = new Set(values.filter((value) => value !== null).map(jsonTypeOf));
  if (types.has('integer') && types.has('number')) types.delete('integer');
  return types.size === 1 ? [...types][0] : undefined;
}

/** `value` as short text for a description: strings bare, everything else as JSON. */
export function describeValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `description` with `notes` appended in parentheses: `"Title (minLength: 1; default: 5)"`. */
export function appendNotes(description: unknown, notes: readonly string[]): string {
  const base = typeof description === 'string' ? description.trim() : '';
  if (notes.length === 0) return base;
  const suffix = `(${notes.join('; ')})`;
  return base === '' ? suffix : `${base} ${suffix}`;
}

/** Whether two JSON values are structurally equal (key order ignored). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== typeof right || left === null || right === null) return false;
  if (typeof left !== 'object') return false;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    return left.every((entry, index) => jsonEqual(entry, right[index]));
  }
  if (Array.isArray(right)) return false;
  const leftKeys = Object.keys(left as SchemaNode);
  const rightObject = right as SchemaNode;
  if (leftKeys.length !== Object.keys(rightObject).length) return false;
  return leftKeys.every(
    (key) =>
      Object.hasOwn(rightObject, key) && jsonEqual((left as SchemaNode)[key], rightObject[key]),
  );
}

/** The string entries of a `required` array (anything else ignored). */
export function requiredList(node: SchemaNode): string[] {
  return Array.isArray(node.required)
    ? node.required.filter((entry): entry is string => typeof entry === 'string')
    : [];
}

/** Sets `key` on a fresh object with own-property semantics (safe for `__proto__`). */
export function defineEntry(target: SchemaNode, key: string, value: unknown): void {
  // `__proto__` is the only key a plain assignment treats specially (Object.prototype's setter);
  // every other key is assigned, which is several times faster than defineProperty
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}
