import { describe, expect, it } from 'vitest';
import {
  createTextAnalyzer,
  getDefaultTextAnalyzer,
  resolveTextAnalyzer,
} from '../../src/text/text-analyzer.js';

describe('createTextAnalyzer', () => {
  it('stems English words with Porter', () => {
    const analyzer = createTextAnalyzer();
    const terms = analyzer.analyze('appointments scheduling rebasing').map((token) => token.term);
    expect(terms).toEqual(['appoint', 'schedul', 'rebas']);
    expect(analyzer.stem('appointment')).toBe('appoint');
    expect(analyzer.stem('schedule')).toBe('schedul');
    expect(analyzer.stem('rebase')).toBe('rebas');
  });

  it('keeps words and terms apart and stems compound parts', () => {
    const [token] = createTextAnalyzer().analyze('list_meetings');
    expect(token).toEqual({
      word: 'listmeetings',
      term: 'listmeet',
      parts: [
        { word: 'list', term: 'list' },
        { word: 'meetings', term: 'meet' },
      ],
    });
  });

  it('leaves symbols, digits, short and non-Latin words unstemmed', () => {
    const analyzer = createTextAnalyzer();
    expect(analyzer.analyze('c++ node.js 2024 is привет').map((token) => token.term)).toEqual([
      'c++',
      'nodej',
      '2024',
      'is',
      'привет',
    ]);
  });

  it('knows English stopwords, and accepts custom ones', () => {
    expect(getDefaultTextAnalyzer().isStopword('the')).toBe(true);
    expect(getDefaultTextAnalyzer().isStopword('calendar')).toBe(false);
    const custom = createTextAnalyzer({ stopwords: ['calendar'] });
    expect(custom.isStopword('calendar')).toBe(true);
    expect(custom.isStopword('the')).toBe(false);
  });

  it('accepts "none" or a function as the stemmer', () => {
    expect(createTextAnalyzer({ stemmer: 'none' }).stem('meetings')).toBe('meetings');
    const suffix = createTextAnalyzer({ stemmer: (word) => word.replace(/s$/, '') });
    expect(suffix.analyze('Meetings réunions').map((token) => token.term)).toEqual([
      'meeting',
      'reunion',
    ]);
  });

  it('accepts a custom tokenizer returning words or tokens, folded and lowercased', () => {
    const words = createTextAnalyzer({ tokenizer: (text) => text.split('|') });
    expect(words.tokenize('Réunion|C++')).toEqual([
      { text: 'reunion', parts: [] },
      { text: 'c++', parts: [] },
    ]);
    const tokens = createTextAnalyzer({
      stemmer: 'none',
      tokenizer: () => [{ text: 'Get_Agenda', parts: ['Get', 'Agenda'] }],
    });
    expect(tokens.analyze('ignored')).toEqual([
      {
        word: 'get_agenda',
        term: 'get_agenda',
        parts: [
          { word: 'get', term: 'get' },
          { word: 'agenda', term: 'agenda' },
        ],
      },
    ]);
  });

  it('caches stems', () => {
    let calls = 0;
    const analyzer = createTextAnalyzer({
      stemmer: (word) => {
        calls++;
        return word;
      },
    });
    analyzer.analyze('one two one two one');
    expect(calls).toBe(2);
  });

  it('resolves an analyzer or options', () => {
    const analyzer = createTextAnalyzer({ stemmer: 'none' });
    expect(resolveTextAnalyzer(analyzer)).toBe(analyzer);
    expect(resolveTextAnalyzer({ stemmer: 'none' }).stem('meetings')).toBe('meetings');
    expect(getDefaultTextAnalyzer()).toBe(getDefaultTextAnalyzer());
  });
});
