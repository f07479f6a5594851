import { describe, expect, it } from 'vitest';
import {
  effectiveRequiredBump,
  isBumpSufficient,
  maxBump,
  measureBump,
} from '../../src/migrate/semver-bump.js';

describe('measureBump', () => {
  it.each([
    ['1.0.0', '2.0.0', 'major'],
    ['1.0.0', '1.1.0', 'minor'],
    ['1.0.0', '1.0.1', 'patch'],
    ['1.0.0', '1.0.0', 'none'],
    ['1.2.0', '1.1.9', 'downgrade'],
    ['1.0.0', '2.0.0-rc.1', 'major'],
    ['2.0.0-rc.1', '2.0.0-rc.2', 'prerelease'],
    ['2.0.0-rc.1', '2.0.0', 'prerelease'],
    ['1.0.0+build.1', '1.0.0+build.2', 'none'],
  ])('%s → %s is %s', (before, after, expected) => {
    expect(measureBump(before, after)).toBe(expected);
  });

  it('rejects versions that are not semver', () => {
    expect(() => measureBump('1.0', '1.1.0')).toThrow(/not semantic versions/);
  });
});

describe('isBumpSufficient', () => {
  it('from 1.0.0 on, the actual bump must be at least the required one', () => {
    expect(isBumpSufficient('major', 'major', '1.0.0')).toBe(true);
    expect(isBumpSufficient('major', 'minor', '1.0.0')).toBe(false);
    expect(isBumpSufficient('minor', 'major', '1.0.0')).toBe(true);
    expect(isBumpSufficient('minor', 'patch', '1.0.0')).toBe(false);
    expect(isBumpSufficient('patch', 'none', '1.0.0')).toBe(false);
    expect(isBumpSufficient('none', 'none', '1.0.0')).toBe(true);
  });

  it('in 0.y.z, a breaking change needs a minor bump and anything else a patch bump', () => {
    expect(effectiveRequiredBump('major', '0.2.0')).toBe('minor');
    expect(effectiveRequiredBump('minor', '0.2.0')).toBe('patch');
    expect(isBumpSufficient('major', 'minor', '0.2.0')).toBe(true);
    expect(isBumpSufficient('major', 'patch', '0.2.0')).toBe(false);
    expect(isBumpSufficient('minor', 'patch', '0.2.0')).toBe(true);
  });

  it('in 0.0.z, every change needs (at least) a patch bump', () => {
    expect(effectiveRequiredBump('major', '0.0.3')).toBe('patch');
    expect(isBumpSufficient('major', 'patch', '0.0.3')).toBe(true);
    expect(isBumpSufficient('patch', 'none', '0.0.3')).toBe(false);
    expect(effectiveRequiredBump('none', '0.0.3')).toBe('none');
  });

  it('a downgrade never suffices; a pre-release step always does', () => {
    expect(isBumpSufficient('none', 'downgrade', '1.0.0')).toBe(false);
    expect(isBumpSufficient('major', 'prerelease', '2.0.0-rc.1')).toBe(true);
  });

  it('maxBump orders major > minor > patch > none', () => {
    expect(maxBump('patch', 'minor')).toBe('minor');
    expect(maxBump('major', 'none')).toBe('major');
    expect(maxBump('none', 'none')).toBe('none');
  });
});
