import { dotProduct, normalizeVector } from '../../embeddings/vector-math.js';
import type { ProviderId } from '../../format/provider-ids.js';
import type { RegisteredGroup, RegisteredTool, Warning } from '../../format/types.js';
import { commonness, relatedTerms } from '../../text/lexicon.js';
import type { TextAnalyzer } from '../../text/text-analyzer.js';
import { isWithinOneEdit } from '../../text/typo-distance.js';
import { isTypoCandidate } from '../../text/typo-index.js';
import { isTooShort } from '../analyze-turn.js';
import { callContextCheck, contextCheckFailure } from '../call-context-check.js';
import { compareStrings } from '../keyword-index.js';
import { type BudgetOrder, overMaxToolsReason } from '../over-max-tools-reason.js';
import {
  DEFAULT_RANKING,
  type RankingSettings,
  RELATED_MIN_DOCUMENTS,
} from '../ranking-settings.js';
import { type ResolvedSelectOptions, resolveSelectOptions } from '../resolve-select-options.js';
import { roundScore } from '../round-score.js';
import { DEFAULT_SEARCH_K } from '../search-tools.js';
import { missingContextReason } from '../stages/filter-candidates.js';
import { unknownHistoryTool } from '../stages/read-turn.js';
import { normalizeScore } from '../stages/score-candidates.js';
import { BM25_K1, groupFieldTexts, toolFieldTexts } from '../tool-document.js';
import type {
  ContextCheck,
  DroppedTool,
  SearchOptions,
  SearchResult,
  SelectedTool,
  Selection,
  SelectionReason,
  SelectionStrategyName,
  SelectOptions,
  TypoMatch,
} from '../types.js';

/**
 * The reference selector: the documented selection rules written as plainly as possible,
 * with plain objects, explicit comparators and no caches. It is the executable specification
 * of `selectTools`, which must give byte-identical results (the property tests compare the
 * two on random registries and turns). It recomputes everything on every call, so it is slow;
 * it is never used to serve a turn.
 */
export interface ReferenceInput {
  tools: readonly RegisteredTool[];
  groups: readonly RegisteredGroup[];
  analyzer: TextAnalyzer;
  contextChecks: ReadonlyMap<string, ContextCheck>;
  services: ReadonlyMap<string, unknown>;
  estimateTokens: (tool: RegisteredTool, provider: ProviderId) => number;
  /** Ranking weights. Default `DEFAULT_RANKING`. */
  ranking?: RankingSettings;
}

/**
 * The semantic side of a turn, as the embedder made it: with it, every relevance score is the
 * fused score (see `fusedRelevance`).
 */
export interface ReferenceSemantic {
  /** Each tool's vector, in catalog order. */
  toolVectors: readonly ArrayLike<number>[];
  /** The vectors of `SEMANTIC_BACKGROUND`, in order. */
  backgroundVectors: readonly ArrayLike<number>[];
  queryVector: ArrayLike<number>;
  weight: number;
}

/** Budget priority, lowest first. */
const PRIORITY: readonly SelectionStrategyName[] = [
  'always',
  'context',
  'keyword',
  'history',
  'fallback',
  'relevance',
];

/** One word position of a text: the word and the terms it offers (its own, then its parts'). */
/** A term a position offers: the word's own, a part's, or a typo's correction (`typo`). */
interface PositionSlot {
  word: string;
  term: string;
  typo: boolean;
}

interface Position {
  word: string;
  slots: PositionSlot[];
}

/** One keyword of one group as a sequence of terms. */
interface Phrase {
  group: RegisteredGroup;
  keyword: string;
  terms: string[];
}

interface Candidate {
  tool: RegisteredTool;
  strategy: SelectionStrategyName;
  matched: string[];
  typos: TypoMatch[];
  /** `matched` by kind: query words, group keywords, tools called in the history, the raiser. */
  kinds: MatchKinds;
  /** Relevance 0-1 (BM25F over the query's maximum); undefined for always and context tools. */
  score: number | undefined;
  /** Identifies the group match the candidate came from (round-robin groups). */
  groupKey: string;
}

interface MatchKinds {
  words: string[];
  keywords: string[];
  calledTools: string[];
  raisedBy: string | undefined;
}

/** No kinds: always and context tools. */
const NO_KINDS: MatchKinds = { words: [], keywords: [], calledTools: [], raisedBy: undefined };

interface Query {
  terms: { term: string; word: string; weight: number }[];
  /** How many leading terms are the turn's own words (the rest are related words). */
  own: number;
  /** Summed weight of message words no tool or keyword contains. */
  unknown: number;
}

/** The ranking words of a text: those some tool or keyword contains, and the others. */
interface RankingWords {
  known: { term: string; word: string }[];
  unknown: { term: string; word: string }[];
}

