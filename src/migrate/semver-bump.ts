import compare from 'semver/functions/compare.js';
import parse from 'semver/functions/parse.js';

/** How much a change set requires the version to move. */
export type Bump = 'major' | 'minor' | 'patch' | 'none';

/**
 * How much the version actually moved: a release level, `prerelease` (a later pre-release of
 * the same MAJOR.MINOR.PATCH, or its release), `none` (same version) or `downgrade`.
 */
export type ActualBump = Bump | 'prerelease' | 'downgrade';

const RANK: Readonly<Record<Bump, number>> = { none: 0, patch: 1, minor: 2, major: 3 };

/** The larger of two bumps (`major` > `minor` > `patch` > `none`). */
export function maxBump(a: Bump, b: Bump): Bump {
  return RANK[a] >= RANK[b] ? a : b;
}

/** Whether bump `a` is at least `b`. */
export function bumpAtLeast(a: Bump, b: Bump): boolean {
  return RANK[a] >= RANK[b];
}

/**
 * How `newVersion` moved from `oldVersion`, comparing MAJOR.MINOR.PATCH (pre-release tags only
 * decide `prerelease`, `none` and `downgrade`). Both must be valid semver.
 */
export function measureBump(oldVersion: string, newVersion: string): ActualBump {
  const before = parse(oldVersion);
  const after = parse(newVersion);
  if (before === null || after === null) {
    throw new TypeError(`not semantic versions: ${oldVersion}, ${newVersion}`);
  }
  const order = compare(after, before);
  if (order === 0) return 'none';
  if (order < 0) return 'downgrade';
  if (after.major !== before.major) return 'major';
  if (after.minor !== before.minor) return 'minor';
  if (after.patch !== before.patch) return 'patch';
  // same MAJOR.MINOR.PATCH and later: 1.0.0-rc.1 → 1.0.0-rc.2 or → 1.0.0
  return 'prerelease';
}

/**
 * The bump a change set needs, as the version number has to show it. From 1.0.0 on this is
 * `required`. Below 1.0.0 it follows npm's caret ranges (what `--pin group=^0.2.0` uses):
 * `^0.y.z` accepts only `0.y.*`, so in 0.y.z a breaking change needs a minor bump and any
 * other change a patch bump; `^0.0.z` accepts only `0.0.z`, so in 0.0.z every change needs a
 * patch bump.
 */
export function effectiveRequiredBump(required: Bump, oldVersion: string): Bump {
  const before = parse(oldVersion);
  if (before === null || before.major > 0 || required === 'none') return required;
  if (before.minor === 0) return 'patch';
  return required === 'major' ? 'minor' : 'patch';
}

/**
 * Whether moving from `oldVersion` by `actual` is enough for changes needing `required`.
 * A downgrade never is; a pre-release step is (pre-releases promise no compatibility,
 * semver.org item 9), as long as the version went up.
 */
export function isBumpSufficient(required: Bump, actual: ActualBump, oldVersion: string): boolean {
  if (actual === 'downgrade') return false;
  if (actual === 'prerelease') return true;
  return bumpAtLeast(actual, effectiveRequiredBump(required, oldVersion));
}
