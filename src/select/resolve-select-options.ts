import { ToolcapError } from '../errors/toolcap-error.js';
import {
  isProviderId,
  PROVIDER_IDS,
  type ProviderId,
  providerSuggestionHint,
} from '../format/provider-ids.js';
import type { CostEstimate, LatencyEstimate, ToolCategory } from '../format/types.js';
import { describeValue } from '../util/check-options.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import { CATEGORY_BITS } from './selection-index.js';
import type { HistoryEntry, SelectOptions } from './types.js';

/** Default number of history entries that count. */
export const DEFAULT_HISTORY_WINDOW = 4;
/** Default number of tools `relevance` offers. */
export const DEFAULT_RELEVANCE_K = 20;
/** Default number of fallback tools. */
export const DEFAULT_FALLBACK_K = 5;
/**
 * Default minimum relevance (0-1) of a fallback tool; below it selection abstains. Chosen on
 * the BFCL irrelevance / multiple data (see docs/guide/selection.md).
 */
export const DEFAULT_FALLBACK_MIN_SCORE = 0.05;

const COSTS: readonly CostEstimate[] = ['low', 'medium', 'high'];
const LATENCIES: readonly LatencyEstimate[] = ['fast', 'medium', 'slow'];
const CATEGORIES: readonly ToolCategory[] = ['creation', 'retrieval', 'mutation', 'analysis'];

/** `SelectOptions` checked and with defaults applied. */
export interface ResolvedSelectOptions {
  context: Readonly<Record<string, unknown>>;
  history: readonly HistoryEntry[];
  maxTools: number | undefined;
  maxTokens: number | undefined;
  provider: ProviderId;
  /** Rank of the costliest allowed (low 0, medium 1, high 2), and its name. */
  maxCost: number;
  maxCostName: CostEstimate;
  /** Rank of the slowest allowed (fast 0, medium 1, slow 2), and its name. */
  maxLatency: number;
  maxLatencyName: LatencyEstimate;
  /** Allowed categories (empty: all) and their bits (`CATEGORY_BITS`; 0: all). */
  categories: readonly ToolCategory[];
  categoryMask: number;
  fallback: { k: number; minScore: number } | undefined;
  relevance: { k: number; minScore: number } | undefined;
  typoTolerance: boolean;
  requireContext: boolean;
  order: 'catalog' | 'relevance';
  /** Tool names to explain, without repeats; undefined when `explain` is not given. */
  explain: readonly string[] | undefined;
}

/** Builds the error of one bad option (`INVALID_SELECT_OPTION` or `INVALID_SEARCH_OPTION`). */
export type OptionError = (message: string) => ToolcapError;

function invalid(message: string): ToolcapError {
  return new ToolcapError('INVALID_SELECT_OPTION', message);
}

/** Checks a positive integer option. */
export function checkPositiveInteger(
  name: string,
  value: unknown,
  error: OptionError = invalid,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw error(`${name} must be a positive integer, got ${describeValue(value)}`);
  }
  return value;
}

/** Checks a 0-1 score option. */
export function checkScore(name: string, value: unknown, error: OptionError = invalid): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw error(`${name} must be a number from 0 to 1, got ${describeValue(value)}`);
  }
  return value;
}

/** Checks a boolean option: only `true` or `false` (never a truthy or falsy stand-in). */
export function checkBoolean(name: string, value: unknown, error: OptionError = invalid): boolean {
  if (typeof value !== 'boolean') {
    throw error(`${name} must be true or false, got ${describeValue(value)}`);
  }
  return value;
}

/** Throws when the object `value` of option `name` has a member outside `allowed`. */
function checkMembers(name: string, value: object, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const similar = suggestSimilar(key, allowed);
    throw invalid(
      `${name} has an unknown member "${key}"${similar.length > 0 ? `; did you mean "${similar[0]}"?` : ''} Members: ${allowed.join(', ')}`,
    );
  }
}

function checkChoice<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw invalid(
      `${name} must be one of ${allowed.map((choice) => JSON.stringify(choice)).join(', ')}, got ${describeValue(value)}`,
    );
  }
  return value as T;
}