/** `select(message, options)` by the documented rules. */
export function referenceSelect(
  input: ReferenceInput,
  message: string,
  options: SelectOptions = {},
  semantic?: ReferenceSemantic,
): Selection {
  const settings = resolveSelectOptions(message, options);
  const corpus = buildCorpus(input);
  const warnings: Warning[] = [];
  const dropped: DroppedTool[] = [];
  const candidates: Candidate[] = [];

  // the message: keyword matches and the ranking query (weight 1)
  const positions = analyzePositions(input.analyzer, message);
  if (settings.typoTolerance) addTypoAlternatives(input.analyzer, corpus, positions);
  const messageWords = rankingWords(input.analyzer, corpus, positions);
  const historyWords: RankingWords[] = [];
  // the history, newest first: the groups it matches or whose tools it called, and its words
  // keywords: keywords and called tools together, newest first; and each kind apart
  const recorded = new Map<
    string,
    { keywords: string[]; typos: TypoMatch[]; historyKeywords: string[]; calledTools: string[] }
  >();
  const record = (
    group: string,
    matched: string,
    typoWord: string | undefined,
    isTool: boolean,
  ) => {
    const entry = recorded.get(group) ?? {
      keywords: [],
      typos: [],
      historyKeywords: [],
      calledTools: [],
    };
    recorded.set(group, entry);
    const kind = isTool ? entry.calledTools : entry.historyKeywords;
    if (!kind.includes(matched)) kind.push(matched);
    if (!entry.keywords.includes(matched)) {
      entry.keywords.push(matched);
      if (typoWord !== undefined) entry.typos.push({ keyword: matched, word: typoWord });
    } else if (typoWord === undefined) {
      entry.typos = entry.typos.filter((typo) => typo.keyword !== matched);
    }
  };
  for (const entry of [...settings.history].reverse()) {
    if (typeof entry === 'object' && 'tool' in entry && typeof entry.tool === 'string') {
      const tool = input.tools.find((candidateTool) => candidateTool.name === entry.tool);
      if (tool === undefined) {
        warnings.push({
          code: 'UNKNOWN_HISTORY_TOOL',
          message: unknownHistoryTool(
            entry.tool,
            input.tools.map((candidateTool) => candidateTool.name),
          ),
          tool: entry.tool,
        });
      } else {
        record(tool.group, tool.name, undefined, true);
      }
      continue;
    }
    const text = typeof entry === 'string' ? entry : (entry as { message: string }).message;
    const historyPositions = analyzePositions(input.analyzer, text);
    if (settings.typoTolerance) addTypoAlternatives(input.analyzer, corpus, historyPositions);
    for (const match of matchKeywords(corpus, historyPositions)) {
      for (const keyword of match.keywords) {
        const typo = match.typos.find((candidateTypo) => candidateTypo.keyword === keyword);
        record(match.group.group, keyword, typo?.word, false);
      }
    }
    historyWords.push(rankingWords(input.analyzer, corpus, historyPositions));
  }

  // always: every tool of every always group, catalog order
  for (const tool of input.tools) {
    if (strategyOf(input, tool) === 'always') {
      candidates.push(candidate(tool, 'always', [], [], NO_KINDS, undefined, 'always'));
    }
  }

  // context groups, catalog order
  for (const group of input.groups) {
    if (group.selection.strategy !== 'context') continue;
    const tools = input.tools.filter((tool) => tool.group === group.group);
    const checkName = group.selection.context_check;
    if (checkName === undefined) {
      for (const tool of tools) {
        const keys = tool.metadata.requires_context;
        if (!settings.requireContext || keys.every((key) => hasKey(input, settings, key))) {
          candidates.push(
            candidate(tool, 'context', [...keys], [], NO_KINDS, undefined, group.group),
          );
        } else {
          dropped.push(missingContext(input, settings, tool, 'context group'));
        }
      }
      continue;
    }
    const check = input.contextChecks.get(checkName);
    let reason: string | undefined;
    if (check === undefined) {
      warnings.push({
        code: 'UNKNOWN_CONTEXT_CHECK',
        message: `group "${group.group}" names context_check "${checkName}", which is not registered; pass it in loadRegistry({ contextChecks: { ${checkName}: (context, message) => ... } }). The group is left out`,
      });
      reason = `its group's context_check "${checkName}" is not registered (see the warnings)`;
    } else {
      const outcome = callContextCheck(check, settings.context, message);
      if ('problem' in outcome) {
        warnings.push({
          code: 'CONTEXT_CHECK_FAILED',
          message: `context_check "${checkName}" of group "${group.group}" ${outcome.problem}; the group is left out of this turn`,
        });
        reason = `its group's context_check "${checkName}" ${contextCheckFailure(outcome.problem)}`;
      } else if (!outcome.applies) {
        reason = `its group's context_check "${checkName}" returned false for this turn's context`;
      }
    }
    for (const tool of tools) {
      if (reason === undefined) {
        candidates.push(
          candidate(tool, 'context', [checkName], [], NO_KINDS, undefined, group.group),
        );
      } else {
        dropped.push({ name: tool.name, group: tool.group, code: 'CONTEXT_NOT_MET', reason });
      }
    }
  }

  // the ranking query of the turn, and helpers over it
  const query = buildQuery(input, corpus, messageWords, historyWords);
  const maxScore = corpus.maxScore(query);
  // BM25F over the query's maximum, 0-1; with semantic scores, the fused score
  const relevanceOf = (tool: RegisteredTool) => {
    const lexical = normalizeScore(corpus.score(tool, query), maxScore);
    return semantic === undefined ? lexical : fusedRelevance(semantic, tool, lexical);
  };
  const wordsIn = (tool: RegisteredTool) =>
    query.terms.filter((term) => corpus.has(tool, term.term)).map((term) => term.word);

  if (settings.relevance !== undefined) {
    // relevance: keyword groups' tools by relevance, raised when their group was used, or,
    // while none was, when their group has one of the k most relevant tools (by its best over
    // the turn's best)
    const { k, minScore } = settings.relevance;
    const { historyGroupBoost, relevanceGroupBoost } = input.ranking ?? DEFAULT_RANKING;
    const relevant = input.tools
      .filter((tool) => strategyOf(input, tool) === 'keyword')
      .map((tool) => ({ tool, relevance: relevanceOf(tool) }))
      .filter((entry) => entry.relevance > 0)
      .sort((a, b) => b.relevance - a.relevance || a.tool.index - b.tool.index);
    const groupBest = new Map<string, { tool: RegisteredTool; relevance: number }>();
    for (const entry of relevant.slice(0, k)) {
      if (!groupBest.has(entry.tool.group)) groupBest.set(entry.tool.group, entry);
    }
    const topRelevance = relevant[0]?.relevance ?? 0;
    // only until the conversation uses a keyword group: then the history boost leads
    const usedAny = [...recorded.keys()].some(
      (group) =>
        input.groups.find((entry) => entry.group === group)?.selection.strategy === 'keyword',
    );
    const groupBoost = (group: string) => {
      const best = groupBest.get(group);
      return usedAny || best === undefined || relevanceGroupBoost === 0 || topRelevance <= 0
        ? 0
        : (relevanceGroupBoost * best.relevance) / topRelevance;
    };
    // minScore gates the relevance before the group raise (the tool's, or its group's best)
    const ranked = input.tools
      .filter((tool) => strategyOf(input, tool) === 'keyword')
      .map((tool) => {
        const used = recorded.get(tool.group);
        const own = relevanceOf(tool) + (used === undefined ? 0 : historyGroupBoost);
        const raise = groupBoost(tool.group);
        const gate = raise > 0 ? Math.max(own, groupBest.get(tool.group)!.relevance) : own;
        return { tool, used, score: own + raise, gate };
      })
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || a.tool.index - b.tool.index);
    const offered = ranked.filter((entry) => roundScore(entry.gate) >= minScore).slice(0, k);
    for (const { tool, used, score } of offered) {
      const matched = [...wordsIn(tool), ...(used?.keywords ?? [])];
      const best = groupBest.get(tool.group);
      const raised = best !== undefined && best.tool !== tool && groupBoost(tool.group) > 0;
      if (raised) matched.push(best.tool.name);
      const kinds: MatchKinds = {
        words: wordsIn(tool),
        keywords: used?.historyKeywords ?? [],
        calledTools: used?.calledTools ?? [],
        raisedBy: raised ? best.tool.name : undefined,
      };
      candidates.push(
        candidate(tool, 'relevance', matched, used?.typos ?? [], kinds, score, `r:${tool.name}`),
      );
    }
    if (offered.length === 0) {
      const best = Math.max(0, ...ranked.map((entry) => roundScore(entry.gate)));
      warnings.push({
        code: 'RELEVANCE_ABSTAINED',
        message:
          ranked.length > 0
            ? `no tool reached the minimum relevance ${minScore} (best ${best}), so none is offered by relevance`
            : settings.typoTolerance
              ? 'no tool of a keyword group shares a word (or, for words of 5+ letters, a word one typo away) with the message or the history, so none is offered by relevance'
              : 'no tool of a keyword group shares a word with the message or the history, so none is offered by relevance',
      });
    }
  } else {
    // keyword groups the message matches, in order of their first match
    const messageMatches = matchKeywords(corpus, positions).filter(
      (match) => match.group.selection.strategy === 'keyword',
    );
    for (const match of messageMatches) {
      for (const tool of input.tools.filter((entry) => entry.group === match.group.group)) {
        const kinds = { ...NO_KINDS, keywords: match.keywords };
        candidates.push(
          candidate(
            tool,
            'keyword',
            match.keywords,
            match.typos,
            kinds,
            0,
            `k:${match.group.group}`,
          ),
        );
      }
    }

    // history: groups it kept that the message did not match
    let historyGroups = 0;
    {
      const matchedByMessage = new Set(messageMatches.map((match) => match.group.group));
      for (const group of input.groups) {
        const entry = recorded.get(group.group);
        if (entry === undefined || group.selection.strategy !== 'keyword') continue;
        if (matchedByMessage.has(group.group)) continue;
        historyGroups++;
        for (const tool of input.tools.filter(
          (candidateTool) => candidateTool.group === group.group,
        )) {
          const kinds = {
            ...NO_KINDS,
            keywords: entry.historyKeywords,
            calledTools: entry.calledTools,
          };
          candidates.push(
            candidate(tool, 'history', entry.keywords, entry.typos, kinds, 0, `h:${group.group}`),
          );
        }
      }
    }

    // ranking: keyword and history tools against the message and history words
    for (const entry of candidates) {
      if (entry.score !== undefined) entry.score = relevanceOf(entry.tool);
    }

    // fallback: only when no keyword or history group matched
    if (messageMatches.length === 0 && historyGroups === 0 && settings.fallback !== undefined) {
      const { k, minScore } = settings.fallback;
      const ranked = input.tools
        .filter((tool) => strategyOf(input, tool) === 'keyword')
        // BM25F (or, with semantic scores, the fused score) over every tool
        .map((tool) => ({
          tool,
          raw: semantic === undefined ? corpus.score(tool, query) : relevanceOf(tool),
        }))
        .filter((entry) => entry.raw > 0)
        .sort((a, b) => b.raw - a.raw || a.tool.index - b.tool.index)
        .slice(0, k);
      let best = 0;
      let added = 0;
      for (const { tool, raw } of ranked) {
        const score = semantic === undefined ? normalizeScore(raw, maxScore) : raw;
        best = Math.max(best, roundScore(score));
        if (roundScore(score) < minScore) continue;
        const kinds = { ...NO_KINDS, words: wordsIn(tool) };
        candidates.push(
          candidate(tool, 'fallback', wordsIn(tool), [], kinds, score, `f:${tool.name}`),
        );
        added++;
      }
      if (added === 0) {
        warnings.push({
          code: 'FALLBACK_ABSTAINED',
          message: `no keyword group matched and no tool reached the fallback's minimum relevance ${minScore} (best ${best}), so no fallback tools are offered`,
        });
      }
    }
  }

  // filters, in candidate order
  const survivors: Candidate[] = [];
  for (const entry of candidates) {
    const drop = filterDrop(input, settings, entry.tool);
    if (drop === undefined) survivors.push(entry);
    else dropped.push(drop);
  }

  // budgets, in priority order
  const budgeted = settings.maxTools !== undefined || settings.maxTokens !== undefined;
  let kept = survivors;
  let estimatedTokens: number | undefined;
  if (budgeted || settings.order === 'relevance') {
    const ordered = priorityOrder(survivors);
    if (budgeted) {
      const order: BudgetOrder =
        settings.relevance !== undefined
          ? 'relevance'
          : candidates.some((entry) => entry.strategy === 'fallback')
            ? 'fallback'
            : 'matched';
      const result = applyBudgets(input, settings, ordered, order, dropped, warnings);
      kept = result.kept;
      estimatedTokens = result.tokens;
    } else {
      kept = ordered;
    }
  }
  if (settings.order === 'catalog') kept = [...kept].sort((a, b) => a.tool.index - b.tool.index);

  const tools = kept.map((entry) => selectedTool(entry));
  const selection: Selection = {
    tools,
    names: tools.map((tool) => tool.name),
    dropped,
    warnings,
  };
  if (estimatedTokens !== undefined) selection.estimatedTokens = estimatedTokens;
  return selection;
}

