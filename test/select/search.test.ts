import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolcapError } from '../../src/errors/toolcap-error.js';
import { createTextAnalyzer } from '../../src/text/text-analyzer.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { group, registryOf, tool } from './fixtures.js';

const SCHEMAS = join(import.meta.dirname, '../../schemas');

describe('registry.search', () => {
  it('ranks the bundled tools for a natural query, with scores and matched words', async () => {
    const registry = await loadRegistry({ dirs: [SCHEMAS] });
    const results = registry.search('move my meeting to friday', { k: 3 });
    expect(results.map((result) => result.name)).toEqual([
      'update_event',
      'create_event',
      'get_agenda',
    ]);
    expect(results[0]).toMatchObject({
      group: 'calendar',
      matched: ['move', 'meeting'],
      tool: registry.get('update_event'),
    });
    for (const result of results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
  });

  const registry = registryOf([
    group('calendar', { strategy: 'keyword', keywords: ['meeting'] }, [
      tool('get_agenda', { description: 'List the events of a day.' }),
      tool('create_event', {
        description: 'Create an event.',
        input_schema: {
          type: 'object',
          properties: {
            attendeeEmails: {
              type: 'array',
              items: { type: 'string', description: 'Invitee address' },
            },
            timezone: { type: 'string', enum: ['UTC', 'Europe/Paris'] },
          },
        },
      }),
    ]),
    group(
      'weather',
      { strategy: 'keyword', keywords: ['forecast'] },
      [
        tool('get_forecast', { description: 'Weather forecast for a city.', title: 'Forecast' }),
        tool('get_alerts', { description: 'Storm alerts.', tags: ['weather'] }),
      ],
      'Weather data from the national service.',
    ),
  ]);
  const names = (query: string, options = {}) =>
    registry.search(query, options).map((result) => result.name);

  it('splits identifiers in names and parameters', () => {
    expect(names('agenda')).toEqual(['get_agenda']);
    expect(names('getAgenda')[0]).toBe('get_agenda');
    expect(names('attendee email')[0]).toBe('create_event');
    expect(names('invitee')).toEqual(['create_event']);
    expect(names('paris timezone')).toEqual(['create_event']);
  });

  it('uses titles, tags and the group keywords and description', () => {
    expect(names('storm weather')[0]).toBe('get_alerts');
    expect(names('national service')).toEqual(['get_forecast', 'get_alerts']);
    expect(names('meeting')).toEqual(['get_agenda', 'create_event']);
  });

  it('breaks ties by catalog order and is deterministic', () => {
    expect(names('meeting')).toEqual(['get_agenda', 'create_event']);
    expect(registry.search('weather forecast')).toEqual(registry.search('weather forecast'));
  });

  it('limits results with k and minScore', () => {
    expect(names('get weather', { k: 1 })).toHaveLength(1);
    const all = registry.search('weather forecast city');
    const threshold = all[0]!.score;
    expect(
      registry.search('weather forecast city', { minScore: threshold }).map((r) => r.name),
    ).toEqual([all[0]!.name]);
  });

  it('filters by group', () => {
    expect(names('get', { groups: ['weather'] })).toEqual(['get_forecast', 'get_alerts']);
  });

  it('returns nothing for stopwords, unknown words or an empty query', () => {
    expect(registry.search('')).toEqual([]);
    expect(registry.search('the and of')).toEqual([]);
    expect(registry.search('zzzz qqqq')).toEqual([]);
  });

  it('scores lower when part of the query is unknown', () => {
    const full = registry.search('forecast')[0]!.score;
    const diluted = registry.search('forecast zanzibar')[0]!.score;
    expect(diluted).toBeLessThan(full);
  });

  it('finds a tool through a related word of the query, and says which', () => {
    const shop = registryOf([
      group('shop', { strategy: 'always' }, [
        tool('purchase_item', { description: 'Purchase an item from the store.' }),
        tool('list_orders', { description: 'List the orders placed so far.' }),
      ]),
    ]);
    const results = shop.search('buy a lamp');
    expect(results.map((result) => result.name)).toEqual(['purchase_item']);
    expect(results[0]!.matched).toEqual(['buy→purchase']);
  });

  it('uses no related words with an analyzer that does not declare English', () => {
    // the documented way to turn them off: "parcel" is a WordNet relative of "share"
    const { language: _english, ...plain } = createTextAnalyzer();
    const files = [
      group('files', { strategy: 'always' }, [
        tool('share_file', { description: 'Share a file or folder with a teammate.' }),
        tool('track_parcel', { description: 'Track a shipment by its tracking number.' }),
      ]),
    ];
    const names = (registry: ReturnType<typeof registryOf>) =>
      registry.search('my parcel never arrived').map((result) => result.name);
    expect(names(registryOf(files))).toEqual(['track_parcel', 'share_file']);
    expect(names(registryOf(files, { analyzer: plain }))).toEqual(['track_parcel']);
  });

  it('leaves out a related word that most of a large catalog contains', () => {
    // "purchase" (related to "buy") in `with` of 200 tools: at most max(20, 5%) may hold it
    const catalog = (count: number) =>
      registryOf([
        group(
          'shop',
          { strategy: 'always' },
          Array.from({ length: 200 }, (_, index) =>
            tool(`tool_${index}`, {
              description: index < count ? 'Purchase something.' : `Handle case ${index}.`,
            }),
          ),
        ),
      ]);
    expect(catalog(20).search('buy', { k: 50 })).toHaveLength(20);
    expect(catalog(21).search('buy', { k: 50 })).toEqual([]);
    // the word itself is still found, however common
    expect(catalog(21).search('purchase', { k: 50 })).toHaveLength(21);
  });

  it('tolerates typos only when asked, and marks them', () => {
    expect(names('forecsat')).toEqual([]);
    const results = registry.search('forecsat', { typoTolerance: true });
    expect(results[0]).toMatchObject({ name: 'get_forecast', matched: ['forecsat~forecast'] });
  });

  it.each([
    [{ k: 0 }, 'search: k must be a positive integer, got 0'],
    [{ k: Number.POSITIVE_INFINITY }, 'search: k must be a positive integer, got Infinity'],
    [{ minScore: 2 }, 'search: minScore must be a number from 0 to 1, got 2'],
    [{ minScore: -1 }, 'search: minScore must be a number from 0 to 1, got -1'],
    [{ typoTolerance: 'x' }, 'search: typoTolerance must be true or false, got "x"'],
    [{ typoTolerance: 1 }, 'search: typoTolerance must be true or false, got 1'],
    [{ groups: [1] }, 'search: groups[0] must be a group name (a string), got 1'],
    [{ groups: ['weather', null] }, 'search: groups[1] must be a group name (a string), got null'],
    [{ groups: 'weather' }, 'search: groups must be an array of group names, got "weather"'],
    [
      { groups: ['weather', 'wether'] },
      'search: groups[1] "wether" is not a group of this registry; did you mean "weather"? Groups: calendar, weather',
    ],
    [
      { groups: ['nosuch'] },
      'search: groups[0] "nosuch" is not a group of this registry. Groups: calendar, weather',
    ],
    [
      { minscore: 0.5 },
      'search: unknown option "minscore"; did you mean "minScore"? Options: k, minScore, typoTolerance, groups',
    ],
  ])('rejects %j with INVALID_SEARCH_OPTION', (options, message) => {
    let error: unknown;
    try {
      registry.search('x', options as never);
    } catch (caught) {
      error = caught;
    }
    expect(ToolcapError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_SEARCH_OPTION', message });
  });

  it('rejects a query that is not a string', () => {
    expect(() => registry.search(3 as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_SEARCH_OPTION',
        message: 'search: the query must be a string, got 3',
      }),
    );
  });
});

describe('registry.search: example requests', () => {
  const finance = (withOthers: boolean) =>
    registryOf([
      group('finance', { strategy: 'always' }, [
        tool('get_crypto_price', {
          description: 'Get the current price of a cryptocurrency such as BTC or ETH.',
          example_requests: ['how much is one bitcoin worth right now?'],
        }),
        tool('convert_currency', {
          description: 'Convert an amount from one currency to another at the latest rate.',
          ...(withOthers ? { example_requests: ['change 20 euros into yen please'] } : {}),
        }),
        tool('get_stock_quote', { description: 'Get a real-time stock quote for a ticker.' }),
        tool('estimate_tax', { description: 'Estimate the income tax of a year.' }),
      ]),
    ]);

  it('a request learned for one tool ranks it first, though no other tool has any', () => {
    const query = 'how much is one bitcoin worth right now?';
    const alone = finance(false).search(query, { k: 2 });
    expect(alone.map((result) => result.name)).toEqual(['get_crypto_price', 'convert_currency']);
    // the field's length is judged against the tools that have requests, not against all
    const withOthers = finance(true).search(query, { k: 1 });
    expect(alone[0]!.score).toBeGreaterThan(withOthers[0]!.score * 0.8);
  });
});
