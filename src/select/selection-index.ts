import type { ProviderId } from '../format/provider-ids.js';
import type {
  RegisteredGroup,
  RegisteredTool,
  SelectionStrategy,
  ToolCategory,
} from '../format/types.js';
import { getDefaultTextAnalyzer, type TextAnalyzer } from '../text/text-analyzer.js';
import { TypoIndex } from '../text/typo-index.js';
import { WordCache } from './analyze-turn.js';
import { Candidates } from './candidates.js';
import { KeywordIndex } from './keyword-index.js';
import { RelevanceIndex } from './relevance-index.js';
import { TermVocabulary } from './term-vocabulary.js';
import type { ContextCheck, DroppedTool, SelectedTool } from './types.js';

/** What a registry snapshot hands to selection. */
export interface SelectionIndexInput {
  tools: readonly RegisteredTool[];
  groups: readonly RegisteredGroup[];
  contextChecks: ReadonlyMap<string, ContextCheck>;
  analyzer?: TextAnalyzer | undefined;
  /** Registry services: their names satisfy `requires_context` keys like context values. */
  services?: ReadonlyMap<string, unknown> | undefined;
  /** Estimated tokens of one tool's definition for a provider (the `maxTokens` budget). */
  estimateTokens: (tool: RegisteredTool, provider: ProviderId) => number;
}

const COST_RANKS: Readonly<Record<string, number>> = { low: 0, medium: 1, high: 2 };
const LATENCY_RANKS: Readonly<Record<string, number>> = { fast: 0, medium: 1, slow: 2 };
/** Category codes, as bits for a category filter mask. */
export const CATEGORY_BITS: Readonly<Record<ToolCategory, number>> = {
  creation: 1,
  retrieval: 2,
  mutation: 4,
  analysis: 8,
};

/**
 * Bits of `filterBitsOfTool`: the category (`CATEGORY_BITS`, or NO_CATEGORY), the cost and the
 * latency rank one-hot, and whether the tool requires context keys; a selection rejects the
 * bits of `filterRejectMask`, so most candidates pass every filter with one test.
 */
const NO_CATEGORY = 1 << 4;
const COST_BIT = 5;
const LATENCY_BIT = 8;
const NEEDS_CONTEXT = 1 << 11;

/** The filter bits a selection with these settings rejects (then `filterTool` says why). */
export function filterRejectMask(settings: {
  categoryMask: number;
  maxCost: number;
  maxLatency: number;
  requireContext: boolean;
}): number {
  let mask = 0;
  if (settings.categoryMask !== 0) mask |= (~settings.categoryMask & 0xf) | NO_CATEGORY;
  for (let rank = settings.maxCost + 1; rank <= 2; rank++) mask |= 1 << (COST_BIT + rank);
  for (let rank = settings.maxLatency + 1; rank <= 2; rank++) mask |= 1 << (LATENCY_BIT + rank);
  if (settings.requireContext) mask |= NEEDS_CONTEXT;
  return mask;
}

/**
 * Everything selection and search precompute for one registry snapshot: per-tool numbers in
 * typed arrays, the keyword index (built with the snapshot) and the relevance index (BM25F
 * over every tool's text, built on the first `select` or `search`, then reused).
 */