/** `search(query, options)` by the documented rules. */
export function referenceSearch(
  input: ReferenceInput,
  query: string,
  options: SearchOptions = {},
  semantic?: ReferenceSemantic,
): SearchResult[] {
  const corpus = buildCorpus(input);
  const positions = analyzePositions(input.analyzer, query);
  if (options.typoTolerance === true) addTypoAlternatives(input.analyzer, corpus, positions);
  const words = rankingWords(input.analyzer, corpus, positions);
  const ranking = buildQuery(input, corpus, words, []);
  const maxScore = corpus.maxScore(ranking);
  const groups = options.groups === undefined ? undefined : new Set(options.groups);
  return input.tools
    .filter((tool) => groups === undefined || groups.has(tool.group))
    .map((tool) => {
      // BM25F, or with semantic scores the fused score over every tool
      const raw = corpus.score(tool, ranking);
      if (semantic === undefined) return { tool, raw };
      return { tool, raw: fusedRelevance(semantic, tool, normalizeScore(raw, maxScore)) };
    })
    .filter((entry) => entry.raw > 0)
    .sort((a, b) => b.raw - a.raw || a.tool.index - b.tool.index)
    .slice(0, options.k ?? DEFAULT_SEARCH_K)
    .map(({ tool, raw }) => ({
      name: tool.name,
      group: tool.group,
      score: roundScore(semantic === undefined ? raw / maxScore : raw),
      matched: [
        ...new Set(
          ranking.terms.filter((term) => corpus.has(tool, term.term)).map((term) => term.word),
        ),
      ],
      tool,
    }))
    .filter((result) => result.score > 0 && result.score >= (options.minScore ?? 0));
}

