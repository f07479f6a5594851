import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundedEditDistance,
  editDistance,
  MAX_SUGGESTED_NAME_LENGTH,
  suggestSimilar,
} from '../../src/util/suggest-similar.js';
import { assertProperty } from '../reliability/fuzz-settings.js';

describe('suggestSimilar', () => {
  it('suggests close names, best first, ignoring case and separators', () => {
    expect(suggestSimilar('get_agnda', ['get_agenda', 'create_event', 'get_agent'])).toEqual([
      'get_agenda',
      'get_agent',
    ]);
    expect(suggestSimilar('GetAgenda', ['get_agenda'])).toEqual(['get_agenda']);
    expect(suggestSimilar('zzzzzz', ['get_agenda'])).toEqual([]);
    expect(suggestSimilar('same', ['same'])).toEqual([]);
  });

  it('suggests for a name of the longest valid length, and for none longer', () => {
    const longest = `a${'b'.repeat(MAX_SUGGESTED_NAME_LENGTH - 1)}`;
    // one edit away from a registered name in both cases: only the length differs
    expect(suggestSimilar(longest, [`${longest.slice(0, -1)}c`])).toEqual([
      `${longest.slice(0, -1)}c`,
    ]);
    const tooLong = `${longest}b`;
    expect(suggestSimilar(tooLong, [longest, tooLong.toUpperCase()])).toEqual([]);
  });

  it('never suggests a candidate longer than twice the longest valid name', () => {
    const separators = `a${'_'.repeat(200)}b`;
    // folding would make them equal, but such a candidate is never a valid name
    expect(suggestSimilar('ab', [separators])).toEqual([]);
  });
});

describe('edit distances', () => {
  it('counts a transposition as one edit', () => {
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(boundedEditDistance('ab', 'ba', 3)).toBe(1);
    expect(boundedEditDistance('kitten', 'sitting', 3)).toBe(3);
  });

  it('stops at the bound: max + 1 for anything farther', () => {
    expect(boundedEditDistance('kitten', 'sitting', 2)).toBe(3);
    expect(boundedEditDistance('a', 'a'.repeat(100_000), 5)).toBe(6);
    expect(boundedEditDistance('', 'abc', 3)).toBe(3);
    expect(boundedEditDistance('', 'abcd', 3)).toBe(4);
  });

  it('the banded distance equals the full one up to the bound, on random strings', async () => {
    // a small alphabet makes matches, transpositions and near-misses common
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 14 });
    await assertProperty(
      'banded edit distance equals the full one up to the bound',
      fc.property(word, word, fc.integer({ min: 0, max: 8 }), (source, target, max) => {
        expect(boundedEditDistance(source, target, max)).toBe(
          Math.min(editDistance(source, target), max + 1),
        );
      }),
      2_000,
    );
  });
});