/** Checks `provider`: a provider id, else the ids and a did-you-mean (`gemini` → `google`). */
function checkProvider(value: unknown): ProviderId {
  if (isProviderId(value)) return value;
  throw invalid(
    `provider must be one of ${PROVIDER_IDS.map((id) => JSON.stringify(id)).join(', ')}, got ${describeValue(value)}${providerSuggestionHint(value)}`,
  );
}

const EMPTY_CONTEXT: Readonly<Record<string, unknown>> = Object.freeze({});

const SELECT_OPTIONS = new Set([
  'context',
  'history',
  'historyWindow',
  'maxTools',
  'maxTokens',
  'provider',
  'maxCost',
  'maxLatency',
  'categories',
  'fallback',
  'relevance',
  'typoTolerance',
  'requireContext',
  'order',
  'explain',
]);

/**
 * Checks the message and `options` of one `select` call and applies the defaults. Throws a
 * ToolcapError `INVALID_SELECT_OPTION` naming the argument, what it must be, and what it got.
 */
export function resolveSelectOptions(message: unknown, options: unknown): ResolvedSelectOptions {
  if (typeof message !== 'string') {
    throw invalid(
      `the message must be a string (the user's message for this turn; "" when there is none), got ${describeValue(message)}`,
    );
  }
  return resolveOptions(options);
}

/** `options` checked, with defaults applied (see `resolveSelectOptions`). */
export function resolveOptions(value: unknown): ResolvedSelectOptions {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(
      `options must be an object such as { context: { user_id: "u1" }, maxTools: 20 }, got ${describeValue(value)}`,
    );
  }
  for (const name of Object.keys(value)) {
    if (!SELECT_OPTIONS.has(name)) {
      const similar = suggestSimilar(name, [...SELECT_OPTIONS]);
      throw invalid(
        `unknown option "${name}"${similar.length > 0 ? `; did you mean "${similar[0]}"?` : ''} Options: ${[...SELECT_OPTIONS].join(', ')}`,
      );
    }
  }
  const options = value as SelectOptions;
  const context = options.context ?? EMPTY_CONTEXT;
  if (context === null || typeof context !== 'object' || Array.isArray(context)) {
    throw invalid('context must be an object of context keys, such as { user_id: "u1" }');
  }
  const history = options.history ?? [];
  if (!Array.isArray(history)) {
    throw invalid('history must be an array of messages (strings) or { tool: "name" } entries');
  }
  history.forEach(checkHistoryEntry);
  const window =
    options.historyWindow === undefined
      ? DEFAULT_HISTORY_WINDOW
      : checkHistoryWindow(options.historyWindow);
  let fallback: ResolvedSelectOptions['fallback'];
  if (options.fallback !== undefined && options.fallback !== 'none') {
    if (
      options.fallback === null ||
      typeof options.fallback !== 'object' ||
      Array.isArray(options.fallback)
    ) {
      throw invalid(
        `fallback must be "none" or { k, minScore }, got ${describeValue(options.fallback)}`,
      );
    }
    checkMembers('fallback', options.fallback, ['k', 'minScore']);
    fallback = {
      k:
        options.fallback.k === undefined
          ? DEFAULT_FALLBACK_K
          : checkPositiveInteger('fallback.k', options.fallback.k),
      minScore:
        options.fallback.minScore === undefined
          ? DEFAULT_FALLBACK_MIN_SCORE
          : checkScore('fallback.minScore', options.fallback.minScore),
    };
  }
  let relevance: ResolvedSelectOptions['relevance'];
  if (options.relevance !== undefined) {
    if (
      options.relevance === null ||
      typeof options.relevance !== 'object' ||
      Array.isArray(options.relevance)
    ) {
      throw invalid(
        `relevance must be an object { k, minScore }, got ${describeValue(options.relevance)}`,
      );
    }
    checkMembers('relevance', options.relevance, ['k', 'minScore']);
    if (fallback !== undefined) {
      throw invalid(
        'relevance replaces the keyword, history and fallback strategies; give relevance or fallback, not both',
      );
    }
    relevance = {
      k:
        options.relevance.k === undefined
          ? DEFAULT_RELEVANCE_K
          : checkPositiveInteger('relevance.k', options.relevance.k),
      minScore:
        options.relevance.minScore === undefined
          ? 0
          : checkScore('relevance.minScore', options.relevance.minScore),
    };
  }
  let categories: ToolCategory[] = [];
  let categoryMask = 0;
  if (options.categories !== undefined) {
    if (!Array.isArray(options.categories) || options.categories.length === 0) {
      throw invalid('categories must be a non-empty array such as ["retrieval", "analysis"]');
    }
    categories = options.categories.map((category) =>
      checkChoice('categories[]', category, CATEGORIES),
    );
    for (const category of categories) categoryMask |= CATEGORY_BITS[category];
  }
  const maxCostName =
    options.maxCost === undefined ? 'high' : checkChoice('maxCost', options.maxCost, COSTS);
  const maxLatencyName =
    options.maxLatency === undefined
      ? 'slow'
      : checkChoice('maxLatency', options.maxLatency, LATENCIES);
  return {
    context,
    history: window === 0 ? [] : history.slice(-window),
    maxTools:
      options.maxTools === undefined
        ? undefined
        : checkPositiveInteger('maxTools', options.maxTools),
    maxTokens:
      options.maxTokens === undefined
        ? undefined
        : checkPositiveInteger('maxTokens', options.maxTokens),
    provider: options.provider === undefined ? 'canonical' : checkProvider(options.provider),
    maxCost: COSTS.indexOf(maxCostName),
    maxCostName,
    maxLatency: LATENCIES.indexOf(maxLatencyName),
    maxLatencyName,
    categories,
    categoryMask,
    fallback,
    relevance,
    typoTolerance:
      options.typoTolerance === undefined
        ? false
        : checkBoolean('typoTolerance', options.typoTolerance),
    requireContext:
      options.requireContext === undefined
        ? true
        : checkBoolean('requireContext', options.requireContext),
    order:
      options.order === undefined
        ? 'catalog'
        : checkChoice('order', options.order, ['catalog', 'relevance']),
    explain: options.explain === undefined ? undefined : checkExplain(options.explain),
  };
}