/**
 * The fused relevance of `tool` whose lexical score (0-1) is `lexical`: the semantic score
 * combined as 1 − (1 − lexical)(1 − weight × semantic), lexical capped to 0-1. The semantic
 * score: with unit vectors, the cosine of query and tool against the tool's floor (its mean
 * cosine with the background texts), as the share of the way from the floor to 1, capped at 1
 * and squared; 0 at or below the floor, and 0 for a zero query vector.
 */
function fusedRelevance(
  semantic: ReferenceSemantic,
  tool: RegisteredTool,
  lexical: number,
): number {
  const query = normalizeVector(semantic.queryVector);
  // the registry keeps the vectors an embedder returns for tools and background texts as
  // 32-bit floats (as cached), then normalizes them; a query vector is normalized as given
  const unit = normalizeVector(Float32Array.from(semantic.toolVectors[tool.index]!));
  const background = semantic.backgroundVectors.map((vector) =>
    normalizeVector(Float32Array.from(vector)),
  );
  const floor =
    background.length === 0
      ? 0
      : background.reduce((sum, other) => sum + dotProduct(unit, other), 0) / background.length;
  let semanticScore = 0;
  const share = (dotProduct(query, unit) - floor) / (1 - floor);
  if (query.some((value) => value !== 0) && floor < 1 && share > 0) {
    const capped = Math.min(1, share);
    semanticScore = capped * capped;
  }
  const lexicalScore = Math.min(1, Math.max(0, lexical));
  return 1 - (1 - lexicalScore) * (1 - semantic.weight * semanticScore);
}

