import { describe, expect, it } from 'vitest';
import { RelevanceIndex } from '../../src/select/relevance-index.js';
import { TermVocabulary } from '../../src/select/term-vocabulary.js';
import { BM25_K1 } from '../../src/select/tool-document.js';
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

/** A ranking query of `ids` with `weights` (default 1) and `unknown` words. */
function q(ids: number[], weights: number[] = ids.map(() => 1), unknown = 0) {
  return { ids, weights, own: ids.length, unknown };
}

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
    const full = index.search(q(query, weights), 10);
    const raw = [0, 0, 0];
    index.scoreRanges(q(query, weights), [0, 3], [0, 1, 2], 0, 3, raw);
    for (const { doc, raw: score } of full) expect(raw[doc]).toBeCloseTo(score, 10);
    expect(raw[2]).toBe(0);
    // a second call starts from a clean accumulator
    const again = [0, 0, 0];
    index.scoreRanges(q(query, weights), [1, 2], [1], 0, 1, again);
    expect(again[0]).toBeCloseTo(raw[1]!, 10);
  });

  it('scores ranges anywhere in long postings exactly as a full search does', () => {
    // 12 groups of 15 tools: "records" is in every tool, "ledger" in every third and "alpha"
    // in one group, so postings are long, sparse and short
    const groups = Array.from({ length: 12 }, (_, g) =>
      group(
        `g${g}`,
        { strategy: 'keyword', keywords: [`k${g}`] },
        Array.from({ length: 15 }, (_, t) =>
          tool(`g${g}_t${t}`, {
            description: `Records of ${(g * 15 + t) % 3 === 0 ? 'ledger ' : ''}${g === 7 ? 'alpha ' : ''}item ${t}.`,
          }),
        ),
      ),
    );
    const large = registryOf(groups);
    const vocabulary = new TermVocabulary();
    const index = new RelevanceIndex(large.list(), large.groups(), analyzer, vocabulary);
    const id = (word: string) => vocabulary.idOf(analyzer.stem(word));
    const query = [id('records'), id('ledger'), id('alpha'), id('item')];
    const weights = [1, 0.5, 2, 1];
    const full = new Map(index.search(q(query, weights), 1000).map((r) => [r.doc, r.raw]));
    expect(full.size).toBe(180);
    // every group's range alone, several together (out of catalog order), single tools, and
    // ranges that start and end inside groups
    const cases: number[][] = [
      ...Array.from({ length: 12 }, (_, g) => [g * 15, g * 15 + 15]),
      [150, 165, 0, 15, 105, 120],
      [0, 1],
      [179, 180],
      [7, 38],
      [101, 102, 44, 46],
    ];
    for (const ranges of cases) {
      const docs: number[] = [];
      for (let at = 0; at < ranges.length; at += 2) {
        for (let doc = ranges[at]!; doc < ranges[at + 1]!; doc++) docs.push(doc);
      }
      const raw = docs.map(() => 0);
      index.scoreRanges(q(query, weights), ranges, docs, 0, docs.length, raw);
      docs.forEach((doc, slot) => {
        expect(raw[slot]).toBeCloseTo(full.get(doc)!, 10);
      });
    }
  });

  it('keeps the k best of a query that touches every tool, ties in catalog order, for any k', () => {
    const groups = Array.from({ length: 12 }, (_, g) =>
      group(
        `g${g}`,
        { strategy: 'keyword', keywords: [`k${g}`] },
        Array.from({ length: 15 }, (_, t) =>
          tool(`g${g}_t${t}`, { description: `Records ${t % 4 === 0 ? 'ledger ' : ''}item.` }),
        ),
      ),
    );
    const large = registryOf(groups);
    const vocabulary = new TermVocabulary();
    const index = new RelevanceIndex(large.list(), large.groups(), analyzer, vocabulary);
    const id = (word: string) => vocabulary.idOf(analyzer.stem(word));
    const query = q([id('records'), id('ledger')], [1, 1]);
    const all = index.search(query, 1000);
    expect(all).toHaveLength(180);
    const expected = [...all].sort((a, b) => b.raw - a.raw || a.doc - b.doc);
    expect(all).toEqual(expected);
    for (const k of [1, 5, 32, 33, 100]) {
      expect(index.search(query, k)).toEqual(expected.slice(0, k));
    }
    // ties: the 45 "ledger" tools score alike and come in catalog order
    expect(index.search(query, 3).map((result) => result.doc)).toEqual([0, 4, 8]);
  });

  it('breaks ties by catalog order even when later tools are found first', () => {
    // "alpha" in the first 90 tools, "beta" in the last 90: the same weight for all 180
    const groups = Array.from({ length: 12 }, (_, g) =>
      group(
        `g${g}`,
        { strategy: 'keyword', keywords: [`k${g}`] },
        Array.from({ length: 15 }, (_, t) =>
          tool(`g${g}_t${t}`, { description: `${g < 6 ? 'Alpha' : 'Beta'} item.` }),
        ),
      ),
    );
    const large = registryOf(groups);
    const vocabulary = new TermVocabulary();
    const index = new RelevanceIndex(large.list(), large.groups(), analyzer, vocabulary);
    const id = (word: string) => vocabulary.idOf(analyzer.stem(word));
    const query = q([id('beta'), id('alpha')], [1, 1]);
    for (const k of [3, 40]) {
      expect(index.search(query, k).map((result) => result.doc)).toEqual(
        Array.from({ length: k }, (_, doc) => doc),
      );
    }
  });

  it('searches best first with catalog-order ties, k and a filter', () => {
    const { index, id } = build();
    const results = index.search(q([id('records')]), 10);
    expect(results.map((result) => result.doc)).toEqual([0, 1]);
    expect(index.search(q([id('records')]), 1).map((result) => result.doc)).toEqual([0]);
    expect(index.search(q([id('records')]), 10, (doc) => doc !== 0).map((r) => r.doc)).toEqual([1]);
    expect(index.search(q([id('beta')]), 10)[0]!.doc).toBe(1);
    expect(index.search(q([-1]), 10)).toEqual([]);
  });

  it('bounds scores by maxScore, counting unknown terms', () => {
    const { index, id } = build();
    const query = [id('gamma')];
    const best = index.search(q(query), 1)[0]!.raw;
    expect(best).toBeLessThan(index.maxScore(q(query)));
    expect(index.maxScore(q(query, [1], 1))).toBeGreaterThan(index.maxScore(q(query)));
    expect(index.maxScore(q([], [], 1))).toBeCloseTo(index.unknownIdf * (BM25_K1 + 1), 10);
  });
});
