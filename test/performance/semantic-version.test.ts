import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareVersions, isValidVersion } from '../../src/format/semantic-version.js';

// src/format/semantic-version.ts replaced semver's valid/compare on the start-up path; it must
// agree with semver exactly
const require = createRequire(import.meta.url);
const valid = require('semver/functions/valid.js') as (version: unknown) => string | null;
const compare = require('semver/functions/compare.js') as (a: string, b: string) => number;

const numeric = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '01',
    '00',
    '9007199254740991',
    '9007199254740992',
    '99999999999999999999',
  ),
  fc.nat({ max: 30 }).map(String),
);
const identifier = fc.oneof(
  numeric,
  fc.constantFrom('alpha', 'beta', 'rc', 'x-y', '0a', 'a0', '-', '--', '', 'a.b', 'A'),
  fc.stringMatching(/^[0-9A-Za-z-]{1,6}$/),
);
const version = fc
  .tuple(
    fc.constantFrom('', 'v', '=', ' ', 'V'),
    numeric,
    numeric,
    numeric,
    fc.option(fc.array(identifier, { minLength: 1, maxLength: 4 })),
    fc.option(fc.array(identifier, { minLength: 1, maxLength: 3 })),
    fc.constantFrom('', ' ', '\n', 'x'),
  )
  .map(
    ([prefix, major, minor, patch, pre, build, suffix]) =>
      `${prefix}${major}.${minor}.${patch}${pre === null ? '' : `-${pre.join('.')}`}${
        build === null ? '' : `+${build.join('.')}`
      }${suffix}`,
  );

describe('semantic versions', () => {
  it('accepts exactly what semver.valid accepts', () => {
    fc.assert(
      fc.property(fc.oneof(version, fc.string(), fc.constant('1.2.3'.padEnd(257, '0'))), (text) => {
        expect(isValidVersion(text)).toBe(valid(text) !== null);
      }),
      { numRuns: 20_000 },
    );
    for (const value of [undefined, null, 1, {}, ['1.0.0']]) {
      expect(isValidVersion(value)).toBe(false);
    }
  });

  it('orders versions exactly as semver.compare', () => {
    const validVersion = version.filter((text) => valid(text) !== null);
    fc.assert(
      fc.property(validVersion, validVersion, (a, b) => {
        expect(compareVersions(a, b)).toBe(compare(a, b));
      }),
      { numRuns: 5_000 },
    );
    expect(compareVersions('1.0.0-alpha', '1.0.0-alpha.1')).toBe(-1);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(compareVersions('1.0.0+build.2', '1.0.0+build.1')).toBe(0);
  });

  it('throws a TypeError for an invalid version, like semver', () => {
    expect(() => compareVersions('1.0', '1.0.0')).toThrow(TypeError);
    expect(() => compareVersions('1.0.0', 'x')).toThrow(/Invalid Version: x/);
  });
});
