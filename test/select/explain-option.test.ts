import { describe, expect, it } from 'vitest';
import { ToolcapError } from '../../src/errors/toolcap-error.js';
import type { SelectOptions, ToolExplanation } from '../../src/select/types.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { createTopicEmbedder } from '../embeddings/topic-embedder.js';
import { group, registryOf, tool } from './fixtures.js';

const registry = registryOf(
  [
    group('billing', { strategy: 'keyword', keywords: ['invoice', 'refund', 'pull request'] }, [
      tool('create_invoice', { description: 'Create an invoice for a customer.' }),
      tool(
        'issue_refund',
        { description: 'Refund a payment.', category: 'mutation' },
        { requires_context: ['account_id'] },
      ),
    ]),
    group('lodging', { strategy: 'keyword', keywords: ['airbnb', 'listing'] }, [
      tool('search_stays', { description: 'Search places to stay in a city for some dates.' }),
      tool('stay_details', { description: 'Details of one place to stay: rooms, price, rules.' }),
    ]),
    group('maps', { strategy: 'keyword', keywords: ['latitude', 'longitude'] }, [
      tool('geocode', { description: 'Turn an address into coordinates.' }),
      tool('route', { description: 'Directions between two addresses for a stay.' }),
    ]),
    group('pins', { strategy: 'always' }, [tool('remember')]),
    group('account', { strategy: 'context' }, [
      tool('whoami', {}, { requires_context: ['user_id'] }),
    ]),
    group('admin', { strategy: 'context', context_check: 'is_admin' }, [tool('ban_user')]),
  ],
  { contextChecks: { is_admin: (context) => context.role === 'admin' } },
);

/** The explanation of `name` for one turn. */
function explain(message: string, name: string, options: SelectOptions = {}): ToolExplanation {
  const explained = registry.select(message, { ...options, explain: [name] }).explained;
  expect(explained).toHaveLength(1);
  return explained![0]!;
}

describe('select explain: selected and dropped tools', () => {
  it('gives a selected tool its reason, by strategy', () => {
    expect(explain('send the invoice', 'create_invoice')).toEqual({
      tool: 'create_invoice',
      status: 'selected',
      reason: `selected: the message matched its group's keywords "invoice" (score ${registry.select('send the invoice').tools[0]!.reason.score})`,
      group: 'billing',
    });
    expect(explain('hello', 'remember').reason).toBe(
      'selected: its group is pinned (strategy "always")',
    );
    expect(explain('hello', 'whoami', { context: { user_id: 'u1' } }).reason).toBe(
      'selected: its context group applies (context user_id is set)',
    );
    expect(explain('hello', 'ban_user', { context: { role: 'admin' } }).reason).toBe(
      'selected: its context group applies (context_check "is_admin" returned true)',
    );
    expect(
      explain('and again', 'create_invoice', { history: [{ tool: 'create_invoice' }, 'a refund'] })
        .reason,
    ).toMatch(
      /^selected: its group is kept by the history: earlier messages matched its keywords "refund"; earlier turns called "create_invoice" \(score [\d.]+\)$/,
    );
    expect(explain('send the invocie', 'create_invoice', { typoTolerance: true }).reason).toMatch(
      /^selected: the message matched its group's keywords "invoice" \(as the typo "invocie"\)/,
    );
  });

  it('explains fallback and relevance tools by the words they share with the turn', () => {
    expect(explain('find a place to stay', 'search_stays', { fallback: { k: 1 } }).reason).toMatch(
      /^selected by the fallback \(no keyword group matched\): it shares the words "place", "stay" with this turn \(score [\d.]+\)$/,
    );
    expect(explain('find a place to stay', 'search_stays', { relevance: { k: 1 } }).reason).toMatch(
      /^selected by relevance: it shares the words "place", "stay" with this turn \(score [\d.]+\)$/,
    );
    expect(explain('find a place to stay', 'stay_details', { relevance: { k: 1 } }).status).toBe(
      'below-cutoff',
    );
    expect(
      explain('draw it', 'route', { relevance: { k: 5 }, history: [{ tool: 'geocode' }] }).reason,
    ).toBe('selected by relevance: its group was used in earlier turns (score 0.2)');
  });

  it('names a raised sibling the tool that raised it', () => {
    const siblings = registryOf([
      group('lodging', { strategy: 'keyword', keywords: ['airbnb'] }, [
        tool('search_stays', { description: 'Search places to stay in a city for some dates.' }),
        tool('cancel_booking', { description: 'Cancel a reservation.' }),
      ]),
    ]);
    const [explained] = siblings.select('find a place to stay', {
      relevance: { k: 5 },
      explain: ['cancel_booking'],
    }).explained!;
    expect(explained!.reason).toBe(
      `selected by relevance: its group's best tool "search_stays" raised it (score 0.2)`,
    );
  });

  it('gives a dropped tool its drop code and reason, with a status by cause', () => {
    expect(explain('send the invoice', 'create_invoice', { maxTools: 1 })).toEqual({
      tool: 'create_invoice',
      status: 'dropped',
      reason:
        'left out (OVER_MAX_TOOLS): maxTools 1 is reached by higher-ranked tools (pinned, context, then matched groups round-robin by relevance); raise maxTools to include it',
      group: 'billing',
      code: 'OVER_MAX_TOOLS',
    });
    expect(explain('send the invoice', 'create_invoice', { categories: ['mutation'] })).toEqual({
      tool: 'create_invoice',
      status: 'excluded',
      reason:
        'left out (CATEGORY_EXCLUDED): category retrieval is not among the allowed categories (mutation)',
      group: 'billing',
      code: 'CATEGORY_EXCLUDED',
    });
    expect(explain('a refund', 'issue_refund')).toEqual({
      tool: 'issue_refund',
      status: 'needs-context',
      reason:
        'left out (MISSING_CONTEXT): requires context account_id, which this turn does not set; pass context.account_id',
      group: 'billing',
      code: 'MISSING_CONTEXT',
    });
    expect(explain('hello', 'whoami')).toMatchObject({
      status: 'needs-context',
      reason:
        'left out (MISSING_CONTEXT): its context group is offered only with context user_id, which this turn does not set; pass context.user_id',
    });
    expect(explain('hello', 'ban_user')).toMatchObject({
      status: 'needs-context',
      code: 'CONTEXT_NOT_MET',
      reason: `left out (CONTEXT_NOT_MET): its group's context_check "is_admin" returned false for this turn's context`,
    });
  });
});

