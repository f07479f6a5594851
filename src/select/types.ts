import type { ProviderId } from '../format/provider-ids.js';
import type {
  CostEstimate,
  LatencyEstimate,
  RegisteredTool,
  ToolCategory,
  Warning,
} from '../format/types.js';

/** Why a tool is in a selection. */
export type SelectionStrategyName =
  | 'always'
  | 'keyword'
  | 'context'
  | 'history'
  | 'fallback'
  | 'relevance';

/** A keyword that matched a message word only thanks to typo tolerance. */
export interface TypoMatch {
  /** The group keyword, as written in the group file. */
  keyword: string;
  /** The message word that is one edit away from it. */
  word: string;
}

/** The explanation attached to each selected tool. */
export interface SelectionReason {
  strategy: SelectionStrategyName;
  /**
   * What triggered it: keywords as written in the group file (`keyword`, `history`), context
   * keys or the `context_check` name (`context`), called tool names (`history`), matched query
   * words (`fallback`); empty for `always`.
   */
  matched: readonly string[];
  /** Relevance to the turn, 0-1 (see `search`), for keyword, history and fallback tools. */
  score?: number;
  /** Keywords matched only with typo tolerance. */
  typos?: readonly TypoMatch[];
  /**
   * The request's words of `matched` (`fallback`, `relevance`): the words of the message and
   * the history the tool contains, as `word`, `word~correction` for a corrected typo, or
   * `word→related` when it has a related word.
   * Omitted when none.
   */
  matched_words?: readonly string[];
  /**
   * The group keywords of `matched`, as written in the group file: those the message matched
   * (`keyword`), or the history messages matched (`history`, `relevance`), newest first.
   * Omitted when none.
   */
  matched_keywords?: readonly string[];
  /**
   * The tools of `matched` called in the history, newest first (`history`, `relevance`).
   * Omitted when none.
   */
  matched_history?: readonly string[];
  /**
   * For a `relevance` tool raised by its group, the name of the group's best tool, which raised
   * it (the last entry of `matched`). Omitted otherwise.
   */
  raised_by?: string;
}

/** A registered tool plus the reason it was selected. */
export type SelectedTool = RegisteredTool & { readonly reason: SelectionReason };

/** Why a candidate tool was left out. */
export type DropCode =
  | 'MISSING_CONTEXT'
  | 'CONTEXT_NOT_MET'
  | 'CATEGORY_EXCLUDED'
  | 'OVER_MAX_COST'
  | 'OVER_MAX_LATENCY'
  | 'OVER_MAX_TOOLS'
  | 'OVER_MAX_TOKENS';

/** A tool that a strategy chose but the turn's context, filters or budgets left out. */
export interface DroppedTool {
  name: string;
  group: string;
  code: DropCode;
  /** Human-readable: what was missing or exceeded, and how to get the tool back. */
  reason: string;
}

/** The tools for one turn. */
export interface Selection {
  /** Selected tools, in catalog order unless `order: "relevance"`. */
  tools: readonly SelectedTool[];
  /** The selected tool names in the same order: for `activeTools` or OpenAI `allowed_tools`. */
  names: readonly string[];
  /** Tools a strategy chose that were left out, and why. */
  dropped: readonly DroppedTool[];
  /** Things the caller should know: pins over budget, failing context checks, abstention. */
  warnings: readonly Warning[];
  /** Estimated tokens of the selected definitions for `provider`; only when `maxTokens` is set. */
  estimatedTokens?: number;
  /** Why each tool named in the `explain` option was or was not offered; only with `explain`. */
  explained?: readonly ToolExplanation[];
}

/**
 * What happened to a tool named in `explain`: `selected`; `dropped` by a budget (`maxTools`,
 * `maxTokens`); `needs-context` (missing context keys or a failing `context_check`); `excluded`
 * by `categories`, `maxCost` or `maxLatency`; `not-matched` (its keyword group did not match);
 * `below-cutoff` (ranked by `relevance` or the fallback, but under `k` or `minScore`);
 * `unknown` (no tool has the name).
 */
export type ExplanationStatus =
  | 'selected'
  | 'dropped'
  | 'needs-context'
  | 'excluded'
  | 'not-matched'
  | 'below-cutoff'
  | 'unknown';

