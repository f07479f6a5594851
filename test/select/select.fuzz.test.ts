import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SelectOptions } from '../../src/select/types.js';
import { assertProperty } from '../reliability/fuzz-settings.js';
import { group, registryOf, tool } from './fixtures.js';

const CI_RUNS = 120;

// a small vocabulary, so keywords are shared between groups and messages hit several
const WORDS = ['report', 'invoice', 'meeting', 'deploy', 'ticket', 'budget', 'sales', 'note'];
const FILLER = ['please', 'the', 'my', 'for', 'today', 'quickly', 'team', 'about'];
const KEYS = ['user_id', 'project_id', 'session'];
const COSTS = ['low', 'medium', 'high'] as const;
const LATENCIES = ['fast', 'medium', 'slow'] as const;
const CATEGORIES = ['creation', 'retrieval', 'mutation', 'analysis'] as const;

const toolSpec = fc.record({
  verb: fc.constantFrom('get', 'create', 'update', 'delete', 'summarize', 'list'),
  about: fc.subarray(WORDS, { minLength: 1, maxLength: 3 }),
  category: fc.constantFrom(...CATEGORIES),
  cost: fc.constantFrom(...COSTS),
  latency: fc.constantFrom(...LATENCIES),
  needs: fc.subarray(KEYS, { maxLength: 2 }),
});

const groupSpec = fc.record({
  strategy: fc.constantFrom('keyword', 'keyword', 'keyword', 'always', 'context'),
  keywords: fc.subarray([...WORDS, 'sales report', 'deploy ticket'], {
    minLength: 1,
    maxLength: 4,
  }),
  tools: fc.array(toolSpec, { minLength: 1, maxLength: 6 }),
});

const turnSpec = fc.record({
  words: fc.array(fc.constantFrom(...WORDS, ...FILLER, 'reprot', 'meting'), { maxLength: 12 }),
  maxTools: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
  maxCost: fc.option(fc.constantFrom(...COSTS), { nil: undefined }),
  maxLatency: fc.option(fc.constantFrom(...LATENCIES), { nil: undefined }),
  categories: fc.option(fc.subarray([...CATEGORIES], { minLength: 1 }), { nil: undefined }),
  context: fc.subarray(KEYS),
  requireContext: fc.boolean(),
  order: fc.constantFrom('catalog', 'relevance'),
  typoTolerance: fc.boolean(),
  history: fc.array(fc.constantFrom(...WORDS, 'sales report'), { maxLength: 2 }),
});

type ToolSpec = typeof toolSpec extends fc.Arbitrary<infer T> ? T : never;
type GroupSpec = typeof groupSpec extends fc.Arbitrary<infer T> ? T : never;
type TurnSpec = typeof turnSpec extends fc.Arbitrary<infer T> ? T : never;

function buildGroups(specs: readonly GroupSpec[]): Record<string, unknown>[] {
  return specs.map((spec, groupIndex) => {
    const name = `g${groupIndex}`;
    const selection =
      spec.strategy === 'keyword'
        ? { strategy: 'keyword', keywords: spec.keywords }
        : { strategy: spec.strategy };
    const tools = spec.tools.map((entry: ToolSpec, toolIndex) =>
      tool(
        `${name}_${entry.verb}_${toolIndex}`,
        {
          category: entry.category,
          description: `${entry.verb} the ${entry.about.join(' and ')} records of the team.`,
        },
        {
          cost_estimate: entry.cost,
          latency_estimate: entry.latency,
          requires_context: entry.needs,
        },
      ),
    );
    return group(name, selection, tools);
  });
}

function optionsOf(turn: TurnSpec): SelectOptions {
  const options: SelectOptions = {
    context: Object.fromEntries(turn.context.map((key) => [key, 'x'])),
    requireContext: turn.requireContext,
    order: turn.order,
    typoTolerance: turn.typoTolerance,
    history: turn.history,
  };
  if (turn.maxTools !== undefined) options.maxTools = turn.maxTools;
  if (turn.maxCost !== undefined) options.maxCost = turn.maxCost;
  if (turn.maxLatency !== undefined) options.maxLatency = turn.maxLatency;
  if (turn.categories !== undefined) options.categories = turn.categories;
  return options;
}

