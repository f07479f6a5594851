import type { ProviderId } from '../format/provider-ids.js';
import type {
  RegisteredGroup,
  RegisteredTool,
  SelectionStrategy,
  ToolCategory,
} from '../format/types.js';
import { commonness, relatedTerms } from '../text/lexicon.js';
import { getDefaultTextAnalyzer, type TextAnalyzer } from '../text/text-analyzer.js';
import { isTypoCandidate, TypoIndex } from '../text/typo-index.js';
import { WordCache } from './analyze-turn.js';
import { Candidates } from './candidates.js';
import { KeywordIndex } from './keyword-index.js';
import { BUDGET_ORDERS, type BudgetOrder, overMaxToolsReason } from './over-max-tools-reason.js';
import { DEFAULT_RANKING, type RankingSettings, relatedMaxDocuments } from './ranking-settings.js';
import { RelevanceIndex } from './relevance-index.js';
import { TermVocabulary } from './term-vocabulary.js';
import { groupFieldTexts, toolFieldTexts } from './tool-document.js';
import type { ContextCheck, DroppedTool } from './types.js';

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
  /** Ranking weights. Default `DEFAULT_RANKING`. */
  ranking?: RankingSettings | undefined;
}

/** What the English lexicon says about one index term, as this snapshot can use it. */
export interface LexicalTerm {
  /** 0-1, how common the word is in general English (0 for non-English analyzers). */
  commonness: number;
  /** Related terms some tool contains, with the lexicon's weight of the relation. */
  related: readonly { id: number; weight: number }[];
}

const NOT_IN_LEXICON: LexicalTerm = Object.freeze({ commonness: 0, related: Object.freeze([]) });
const LEXICAL_CACHE_LIMIT = 50_000;
/** `maxTools` values whose drops are kept (a service uses one or two). */
const DROP_CACHE_LIMIT = 8;

/** Ranks of cost and latency estimates (the filters compare ranks). */
export const COST_RANKS: Readonly<Record<string, number>> = { low: 0, medium: 1, high: 2 };
export const LATENCY_RANKS: Readonly<Record<string, number>> = { fast: 0, medium: 1, slow: 2 };
/** Category codes, as bits for a category filter mask. */
export const CATEGORY_BITS: Readonly<Record<ToolCategory, number>> = {
  creation: 1,
  retrieval: 2,
  mutation: 4,
  analysis: 8,
};

/**
 * Bits of `filterBitsOfTool`: the category (`CATEGORY_BITS`, or NO_CATEGORY), the cost and the
 * latency rank one-hot, and whether the tool requires context keys. A turn rejects the bits of
 * `filterRejectMask`, so most candidates pass every filter with one test.
 */
const NO_CATEGORY = 1 << 4;
const COST_BIT = 5;
const LATENCY_BIT = 8;
const NEEDS_CONTEXT = 1 << 11;

/** The filter bits a turn with these settings rejects (the full check then says why). */
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
 * What selection and search precompute for one registry snapshot, read-only once built: the
 * tools and groups by position, per-tool filter data in typed arrays (so filtering a candidate
 * never reads the tool object), the keyword index (built with the snapshot), and, built on
 * first use, the relevance index, the word cache and the typo index. It holds no per-turn
 * state: a turn's state lives in the turn (see `select-tools.ts`).
 */
export class SelectionIndex {
  readonly tools: readonly RegisteredTool[];
  readonly groups: readonly RegisteredGroup[];
  readonly contextChecks: ReadonlyMap<string, ContextCheck>;
  readonly analyzer: TextAnalyzer;
  readonly services: ReadonlyMap<string, unknown>;
  readonly vocabulary = new TermVocabulary();
  readonly keywords: KeywordIndex;
  /** Group position by name. */
  readonly groupByName: ReadonlyMap<string, number>;
  /** Strategy of each group. */
  readonly strategyOfGroup: readonly SelectionStrategy[];
  /** Group position of each tool (-1 when its group is unknown). */
  readonly groupOfTool: Int32Array;
  /** Tool positions of each group, in catalog order. */
  readonly toolsOfGroup: readonly (readonly number[])[];
  /** Each group's tools as flattened `[start, end)` catalog ranges (usually one). */
  readonly rangesOfGroup: readonly (readonly number[])[];
  /** Tools of `always` groups, in catalog order. */
  readonly alwaysTools: readonly number[];
  /** `context` groups, in catalog order. */
  readonly contextGroups: readonly number[];
  /** Cost and latency ranks (0-2) and category bit of each tool. */
  readonly costOfTool: Uint8Array;
  readonly latencyOfTool: Uint8Array;
  readonly categoryOfTool: Uint8Array;
  /** Per tool, its category, cost, latency and context needs as bits (see `filterRejectMask`). */
  readonly filterBitsOfTool: Uint16Array;
  /** Each tool's `requires_context` keys, as an index into `keyLists` (tools share lists). */
  readonly keyListOfTool: Int32Array;
  readonly keyLists: readonly (readonly string[])[];
  /** Name and group of each tool, so drops are reported without reading the tools. */
  readonly toolNames: readonly string[];
  readonly toolGroups: readonly string[];
  readonly ranking: RankingSettings;
  readonly #estimateTokens: SelectionIndexInput['estimateTokens'];
  readonly #lexical = new Map<string, LexicalTerm>();
  /** `lexical(term)` of the vocabulary's terms, by id (an array read instead of a hash). */
  #lexicalById: (LexicalTerm | undefined)[] = [];
  readonly #tokenEstimates = new Map<ProviderId, Float64Array>();
  /** `OVER_MAX_TOOLS` drops by order and `maxTools` value, then by tool: made once, frozen, shared. */
  readonly #overMaxToolsDrops = new Map<number, (DroppedTool | undefined)[]>();
  /** The candidate list lent to turns; undefined while a turn has it. */
  #spareCandidates: Candidates | undefined = new Candidates();
  #toolByName: ReadonlyMap<string, number> | undefined;
  #relevance: RelevanceIndex | undefined;
  #words: WordCache | undefined;
  #typos: TypoIndex<number> | undefined;

