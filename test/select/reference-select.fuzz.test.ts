import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateToolTokens } from '../../src/providers/estimate-tokens.js';
import {
  type ReferenceInput,
  type ReferenceSemantic,
  referenceSearch,
  referenceSelect,
} from '../../src/select/reference/reference-select.js';
import { SEMANTIC_BACKGROUND, semanticText } from '../../src/select/semantic-index.js';
import type { SelectionReason, SelectOptions } from '../../src/select/types.js';
import { getDefaultTextAnalyzer } from '../../src/text/text-analyzer.js';
import type { Registry } from '../../src/toolcap/registry.js';
import type { CreateRegistryOptions } from '../../src/toolcap/registry-options.js';
import { createTopicEmbedder } from '../embeddings/topic-embedder.js';
import { assertProperty } from '../reliability/fuzz-settings.js';
import { group, registryOf, tool } from './fixtures.js';

const CI_RUNS = 150;

// a small vocabulary, so keywords are shared between groups and messages hit several
const WORDS = ['report', 'invoice', 'meeting', 'deploy', 'ticket', 'budget', 'sales', 'note'];
const FILLER = ['please', 'the', 'my', 'for', 'today', 'quickly', 'team', 'about', 'x'];
const TYPOS = ['reprot', 'meting', 'invoce', 'budgett', 'tickett'];
// forms of one stem in tools, and a word related to it in messages: matched shows "buy→purchase"
const PURCHASE_FORMS = ['purchasing', 'purchases', 'purchase'];
const KEYS = ['user_id', 'project_id', 'session'];
const COSTS = ['low', 'medium', 'high'] as const;
const LATENCIES = ['fast', 'medium', 'slow'] as const;
const CATEGORIES = ['creation', 'retrieval', 'mutation', 'analysis'] as const;
const CHECKS = ['always_yes', 'always_no', 'throws', 'has_user'] as const;