function candidate(
  tool: RegisteredTool,
  strategy: SelectionStrategyName,
  matched: readonly string[],
  typos: readonly TypoMatch[],
  kinds: MatchKinds,
  score: number | undefined,
  groupKey: string,
): Candidate {
  return {
    tool,
    strategy,
    matched: [...matched],
    typos: [...typos],
    kinds: {
      words: [...kinds.words],
      keywords: [...kinds.keywords],
      calledTools: [...kinds.calledTools],
      raisedBy: kinds.raisedBy,
    },
    score,
    groupKey,
  };
}

function strategyOf(input: ReferenceInput, tool: RegisteredTool): string | undefined {
  return input.groups.find((group) => group.group === tool.group)?.selection.strategy;
}

function hasKey(input: ReferenceInput, settings: ResolvedSelectOptions, key: string): boolean {
  const value = Object.hasOwn(settings.context, key) ? settings.context[key] : undefined;
  return (value !== undefined && value !== null) || input.services.has(key);
}

function missingContext(
  input: ReferenceInput,
  settings: ResolvedSelectOptions,
  tool: RegisteredTool,
  by: 'context group' | 'filter',
): DroppedTool {
  const missing = tool.metadata.requires_context.filter((key) => !hasKey(input, settings, key));
  return {
    name: tool.name,
    group: tool.group,
    code: 'MISSING_CONTEXT',
    reason: missingContextReason(missing, by),
  };
}

function filterDrop(
  input: ReferenceInput,
  settings: ResolvedSelectOptions,
  tool: RegisteredTool,
): DroppedTool | undefined {
  const ranks = ['low', 'medium', 'high'];
  const speeds = ['fast', 'medium', 'slow'];
  const drop = (code: DroppedTool['code'], reason: string): DroppedTool => ({
    name: tool.name,
    group: tool.group,
    code,
    reason,
  });
  if (
    settings.requireContext &&
    !tool.metadata.requires_context.every((key) => hasKey(input, settings, key))
  ) {
    return missingContext(input, settings, tool, 'filter');
  }
  if (settings.categories.length > 0 && !settings.categories.includes(tool.category)) {
    return drop(
      'CATEGORY_EXCLUDED',
      `category ${tool.category} is not among the allowed categories (${settings.categories.join(', ')})`,
    );
  }
  if (ranks.indexOf(tool.metadata.cost_estimate) > settings.maxCost) {
    return drop(
      'OVER_MAX_COST',
      `cost_estimate ${tool.metadata.cost_estimate} is above maxCost ${settings.maxCostName}`,
    );
  }
  if (speeds.indexOf(tool.metadata.latency_estimate) > settings.maxLatency) {
    return drop(
      'OVER_MAX_LATENCY',
      `latency_estimate ${tool.metadata.latency_estimate} is above maxLatency ${settings.maxLatencyName}`,
    );
  }
  return undefined;
}

/** Higher score first, then catalog order. */
function byRelevance(a: Candidate, b: Candidate): number {
  return (b.score ?? 0) - (a.score ?? 0) || a.tool.index - b.tool.index;
}

/**
 * Strata in priority order; keyword and history tools round-robin over their groups (the best
 * tool of each group first, groups by their best tool), everything else as collected.
 */
function priorityOrder(survivors: readonly Candidate[]): Candidate[] {
  const ordered: Candidate[] = [];
  for (const strategy of PRIORITY) {
    const stratum = survivors.filter((entry) => entry.strategy === strategy);
    if (strategy !== 'keyword' && strategy !== 'history') {
      ordered.push(...stratum);
      continue;
    }
    const groups = new Map<string, Candidate[]>();
    for (const entry of stratum)
      groups.set(entry.groupKey, [...(groups.get(entry.groupKey) ?? []), entry]);
    const lists = [...groups.values()].map((list) => [...list].sort(byRelevance));
    lists.sort((a, b) => byRelevance(a[0]!, b[0]!));
    const longest = Math.max(0, ...lists.map((list) => list.length));
    for (let round = 0; round < longest; round++) {
      for (const list of lists) if (list[round] !== undefined) ordered.push(list[round]!);
    }
  }
  return ordered;
}