describe('select keeps its invariants on random registries and turns (property-based)', () => {
  it('reports every candidate once, honours filters and budgets, and carries no state between turns', async () => {
    await assertProperty(
      'select: random registries, messages and options',
      fc.property(
        fc.array(groupSpec, { minLength: 1, maxLength: 6 }),
        fc.array(turnSpec, { minLength: 1, maxLength: 5 }),
        (groupSpecs, turns) => {
          const groups = buildGroups(groupSpecs);
          // one registry takes every turn in a row (its buffers are reused); each turn is
          // repeated on a fresh registry, which must answer exactly the same
          const shared = registryOf(groups);
          for (const turn of turns) {
            const message = turn.words.join(' ');
            const options = optionsOf(turn);
            const selection = shared.select(message, options);
            expect(JSON.stringify(registryOf(groups).select(message, options))).toBe(
              JSON.stringify(selection),
            );

            const catalog = shared.list();
            const byName = new Map(catalog.map((entry) => [entry.name, entry]));
            const keptNames = selection.tools.map((selected) => selected.name);
            expect(selection.names).toEqual(keptNames);
            const reported = [...keptNames, ...selection.dropped.map((drop) => drop.name)];
            expect(new Set(reported).size).toBe(reported.length);
            for (const name of reported) expect(byName.has(name)).toBe(true);
            // pinned tools are always candidates: kept or dropped with a reason
            for (const entry of catalog) {
              if (shared.group(entry.group)?.selection.strategy === 'always') {
                expect(reported).toContain(entry.name);
              }
            }

            const maxCost = COSTS.indexOf(turn.maxCost ?? 'high');
            const maxLatency = LATENCIES.indexOf(turn.maxLatency ?? 'slow');
            const allowed: readonly string[] = turn.categories ?? CATEGORIES;
            const passes = (name: string) => {
              const entry = byName.get(name)!;
              return (
                COSTS.indexOf(entry.metadata.cost_estimate) <= maxCost &&
                LATENCIES.indexOf(entry.metadata.latency_estimate) <= maxLatency &&
                allowed.includes(entry.category) &&
                (!turn.requireContext ||
                  entry.metadata.requires_context.every((key) => turn.context.includes(key)))
              );
            };
            for (const name of keptNames) expect(passes(name)).toBe(true);
            for (const drop of selection.dropped) {
              const budgetCode = drop.code === 'OVER_MAX_TOOLS' || drop.code === 'OVER_MAX_TOKENS';
              const keys = byName.get(drop.name)!.metadata.requires_context;
              if (drop.code === 'MISSING_CONTEXT') {
                // by the filter, or by a context group's strategy whatever requireContext says
                expect(keys.every((key) => turn.context.includes(key))).toBe(false);
              } else {
                expect(passes(drop.name)).toBe(budgetCode);
              }
              expect(drop.reason.length).toBeGreaterThan(0);
            }

            const pinsOver = selection.warnings.some(
              (warning) => warning.code === 'PINS_OVER_BUDGET',
            );
            if (turn.maxTools !== undefined && !pinsOver) {
              expect(keptNames.length).toBeLessThanOrEqual(turn.maxTools);
            }
            if (turn.maxTools === undefined) {
              expect(selection.dropped.some((drop) => drop.code === 'OVER_MAX_TOOLS')).toBe(false);
            } else if (selection.dropped.some((drop) => drop.code === 'OVER_MAX_TOOLS')) {
              // a tool is cut only when the budget is full (or the pins alone overflow it)
              expect(keptNames.length >= turn.maxTools || pinsOver).toBe(true);
            }
            if (turn.order === 'catalog') {
              const positions = selection.tools.map((selected) => selected.index);
              expect(positions).toEqual([...positions].sort((a, b) => a - b));
            }
            for (const selected of selection.tools) {
              const score = selected.reason.score;
              if (score !== undefined) expect(score >= 0 && score <= 1).toBe(true);
            }
          }
        },
      ),
      CI_RUNS,
    );
  });
});