export class SelectionIndex {
  readonly tools: readonly RegisteredTool[];
  readonly groups: readonly RegisteredGroup[];
  readonly contextChecks: ReadonlyMap<string, ContextCheck>;
  readonly analyzer: TextAnalyzer;
  readonly services: ReadonlyMap<string, unknown>;
  readonly estimateTokens: (tool: RegisteredTool, provider: ProviderId) => number;
  readonly vocabulary = new TermVocabulary();
  readonly keywords: KeywordIndex;
  readonly groupIndex: ReadonlyMap<string, number>;
  /** Group position of each tool (-1 when its group is unknown). */
  readonly groupOfTool: Int32Array;
  /** Tool positions of each group, in catalog order. */
  readonly toolsOfGroup: readonly (readonly number[])[];
  /**
   * Each group's tools as `[start, end)` catalog ranges (usually one): group `g`'s are the
   * pairs in `groupRanges[groupRangeStarts[g]..groupRangeStarts[g + 1])`.
   */
  readonly groupRangeStarts: Int32Array;
  readonly groupRanges: Int32Array;
  /** Strategy of each group. */
  readonly strategyOfGroup: readonly SelectionStrategy[];
  /** Tools of `always` groups, in catalog order. */
  readonly alwaysTools: readonly number[];
  /** `context` groups, in catalog order. */
  readonly contextGroups: readonly number[];
  /** Union of the `requires_context` keys of each group's tools, in first-seen order. */
  readonly contextKeysOfGroup: readonly (readonly string[])[];
  /** Name and group of each tool, side by side so drops are reported without touching the tools. */
  readonly toolNames: readonly string[];
  readonly toolGroups: readonly string[];
  /** Cost and latency ranks (0-2) and category bit of each tool. */
  readonly costOfTool: Uint8Array;
  readonly latencyOfTool: Uint8Array;
  readonly categoryOfTool: Uint8Array;
  /** Each tool's `requires_context` keys as an id into `keyLists` (tools share lists). */
  readonly keyListOfTool: Int32Array;
  /** Per tool, its category, cost, latency and context needs as bits (see `filterRejectMask`). */
  readonly filterBitsOfTool: Uint16Array;
  readonly keyLists: readonly (readonly string[])[];
  /** Per-call memo of key-list presence: valid when `keyListStamp[list] === stamp`. */
  readonly keyListStamp: Int32Array;
  readonly keyListPresent: Uint8Array;
  /**
   * The SelectedTool of each tool in the latest selection (and of pinned and context tools),
   * reused while its reason is unchanged; older entries are cleared so they can die young.
   */
  readonly selectedCache: (SelectedTool | undefined)[];
  /** Scratch: a candidate slot per tool, written before it is read. */
  readonly slotOfTool: Int32Array;
  /** Tools whose `selectedCache` entry was set by the latest selection. */
  lastSelected: number[] = [];
  // typed arrays over 64 bytes live outside the V8 heap and cost ~1 µs to allocate: per-call
  // scratch comes from these, grown by doubling
  readonly #scratch: Int32Array[] = Array.from({ length: 5 }, () => new Int32Array(64));
  #stamp = 0;
  #candidates: Candidates | undefined = new Candidates();
  /** `OVER_MAX_TOOLS` drops by tool for `overToolsLimit` (frozen; reused while it holds). */
  #overToolsDrops: (DroppedTool | undefined)[] = [];
  #overToolsLimit = 0;
  #toolIndex: ReadonlyMap<string, number> | undefined;
  #relevance: RelevanceIndex | undefined;
  #words: WordCache | undefined;
  #vocabularyTypos: TypoIndex<number> | undefined;
  readonly #tokenEstimates = new Map<string, Float64Array>();

  constructor(input: SelectionIndexInput) {
    this.tools = input.tools;
    this.groups = input.groups;
    this.contextChecks = input.contextChecks;
    this.analyzer = input.analyzer ?? getDefaultTextAnalyzer();
    this.services = input.services ?? new Map();
    this.estimateTokens = input.estimateTokens;
    const toolCount = this.tools.length;
    this.groupIndex = new Map(this.groups.map((group, position) => [group.group, position]));
    this.strategyOfGroup = this.groups.map((group) => group.selection.strategy);
    const toolsOfGroup: number[][] = this.groups.map(() => []);
    const contextKeys: string[][] = this.groups.map(() => []);
    this.groupOfTool = new Int32Array(toolCount);
    this.costOfTool = new Uint8Array(toolCount);
    this.latencyOfTool = new Uint8Array(toolCount);
    this.categoryOfTool = new Uint8Array(toolCount);
    this.keyListOfTool = new Int32Array(toolCount);
    this.filterBitsOfTool = new Uint16Array(toolCount);
    const keyLists: (readonly string[])[] = [];
    const keyListIds = new Map<string, number>();
    const alwaysTools: number[] = [];
    this.tools.forEach((tool, position) => {
      const group = this.groupIndex.get(tool.group) ?? -1;
      this.groupOfTool[position] = group;
      this.costOfTool[position] = COST_RANKS[tool.metadata.cost_estimate] ?? 2;
      this.latencyOfTool[position] = LATENCY_RANKS[tool.metadata.latency_estimate] ?? 2;
      this.categoryOfTool[position] = CATEGORY_BITS[tool.category] ?? 0;
      const keys = tool.metadata.requires_context;
      const signature = keys.join('\u0000');
      let list = keyListIds.get(signature);
      if (list === undefined) {
        list = keyLists.length;
        keyLists.push(keys);
        keyListIds.set(signature, list);
      }
      this.keyListOfTool[position] = list;
      this.filterBitsOfTool[position] =
        (this.categoryOfTool[position]! || NO_CATEGORY) |
        (1 << (COST_BIT + this.costOfTool[position]!)) |
        (1 << (LATENCY_BIT + this.latencyOfTool[position]!)) |
        (keys.length > 0 ? NEEDS_CONTEXT : 0);
      if (group < 0) return;
      toolsOfGroup[group]!.push(position);
      if (this.strategyOfGroup[group] === 'always') alwaysTools.push(position);
      const groupKeys = contextKeys[group]!;
      for (const key of keys) if (!groupKeys.includes(key)) groupKeys.push(key);
    });
    this.toolsOfGroup = toolsOfGroup;
    this.toolNames = this.tools.map((tool) => tool.name);
    this.toolGroups = this.tools.map((tool) => tool.group);
    const ranges: number[] = [];
    this.groupRangeStarts = new Int32Array(this.groups.length + 1);
    toolsOfGroup.forEach((positions, group) => {
      const first = ranges.length;
      for (const position of positions) {
        const last = ranges.length - 1;
        if (last > first && ranges[last] === position) ranges[last] = position + 1;
        else ranges.push(position, position + 1);
      }
      this.groupRangeStarts[group + 1] = ranges.length;
    });
    this.groupRanges = Int32Array.from(ranges);
    this.contextKeysOfGroup = contextKeys;
    this.alwaysTools = alwaysTools;
    this.contextGroups = this.groups
      .map((_, position) => position)
      .filter((position) => this.strategyOfGroup[position] === 'context');
    this.keyLists = keyLists;
    this.keyListStamp = new Int32Array(keyLists.length);
    this.keyListPresent = new Uint8Array(keyLists.length);
    this.selectedCache = new Array(toolCount).fill(undefined);
    this.slotOfTool = new Int32Array(toolCount);
    this.keywords = new KeywordIndex(this.groups, this.analyzer, this.vocabulary);
  }

