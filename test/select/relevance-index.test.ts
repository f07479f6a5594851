import { describe, expect, it } from 'vitest';
import { RelevanceIndex } from '../../src/select/relevance-index.js';
import { TermVocabulary } from '../../src/select/term-vocabulary.js';
import { createTextAnalyzer } from '../../src/text/text-analyzer.js';
import { group, registryOf, tool } from './fixtures.js';

const registry = registryOf([
  group('g', { strategy: 'always' }, [
    tool('alpha_search', { description: 'Search alpha records.' }),
    tool('beta_list', { description: 'List beta records. Beta beta.' }),
    tool('gamma', { description: 'Gamma only.' }),
  ]),
]);
const analyzer = createTextAnalyzer();

function build() {
  const vocabulary = new TermVocabulary();
  const index = new RelevanceIndex(registry.list(), registry.groups(), analyzer, vocabulary);
  const id = (word: string) => vocabulary.idOf(analyzer.stem(word));
  return { vocabulary, index, id };
}

describe('RelevanceIndex', () => {
  it('counts document frequencies and knows which tool has which term', () => {
    const { index, id, vocabulary } = build();
    expect(index.size).toBe(3);
    expect(index.documentFrequency(id('records'))).toBe(2);
    expect(index.documentFrequency(id('gamma'))).toBe(1);
    expect(index.documentFrequency(-1)).toBe(0);
    expect(index.documentFrequency(vocabulary.size + 5)).toBe(0);
    expect(index.hasTerm(2, id('gamma'))).toBe(true);
    expect(index.hasTerm(0, id('gamma'))).toBe(false);
    expect(vocabulary.termOf(id('gamma'))).toBe('gamma');
  });

  it('scores ranges of candidates exactly as a full search does', () => {
    const { index, id } = build();
    const query = [id('beta'), id('records'), id('search')];
    const weights = [1, 1, 0.5];
    const full = index.search(query, weights, 10);
    const raw = [0, 0, 0];
    index.scoreRanges(query, weights, [0, 3], [0, 1, 2], 0, 3, raw);
    for (const { doc, raw: score } of full) expect(raw[doc]).toBeCloseTo(score, 10);
    expect(raw[2]).toBe(0);
    // a second call starts from a clean accumulator
    const again = [0, 0, 0];
    index.scoreRanges(query, weights, [1, 2], [1], 0, 1, again);
    expect(again[0]).toBeCloseTo(raw[1]!, 10);
  });

  it('searches best first with catalog-order ties, k and a filter', () => {
    const { index, id } = build();
    const results = index.search([id('records')], [1], 10);
    expect(results.map((result) => result.doc)).toEqual([0, 1]);
    expect(index.search([id('records')], [1], 1).map((result) => result.doc)).toEqual([0]);
    expect(index.search([id('records')], [1], 10, (doc) => doc !== 0).map((r) => r.doc)).toEqual([
      1,
    ]);
    expect(index.search([id('beta')], [1], 10)[0]!.doc).toBe(1);
    expect(index.search([-1], [1], 10)).toEqual([]);
  });

  it('bounds scores by maxScore, counting unknown terms', () => {
    const { index, id } = build();
    const query = [id('gamma')];
    const best = index.search(query, [1], 1)[0]!.raw;
    expect(best).toBeLessThan(index.maxScore(query, [1], 0));
    expect(index.maxScore(query, [1], 1)).toBeGreaterThan(index.maxScore(query, [1], 0));
    expect(index.maxScore([], [], 1)).toBeCloseTo(index.unknownIdf * (index.k1 + 1), 10);
  });
});