const toolSpec = fc.record({
  verb: fc.constantFrom('get', 'create', 'update', 'delete', 'summarize', 'list'),
  about: fc.subarray([...WORDS, 'sales report', ...PURCHASE_FORMS], { minLength: 1, maxLength: 3 }),
  category: fc.constantFrom(...CATEGORIES),
  cost: fc.constantFrom(...COSTS),
  latency: fc.constantFrom(...LATENCIES),
  needs: fc.subarray(KEYS, { maxLength: 2 }),
  title: fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
  tags: fc.option(fc.subarray(WORDS, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  parameter: fc.option(fc.constantFrom(...WORDS, 'due_date', 'owner_name'), { nil: undefined }),
  requests: fc.option(
    fc.subarray(['show my sales figures', 'file the invoice', 'book a meeting room', 'ship it'], {
      minLength: 1,
    }),
    { nil: undefined },
  ),
});

const groupSpec = fc.record({
  strategy: fc.constantFrom('keyword', 'keyword', 'keyword', 'always', 'context'),
  check: fc.option(fc.constantFrom(...CHECKS), { nil: undefined }),
  keywords: fc.subarray([...WORDS, 'sales report', 'deploy ticket', 'reports', 'to-do'], {
    minLength: 1,
    maxLength: 4,
  }),
  tools: fc.array(toolSpec, { minLength: 1, maxLength: 6 }),
});

const turnSpec = fc.record({
  words: fc.array(fc.constantFrom(...WORDS, ...FILLER, ...TYPOS, 'salesreport', 'to-do', 'buy'), {
    maxLength: 12,
  }),
  maxTools: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
  maxTokens: fc.option(fc.integer({ min: 20, max: 600 }), { nil: undefined }),
  provider: fc.constantFrom('canonical', 'openai', 'google'),
  maxCost: fc.option(fc.constantFrom(...COSTS), { nil: undefined }),
  maxLatency: fc.option(fc.constantFrom(...LATENCIES), { nil: undefined }),
  categories: fc.option(fc.subarray([...CATEGORIES], { minLength: 1 }), { nil: undefined }),
  context: fc.subarray(KEYS),
  requireContext: fc.boolean(),
  order: fc.constantFrom('catalog', 'relevance'),
  typoTolerance: fc.boolean(),
  fallback: fc.option(
    fc.record({ k: fc.integer({ min: 1, max: 4 }), minScore: fc.constantFrom(0, 0.05, 0.3) }),
    { nil: undefined },
  ),
  relevance: fc.option(
    fc.record({ k: fc.integer({ min: 1, max: 8 }), minScore: fc.constantFrom(0, 0.05, 0.3) }),
    { nil: undefined },
  ),
  history: fc.array(
    fc.oneof(
      fc.constantFrom(...WORDS, 'sales report', 'reprot', 'the meeting notes'),
      fc.record({ tool: fc.constantFrom('g0_get_0', 'g1_list_1', 'ghost_tool') }),
    ),
    { maxLength: 4 },
  ),
  historyWindow: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
});

type GroupSpec = typeof groupSpec extends fc.Arbitrary<infer T> ? T : never;
type TurnSpec = typeof turnSpec extends fc.Arbitrary<infer T> ? T : never;

const CONTEXT_CHECKS = {
  always_yes: () => true,
  always_no: () => false,
  throws: () => {
    throw new Error('boom');
  },
  has_user: (context: Readonly<Record<string, unknown>>) => Object.hasOwn(context, 'user_id'),
};

function buildRegistry(specs: readonly GroupSpec[], extra: CreateRegistryOptions = {}): Registry {
  const groups = specs.map((spec, groupIndex) => {
    const name = `g${groupIndex}`;
    const selection =
      spec.strategy === 'keyword'
        ? { strategy: 'keyword', keywords: spec.keywords }
        : spec.strategy === 'context' && spec.check !== undefined
          ? { strategy: 'context', context_check: spec.check }
          : { strategy: spec.strategy, keywords: spec.keywords };
    const tools = spec.tools.map((entry, toolIndex) => {
      const overrides: Record<string, unknown> = {
        category: entry.category,
        description: `${entry.verb} the ${entry.about.join(' and ')} records of the team.`,
      };
      if (entry.title !== undefined) overrides.title = `${entry.title} helper`;
      if (entry.tags !== undefined) overrides.tags = entry.tags;
      if (entry.requests !== undefined) overrides.example_requests = entry.requests;
      if (entry.parameter !== undefined) {
        overrides.input_schema = {
          type: 'object',
          properties: {
            [entry.parameter]: { type: 'string', description: `the ${entry.parameter}` },
          },
        };
      }
      return tool(`${name}_${entry.verb}_${toolIndex}`, overrides, {
        cost_estimate: entry.cost,
        latency_estimate: entry.latency,
        requires_context: entry.needs,
      });
    });
    return group(name, selection, tools);
  });
  // code-defined tools come first in a registry built with register()
  return registryOf(groups, {
    ...extra,
    contextChecks: CONTEXT_CHECKS,
    fallbackTools: [
      {
        name: 'legacy_report',
        description: 'Builds the sales report the old way.',
        group: 'legacy',
      },
      { name: 'legacy_note', description: 'Adds a note to the meeting.' },
    ],
  });
}

function optionsOf(turn: TurnSpec): SelectOptions {
  const options: SelectOptions = {
    context: Object.fromEntries(turn.context.map((key) => [key, 'x'])),
    requireContext: turn.requireContext,
    order: turn.order as 'catalog' | 'relevance',
    typoTolerance: turn.typoTolerance,
    history: turn.history,
    provider: turn.provider as 'canonical',
  };
  if (turn.maxTools !== undefined) options.maxTools = turn.maxTools;
  if (turn.maxTokens !== undefined) options.maxTokens = turn.maxTokens;
  if (turn.maxCost !== undefined) options.maxCost = turn.maxCost;
  if (turn.maxLatency !== undefined) options.maxLatency = turn.maxLatency;
  if (turn.categories !== undefined) options.categories = turn.categories;
  // relevance replaces fallback: a turn gives one of them
  if (turn.relevance !== undefined) options.relevance = turn.relevance;
  else if (turn.fallback !== undefined) options.fallback = turn.fallback;
  if (turn.historyWindow !== undefined) options.historyWindow = turn.historyWindow;
  return options;
}

/** JSON with object keys sorted: equal for equal selections, whatever the key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    entry !== null && typeof entry === 'object' && !Array.isArray(entry)
      ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1)))
      : entry,
  );
}

/**
 * The kinds of a reason hold exactly the entries of its `matched` (`context` keys and check
 * names are of no kind).
 */
function expectMatchedByKind(reason: SelectionReason): void {
  const kinds = [
    ...(reason.matched_words ?? []),
    ...(reason.matched_keywords ?? []),
    ...(reason.matched_history ?? []),
    ...(reason.raised_by === undefined ? [] : [reason.raised_by]),
  ];
  const expected = reason.strategy === 'context' ? [] : reason.matched;
  expect(new Set(kinds)).toEqual(new Set(expected));
  for (const kind of [reason.matched_words, reason.matched_keywords, reason.matched_history]) {
    expect(kind?.length).not.toBe(0);
  }
}

/** What the reference selector reads of `registry`. */
function referenceInput(registry: Registry): ReferenceInput {
  return {
    tools: registry.list(),
    groups: registry.groups(),
    analyzer: registry.settings.analyzer ?? getDefaultTextAnalyzer(),
    contextChecks: registry.settings.contextChecks,
    services: registry.settings.services ?? new Map(),
    estimateTokens: estimateToolTokens,
  };
}

describe('the fast selector gives what the reference selector gives (property-based)', () => {
  it('on random registries and sequences of turns, every field of every selection and search', async () => {
    await assertProperty(
      'select: fast = reference',
      fc.property(
        fc.array(groupSpec, { minLength: 1, maxLength: 6 }),
        fc.array(turnSpec, { minLength: 1, maxLength: 4 }),
        (groupSpecs, turns) => {
          // one registry takes the turns in a row: nothing may carry over between them
          const registry = buildRegistry(groupSpecs);
          for (const turn of turns) {
            const message = turn.words.join(' ');
            const options = optionsOf(turn);
            const selection = registry.select(message, options);
            expect(canonical(selection)).toBe(
              canonical(referenceSelect(referenceInput(registry), message, options)),
            );
            for (const { reason } of selection.tools) expectMatchedByKind(reason);
            const searchOptions = {
              k: turn.maxTools ?? 10,
              minScore: turn.fallback?.minScore ?? 0,
              typoTolerance: turn.typoTolerance,
              // an unknown group is refused, so only the ones this registry has
              ...(turn.categories === undefined
                ? {}
                : {
                    groups: ['g0', 'g2', 'legacy'].filter(
                      (name) => registry.group(name) !== undefined,
                    ),
                  }),
            };
            expect(canonical(registry.search(message, searchOptions))).toBe(
              canonical(referenceSearch(referenceInput(registry), message, searchOptions)),
            );
          }
        },
      ),
      CI_RUNS,
    );
  });
});

describe('with semantic scores, the fast selector gives what the reference gives (property-based)', () => {
  it('on random registries, turns and fusion weights, every field of every selection and search', async () => {
    await assertProperty(
      'select with fusion: fast = reference',
      fc.asyncProperty(
        fc.array(groupSpec, { minLength: 1, maxLength: 5 }),
        fc.array(turnSpec, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(0.2, 0.5, 1),
        async (groupSpecs, turns, weight) => {
          const embedder = createTopicEmbedder();
          const registry = buildRegistry(groupSpecs, {
            semantic: { embedder, weight, cacheDir: false },
          });
          await registry.prepareSemantic();
          const tools = registry.list();
          const toolVectors = await embedder.embed(tools.map(semanticText));
          const backgroundVectors = await embedder.embed(SEMANTIC_BACKGROUND);
          for (const turn of turns) {
            const message = turn.words.join(' ');
            const options = optionsOf(turn);
            const [queryVector] = await embedder.embed([message]);
            const semantic: ReferenceSemantic = {
              toolVectors,
              backgroundVectors,
              queryVector: queryVector!,
              weight,
            };
            expect(
              canonical(registry.select(message, { ...options, queryVector: queryVector! })),
            ).toBe(
              canonical(referenceSelect(referenceInput(registry), message, options, semantic)),
            );
            const searchOptions = {
              k: turn.maxTools ?? 10,
              minScore: turn.fallback?.minScore ?? 0,
              typoTolerance: turn.typoTolerance,
              // an unknown group is refused, so only the ones this registry has
              ...(turn.categories === undefined
                ? {}
                : {
                    groups: ['g0', 'g2', 'legacy'].filter(
                      (name) => registry.group(name) !== undefined,
                    ),
                  }),
            };
            expect(
              canonical(registry.search(message, { ...searchOptions, queryVector: queryVector! })),
            ).toBe(
              canonical(
                referenceSearch(referenceInput(registry), message, searchOptions, semantic),
              ),
            );
          }
        },
      ),
      CI_RUNS,
    );
  });
});
