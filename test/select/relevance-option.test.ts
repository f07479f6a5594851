import { describe, expect, it } from 'vitest';
import { group, registryOf, tool } from './fixtures.js';

// servers imported with keywords that do not anticipate every phrasing
const registry = registryOf([
  group('lodging', { strategy: 'keyword', keywords: ['airbnb', 'listing'] }, [
    tool('search_stays', { description: 'Search places to stay in a city for some dates.' }),
    tool('stay_details', { description: 'Details of one place to stay: rooms, price, rules.' }),
  ]),
  group('maps', { strategy: 'keyword', keywords: ['latitude', 'longitude'] }, [
    tool('geocode', { description: 'Turn an address into coordinates.' }),
    tool('route', { description: 'Directions between two addresses.' }),
  ]),
  group('charts', { strategy: 'keyword', keywords: ['chart'] }, [
    tool('bar_chart', { description: 'Draw a bar chart.' }),
    tool('pie_chart', { description: 'Draw a pie chart.' }),
  ]),
  group('pins', { strategy: 'always' }, [tool('remember')]),
]);

describe('the relevance option', () => {
  it('offers the tools of keyword groups by relevance, where no keyword matches', () => {
    const message = 'find a place to stay in Kyoto for four nights';
    expect(registry.select(message).names).toEqual(['remember']);
    const selection = registry.select(message, { relevance: { k: 2 } });
    expect(selection.names).toEqual(['search_stays', 'stay_details', 'remember']);
    const found = selection.tools.find((selected) => selected.name === 'search_stays')!;
    expect(found.reason).toMatchObject({ strategy: 'relevance', matched: ['place', 'stay'] });
    expect(found.reason.score).toBeGreaterThan(0);
  });

  it('raises the tools of groups the conversation already used, naming the calls', () => {
    const options = { relevance: { k: 4 }, order: 'relevance' as const };
    // "draw" finds the charts; the maps share no word with the message
    expect(registry.select('and now draw it', options).names).toEqual([
      'remember',
      'bar_chart',
      'pie_chart',
    ]);
    // after a geocode call the maps group is in use: its tools are raised by the boost
    const selection = registry.select('and now draw it', {
      ...options,
      history: [{ tool: 'geocode' }],
    });
    expect(selection.names).toEqual(['remember', 'bar_chart', 'pie_chart', 'geocode', 'route']);
    expect(selection.tools[4]!.reason).toEqual({
      strategy: 'relevance',
      matched: ['geocode'],
      score: 0.2,
    });
  });

  it('keeps pins first in the budget and honours k and minScore', () => {
    const selection = registry.select('draw a bar chart of stays', {
      relevance: { k: 2, minScore: 0.1 },
      maxTools: 2,
      order: 'relevance',
    });
    expect(selection.names[0]).toBe('remember');
    expect(selection.names).toHaveLength(2);
    expect(selection.dropped.map((drop) => drop.code)).toEqual(['OVER_MAX_TOOLS']);
  });

  it('abstains with a warning when no tool shares a word with the conversation', () => {
    const selection = registry.select('hello there', { relevance: {} });
    expect(selection.names).toEqual(['remember']);
    expect(selection.warnings).toEqual([
      expect.objectContaining({
        code: 'RELEVANCE_ABSTAINED',
        message: expect.stringContaining('no tool reached the minimum relevance 0'),
      }),
    ]);
  });

  it('is checked: an object, not together with fallback', () => {
    expect(() => registry.select('x', { relevance: 5 as never })).toThrow(
      'relevance must be an object { k, minScore }, got 5',
    );
    expect(() => registry.select('x', { relevance: { k: 0 } })).toThrow(
      'relevance.k must be a positive integer, got 0',
    );
    expect(() => registry.select('x', { relevance: {}, fallback: { k: 2 } })).toThrow(
      'give relevance or fallback, not both',
    );
  });
});