  /** Tool positions by name. */
  get toolIndex(): ReadonlyMap<string, number> {
    this.#toolIndex ??= new Map(this.tools.map((tool, position) => [tool.name, position]));
    return this.#toolIndex;
  }

  /**
   * `length` scratch integers (buffers 0-4; their contents are garbage), valid until the next
   * call with the same buffer. Only for code that runs to completion without calling out.
   */
  scratch(buffer: 0 | 1 | 2 | 3 | 4, length: number): Int32Array {
    let array = this.#scratch[buffer]!;
    if (array.length < length) {
      array = new Int32Array(Math.max(length, array.length * 2));
      this.#scratch[buffer] = array;
    }
    return array.subarray(0, length);
  }

  /**
   * The candidate buffers for one selection, emptied; a re-entrant selection (from a context
   * check) gets fresh ones. Give them back with `releaseCandidates`.
   */
  acquireCandidates(): Candidates {
    const candidates = this.#candidates ?? new Candidates();
    this.#candidates = undefined;
    return candidates;
  }

  /** Empties `candidates` (so their evidence can be collected) and keeps them for reuse. */
  releaseCandidates(candidates: Candidates): void {
    candidates.reset();
    this.#candidates = candidates;
  }

  /** The `OVER_MAX_TOOLS` drop of `tool` under `maxTools`, made once per tool and limit. */
  overToolsDrop(tool: number, maxTools: number): DroppedTool {
    if (maxTools !== this.#overToolsLimit) {
      // dense (a sparse array of up to 10,000 tools would be a hash table)
      this.#overToolsDrops = new Array(this.tools.length).fill(undefined);
      this.#overToolsLimit = maxTools;
    }
    let drop = this.#overToolsDrops[tool];
    if (drop === undefined) {
      drop = Object.freeze({
        name: this.toolNames[tool]!,
        group: this.toolGroups[tool]!,
        code: 'OVER_MAX_TOOLS',
        reason: `maxTools ${maxTools} is reached by higher-ranked tools (pinned, context, then matched groups round-robin by relevance); raise maxTools to include it`,
      });
      this.#overToolsDrops[tool] = drop;
    }
    return drop;
  }

  /** A fresh number for per-call memos (see `keyListStamp`). */
  nextStamp(): number {
    this.#stamp = this.#stamp >= 0x3fffffff ? 1 : this.#stamp + 1;
    if (this.#stamp === 1) this.keyListStamp.fill(0);
    return this.#stamp;
  }

  /**
   * Whether `key` is available to a tool this turn: set (not null) in the turn's context, or a
   * registry service of that name.
   */
  hasContextKey(context: Readonly<Record<string, unknown>>, key: string): boolean {
    return (
      (Object.hasOwn(context, key) && context[key] !== null && context[key] !== undefined) ||
      this.services.has(key)
    );
  }

  /** The BM25F index, built on first use. */
  relevance(): RelevanceIndex {
    this.#relevance ??= new RelevanceIndex(this.tools, this.groups, this.analyzer, this.vocabulary);
    return this.#relevance;
  }

  /** What each message word analyzes to, once the vocabulary is complete. */
  words(): WordCache {
    if (this.#words === undefined) {
      this.relevance();
      this.#words = new WordCache(this.analyzer, this.vocabulary);
    }
    return this.#words;
  }

  /** Indexed terms (those some tool contains) for typo-tolerant search, built on first use. */
  vocabularyTypos(): TypoIndex<number> {
    if (this.#vocabularyTypos === undefined) {
      const relevance = this.relevance();
      const typos = new TypoIndex<number>();
      for (let id = 0; id < this.vocabulary.size; id++) {
        if (relevance.documentFrequency(id) > 0) typos.add(this.vocabulary.termOf(id), id);
      }
      this.#vocabularyTypos = typos;
    }
    return this.#vocabularyTypos;
  }

  /** Cached per-tool token estimates for `key` (NaN until computed). */
  tokenCache(key: string): Float64Array {
    let cache = this.#tokenEstimates.get(key);
    if (cache === undefined) {
      cache = new Float64Array(this.tools.length).fill(Number.NaN);
      this.#tokenEstimates.set(key, cache);
    }
    return cache;
  }
}
