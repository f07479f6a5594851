import { hashName } from '../util/hash-name.js';
import { convertPropertyName, type PropertyNameRule } from './check-property-names.js';

const MAX_NAME_LENGTH = 64;

/**
 * New names for the keys of one `properties` map that `rule` rejects, as the names of tools are
 * made valid: `convertPropertyName` (`filter[id]` → `filter_id`, `Account Number` →
 * `Account_Number`, `$top` → `top`); a name longer than 64 characters keeps its first 55 plus `_`
 * and a hash of the whole key; a key with nothing usable left becomes `param_<hash>`. A new name
 * that another key of the map has, or an earlier new name, gets `_2`, `_3`, ... The result
 * depends only on `names` and their order, so it is the same on every run. Returns each rejected
 * key → its new name, in `names` order; the keys `rule` accepts keep theirs and are not in it.
 * `rule` must accept names of ASCII letters, digits and `_` up to 64 characters (Anthropic's and
 * Gemini's rules do).
 */
export function planPropertyRenames(
  names: readonly string[],
  rule: PropertyNameRule,
): Map<string, string> {
  const renames = new Map<string, string>();
  const taken = new Set(names.filter((name) => rule.pattern.test(name)));
  for (const name of names) {
    if (taken.has(name) || renames.has(name)) continue;
    let base = convertPropertyName(name);
    if (base.length > MAX_NAME_LENGTH) {
      const hash = hashName(name);
      base = `${base.slice(0, MAX_NAME_LENGTH - hash.length - 1).replace(/_+$/, '')}_${hash}`;
    }
    if (base === '' || !rule.pattern.test(base)) base = `param_${hashName(name)}`;
    let candidate = base;
    // each round tries a new suffix: bounded by the number of names taken
    for (let round = 2; taken.has(candidate); round++) {
      const suffix = `_${round}`;
      candidate = `${base.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(candidate);
    renames.set(name, candidate);
  }
  return renames;
}