/** Checks `explain`: an array of tool names (strings); repeats count once. */
function checkExplain(value: unknown): readonly string[] {
  if (!Array.isArray(value)) {
    throw invalid(
      `explain must be an array of tool names such as ["create_event"], got ${describeValue(value)}`,
    );
  }
  value.forEach((name: unknown, position) => {
    if (typeof name !== 'string') {
      throw invalid(
        `explain[${position}] must be a tool name (a string), got ${describeValue(name)}`,
      );
    }
  });
  return [...new Set(value as string[])];
}

/** Checks `historyWindow`: 0 (no history) or a positive integer. */
function checkHistoryWindow(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalid(
      `historyWindow must be an integer of 0 or more (0: no history counts), got ${describeValue(value)}`,
    );
  }
  return value;
}

const HISTORY_ENTRY =
  'a string (a user message), { message: string } or { tool: string } (a tool called)';

/** Checks one history entry: a message or a called tool, never both (one would be lost). */
function checkHistoryEntry(entry: unknown, position: number): void {
  if (typeof entry === 'string') return;
  const name = `history[${position}]`;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw invalid(`${name} must be ${HISTORY_ENTRY}, got ${describeValue(entry)}`);
  }
  checkMembers(name, entry, ['message', 'tool']);
  const { message, tool } = entry as { message?: unknown; tool?: unknown };
  if (message !== undefined && tool !== undefined) {
    throw invalid(
      `${name} has both message and tool; give them as two entries, { message } for what the user said and { tool } for the tool called`,
    );
  }
  if (message === undefined && tool === undefined) {
    throw invalid(`${name} must be ${HISTORY_ENTRY}, got an object with neither`);
  }
  const [key, value] = message !== undefined ? ['message', message] : ['tool', tool];
  if (typeof value !== 'string') {
    throw invalid(`${name}.${key} must be a string, got ${describeValue(value)}`);
  }
}
