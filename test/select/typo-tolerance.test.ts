import { describe, expect, it } from 'vitest';
import { group, registryOf, tool } from './fixtures.js';

// "cancel" is only in the tools' text; "order" and "subscription" are keywords too
const shop = registryOf([
  group('shop', { strategy: 'keyword', keywords: ['order', 'subscription'] }, [
    tool('cancel_order', { description: 'Cancel an order that has not shipped yet.' }),
    tool('renew_plan', { description: "Renew the customer's subscription for another year." }),
  ]),
  group('weather', { strategy: 'keyword', keywords: ['weather'] }, [
    tool('get_forecast', { description: 'The forecast for a city.' }),
  ]),
]);

describe('typo tolerance: one rule for select and search', () => {
  it('is off by default everywhere', () => {
    expect(shop.search('cancle')).toEqual([]);
    expect(shop.select('cancle', { relevance: { k: 3 } }).names).toEqual([]);
    expect(shop.select('my subscripton').names).toEqual([]);
  });

  it('corrects a word of the tools’ text in relevance mode as search does', () => {
    const found = shop.search('cancle', { typoTolerance: true });
    expect(found.map(({ name, score, matched }) => ({ name, score, matched }))).toEqual([
      { name: 'cancel_order', score: 0.7664, matched: ['cancle~cancel'] },
    ]);
    const selection = shop.select('cancle', { relevance: { k: 3 }, typoTolerance: true });
    expect(selection.warnings).toEqual([]);
    expect(selection.tools.map((selected) => [selected.name, selected.reason])).toEqual([
      [
        'cancel_order',
        {
          strategy: 'relevance',
          matched: ['cancle~cancel'],
          matched_words: ['cancle~cancel'],
          score: 0.9664,
        },
      ],
      [
        'renew_plan',
        { strategy: 'relevance', matched: ['cancel_order'], raised_by: 'cancel_order', score: 0.2 },
      ],
    ]);
  });

  it('corrects a word one edit from a word as written, not only from its stem, in search as in select', () => {
    // "subscripton" is two edits from the stem "subscript" but one from "subscription"
    const found = shop.search('my subscripton', { typoTolerance: true });
    expect(found.map(({ name, score, matched }) => ({ name, score, matched }))).toEqual([
      { name: 'renew_plan', score: 0.6417, matched: ['subscripton~subscription'] },
      { name: 'cancel_order', score: 0.5319, matched: ['subscripton~subscription'] },
    ]);
    const selection = shop.select('my subscripton', { typoTolerance: true });
    expect(selection.tools.map((selected) => [selected.name, selected.reason])).toEqual([
      [
        'cancel_order',
        {
          strategy: 'keyword',
          matched: ['subscription'],
          matched_keywords: ['subscription'],
          score: 0.5319,
          typos: [{ keyword: 'subscription', word: 'subscripton' }],
        },
      ],
      [
        'renew_plan',
        {
          strategy: 'keyword',
          matched: ['subscription'],
          matched_keywords: ['subscription'],
          score: 0.6417,
          typos: [{ keyword: 'subscription', word: 'subscripton' }],
        },
      ],
    ]);
  });

  it('shows a corrected word as word~correction in relevance and fallback reasons', () => {
    const relevance = shop.select('my subscripton', {
      relevance: { k: 1, minScore: 0 },
      typoTolerance: true,
    });
    expect(relevance.tools[0]?.reason).toEqual({
      strategy: 'relevance',
      matched: ['subscripton~subscription'],
      matched_words: ['subscripton~subscription'],
      score: 0.8417,
    });
    const fallback = shop.select('cancle', { fallback: { k: 1 }, typoTolerance: true });
    expect(fallback.tools[0]?.reason).toEqual({
      strategy: 'fallback',
      matched: ['cancle~cancel'],
      matched_words: ['cancle~cancel'],
      score: 0.7664,
    });
  });

  it('reports the history keywords a relevance tool matched through a typo', () => {
    const selection = shop.select('next', {
      history: ['my subscripton'],
      relevance: { k: 1 },
      typoTolerance: true,
    });
    expect(selection.tools[0]?.reason).toMatchObject({
      strategy: 'relevance',
      matched_keywords: ['subscription'],
      typos: [{ keyword: 'subscription', word: 'subscripton' }],
    });
  });

  it('leaves alone the words some tool or keyword contains, stopwords and short words', () => {
    // "order" is a word of the catalog: not read as a typo of anything one edit away
    expect(shop.search('orders', { typoTolerance: true })[0]?.matched).toEqual(['orders']);
    expect(shop.search('cancl', { typoTolerance: true })[0]?.matched).toEqual(['cancl~cancel']);
    expect(shop.search('cnl', { typoTolerance: true })).toEqual([]);
    expect(shop.search('whicch', { typoTolerance: true })).toEqual([]);
  });

  it('says in the abstention that typos were corrected', () => {
    const on = shop.select('xylophone', { relevance: { k: 3 }, typoTolerance: true });
    expect(on.warnings).toEqual([
      {
        code: 'RELEVANCE_ABSTAINED',
        message:
          'no tool of a keyword group shares a word (or, for words of 5+ letters, a word one typo away) with the message or the history, so none is offered by relevance',
      },
    ]);
    const off = shop.select('xylophone', { relevance: { k: 3 } });
    expect(off.warnings[0]?.message).toBe(
      'no tool of a keyword group shares a word with the message or the history, so none is offered by relevance',
    );
  });
});