function applyBudgets(
  input: ReferenceInput,
  settings: ResolvedSelectOptions,
  ordered: readonly Candidate[],
  order: BudgetOrder,
  dropped: DroppedTool[],
  warnings: Warning[],
): { kept: Candidate[]; tokens: number | undefined } {
  const { maxTools, maxTokens, provider } = settings;
  const tokensOf = (tool: RegisteredTool) =>
    maxTokens === undefined ? 0 : input.estimateTokens(tool, provider);
  const pins = ordered.filter((entry) => entry.strategy === 'always');
  const kept = [...pins];
  let tokens = pins.reduce((sum, entry) => sum + tokensOf(entry.tool), 0);
  if (maxTools !== undefined && kept.length > maxTools) {
    warnings.push({
      code: 'PINS_OVER_BUDGET',
      message: `the ${kept.length} pinned (always) tools exceed maxTools ${maxTools}; they are all kept and nothing else is added. Raise maxTools or unpin a group`,
    });
  }
  if (maxTokens !== undefined && tokens > maxTokens) {
    warnings.push({
      code: 'PINS_OVER_BUDGET',
      message: `the pinned (always) tools take an estimated ${tokens} tokens for ${provider}, above maxTokens ${maxTokens}; they are all kept and nothing else is added. Raise maxTokens or unpin a group`,
    });
  }
  for (const entry of ordered.filter((candidateEntry) => candidateEntry.strategy !== 'always')) {
    if (maxTools !== undefined && kept.length >= maxTools) {
      dropped.push({
        name: entry.tool.name,
        group: entry.tool.group,
        code: 'OVER_MAX_TOOLS',
        reason: overMaxToolsReason(maxTools, order),
      });
      continue;
    }
    if (maxTokens !== undefined) {
      const size = tokensOf(entry.tool);
      if (tokens + size > maxTokens) {
        dropped.push({
          name: entry.tool.name,
          group: entry.tool.group,
          code: 'OVER_MAX_TOKENS',
          reason: `its estimated ${size} tokens would bring the selection to ${tokens + size}, above maxTokens ${maxTokens}`,
        });
        continue;
      }
      tokens += size;
    }
    kept.push(entry);
  }
  return { kept, tokens: maxTokens === undefined ? undefined : tokens };
}

function selectedTool(entry: Candidate): SelectedTool {
  const reason: SelectionReason = { strategy: entry.strategy, matched: entry.matched };
  // `matched` by kind, each only when the tool has some
  const { words, keywords, calledTools, raisedBy } = entry.kinds;
  if (words.length > 0) reason.matched_words = words;
  if (keywords.length > 0) reason.matched_keywords = keywords;
  if (calledTools.length > 0) reason.matched_history = calledTools;
  if (raisedBy !== undefined) reason.raised_by = raisedBy;
  if (entry.score !== undefined) reason.score = roundScore(entry.score);
  if (entry.typos.length > 0) reason.typos = entry.typos;
  return { ...entry.tool, reason };
}

// ------------------------------------------------------------------------------------------
// text: positions, keyword phrases, typo alternatives, the ranking query

/** Each word of `text` with the terms it offers: its own stem, then its parts' stems. */
function analyzePositions(analyzer: TextAnalyzer, text: string): Position[] {
  return analyzer.tokenize(text).map((token) => ({
    word: token.text,
    slots: [token.text, ...token.parts].map((word) => ({
      word,
      term: analyzer.stem(word),
      typo: false,
    })),
  }));
}

/**
 * The words of `positions` that rank (no stopwords, no single ASCII characters), each term
 * once: those some tool or keyword contains, then the corrected typos' terms; and the words no
 * tool or keyword contains (a corrected word is no longer one of them).
 */
function rankingWords(
  analyzer: TextAnalyzer,
  corpus: Corpus,
  positions: readonly Position[],
): RankingWords {
  const words: RankingWords = { known: [], unknown: [] };
  for (const position of positions) {
    for (const slot of position.slots) {
      if (slot.typo) continue;
      if (analyzer.isStopword(slot.word) || isTooShort(slot.term)) continue;
      if (!corpus.vocabulary.has(slot.term)) {
        if (!words.unknown.some((entry) => entry.term === slot.term)) words.unknown.push(slot);
        continue;
      }
      if (!words.known.some((known) => known.term === slot.term)) words.known.push(slot);
    }
  }
  // a corrected word ranks with its corrections instead of its own term, shown as word~correction
  for (const position of positions) {
    for (const slot of position.slots) {
      if (!slot.typo) continue;
      if (!words.known.some((known) => known.term === slot.term)) {
        words.known.push({ term: slot.term, word: `${slot.word}~${corpus.wordOf(slot.term)}` });
      }
      const own = analyzer.stem(slot.word);
      const at = words.unknown.findIndex((entry) => entry.term === own);
      if (at >= 0) words.unknown.splice(at, 1);
    }
  }
  return words;
}

/**
 * The ranking query: the message's words (weight 1), then the history's, newest first (weight
 * `historyWeight`), each weighted by (1 − commonnessDamping × its commonness in English); the
 * message's unknown words count in the maximum with their weights; then every word related to
 * those (own words first, then the unknown ones) that some tool contains, at the source's weight
 * × relatedWeight × the lexicon's weight.
 */