describe('select explain: tools that were never candidates', () => {
  it('lists the keywords of a keyword group the message did not match', () => {
    expect(explain('hello there', 'geocode')).toEqual({
      tool: 'geocode',
      status: 'not-matched',
      reason:
        'its keyword group "maps" did not match: the message has none of its keywords "latitude", "longitude"',
      group: 'maps',
    });
    expect(explain('hello there', 'geocode', { history: ['hi', 'and you'] }).reason).toBe(
      'its keyword group "maps" did not match: neither the message nor the history (2 entries) has any of its keywords "latitude", "longitude"',
    );
  });

  it('names the message words that came closest: one edit away, or part of a phrase', () => {
    expect(explain('send the invocie for this request', 'create_invoice').reason).toBe(
      'its keyword group "billing" did not match: the message has none of its keywords "invoice", "refund", "pull request"; closest: "invocie" is one edit from the keyword "invoice" (typoTolerance: true matches it); the message has "request" but not the whole keyword "pull request"',
    );
    // with typo tolerance on, a one-edit word would have matched: only the phrase is close
    expect(explain('open a request', 'create_invoice', { typoTolerance: true }).reason).toBe(
      'its keyword group "billing" did not match: the message has none of its keywords "invoice", "refund", "pull request"; closest: the message has "request" but not the whole keyword "pull request"',
    );
  });

  it('promises a typo match only where typoTolerance makes it, by the shared typo rule', () => {
    const typoRegistry = registryOf([
      group('stocks', { strategy: 'keyword', keywords: ['trade'] }, [
        tool('place_trade', { description: 'Place a stock trade order.' }),
      ]),
      group('school', { strategy: 'keyword', keywords: ['homework'] }, [
        tool('set_grade', { description: 'Set the grade of a student.' }),
      ]),
      group('calendar', { strategy: 'keyword', keywords: ['schedule'] }, [
        tool('create_event', { description: 'Create a calendar event.' }),
      ]),
    ]);
    const why = (message: string, name: string, typoTolerance = false) =>
      typoRegistry.select(message, { typoTolerance, explain: [name] });
    // "grade" is a catalog word, which typo tolerance never corrects: no promise
    expect(why('what grade did I get', 'place_trade').explained![0]!.reason).toBe(
      'its keyword group "stocks" did not match: the message has none of its keywords "trade"',
    );
    expect(why('what grade did I get', 'place_trade', true).names).not.toContain('place_trade');
    // "shedules" is one edit from the keyword's stem: typo tolerance matches it, so say so
    expect(why('please shedules it', 'create_event').explained![0]!.reason).toBe(
      'its keyword group "calendar" did not match: the message has none of its keywords "schedule"; closest: "shedules" is one edit from the keyword "schedule" (typoTolerance: true matches it)',
    );
    expect(why('please shedules it', 'create_event', true).names).toContain('create_event');
  });

  it('says why the fallback did not run, and which context the tool also needs', () => {
    expect(explain('an invoice', 'issue_refund', {}).status).toBe('needs-context');
    expect(explain('stay at an airbnb', 'issue_refund', { fallback: { k: 3 } })).toEqual({
      tool: 'issue_refund',
      status: 'not-matched',
      reason:
        'its keyword group "billing" did not match: the message has none of its keywords "invoice", "refund", "pull request"; the fallback ranks tools only when no keyword group matches, and "lodging" matched; it also requires context account_id, which this turn does not set',
      group: 'billing',
    });
  });

  it('gives a fallback turn rank and score, as search scores the message', () => {
    const message = 'find a place to stay in Kyoto';
    const ranked = registry.search(message);
    const place = ranked.findIndex((result) => result.name === 'route');
    const score = ranked[place]!.score;
    expect(explain(message, 'route', { fallback: { k: 1 } })).toEqual({
      tool: 'route',
      status: 'below-cutoff',
      reason: `its keyword group "maps" did not match: the message has none of its keywords "latitude", "longitude"; no keyword group matched, so the fallback ranked the tools of keyword groups and it ranked ${place + 1} of ${ranked.length} with score ${score}, outside the best 1 it offers (fallback.k 1; lowest score kept ${ranked[0]!.score}); raise fallback.k or add the words users say for it to its description`,
      group: 'maps',
      rank: place + 1,
      score,
    });
    expect(explain(message, 'search_stays', { fallback: { k: 3, minScore: 0.9 } })).toMatchObject({
      status: 'below-cutoff',
      reason: `its keyword group "lodging" did not match: the message has none of its keywords "airbnb", "listing"; no keyword group matched, so the fallback ranked the tools of keyword groups and it ranked 1 of ${ranked.length}, but its relevance ${ranked[0]!.score} is below fallback.minScore 0.9; lower fallback.minScore or add the words users say for it to its description`,
      rank: 1,
    });
    // ranked past k and under minScore: a larger k would not help, so only minScore is named
    const second = ranked[1]!;
    const abstained = registry.select(message, {
      fallback: { k: 1, minScore: 0.99 },
      explain: [second.name],
    });
    expect(abstained.warnings.map((warning) => warning.code)).toContain('FALLBACK_ABSTAINED');
    expect(abstained.explained![0]!.reason).toMatch(
      `so the fallback ranked the tools of keyword groups and it ranked 2 of ${ranked.length}, but its relevance ${second.score} is below fallback.minScore 0.99; lower fallback.minScore or add the words users say for it to its description`,
    );
    expect(explain(message, 'geocode', { fallback: { k: 1 }, history: ['hi'] })).toMatchObject({
      status: 'below-cutoff',
      reason:
        'its keyword group "maps" did not match: neither the message nor the history (1 entry) has any of its keywords "latitude", "longitude"; no keyword group matched, so the fallback ranked the tools of keyword groups and it shares no word with the message or the history (score 0); add the words users say for it to its description, tags or its group\'s keywords',
      score: 0,
    });
  });

  it('gives a relevance turn rank and score against k, minScore and the lowest score kept', () => {
    const message = 'find a place to stay in Kyoto';
    const kept = registry.select(message, { relevance: { k: 1 } }).tools;
    const lowest = kept.find((selected) => selected.name === 'search_stays')!.reason.score;
    const cut = explain(message, 'stay_details', { relevance: { k: 1 } });
    expect(cut).toEqual({
      tool: 'stay_details',
      status: 'below-cutoff',
      reason: `relevance ranked the tools of keyword groups against this turn and it ranked 2 of 3 with score ${cut.score}, outside the best 1 it offers (relevance.k 1; lowest score kept ${lowest}); raise relevance.k or add the words users say for it to its description`,
      group: 'lodging',
      rank: 2,
      score: cut.score,
    });
    // the rank is the selection's own order: with k 2 it is the second tool offered
    const wider = registry.select(message, { relevance: { k: 2 }, order: 'relevance' });
    expect(
      wider.tools.filter((selected) => selected.reason.strategy === 'relevance')[1]!.name,
    ).toBe('stay_details');
    expect(explain(message, 'route', { relevance: { k: 1 } })).toMatchObject({
      status: 'below-cutoff',
      rank: 3,
    });
    expect(explain(message, 'search_stays', { relevance: { k: 5, minScore: 0.9 } })).toMatchObject({
      status: 'below-cutoff',
      reason: expect.stringMatching(
        /^relevance ranked the tools of keyword groups against this turn and it ranked 1 of 4, but its relevance [\d.]+ is below relevance\.minScore 0\.9; lower relevance\.minScore or add the words users say for it to its description$/,
      ),
      rank: 1,
    });
    expect(explain(message, 'create_invoice', { relevance: { k: 1 } })).toEqual({
      tool: 'create_invoice',
      status: 'below-cutoff',
      reason:
        "relevance ranked the tools of keyword groups against this turn and it shares no word with the message (score 0); add the words users say for it to its description, tags or its group's keywords",
      group: 'billing',
      score: 0,
    });
  });

  it('ranks by the fused score when the turn is semantic', async () => {
    let semantic = createRegistry({
      semantic: { embedder: createTopicEmbedder(), cacheDir: false },
    });
    semantic = semantic.register(
      group('billing', { strategy: 'keyword', keywords: ['invoice'] }, [
        tool('create_invoice', { description: 'Creates an invoice for a customer.' }),
        tool('list_invoices', { description: 'Lists the invoices of a customer.' }),
      ]),
    );
    const found = await semantic.searchAsync('pay the fees');
    const selection = await semantic.selectAsync('pay the fees', {
      fallback: { k: 1 },
      explain: ['list_invoices'],
    });
    expect(found[1]!.name).toBe('list_invoices');
    expect(selection.explained![0]).toMatchObject({ rank: 2, score: found[1]!.score });
    const ranked = await semantic.selectAsync('pay the fees', {
      relevance: { k: 1 },
      explain: ['list_invoices'],
    });
    expect(ranked.explained![0]).toMatchObject({ status: 'below-cutoff', rank: 2 });
  });

  it('suggests close names for an unknown tool', () => {
    expect(explain('hello', 'remembr')).toEqual({
      tool: 'remembr',
      status: 'unknown',
      reason: 'no tool is named "remembr"; did you mean "remember"?',
      suggestions: ['remember'],
    });
    expect(explain('hello', 'zzz')).toEqual({
      tool: 'zzz',
      status: 'unknown',
      reason: 'no tool is named "zzz"',
      suggestions: [],
    });
  });
});

