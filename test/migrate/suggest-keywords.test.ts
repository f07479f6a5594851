import { describe, expect, it } from 'vitest';
import { categoryFromDescription, splitWords } from '../../src/migrate/infer-category.js';
import { keywordDocument, suggestKeywords } from '../../src/migrate/suggest-keywords.js';
import { toGroupName } from '../../src/migrate/to-group-name.js';
import { unwrapToolList } from '../../src/migrate/unwrap-tool-list.js';

const CALENDAR = [
  { name: 'create_event', description: 'Create a calendar event with a title and a start time.' },
  { name: 'list_events', description: 'List the calendar events of a day.' },
  { name: 'cancel_event', description: 'Cancel an event and notify the attendees.' },
];

describe('suggestKeywords', () => {
  it('ranks the words that set the group apart first (TF-IDF against the other groups)', () => {
    const tools = [
      { name: 'book_flight', description: 'Book a flight to a city on a date.' },
      { name: 'cancel_flight', description: 'Cancel a flight booking.' },
      { name: 'hotel_rooms', description: 'Hotel rooms free in a city on a date.' },
    ];
    const rest = Array.from({ length: 5 }, () =>
      keywordDocument([
        { name: 'weather_city', description: 'The weather of a city on a date.' },
        { name: 'cancel_task', description: 'Cancel a task.' },
      ]),
    );
    // alone, "cancel" ranks with the travel words; against groups that also cancel things, the
    // travel words come first
    expect(suggestKeywords(tools, 'travel', { limit: 4 })).toEqual([
      'flight',
      'book',
      'cancel',
      'hotel',
    ]);
    expect(suggestKeywords(tools, 'travel', { rest, limit: 4 })).toEqual([
      'flight',
      'book',
      'hotel',
      'rooms',
    ]);
  });

  it('never suggests verbs of any domain, which would offer the group for any request', () => {
    // "create a new file" must not select a calendar group through "create"
    const keywords = suggestKeywords(CALENDAR, 'calendar');
    for (const word of ['create', 'list', 'get', 'find', 'new'])
      expect(keywords).not.toContain(word);
    expect(keywords[0]).toBe('event');
    // inflected, as descriptions write them: keyword matching compares stems
    const ledger = suggestKeywords(
      [
        { name: 'ledger_entry', description: 'Creates ledger entries.' },
        { name: 'ledger_report', description: 'Sends ledger reports and updates ledger totals.' },
        { name: 'ledger_accounts', description: 'Lists ledger accounts; sets up new ones.' },
      ],
      'ledger',
    );
    expect(ledger[0]).toBe('ledger');
    for (const word of ['creates', 'sends', 'updates', 'lists', 'sets']) {
      expect(ledger).not.toContain(word);
    }
  });

  it('merges inflections by stem and keeps the most frequent spelling', () => {
    const keywords = suggestKeywords(
      [
        { name: 'book_meeting', description: 'Book meetings.' },
        { name: 'move_meeting', description: 'Move a meeting.' },
      ],
      'meetings',
    );
    expect(keywords.filter((word) => word.startsWith('meeting'))).toEqual(['meeting']);
  });

  it('drops stop words, tool boilerplate, numbers and very short words', () => {
    const keywords = suggestKeywords(
      [
        {
          name: 'do_it',
          description: 'This tool returns the value of the given parameter 42 as a string.',
        },
      ],
      'misc',
    );
    expect(keywords).toEqual(['misc']);
  });

  it('never suggests a word validate reports as too common (KEYWORD_TOO_COMMON)', () => {
    const keywords = suggestKeywords(
      [
        { name: 'share_file', description: 'Help users share a file; please tell them the link.' },
        { name: 'need_help', description: 'Say what you need help with.' },
        { name: 'track_parcel', description: 'Track a UPS parcel, helping users.' },
      ],
      'misc',
      { limit: 20 },
    );
    // "ups" and "helping" stem to the common words "up" and "help"
    expect(
      keywords.filter((word) =>
        ['help', 'please', 'tell', 'need', 'ups', 'helping'].includes(word),
      ),
    ).toEqual([]);
    expect(keywords).toContain('file');
    expect(keywords).toContain('share');
  });

  it('drops the type names of Python docstrings', () => {
    const keywords = suggestKeywords(
      [
        {
          name: 'get_prices',
          description: 'Args: fromdate (str): start date. limit (int): how many. opts (dict).',
        },
      ],
      'misc',
    );
    expect(keywords.filter((word) => ['str', 'int', 'dict', 'args'].includes(word))).toEqual([]);
    expect(keywords).toContain('prices');
  });

  it('splits Chinese text into character bigrams, without particles', () => {
    const keywords = suggestKeywords(
      [{ name: 'search_cards', description: '搜索卡牌的效果' }],
      'cards',
      { limit: 10 },
    );
    expect(keywords).toEqual(expect.arrayContaining(['搜索', '卡牌', '效果', 'cards']));
    expect(keywords.some((word) => word.includes('的'))).toBe(false);
  });

  it('falls back to the words of the fallback text, or the text itself', () => {
    expect(suggestKeywords([], 'project_docs')).toEqual(['project', 'docs']);
    expect(suggestKeywords([], '')).toEqual(['']);
  });

  it('is deterministic: ties sort alphabetically', () => {
    const tools = [{ name: 'zeta_alpha', description: '' }];
    expect(suggestKeywords(tools, 'x')).toEqual(['alpha', 'zeta']);
  });
});

