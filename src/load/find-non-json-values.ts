import { escapePointerToken } from '../format/json-pointer.js';
import { errorMessage } from '../util/error-message.js';

/** A value JSON cannot hold, or a read that threw; `pointer` is absolute within the group. */
export interface NonJsonValue {
  pointer: string;
  message: string;
}

/** Most values `findNonJsonValues` reports: one mistake repeated should not flood the error. */
const MAX_REPORTED = 20;

/** A node to check, or (with `leave`) the end of an object's children. */
interface Pending {
  value: unknown;
  pointer: string;
  /** Set on the marker pushed below an object's children: the object is checked when popped. */
  leave?: object;
  /** Whether `value` is an array entry, where `undefined` is not simply left out as in objects. */
  inArray?: boolean;
}

/**
 * The values of `value` (a group given to `register()`) that a group file could not contain:
 * bigints, functions, symbols, NaN and infinities, `undefined` or holes in arrays, objects other
 * than plain objects and arrays (Date, Map, class instances), and cycles; a property whose read
 * throws (a getter, a revoked Proxy) is reported where it is. `undefined` object properties are
 * allowed: JSON leaves them out. Iterative, so a deep value cannot overflow the stack; each
 * object is checked once, however often it is shared. At most 20 are reported.
 */
export function findNonJsonValues(value: unknown): NonJsonValue[] {
  const found: NonJsonValue[] = [];
  const open = new Set<object>();
  const checked = new Set<object>();
  const stack: Pending[] = [{ value, pointer: '' }];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const pending = stack.pop() as Pending;
    if (pending.leave !== undefined) {
      open.delete(pending.leave);
      checked.add(pending.leave);
      continue;
    }
    const { value: current, pointer } = pending;
    const report = (message: string) =>
      found.push({ pointer, message: `${where(pointer)} ${message}` });
    const problem = describeScalar(current, pending.inArray === true);
    if (problem !== undefined) {
      report(problem);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (open.has(current)) {
      report(
        'is the object that contains it (a circular reference), which JSON cannot hold; give a copy, or in a schema refer to it with "$ref"',
      );
      continue;
    }
    if (checked.has(current)) continue;
    try {
      const children = readChildren(current);
      if (typeof children === 'string') {
        report(children);
        continue;
      }
      open.add(current);
      stack.push({ value: undefined, pointer, leave: current });
      const inArray = Array.isArray(current);
      for (let index = children.length - 1; index >= 0; index--) {
        const [key, child] = children[index] as [string, unknown];
        stack.push({ value: child, pointer: `${pointer}/${escapePointerToken(key)}`, inArray });
      }
    } catch (error) {
      report(
        `could not be read: reading it threw (${errorMessage(error)}); pass plain data, as JSON.parse of a group file gives, not an object whose getters throw or a revoked Proxy`,
      );
    }
  }
  return found;
}

/**
 * How a message names the value at `pointer` (which the diagnostic gives in full): its key,
 * with the array's for an entry (`default`, `enum/1`), or `the group`.
 */
function where(pointer: string): string {
  if (pointer === '') return 'the group';
  const tokens = pointer.split('/');
  const last = tokens[tokens.length - 1] as string;
  return /^\d+$/.test(last) && tokens.length > 2 ? `${tokens[tokens.length - 2]}/${last}` : last;
}

/** What is wrong with a value that is not an object, or undefined when JSON can hold it. */
function describeScalar(value: unknown, inArray: boolean): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return `is a BigInt (${String(value)}n), which JSON cannot hold; write it as a number (${String(value)}) or a string ("${String(value)}")`;
    case 'function':
      return 'is a function, which JSON cannot hold; give the value itself (a group is data, as in a group file)';
    case 'symbol':
      return `is a symbol (${String(value)}), which JSON cannot hold; use a string`;
    case 'number':
      return Number.isFinite(value)
        ? undefined
        : `is ${String(value)}, which JSON cannot hold; write a finite number, or null`;
    case 'undefined':
      // an object property set to undefined is left out by JSON, as if absent
      return inArray
        ? 'is undefined (or an array hole), which JSON cannot hold (it would become null); remove the entry, or write null'
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The own enumerable entries of a plain object or an array, or what is wrong with any other
 * object. May throw (getters, proxies): the caller reports it.
 */
function readChildren(value: object): [string, unknown][] | string {
  if (Array.isArray(value)) {
    const entries: [string, unknown][] = [];
    for (let index = 0; index < value.length; index++) entries.push([String(index), value[index]]);
    return entries;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (
    prototype !== Object.prototype &&
    prototype !== null &&
    !isForeignObjectPrototype(prototype)
  ) {
    return describeObjectKind(value);
  }
  const record = value as Record<string, unknown>;
  return Object.keys(record).map((key) => [key, record[key]]);
}

/** `Object.prototype` of another realm (a `vm` context, an iframe): its objects are plain too. */
function isForeignObjectPrototype(prototype: unknown): boolean {
  return (
    typeof prototype === 'object' &&
    prototype !== null &&
    Object.getPrototypeOf(prototype) === null &&
    Object.hasOwn(prototype, 'hasOwnProperty') &&
    (prototype as { constructor?: { name?: unknown } }).constructor?.name === 'Object'
  );
}

function describeObjectKind(value: object): string {
  if (value instanceof Date) {
    return 'is a Date, which JSON cannot hold as such; write the date as a string (date.toISOString())';
  }
  if (value instanceof Map) {
    return 'is a Map, which JSON cannot hold; use a plain object (Object.fromEntries(map))';
  }
  if (value instanceof Set) return 'is a Set, which JSON cannot hold; use an array ([...set])';
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  const kind =
    typeof name === 'string' && name !== ''
      ? `an instance of ${name}`
      : 'an object with a prototype';
  return `is ${kind}, not a plain object or array, which JSON cannot hold as such; give a plain object or array with the same data`;
}