function buildQuery(
  input: ReferenceInput,
  corpus: Corpus,
  message: RankingWords,
  history: readonly RankingWords[],
): Query {
  const settings = input.ranking ?? DEFAULT_RANKING;
  const english = input.analyzer.language === 'en';
  const weightOf = (term: string) =>
    1 - settings.commonnessDamping * (english ? commonness(term) : 0);
  const query: Query = { terms: [], own: 0, unknown: 0 };
  const has = (term: string) => query.terms.some((known) => known.term === term);
  for (const { term, word } of message.known) {
    query.terms.push({ term, word, weight: weightOf(term) });
  }
  for (const { term } of message.unknown) query.unknown += weightOf(term);
  for (const words of history) {
    for (const { term, word } of words.known) {
      if (!has(term)) {
        query.terms.push({ term, word, weight: settings.historyWeight * weightOf(term) });
      }
    }
  }
  query.own = query.terms.length;
  if (english && settings.relatedWeight > 0) {
    const sources = [
      ...query.terms.map((term) => ({ ...term })),
      ...message.unknown.map(({ term, word }) => ({ term, word, weight: weightOf(term) })),
    ];
    for (const source of sources) {
      // the strongest relatedPerWord related words some tool contains, not already in the query
      const usable = relatedTerms(source.term).filter(
        (related) =>
          commonness(related.term) >= settings.relatedMinCommonness &&
          corpus.indexed(related.term) &&
          corpus.documents(related.term) <=
            Math.max(RELATED_MIN_DOCUMENTS, settings.relatedMaxShare * corpus.size),
      );
      let added = 0;
      for (const related of usable) {
        if (added === settings.relatedPerWord) break;
        if (has(related.term)) continue;
        added++;
        query.terms.push({
          term: related.term,
          word: `${source.word}→${corpus.wordOf(related.term)}`,
          weight: source.weight * settings.relatedWeight * related.weight,
        });
      }
    }
  }
  return query;
}

/**
 * Typo tolerance, for select and search alike: each word of a position (the word, then its
 * parts) that is not a stopword and whose term no tool or keyword contains gets, as extra terms
 * of its position, every term of a tool word or keyword word that is one edit away from the
 * word or its stem, either as written or stemmed (words of five or more plain letters), in
 * term order.
 */
function addTypoAlternatives(analyzer: TextAnalyzer, corpus: Corpus, positions: Position[]): void {
  for (const position of positions) {
    const corrections: PositionSlot[] = [];
    for (const slot of position.slots) {
      if (analyzer.isStopword(slot.word) || isTooShort(slot.term)) continue;
      if (corpus.vocabulary.has(slot.term)) continue;
      const found = new Set<string>();
      for (const candidateWord of [slot.word, slot.term]) {
        if (!isTypoCandidate(candidateWord)) continue;
        for (const { word, term } of corpus.typoWords) {
          for (const known of [word, term]) {
            if (
              isTypoCandidate(known) &&
              known !== candidateWord &&
              isWithinOneEdit(candidateWord, known)
            ) {
              found.add(term);
            }
          }
        }
      }
      for (const term of [...found].sort(compareStrings)) {
        corrections.push({ word: slot.word, term, typo: true });
      }
    }
    position.slots.push(...corrections);
  }
}

/**
 * The groups whose keywords occur in `positions`, in order of their first match: a keyword
 * matches where its terms are the terms of consecutive positions. Keywords of a group that
 * analyze to the same terms count once (the first).
 */
function matchKeywords(
  corpus: Corpus,
  positions: readonly Position[],
): { group: RegisteredGroup; keywords: string[]; typos: TypoMatch[] }[] {
  const matches: { group: RegisteredGroup; keywords: string[]; typos: TypoMatch[] }[] = [];
  positions.forEach((position, at) => {
    for (const slot of position.slots) {
      for (const phrase of corpus.phrases) {
        if (phrase.terms[0] !== slot.term) continue;
        let typoWord = slot.typo ? slot.word : undefined;
        let matchedAll = true;
        for (let offset = 1; offset < phrase.terms.length; offset++) {
          const next = positions[at + offset];
          const found = next?.slots.find((nextSlot) => nextSlot.term === phrase.terms[offset]);
          if (found === undefined) {
            matchedAll = false;
            break;
          }
          if (typoWord === undefined && found.typo) typoWord = found.word;
        }
        if (!matchedAll) continue;
        let match = matches.find((entry) => entry.group === phrase.group);
        if (match === undefined) {
          match = { group: phrase.group, keywords: [], typos: [] };
          matches.push(match);
        }
        if (!match.keywords.includes(phrase.keyword)) {
          match.keywords.push(phrase.keyword);
          if (typoWord !== undefined) match.typos.push({ keyword: phrase.keyword, word: typoWord });
        } else if (typoWord === undefined) {
          match.typos = match.typos.filter((typo) => typo.keyword !== phrase.keyword);
        }
      }
    }
  });
  return matches;
}

// ------------------------------------------------------------------------------------------
// BM25F, computed from the documents on every call