  constructor(input: SelectionIndexInput) {
    this.tools = input.tools;
    this.groups = input.groups;
    this.contextChecks = input.contextChecks;
    this.analyzer = input.analyzer ?? getDefaultTextAnalyzer();
    this.services = input.services ?? new Map();
    this.#estimateTokens = input.estimateTokens;
    this.ranking = input.ranking ?? DEFAULT_RANKING;
    const count = this.tools.length;
    this.groupByName = new Map(this.groups.map((group, position) => [group.group, position]));
    this.strategyOfGroup = this.groups.map((group) => group.selection.strategy);
    this.groupOfTool = new Int32Array(count);
    this.costOfTool = new Uint8Array(count);
    this.latencyOfTool = new Uint8Array(count);
    this.categoryOfTool = new Uint8Array(count);
    this.filterBitsOfTool = new Uint16Array(count);
    this.keyListOfTool = new Int32Array(count);
    const keyLists: (readonly string[])[] = [];
    const keyListIds = new Map<string, number>();
    const toolsOfGroup: number[][] = this.groups.map(() => []);
    this.tools.forEach((tool, position) => {
      const group = this.groupByName.get(tool.group) ?? -1;
      this.groupOfTool[position] = group;
      const cost = COST_RANKS[tool.metadata.cost_estimate] ?? 2;
      const latency = LATENCY_RANKS[tool.metadata.latency_estimate] ?? 2;
      const category = CATEGORY_BITS[tool.category] ?? 0;
      this.costOfTool[position] = cost;
      this.latencyOfTool[position] = latency;
      this.categoryOfTool[position] = category;
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
        (category || NO_CATEGORY) |
        (1 << (COST_BIT + cost)) |
        (1 << (LATENCY_BIT + latency)) |
        (keys.length > 0 ? NEEDS_CONTEXT : 0);
      if (group >= 0) toolsOfGroup[group]!.push(position);
    });
    this.keyLists = keyLists;
    this.toolsOfGroup = toolsOfGroup;
    this.rangesOfGroup = toolsOfGroup.map(toRanges);
    this.toolNames = this.tools.map((tool) => tool.name);
    this.toolGroups = this.tools.map((tool) => tool.group);
    this.alwaysTools = toolsOfGroup
      .filter((_, group) => this.strategyOfGroup[group] === 'always')
      .flat();
    this.contextGroups = this.groups
      .map((_, position) => position)
      .filter((position) => this.strategyOfGroup[position] === 'context');
    this.keywords = new KeywordIndex(this.groups, this.analyzer, this.vocabulary);
  }

  /** The position of the tool named `name`, or undefined. */
  toolPosition(name: string): number | undefined {
    this.#toolByName ??= new Map(this.toolNames.map((toolName, position) => [toolName, position]));
    return this.#toolByName.get(name);
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
    this.#relevance ??= new RelevanceIndex(
      this.tools,
      this.groups,
      this.analyzer,
      this.vocabulary,
      this.ranking.fields,
    );
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

  /**
   * The words of the tools' text and of the keywords, as written and stemmed, each with its
   * term id, for typo tolerance (see `correctTypos`); built on first use, so a registry that
   * never asks for typo tolerance never pays for it.
   */
  typos(): TypoIndex<number> {
    if (this.#typos === undefined) {
      this.relevance();
      const typos = new TypoIndex<number>();
      const { analyzer, vocabulary } = this;
      const seen = new Set<string>();
      const addText = (text: string) => {
        for (const token of analyzer.tokenize(text)) {
          for (const word of [token.text, ...token.parts]) {
            if (seen.has(word)) continue;
            seen.add(word);
            if (!isTypoCandidate(word) || analyzer.isStopword(word)) continue;
            const term = analyzer.stem(word);
            const id = vocabulary.idOf(term);
            if (id < 0) continue;
            typos.add(word, id);
            typos.add(term, id);
          }
        }
      };
      this.tools.forEach((tool, position) => {
        for (const text of toolFieldTexts(tool)) addText(text);
        for (const text of groupFieldTexts(this.groups[this.groupOfTool[position]!])) addText(text);
      });
      for (const { word, term, id } of this.keywords.keywordWords()) {
        typos.add(word, id);
        typos.add(term, id);
      }
      this.#typos = typos;
    }
    return this.#typos;
  }