describe('categoryFromDescription', () => {
  it.each([
    ['Calculate the area of a triangle.', 'analysis', 'calculate'],
    ['Calculates the area.', 'analysis', 'calculates'],
    ['Retrieves the list of holidays.', 'retrieval', 'retrieves'],
    ['This function deletes a user account.', 'mutation', 'deletes'],
    ['Adding a row to the sheet.', 'creation', 'adding'],
    ['Updated every hour: the exchange rates.', 'mutation', 'updated'],
  ])('%s → %s', (description, category, word) => {
    expect(categoryFromDescription(description)).toEqual({ category, word });
  });

  it('finds nothing without a known verb in the first eight words', () => {
    expect(categoryFromDescription('The news of the day.')).toBeUndefined();
    expect(
      categoryFromDescription('One two three four five six seven eight and then get it.'),
    ).toBeUndefined();
  });

  it('splitWords splits identifiers and sentences', () => {
    expect(splitWords('math.getArea-v2 HTMLParser')).toEqual([
      'math',
      'get',
      'area',
      'v2',
      'html',
      'parser',
    ]);
  });
});

describe('toGroupName', () => {
  it.each([
    ['OP.GG MCP Server', 'op_gg_mcp_server'],
    ['12306-mcp', 'g_12306_mcp'],
    ['Ant Design Components', 'ant_design_components'],
    ['bfcl_live_multiple', 'bfcl_live_multiple'],
    ['myServer', 'my_server'],
    ['Café', 'cafe'],
    ['鸣潮', 'group'],
    [`${'a'.repeat(70)}`, 'a'.repeat(64)],
  ])('%s → %s', (text, name) => {
    expect(toGroupName(text)).toBe(name);
  });
});

describe('unwrapToolList', () => {
  it('finds the list in the usual envelopes', () => {
    const tool = { name: 't' };
    expect(unwrapToolList([tool])).toEqual([tool]);
    expect(unwrapToolList({ tools: [tool] })).toEqual([tool]);
    expect(unwrapToolList({ result: { tools: [tool] } })).toEqual([tool]);
    expect(unwrapToolList({ toolConfig: { tools: [tool] } })).toEqual([tool]);
    expect(unwrapToolList(tool)).toEqual([tool]);
    expect(unwrapToolList({ functionDeclarations: [tool] })).toEqual([
      { functionDeclarations: [tool] },
    ]);
  });
});