/** Why one tool named in the `explain` option was or was not offered this turn. */
export interface ToolExplanation {
  /** The name as given in `explain`. */
  tool: string;
  status: ExplanationStatus;
  /** What happened and, when the tool was left out, what would bring it in. */
  reason: string;
  /** The tool's group; omitted for `unknown`. */
  group?: string;
  /** The drop code, for a tool in `dropped`. */
  code?: DropCode;
  /** Its position (1 = best) among the tools `relevance` or the fallback ranked this turn. */
  rank?: number;
  /** Its relevance this turn (0-1), as the ranking used it. */
  score?: number;
  /** Close tool names, for `unknown`. */
  suggestions?: readonly string[];
}

/** A previous turn: a user message, or the name of a tool called in that turn. */
export type HistoryEntry = string | { message: string } | { tool: string };

/** When no keyword group matches: offer nothing, or the best tools by relevance. */
export type FallbackOption = 'none' | { k?: number; minScore?: number };

/**
 * Select the tools of keyword groups by their relevance to the conversation instead of by
 * keyword: the `k` tools scoring at least `minScore` (0-1) against the message and the earlier
 * turns, tools of groups the conversation already used (history) raised by a fixed boost.
 */
export interface RelevanceOption {
  /** Most tools offered this way. Default 20. */
  k?: number;
  /**
   * Least relevance (0-1, with the history boost) of a tool offered. Default 0: any tool that
   * shares a word with the conversation (long messages give every tool a low score, so a
   * threshold cuts needed tools).
   */
  minScore?: number;
}

/** Options of `registry.select(message, options)`. */
export interface SelectOptions {
  /** The turn's context (`user_id`, `project_id`, ...): drives `context` groups and `requires_context`. */
  context?: Readonly<Record<string, unknown>>;
  /** Earlier turns, oldest first: user messages and/or tool names called. */
  history?: readonly HistoryEntry[];
  /** How many of the most recent history entries count. Default 4. */
  historyWindow?: number;
  /** Most tools returned; pins are kept even above it (with a warning). */
  maxTools?: number;
  /** Most estimated tokens of the translated definitions for `provider`. */
  maxTokens?: number;
  /** Provider whose translated definitions `maxTokens` measures. Default `"canonical"`. */
  provider?: ProviderId;
  /** Leave out tools costlier than this. */
  maxCost?: CostEstimate;
  /** Leave out tools slower than this. */
  maxLatency?: LatencyEstimate;
  /** Only tools of these categories (for example `["retrieval", "analysis"]` on a read-only turn). */
  categories?: readonly ToolCategory[];
  /** When no keyword or history group matches. Default `"none"`. */
  fallback?: FallbackOption;
  /**
   * Rank every tool of the keyword groups by relevance instead of matching keywords (for large
   * catalogs whose keywords cannot anticipate every phrasing, such as imported MCP servers).
   * Replaces the keyword, history and fallback strategies; pins and context groups still come
   * first. Costs a search over the catalog.
   */
  relevance?: RelevanceOption;
  /**
   * Correct words one edit away (words of 5+ letters) for keyword matching and ranking, as
   * `search` does; reported in `reason.typos` and as `word~correction`. Default false.
   */
  typoTolerance?: boolean;
  /**
   * Drop tools whose `requires_context` keys are missing from `context`. Default true. `false`
   * keeps them, and offers a `context` group without a `context_check` as if its keys were set.
   */
  requireContext?: boolean;
  /** `"catalog"` (default: byte-stable payloads) or `"relevance"` (priority, then score). */
  order?: 'catalog' | 'relevance';
  /**
   * Tool names to explain: the selection then has `explained`, saying for each why it was or
   * was not offered this turn. Costs a ranking of the catalog in `relevance` and fallback turns.
   */
  explain?: readonly string[];
}

/** Options of `registry.search(query, options)`. */
export interface SearchOptions {
  /** Most results. Default 10. */
  k?: number;
  /** Leave out results scoring below this (0-1). Default 0: any match. */
  minScore?: number;
  /** Correct query words one edit away (5+ letters), as `select` does. Default false. */
  typoTolerance?: boolean;
  /** Only tools of these groups. */
  groups?: readonly string[];
}

/** One search hit. */
export interface SearchResult {
  name: string;
  group: string;
  /**
   * Relevance 0-1: the BM25F score divided by the most the query could score, so it reads as
   * "how much of the query this tool covers, weighted by how rare each word is".
   */
  score: number;
  /** The query words that matched, normalized (corrected typos as `word~correction`). */
  matched: readonly string[];
  tool: RegisteredTool;
}

/** A named predicate for `context` groups: `(context, message) => boolean`. */
export type ContextCheck = (context: Readonly<Record<string, unknown>>, message: string) => boolean;
