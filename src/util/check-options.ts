import { ToolcapError } from '../errors/toolcap-error.js';
import { suggestSimilar } from './suggest-similar.js';

/**
 * Checks one option value: returns nothing when it is acceptable, the expected shape in words
 * ("a string or an array of strings") when it is not, or `{ problem }` when the value has the
 * right shape but one part is wrong ("has weight 2; weight must be ... at most 1"), which the
 * message then gives instead of "must be SHAPE, got VALUE".
 */
export type OptionCheck = (value: unknown) => string | { problem: string } | undefined;

/** The checks of a function's options, by option name. */
export type OptionSpec = Readonly<Record<string, OptionCheck>>;

/**
 * Checks `options` of the public function `caller` against `spec` and throws a `ToolcapError`
 * (`INVALID_OPTION`) naming the first option that is unknown or has the wrong shape, with the
 * expected shape and the value received. `undefined` options are left to their defaults.
 */
export function checkOptions(caller: string, options: unknown, spec: OptionSpec): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new ToolcapError(
      'INVALID_OPTION',
      `${caller}: options must be an object such as { ${Object.keys(spec)[0]}: ... }, got ${describeValue(options)}`,
    );
  }
  for (const name of Object.keys(options)) {
    const check = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (check === undefined) {
      const similar = suggestSimilar(name, Object.keys(spec));
      throw new ToolcapError(
        'INVALID_OPTION',
        `${caller}: unknown option "${name}"${similar.length > 0 ? `; did you mean "${similar[0]}"?` : '.'} Options: ${Object.keys(spec).join(', ')}`,
      );
    }
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const expected = check(value);
    if (typeof expected === 'object') {
      throw new ToolcapError('INVALID_OPTION', `${caller}: option "${name}" ${expected.problem}`);
    }
    if (expected !== undefined) {
      throw new ToolcapError(
        'INVALID_OPTION',
        `${caller}: option "${name}" must be ${expected}, got ${describeValue(value)}`,
      );
    }
  }
}

/** A short, bounded description of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    case 'function':
      return 'a function';
    case 'object':
      return 'an object';
    default:
      return String(value);
  }
}

/** A string. */
export const isString: OptionCheck = (value) =>
  typeof value === 'string' ? undefined : 'a string';

/** A boolean. */
export const isBoolean: OptionCheck = (value) =>
  typeof value === 'boolean' ? undefined : 'true or false';

/** A function. */
export const isFunction: OptionCheck = (value) =>
  typeof value === 'function' ? undefined : 'a function';

/** A plain object (not an array, not null). */
export const isObject: OptionCheck = (value) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : 'an object';

/** An array. */
export const isArray: OptionCheck = (value) => (Array.isArray(value) ? undefined : 'an array');

/**
 * A path or a list of paths, relative to `cwd`: a string or an array of strings, none empty. A
 * wrong entry is named by its index; an empty path would resolve to `cwd` itself and `use` it
 * (as "load every group file under it"), and usually means an unset environment variable.
 */
export function isPathList(use: string, example: string): OptionCheck {
  return (value) => {
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list)) return 'a string or an array of strings';
    for (let index = 0; index < list.length; index++) {
      const entry: unknown = list[index];
      if (typeof entry !== 'string') {
        return {
          problem: `must be a string or an array of strings; the entry at index ${index} is ${describeValue(entry)}, not a string`,
        };
      }
      if (entry === '') {
        const at =
          typeof value === 'string' ? 'is an empty path' : `has an empty path at index ${index}`;
        return {
          problem: `${at}, which would ${use}; give a directory such as ${JSON.stringify(example)} (an empty path is usually an unset environment variable)`,
        };
      }
    }
    return undefined;
  };
}

/**
 * An object whose own values all pass `check`, described as `shape`; a value that fails is
 * named with its key (`"calendar" is 1, not a string`), as "got an object" does not say which.
 */
export function isRecordOf(check: OptionCheck, shape: string): OptionCheck {
  return (value) => {
    if (isObject(value) !== undefined) return shape;
    for (const [key, item] of Object.entries(value as object)) {
      const expected = check(item);
      if (expected === undefined) continue;
      const why = typeof expected === 'string' ? `not ${expected}` : expected.problem;
      return {
        problem: `must be ${shape}; ${describeValue(key)} is ${describeValue(item)}, ${why}`,
      };
    }
    return undefined;
  };
}

/** A string or a list of strings as a list. */
export function toStringList(value: string | readonly string[] | undefined): readonly string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}
