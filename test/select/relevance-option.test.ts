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
      matched_history: ['geocode'],
      score: 0.2,
    });
  });

  it('raises the siblings of the most relevant tools, naming the tool that raised them', () => {
    const servers = registryOf([
      group('lodging', { strategy: 'keyword', keywords: ['airbnb'] }, [
        tool('search_stays', { description: 'Search places to stay in a city for some dates.' }),
        tool('cancel_booking', { description: 'Cancel a reservation.' }),
      ]),
      group('maps', { strategy: 'keyword', keywords: ['latitude'] }, [
        tool('geocode', { description: 'Turn an address into coordinates.' }),
        tool('route', { description: 'Directions between two addresses.' }),
      ]),
    ]);
    const selection = servers.select('find a place to stay in Kyoto', {
      relevance: { k: 5 },
      order: 'relevance',
    });
    // cancel_booking shares no word with the message; its sibling is the best match, so it is
    // raised by the whole group boost (0.2); the maps share nothing and have no relevant tool
    expect(selection.names).toEqual(['search_stays', 'cancel_booking']);
    expect(selection.tools[1]!.reason).toEqual({
      strategy: 'relevance',
      matched: ['search_stays'],
      raised_by: 'search_stays',
      score: 0.2,
    });
    expect(selection.tools[0]!.reason).toEqual({
      strategy: 'relevance',
      matched: ['place', 'stay'],
      matched_words: ['place', 'stay'],
      score: expect.any(Number),
    });
    // once the conversation has used a group, the history boost leads and siblings are not raised
    const later = servers.select('find a place to stay in Kyoto', {
      relevance: { k: 5 },
      order: 'relevance',
      history: [{ tool: 'geocode' }],
    });
    expect(later.names).toEqual(['search_stays', 'geocode', 'route']);
  });

  it('raises a group by how well its best tool matched, relative to the best of the turn', () => {
    const servers = registryOf([
      group('lodging', { strategy: 'keyword', keywords: ['airbnb'] }, [
        tool('search_stays', { description: 'Search places to stay in a city for some dates.' }),
        tool('cancel_booking', { description: 'Cancel a reservation.' }),
      ]),
      group('maps', { strategy: 'keyword', keywords: ['latitude'] }, [
        tool('geocode', { description: 'Turn the address of a city into coordinates.' }),
        tool('route', { description: 'Directions between two addresses.' }),
      ]),
    ]);
    const selection = servers.select('stay in a city', { relevance: { k: 4 }, order: 'relevance' });
    const score = (name: string) =>
      selection.tools.find((selected) => selected.name === name)!.reason.score!;
    // route is raised by 0.2 × (geocode's score / search_stays' score), less than cancel_booking
    expect(selection.names).toEqual(['search_stays', 'geocode', 'cancel_booking', 'route']);
    expect(score('cancel_booking')).toBe(0.2);
    expect(score('route')).toBeCloseTo((0.2 * score('geocode')) / score('search_stays'), 2);
    expect(score('route')).toBeLessThan(0.2);
  });

  it('gates minScore on relevance before the raise: a weak match is not lifted over it', () => {
    const servers = registryOf([
      group('lodging', { strategy: 'keyword', keywords: ['airbnb'] }, [
        tool('search_stays', { description: 'Search places to stay in a city for some dates.' }),
        tool('cancel_booking', { description: 'Cancel a reservation.' }),
      ]),
    ]);
    const options = { relevance: { k: 5, minScore: 0.5 } };
    const weak = servers.select('a city', options);
    expect(weak.names).toEqual([]);
    // "city" alone scores below 0.5; the raise (which would put it over) does not count
    expect(weak.warnings[0]!.message).toMatch(/minimum relevance 0\.5 \(best 0\.\d+\)/);
    const best = Number(/best ([\d.]+)/.exec(weak.warnings[0]!.message)![1]);
    expect(best).toBeLessThan(0.5);
    expect(best + 0.2).toBeGreaterThan(0.5);
    // a sibling passes when its group's best tool does
    const strong = servers.select('search stays', options);
    expect(strong.names).toEqual(['search_stays', 'cancel_booking']);
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
    // the reason names the order of this mode: by score, not round-robin over matched groups
    expect(selection.dropped[0]!.reason).toBe(
      'maxTools 2 is reached by higher-ranked tools (pinned, context, then the tools of keyword groups by relevance score); raise maxTools to include it',
    );
  });

  it('names the fallback order in OVER_MAX_TOOLS drops of a fallback turn', () => {
    const selection = registry.select('draw a bar chart of stays', {
      fallback: { k: 3, minScore: 0 },
      maxTools: 2,
    });
    // "chart" matches the charts group: its tools go round-robin, as the reason says
    expect(selection.dropped[0]!.reason).toContain('then matched groups round-robin by relevance');
    const fallback = registry.select('find a place to stay in Kyoto', {
      fallback: { k: 3, minScore: 0 },
      maxTools: 2,
    });
    expect(fallback.tools.map((selected) => selected.reason.strategy)).toContain('fallback');
    expect(fallback.dropped.map((drop) => drop.reason)).toContain(
      'maxTools 2 is reached by higher-ranked tools (pinned, context, then the fallback tools by relevance score); raise maxTools to include it',
    );
  });

  it('abstains with a warning when no tool shares a word with the conversation', () => {
    const selection = registry.select('hello there', { relevance: {} });
    expect(selection.names).toEqual(['remember']);
    expect(selection.warnings).toEqual([
      {
        code: 'RELEVANCE_ABSTAINED',
        message:
          'no tool of a keyword group shares a word with the message or the history, so none is offered by relevance',
      },
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
