/**
 * Strict semantic versions, exactly as the `semver` package's `valid` and `compare` treat them
 * (an optional `v`, surrounding whitespace trimmed, at most 256 characters, components up to
 * `Number.MAX_SAFE_INTEGER`). Loading needs only these two, and importing `semver` (eleven
 * modules that build about forty regexes) cost ~10 ms of CLI start-up. Version ranges (pins)
 * still use `semver`, loaded on demand. A test checks both agree on generated versions.
 */

const MAX_LENGTH = 256;
const IDENTIFIER = '(?:\\d*[a-zA-Z-][a-zA-Z0-9-]*|0|[1-9]\\d*)';
const FULL = new RegExp(
  `^v?(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)` +
    `(?:-(${IDENTIFIER}(?:\\.${IDENTIFIER})*))?` +
    '(?:\\+([a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)*))?$',
);
const NUMERIC = /^[0-9]+$/;

interface ParsedVersion {
  major: number;
  minor: number;
  patch: number;
  /** Numeric identifiers as numbers (below MAX_SAFE_INTEGER), the others as strings. */
  prerelease: (string | number)[];
}

function parseVersion(text: unknown): ParsedVersion | undefined {
  if (typeof text !== 'string' || text.length > MAX_LENGTH) return undefined;
  const match = FULL.exec(text.trim());
  if (match === null) return undefined;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  const patch = Number(match[3]);
  if (
    major > Number.MAX_SAFE_INTEGER ||
    minor > Number.MAX_SAFE_INTEGER ||
    patch > Number.MAX_SAFE_INTEGER
  ) {
    return undefined;
  }
  const prerelease =
    match[4] === undefined
      ? []
      : match[4].split('.').map((identifier) => {
          if (NUMERIC.test(identifier)) {
            const number = Number(identifier);
            if (number >= 0 && number < Number.MAX_SAFE_INTEGER) return number;
          }
          return identifier;
        });
  return { major, minor, patch, prerelease };
}

/** Whether `text` is a valid semantic version (`semver.valid(text) !== null`). */
export function isValidVersion(text: unknown): boolean {
  return parseVersion(text) !== undefined;
}

/**
 * -1, 0 or 1 as `a` sorts before, with or after `b` by semver precedence (build metadata
 * ignored), like `semver.compare`. Throws a TypeError for an invalid version.
 */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (left === undefined || right === undefined) {
    throw new TypeError(`Invalid Version: ${left === undefined ? a : b}`);
  }
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (left[key] !== right[key]) return left[key] < right[key] ? -1 : 1;
  }
  // a version without a prerelease sorts after one with
  if (left.prerelease.length === 0 || right.prerelease.length === 0) {
    return left.prerelease.length === right.prerelease.length
      ? 0
      : left.prerelease.length === 0
        ? 1
        : -1;
  }
  for (let index = 0; ; index++) {
    const x = left.prerelease[index];
    const y = right.prerelease[index];
    if (x === undefined && y === undefined) return 0;
    if (y === undefined) return 1;
    if (x === undefined) return -1;
    if (x !== y) return compareIdentifiers(x, y);
  }
}

/** semver's `compareIdentifiers`: numeric identifiers by value, before alphanumeric ones. */
function compareIdentifiers(a: string | number, b: string | number): -1 | 0 | 1 {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  const aNumeric = NUMERIC.test(String(a));
  const bNumeric = NUMERIC.test(String(b));
  let x: string | number = a;
  let y: string | number = b;
  if (aNumeric && bNumeric) {
    x = Number(a);
    y = Number(b);
  }
  if (x === y) return 0;
  if (aNumeric && !bNumeric) return -1;
  if (bNumeric && !aNumeric) return 1;
  return x < y ? -1 : 1;
}