interface Corpus {
  /** Terms some tool or keyword contains. */
  vocabulary: ReadonlySet<string>;
  /** The words of the tools' text and of the keywords with their terms, for typo tolerance. */
  typoWords: readonly { word: string; term: string }[];
  /** Every keyword phrase, group by group in catalog order. */
  phrases: readonly Phrase[];
  score(tool: RegisteredTool, query: Query): number;
  maxScore(query: Query): number;
  /** Whether some tool contains `term`. */
  indexed(term: string): boolean;
  /** How many tools contain `term`, and how many tools there are. */
  documents(term: string): number;
  size: number;
  has(tool: RegisteredTool, term: string): boolean;
  /** The word a term of the tools' text is shown as (see `TermVocabulary.wordOf`). */
  wordOf(term: string): string;
}

/** The documents and keyword phrases of the registry, analyzed afresh. */
function buildCorpus(input: ReferenceInput): Corpus {
  const { analyzer, tools, groups } = input;
  const fields = (input.ranking ?? DEFAULT_RANKING).fields;
  // the word each term is shown as: the shortest tool word that gives it, then the first
  const shownWords = new Map<string, string>();
  const typoWords: { word: string; term: string }[] = [];
  const fieldTerms = (text: string): string[] =>
    analyzer
      .tokenize(text)
      .flatMap((token) => [token.text, ...token.parts])
      .filter((word) => !analyzer.isStopword(word))
      .map((word) => {
        const term = analyzer.stem(word);
        const shown = shownWords.get(term);
        // shorter, then first in code-unit order
        const better =
          shown === undefined ||
          word.length < shown.length ||
          (word.length === shown.length && word < shown);
        if (!isTooShort(term) && better) shownWords.set(term, word);
        if (!isTooShort(term)) typoWords.push({ word, term });
        return term;
      })
      .filter((term) => !isTooShort(term));
  // each tool's fields, in DOCUMENT_FIELDS order
  const documents = tools.map((tool) => {
    const group = groups.find((entry) => entry.group === tool.group);
    const toolTexts = toolFieldTexts(tool);
    const groupTexts = groupFieldTexts(group);
    let toolField = 0;
    let groupField = 0;
    return fields.map((field) =>
      fieldTerms(
        (field.scope === 'tool' ? toolTexts[toolField++] : groupTexts[groupField++]) ?? '',
      ),
    );
  });
  const count = tools.length;
  // a sparse field's average is over the tools that have it
  const averages = fields.map(({ sparse }, field) => {
    const having = documents.filter((terms) => terms[field]!.length > 0).length;
    return Math.max(
      1,
      documents.reduce((sum, terms) => sum + terms[field]!.length, 0) /
        Math.max(1, sparse === true ? having : count),
    );
  });
  // field-weighted, length-normalized frequencies per tool, added occurrence by occurrence
  const frequencies = documents.map((document) => {
    const frequency = new Map<string, number>();
    document.forEach((terms, field) => {
      const { weight, b } = fields[field]!;
      const increment = weight / (1 - b + (b * terms.length) / averages[field]!);
      for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + increment);
    });
    return frequency;
  });
  const documentFrequency = (term: string) =>
    frequencies.filter((frequency) => frequency.has(term)).length;
  const idf = (term: string) => {
    const df = documentFrequency(term);
    return Math.log(1 + (count - df + 0.5) / (df + 0.5));
  };
  const unknownIdf = Math.log(1 + (count - 1 + 0.5) / 1.5);

  // keyword phrases, group by group, keyword by keyword: the words, and their joined spelling
  const phrases: Phrase[] = [];
  for (const group of groups) {
    for (const keyword of group.selection.keywords ?? []) {
      const tokens = analyzer.analyze(keyword);
      if (tokens.length === 0) continue;
      typoWords.push(...tokens.map((token) => ({ word: token.word, term: token.term })));
      const variants = [tokens.map((token) => token.term)];
      if (tokens.length > 1)
        variants.push([analyzer.stem(tokens.map((token) => token.word).join(''))]);
      for (const terms of variants) {
        const duplicate = phrases.some(
          (phrase) =>
            phrase.group === group && phrase.terms.join('\u0000') === terms.join('\u0000'),
        );
        if (!duplicate) phrases.push({ group, keyword, terms });
      }
    }
  }
  const keywordTerms = new Set(phrases.flatMap((phrase) => phrase.terms));
  const vocabulary = new Set([...documents.flatMap((fields) => fields.flat()), ...keywordTerms]);

  return {
    vocabulary,
    typoWords,
    phrases,
    score(tool, query) {
      const frequency = frequencies[tool.index]!;
      let raw = 0;
      for (const { term, weight } of query.terms) {
        const tf = frequency.get(term);
        if (tf === undefined) continue;
        raw += weight * ((idf(term) * (BM25_K1 + 1) * tf) / (BM25_K1 + tf));
      }
      return raw;
    },
    maxScore(query) {
      let sum = query.unknown * unknownIdf;
      for (const { term, weight } of query.terms.slice(0, query.own)) {
        sum += (documentFrequency(term) > 0 ? idf(term) : unknownIdf) * weight;
      }
      return sum * (BM25_K1 + 1);
    },
    has(tool, term) {
      return frequencies[tool.index]!.has(term);
    },
    wordOf(term) {
      return shownWords.get(term) ?? term;
    },
    indexed(term) {
      return documentFrequency(term) > 0;
    },
    documents(term) {
      return documentFrequency(term);
    },
    size: tools.length,
  };
}
