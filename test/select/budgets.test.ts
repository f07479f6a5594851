import { describe, expect, it } from 'vitest';
import { CHARACTERS_PER_TOKEN, estimateToolTokens } from '../../src/providers/estimate-tokens.js';
import { translate } from '../../src/providers/translate.js';
import { group, registryOf, tool } from './fixtures.js';

const ctx = { context: { project_id: 'p1' } };

// two pins, one context tool, then keyword groups a (3 tools) and b (2 tools)
const registry = registryOf([
  group('a', { strategy: 'keyword', keywords: ['alpha'] }, [
    tool('a_one', { description: 'Alpha one.' }),
    tool('a_two', { description: 'Alpha two, the alpha report.' }),
    tool('a_three', { description: 'Alpha three.' }),
  ]),
  group('pins', { strategy: 'always' }, [tool('pin_one'), tool('pin_two')]),
  group('b', { strategy: 'keyword', keywords: ['beta'] }, [
    tool('b_one', { description: 'Beta one.', category: 'mutation' }, { cost_estimate: 'high' }),
    tool('b_two', { description: 'Beta two.', category: 'analysis' }, { latency_estimate: 'slow' }),
  ]),
  group('docs', { strategy: 'context' }, [
    tool('doc_one', {}, { requires_context: ['project_id'] }),
  ]),
]);

describe('maxTools', () => {
  it('keeps everything below the budget', () => {
    expect(registry.select('alpha beta', { ...ctx, maxTools: 20 }).dropped).toEqual([]);
  });

  it('takes pins, then context, then keyword tools round-robin over groups by score', () => {
    const selection = registry.select('alpha report beta', { ...ctx, maxTools: 5 });
    // round 1: the best tool of each group (a_two, then b_one: b_one ties b_two, catalog order
    // decides); round 2 would be a_one, b_two; the output is in catalog order
    expect(selection.names).toEqual(['a_two', 'pin_one', 'pin_two', 'b_one', 'doc_one']);
    expect(selection.dropped).toEqual([
      {
        name: 'a_one',
        group: 'a',
        code: 'OVER_MAX_TOOLS',
        reason: expect.stringContaining('maxTools 5 is reached by higher-ranked tools'),
      },
      { name: 'b_two', group: 'b', code: 'OVER_MAX_TOOLS', reason: expect.any(String) },
      { name: 'a_three', group: 'a', code: 'OVER_MAX_TOOLS', reason: expect.any(String) },
    ]);
  });

  it('hands out frozen OVER_MAX_TOOLS drops, so sharing them between turns is safe', () => {
    const first = registry.select('alpha report beta', { ...ctx, maxTools: 5 }).dropped;
    const again = registry.select('alpha report beta', { ...ctx, maxTools: 5 }).dropped;
    expect(first.every((drop) => Object.isFrozen(drop))).toBe(true);
    expect(() => {
      (first[0] as { reason: string }).reason = 'changed';
    }).toThrow(TypeError);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });

  it('names the current maxTools in each drop, whatever the previous turn used', () => {
    for (const maxTools of [5, 4, 5]) {
      const { dropped } = registry.select('alpha report beta', { ...ctx, maxTools });
      expect(dropped.length).toBe(8 - maxTools);
      for (const drop of dropped) {
        expect(drop.reason).toContain(`maxTools ${maxTools} is reached`);
      }
    }
  });

  it('shows the budget order with order: "relevance"', () => {
    const selection = registry.select('alpha report beta', {
      ...ctx,
      maxTools: 7,
      order: 'relevance',
    });
    expect(selection.names).toEqual([
      'pin_one',
      'pin_two',
      'doc_one',
      'a_two',
      'b_one',
      'a_one',
      'b_two',
    ]);
  });

  it('breaks score ties by catalog order', () => {
    const selection = registry.select('beta', { maxTools: 3 });
    expect(selection.names).toEqual(['pin_one', 'pin_two', 'b_one']);
    expect(selection.tools[2]!.reason.score).toBe(registry.select('beta').tools[3]!.reason.score);
  });

  it('keeps pins above the budget and says so', () => {
    const selection = registry.select('alpha', { ...ctx, maxTools: 1 });
    expect(selection.names).toEqual(['pin_one', 'pin_two']);
    expect(selection.warnings).toEqual([
      {
        code: 'PINS_OVER_BUDGET',
        message:
          'the 2 pinned (always) tools exceed maxTools 1; they are all kept and nothing else is added. Raise maxTools or unpin a group',
      },
    ]);
    expect(selection.dropped.map((drop) => drop.name)).toEqual([
      'doc_one',
      'a_two',
      'a_one',
      'a_three',
    ]);
  });
});