  /**
   * The lexicon's view of `term` (an index term): its commonness, and its related terms that
   * some tool of this snapshot contains. Only for English analyzers (`analyzer.language`).
   */
  lexical(term: string): LexicalTerm {
    if (this.analyzer.language !== 'en') return NOT_IN_LEXICON;
    let entry = this.#lexical.get(term);
    if (entry === undefined) {
      const relevance = this.relevance();
      const related: { id: number; weight: number }[] = [];
      const maxDocuments = relatedMaxDocuments(this.ranking, this.tools.length);
      for (const candidate of relatedTerms(term)) {
        if (commonness(candidate.term) < this.ranking.relatedMinCommonness) continue;
        const id = this.vocabulary.idOf(candidate.term);
        const documents = relevance.documentFrequency(id);
        if (documents > 0 && documents <= maxDocuments) {
          related.push({ id, weight: candidate.weight });
        }
      }
      entry = { commonness: commonness(term), related };
      if (this.#lexical.size >= LEXICAL_CACHE_LIMIT) this.#lexical.clear();
      this.#lexical.set(term, entry);
    }
    return entry;
  }

  /** `lexical` of the vocabulary term `id`. */
  lexicalOf(id: number): LexicalTerm {
    let entry = this.#lexicalById[id];
    if (entry === undefined) {
      entry = this.lexical(this.vocabulary.termOf(id));
      if (this.#lexicalById.length < this.vocabulary.size) {
        this.#lexicalById = Array.from(this.#lexicalById);
        this.#lexicalById.length = this.vocabulary.size;
      }
      this.#lexicalById[id] = entry;
    }
    return entry;
  }

  /**
   * The frozen `OVER_MAX_TOOLS` drop of `tool` under `maxTools` in a turn ordered by `order`,
   * made on first use: a large catalog's turn drops a hundred tools this way, and the entries
   * never differ.
   */
  overMaxToolsDrop(tool: number, maxTools: number, order: BudgetOrder): DroppedTool {
    // a number, not a string: this runs for every tool a large catalog's turn drops
    const key = maxTools * BUDGET_ORDERS.length + BUDGET_ORDERS.indexOf(order);
    let drops = this.#overMaxToolsDrops.get(key);
    if (drops === undefined) {
      if (this.#overMaxToolsDrops.size >= DROP_CACHE_LIMIT) this.#overMaxToolsDrops.clear();
      drops = new Array<DroppedTool | undefined>(this.tools.length).fill(undefined);
      this.#overMaxToolsDrops.set(key, drops);
    }
    let drop = drops[tool];
    if (drop === undefined) {
      drop = Object.freeze({
        name: this.toolNames[tool]!,
        group: this.toolGroups[tool]!,
        code: 'OVER_MAX_TOOLS',
        reason: overMaxToolsReason(maxTools, order),
      });
      drops[tool] = drop;
    }
    return drop;
  }

  /**
   * An empty candidate list for one turn. The index lends the same one turn after turn; a turn
   * that starts while another holds it (a select inside a context check) gets a new one.
   */
  borrowCandidates(): Candidates {
    const spare = this.#spareCandidates;
    this.#spareCandidates = undefined;
    return (spare ?? new Candidates()).clear();
  }

  /** Takes back a list from `borrowCandidates` once its turn is over. */
  returnCandidates(candidates: Candidates): void {
    this.#spareCandidates = candidates;
  }

  /** Estimated tokens of tool `tool`'s definition for `provider`, computed once per snapshot. */
  tokenEstimate(tool: number, provider: ProviderId): number {
    let estimates = this.#tokenEstimates.get(provider);
    if (estimates === undefined) {
      estimates = new Float64Array(this.tools.length).fill(Number.NaN);
      this.#tokenEstimates.set(provider, estimates);
    }
    let tokens = estimates[tool]!;
    if (Number.isNaN(tokens)) {
      tokens = this.#estimateTokens(this.tools[tool]!, provider);
      estimates[tool] = tokens;
    }
    return tokens;
  }
}

/** Sorted positions as flattened `[start, end)` runs: [3, 4, 5, 9] → [3, 6, 9, 10]. */
function toRanges(positions: readonly number[]): number[] {
  const ranges: number[] = [];
  for (const position of positions) {
    if (ranges.length > 0 && ranges[ranges.length - 1] === position) {
      ranges[ranges.length - 1] = position + 1;
    } else {
      ranges.push(position, position + 1);
    }
  }
  return ranges;
}