describe('select explain: the option', () => {
  it('leaves the selection unchanged, and adds explained only when asked', () => {
    const plain = registry.select('send the invoice', { maxTools: 2 });
    expect('explained' in plain).toBe(false);
    const explained = registry.select('send the invoice', {
      maxTools: 2,
      explain: ['geocode', 'geocode', 'remember'],
    });
    expect({ ...explained, explained: undefined }).toEqual({ ...plain, explained: undefined });
    expect(explained.explained!.map((entry) => entry.tool)).toEqual(['geocode', 'remember']);
    expect(registry.select('hi', { explain: [] }).explained).toEqual([]);
  });

  it('rejects a bad explain value, naming what it must be', () => {
    const error = (options: unknown) => {
      try {
        registry.select('hi', options as SelectOptions);
      } catch (caught) {
        expect(caught).toBeInstanceOf(ToolcapError);
        expect((caught as ToolcapError).code).toBe('INVALID_SELECT_OPTION');
        return (caught as Error).message;
      }
      throw new Error('no error');
    };
    expect(error({ explain: 'geocode' })).toBe(
      'explain must be an array of tool names such as ["create_event"], got "geocode"',
    );
    expect(error({ explain: ['geocode', 3] })).toBe(
      'explain[1] must be a tool name (a string), got 3',
    );
    expect(error({ explian: ['geocode'] })).toMatch(
      /^unknown option "explian"; did you mean "explain"\?/,
    );
  });
});
