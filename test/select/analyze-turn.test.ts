import { describe, expect, it } from 'vitest';
import { analyzeTurn, WordCache } from '../../src/select/analyze-turn.js';
import { TermVocabulary } from '../../src/select/term-vocabulary.js';
import { createTextAnalyzer } from '../../src/text/text-analyzer.js';

const analyzer = createTextAnalyzer();

/** A word cache over a vocabulary of the stems of `words`. */
function cacheOf(...words: string[]) {
  const vocabulary = new TermVocabulary();
  for (const word of words) vocabulary.add(analyzer.stem(word));
  return { words: new WordCache(analyzer, vocabulary), vocabulary };
}

describe('analyzeTurn', () => {
  it('gives every position its term id, ranks known words and lists unknown terms once', () => {
    const { words, vocabulary } = cacheOf('invoice', 'refund');
    const turn = analyzeTurn('Refund the invoices, teams and the team invoice', words);
    expect(turn.words.join(' ')).toBe('refund the invoices teams and the team invoice');
    const invoice = vocabulary.idOf('invoic');
    const refund = vocabulary.idOf('refund');
    expect(turn.ids).toEqual([refund, -1, invoice, -1, -1, -1, -1, invoice]);
    expect(turn.queryIds).toEqual([refund, invoice]);
    expect(turn.queryWords).toEqual(['refund', 'invoices']);
    // stopwords are not ranking words; "teams" and "team" share a term and count once
    expect(turn.unknown).toEqual([{ word: 'teams', term: 'team' }]);
  });

  it('analyzes a message the same way from a warm cache', () => {
    const { words } = cacheOf('calendar', 'meeting');
    const message = 'schedule a meeting on my calendar with the design team today';
    const cold = analyzeTurn(message, words);
    expect(analyzeTurn(message, words)).toEqual(cold);
    expect(cold.unknown.map((entry) => entry.term)).toEqual(['schedul', 'design', 'team', 'todai']);
  });

  it('keeps unknown terms right after the cache is cleared for size', () => {
    const { words } = cacheOf('ledger');
    analyzeTurn('quorvex ledger', words);
    // more distinct words than the cache holds (50,000): it starts over
    const filler = Array.from({ length: 50_010 }, (_, index) => `zz${index.toString(36)}`);
    for (let at = 0; at < filler.length; at += 1000) {
      analyzeTurn(filler.slice(at, at + 1000).join(' '), words);
    }
    const turn = analyzeTurn('brailind ledger quorvex', words);
    expect(turn.unknown).toEqual([
      { word: 'brailind', term: 'brailind' },
      { word: 'quorvex', term: 'quorvex' },
    ]);
    expect(turn.queryWords).toEqual(['ledger']);
  });
});
