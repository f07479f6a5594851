import { describe, expect, it } from 'vitest';
import { listKeywordPhrases } from '../../src/text/list-keyword-phrases.js';
import { createTextAnalyzer } from '../../src/text/text-analyzer.js';

describe('listKeywordPhrases', () => {
  const analyzer = createTextAnalyzer();
  const phrases = (keyword: string) => listKeywordPhrases(analyzer, analyzer.analyze(keyword));

  it('gives a one-word keyword its stem, folded like message words', () => {
    expect(phrases('Invoices')).toEqual([['invoic']]);
    expect(phrases(' invoice ')).toEqual(phrases('INVOICES'));
    expect(phrases('Café')).toEqual(phrases('cafe'));
  });

  it('gives a multi-word keyword its terms in order and its one-word spelling', () => {
    expect(phrases('pull requests')).toEqual([['pull', 'request'], ['pullrequest']]);
  });

  it('is empty for a keyword without words', () => {
    expect(phrases('  ')).toEqual([]);
  });
});
