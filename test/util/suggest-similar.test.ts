import { describe, expect, it } from 'vitest';
import { editDistance, suggestSimilar } from '../../src/util/suggest-similar.js';

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

  it('counts a transposition as one edit (Damerau-Levenshtein)', () => {
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