describe('maxTokens', () => {
  const tokens = (name: string, provider: 'canonical' | 'anthropic' | 'google' = 'canonical') =>
    estimateToolTokens(registry.get(name)!, provider);

  it('estimates a tool as the JSON length of its translation / 4, rounded up', () => {
    const payload = JSON.stringify(translate([registry.get('a_one')!], 'anthropic').payload);
    expect(tokens('a_one', 'anthropic')).toBe(Math.ceil(payload.length / CHARACTERS_PER_TOKEN));
    expect(tokens('a_one', 'google')).not.toBe(tokens('a_one', 'anthropic'));
  });

  it('falls back to the raw definition when the translator rejects the tool', () => {
    const broken = { ...registry.get('a_one')!, name: 'not a valid name' };
    const raw = JSON.stringify({
      name: broken.name,
      description: broken.description,
      input_schema: broken.input_schema,
    });
    expect(estimateToolTokens(broken, 'openai')).toBe(Math.ceil(raw.length / 4));
  });

  it('fills the budget in priority order and reports the estimate', () => {
    const pins = tokens('pin_one') + tokens('pin_two');
    const budget = pins + tokens('a_two') + 1;
    const selection = registry.select('alpha report', { maxTokens: budget });
    expect(selection.names).toEqual(['a_two', 'pin_one', 'pin_two']);
    expect(selection.estimatedTokens).toBe(pins + tokens('a_two'));
    expect(selection.dropped[0]).toMatchObject({ name: 'doc_one', code: 'MISSING_CONTEXT' });
    expect(selection.dropped[1]).toEqual({
      name: 'a_one',
      group: 'a',
      code: 'OVER_MAX_TOKENS',
      reason: expect.stringMatching(
        /^its estimated \d+ tokens would bring the selection to \d+, above maxTokens \d+$/,
      ),
    });
  });

  it('measures for the chosen provider', () => {
    const budget = tokens('pin_one', 'google') + tokens('pin_two', 'google');
    const selection = registry.select('hi', { maxTokens: budget, provider: 'google' });
    expect(selection.estimatedTokens).toBe(budget);
    expect(selection.warnings).toEqual([]);
  });

  it('keeps pins above the token budget and says so', () => {
    const selection = registry.select('alpha', { maxTokens: 1, provider: 'anthropic' });
    expect(selection.names).toEqual(['pin_one', 'pin_two']);
    expect(selection.warnings[0]).toMatchObject({
      code: 'PINS_OVER_BUDGET',
      message: expect.stringContaining('for anthropic, above maxTokens 1'),
    });
  });

  it('combines with maxTools', () => {
    const selection = registry.select('alpha beta', { maxTools: 3, maxTokens: 100_000 });
    expect(selection.names).toHaveLength(3);
    expect(selection.estimatedTokens).toBeGreaterThan(0);
  });
});

describe('filters', () => {
  it('drops tools costlier than maxCost', () => {
    const selection = registry.select('beta', { ...ctx, maxCost: 'medium' });
    expect(selection.names).toEqual(['pin_one', 'pin_two', 'b_two', 'doc_one']);
    expect(selection.dropped).toEqual([
      {
        name: 'b_one',
        group: 'b',
        code: 'OVER_MAX_COST',
        reason: 'cost_estimate high is above maxCost medium',
      },
    ]);
  });

  it('drops tools slower than maxLatency', () => {
    const selection = registry.select('beta', { ...ctx, maxLatency: 'fast' });
    expect(selection.dropped).toEqual([
      {
        name: 'b_two',
        group: 'b',
        code: 'OVER_MAX_LATENCY',
        reason: 'latency_estimate slow is above maxLatency fast',
      },
    ]);
  });

  it('keeps only the given categories, pins included', () => {
    const selection = registry.select('beta', { categories: ['analysis'] });
    expect(selection.names).toEqual(['b_two']);
    // the context tool is dropped by its strategy (no project_id), before any filter
    expect(selection.dropped.map((drop) => [drop.name, drop.code])).toEqual([
      ['doc_one', 'MISSING_CONTEXT'],
      ['pin_one', 'CATEGORY_EXCLUDED'],
      ['pin_two', 'CATEGORY_EXCLUDED'],
      ['b_one', 'CATEGORY_EXCLUDED'],
    ]);
    expect(selection.dropped[1]!.reason).toBe(
      'category retrieval is not among the allowed categories (analysis)',
    );
  });

  it('applies every combination of filters exactly as the metadata says', () => {
    const costs = ['low', 'medium', 'high'] as const;
    const latencies = ['fast', 'medium', 'slow'] as const;
    const categories = ['creation', 'retrieval', 'mutation', 'analysis'] as const;
    // one tool for each category, cost, latency and context need
    const tools: Record<string, unknown>[] = [];
    for (const category of categories)
      for (const cost of costs)
        for (const latency of latencies)
          for (const needs of [[], ['user_id']]) {
            const name = `t_${category}_${cost}_${latency}_${needs.length}`;
            tools.push(
              tool(
                name,
                { category },
                { cost_estimate: cost, latency_estimate: latency, requires_context: needs },
              ),
            );
          }
    const all = registryOf([group('every', { strategy: 'keyword', keywords: ['every'] }, tools)]);
    const settings = [
      {},
      { maxCost: 'low' },
      { maxCost: 'medium', maxLatency: 'medium' },
      { maxLatency: 'fast', categories: ['retrieval', 'analysis'] },
      { categories: ['mutation'], requireContext: false },
      { context: { user_id: 'u1' }, maxCost: 'medium' },
    ] as const;
    for (const options of settings) {
      const maxCost = costs.indexOf('maxCost' in options ? options.maxCost : 'high');
      const maxLatency = latencies.indexOf('maxLatency' in options ? options.maxLatency : 'slow');
      const allowed: readonly string[] = 'categories' in options ? options.categories : categories;
      const contextSet = 'context' in options || 'requireContext' in options;
      const expected = tools
        .filter((entry) => {
          const metadata = entry.metadata as Record<string, unknown>;
          return (
            allowed.includes(entry.category as string) &&
            costs.indexOf(metadata.cost_estimate as 'low') <= maxCost &&
            latencies.indexOf(metadata.latency_estimate as 'fast') <= maxLatency &&
            ((metadata.requires_context as string[]).length === 0 || contextSet)
          );
        })
        .map((entry) => entry.name);
      const selection = all.select('every', options);
      expect(selection.names).toEqual(expected);
      expect(selection.names.length + selection.dropped.length).toBe(tools.length);
    }
  });

  it('filters before budgets, so a filtered tool does not use the budget', () => {
    const selection = registry.select('beta', { maxCost: 'medium', maxTools: 3 });
    expect(selection.names).toEqual(['pin_one', 'pin_two', 'b_two']);
  });
});
