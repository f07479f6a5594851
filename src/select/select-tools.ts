import type { RegisteredTool, Warning } from '../format/types.js';
import { errorMessage } from '../util/error-message.js';
import { type AnalyzedTurn, analyzeTurn } from './analyze-turn.js';
import type { Candidates, Evidence } from './candidates.js';
import type { GroupMatch } from './keyword-index.js';
import { type ResolvedSelectOptions, resolveSelectOptions } from './resolve-select-options.js';
import { filterRejectMask, type SelectionIndex } from './selection-index.js';
import type {
  DropCode,
  DroppedTool,
  SelectedTool,
  Selection,
  SelectionReason,
  SelectionStrategyName,
  SelectOptions,
  TypoMatch,
} from './types.js';

// strata, in budget priority order
const ALWAYS = 0;
const CONTEXT = 1;
const KEYWORD = 2;
const HISTORY = 3;
const FALLBACK = 4;
const STRATEGY_NAMES: readonly SelectionStrategyName[] = [
  'always',
  'context',
  'keyword',
  'history',
  'fallback',
];

/** Weight of history words in the ranking query (the current message weighs 1). */
const HISTORY_QUERY_WEIGHT = 0.5;

const NO_MATCHES: readonly string[] = Object.freeze([]);

/** Candidate slots: a plain array or a view of a scratch buffer. */
type Slots = ArrayLike<number>;
/** Scratch buffers of one selection (see `SelectionIndex.scratch`); 0 and 1 are sort space. */
const SURVIVORS = 2;
const ORDERED = 3;
const GROUP_STARTS = 4;

/** The ranking query of a turn: term ids, weights, and how many terms no tool contains. */
interface RankingQuery {
  ids: number[];
  weights: number[];
  words: string[];
  unknown: number;
}

/** Adds `tools` with one shared evidence. */
function pushTools(
  candidates: Candidates,
  tools: readonly number[],
  stratum: number,
  matched: readonly string[],
  typos: readonly TypoMatch[] | undefined,
  raw: number,
): void {
  const evidence = addEvidence(candidates, matched, typos);
  candidates.reserve(tools.length);
  const { tools: slots, strata, evidenceOf, raw: scores } = candidates;
  let slot = candidates.count;
  for (let position = 0; position < tools.length; position++, slot++) {
    slots[slot] = tools[position]!;
    strata[slot] = stratum;
    evidenceOf[slot] = evidence;
    scores[slot] = raw;
  }
  candidates.count = slot;
}

/**
 * Adds the tools of a ranked (keyword or history) group, read off its catalog ranges, which are
 * also appended to `candidates.ranges` for scoring; raw scores start at 0.
 */
function pushRankedGroup(
  index: SelectionIndex,
  candidates: Candidates,
  group: number,
  stratum: number,
  match: GroupMatch,
): void {
  const evidence = addEvidence(candidates, match.keywords, match.typos);
  const first = index.groupRangeStarts[group]!;
  const last = index.groupRangeStarts[group + 1]!;
  const groupRanges = index.groupRanges;
  let size = 0;
  for (let bound = first; bound < last; bound += 2) {
    size += groupRanges[bound + 1]! - groupRanges[bound]!;
  }
  candidates.reserve(size);
  const { tools: slots, strata, evidenceOf, raw: scores, ranges } = candidates;
  let slot = candidates.count;
  for (let bound = first; bound < last; bound += 2) {
    const start = groupRanges[bound]!;
    const end = groupRanges[bound + 1]!;
    ranges.push(start, end);
    for (let tool = start; tool < end; tool++, slot++) {
      slots[slot] = tool;
      strata[slot] = stratum;
      evidenceOf[slot] = evidence;
      scores[slot] = 0;
    }
  }
  candidates.count = slot;
}

function addEvidence(
  candidates: Candidates,
  matched: readonly string[],
  typos: readonly TypoMatch[] | undefined,
): number {
  candidates.evidence.push({
    matched,
    typos: typos !== undefined && typos.length > 0 ? typos : undefined,
    frozenMatched: undefined,
  });
  return candidates.evidence.length - 1;
}

/**
 * Chooses the tools for one turn; see `Registry.select`. The work grows with the message and
 * the candidate tools (those of the pinned, context and matched groups), never with the size
 * of the catalog: keywords are found through the inverted index and only candidates are
 * ranked, from per-tool term weights precomputed in typed arrays. A tool belongs to one group
 * and a group enters through one strategy, so candidates never repeat.
 */
export function selectTools(
  index: SelectionIndex,
  message: string,
  options: SelectOptions = {},
): Selection {
  const settings = resolveSelectOptions(options);
  const warnings: Warning[] = [];
  const turn = analyzeTurn(message, index.words());
  if (settings.typoTolerance)
    index.keywords.addTypoAlternatives(turn, (word) => index.analyzer.stem(word));

  const candidates = index.acquireCandidates();
  try {
    return selectFrom(index, message, settings, turn, warnings, candidates);
  } finally {
    index.releaseCandidates(candidates);
  }
}

function selectFrom(
  index: SelectionIndex,
  message: string,
  settings: ResolvedSelectOptions,
  turn: AnalyzedTurn,
  warnings: Warning[],
  candidates: Candidates,
): Selection {
  const relevance = index.relevance();
  pushTools(candidates, index.alwaysTools, ALWAYS, NO_MATCHES, undefined, Number.NaN);
  for (const group of index.contextGroups) {
    const matched = evaluateContextGroup(index, group, settings, message, warnings);
    if (matched === undefined) continue;
    pushTools(candidates, index.toolsOfGroup[group]!, CONTEXT, matched, undefined, Number.NaN);
  }
  // keyword and history candidates are ranked: they form one run of slots, group by group,
  // whose catalog ranges are gathered as they are added
  const firstRanked = candidates.count;
  const keywordGroups = new Set<number>();
  for (const match of index.keywords.matchGroups(turn)) {
    const group = match.group;
    if (index.strategyOfGroup[group] !== 'keyword') continue;
    keywordGroups.add(group);
    pushRankedGroup(index, candidates, group, KEYWORD, match);
  }

  const query: RankingQuery = {
    ids: turn.queryIds,
    weights: turn.queryIds.map(() => 1),
    words: turn.queryWords,
    unknown: turn.unknown.length,
  };
  let historyGroups = 0;
  if (settings.history.length > 0) {
    historyGroups = addHistory(index, settings, keywordGroups, query, candidates, warnings);
  }
  const endRanked = candidates.count;
  if (keywordGroups.size === 0 && historyGroups === 0 && settings.fallback !== undefined) {
    addFallback(index, settings.fallback, query, candidates, warnings);
  }

  // rank keyword and history candidates (only those, never the whole catalog)
  if (endRanked > firstRanked) {
    relevance.scoreRanges(
      query.ids,
      query.weights,
      candidates.ranges,
      candidates.tools,
      firstRanked,
      endRanked,
      candidates.raw,
    );
  }
  const maxScore = relevance.maxScore(query.ids, query.weights, query.unknown);

  // filters
  const dropped: DroppedTool[] = [];
  const count = candidates.count;
  const survivorSlots = index.scratch(SURVIVORS, count);
  let survivorCount = 0;
  const stamp = index.nextStamp();
  const rejected = filterRejectMask(settings);
  const filterBits = index.filterBitsOfTool;
  for (let slot = 0; slot < count; slot++) {
    const tool = candidates.tools[slot]!;
    // one test for most tools; `filterTool` checks context keys and says why a tool fails
    const code =
      (filterBits[tool]! & rejected) === 0 ? undefined : filterTool(index, tool, settings, stamp);
    if (code === undefined) survivorSlots[survivorCount++] = slot;
    else dropped.push(describeFilterDrop(index, index.tools[tool]!, code, settings));
  }
  const survivors = survivorSlots.subarray(0, survivorCount);

  // budgets, in priority order
  let kept: Slots = survivors;
  let estimatedTokens: number | undefined;
  const budgeted = settings.maxTools !== undefined || settings.maxTokens !== undefined;
  if (budgeted || settings.order === 'relevance') {
    const ordered = orderByPriority(index, candidates, survivors);
    if (budgeted) {
      const result = applyBudgets(index, candidates, ordered, settings, dropped, warnings);
      kept = result.kept;
      estimatedTokens = result.tokens;
    } else {
      kept = ordered;
    }
  }
  if (settings.order === 'catalog') kept = sortByCatalog(index, candidates, kept);

  const tools: SelectedTool[] = new Array(kept.length);
  const names: string[] = new Array(kept.length);
  for (let position = 0; position < kept.length; position++) {
    const slot = kept[position]!;
    const tool = candidates.tools[slot]!;
    const raw = candidates.raw[slot]!;
    const evidence = candidates.evidence[candidates.evidenceOf[slot]!]!;
    const selected = selectedTool(
      index,
      tool,
      STRATEGY_NAMES[candidates.strata[slot]!]!,
      evidence,
      Number.isNaN(raw) ? undefined : roundScore(raw / maxScore),
    );
    tools[position] = selected;
    names[position] = selected.name;
  }
  forgetStaleSelections(index, candidates, kept, stamp);
  const selection: Selection = { tools, names, dropped, warnings };
  if (estimatedTokens !== undefined) selection.estimatedTokens = estimatedTokens;
  return selection;
}

/**
 * Clears memoized SelectedTools of the previous selection that this one did not reuse (pinned
 * and context tools stay: their reasons rarely change), so old objects are not kept alive.
 */
function forgetStaleSelections(
  index: SelectionIndex,
  candidates: Candidates,
  kept: Slots,
  stamp: number,
): void {
  const current: number[] = [];
  const selectedStamp = index.slotOfTool;
  for (let position = 0; position < kept.length; position++) {
    const slot = kept[position]!;
    if (candidates.strata[slot]! < KEYWORD) continue;
    const tool = candidates.tools[slot]!;
    current.push(tool);
    selectedStamp[tool] = -stamp;
  }
  for (const tool of index.lastSelected) {
    if (selectedStamp[tool] !== -stamp) index.selectedCache[tool] = undefined;
  }
  index.lastSelected = current;
}

/** `slots` ordered by catalog position (a numeric typed-array sort, no comparator). */
function sortByCatalog(index: SelectionIndex, candidates: Candidates, slots: Slots): number[] {
  const positions = index.scratch(0, slots.length);
  const slotOfTool = index.slotOfTool;
  for (let position = 0; position < slots.length; position++) {
    const slot = slots[position]!;
    const tool = candidates.tools[slot]!;
    positions[position] = tool;
    slotOfTool[tool] = slot;
  }
  positions.sort();
  const sorted: number[] = new Array(slots.length);
  for (let position = 0; position < positions.length; position++) {
    sorted[position] = slotOfTool[positions[position]!]!;
  }
  return sorted;
}

/** Relevance rounded to 4 decimals, so explanations print the same everywhere. */
export function roundScore(score: number): number {
  if (!Number.isFinite(score) || score <= 0) return 0;
  return Math.min(1, Math.round(score * 10_000) / 10_000);
}

function evaluateContextGroup(
  index: SelectionIndex,
  group: number,
  settings: ResolvedSelectOptions,
  message: string,
  warnings: Warning[],
): readonly string[] | undefined {
  const definition = index.groups[group]!;
  const checkName = definition.selection.context_check;
  if (checkName !== undefined) {
    const check = index.contextChecks.get(checkName);
    if (check === undefined) {
      warnings.push({
        code: 'UNKNOWN_CONTEXT_CHECK',
        message: `group "${definition.group}" names context_check "${checkName}", which is not registered; pass it in loadRegistry({ contextChecks: { ${checkName}: (context, message) => ... } }). The group is left out`,
      });
      return undefined;
    }
    try {
      return check(settings.context, message) ? [checkName] : undefined;
    } catch (error) {
      warnings.push({
        code: 'CONTEXT_CHECK_FAILED',
        message: `context_check "${checkName}" of group "${definition.group}" threw (${errorMessage(error)}); the group is left out of this turn`,
      });
      return undefined;
    }
  }
  const keys = index.contextKeysOfGroup[group]!;
  for (const key of keys) if (!index.hasContextKey(settings.context, key)) return undefined;
  return keys;
}

function addHistory(
  index: SelectionIndex,
  settings: ResolvedSelectOptions,
  keywordGroups: ReadonlySet<number>,
  query: RankingQuery,
  candidates: Candidates,
  warnings: Warning[],
): number {
  const matches = new Map<number, GroupMatch>();
  const record = (group: number, matched: string, typoWord: string | undefined) => {
    let match = matches.get(group);
    if (match === undefined) {
      match = { group, keywords: [], typos: [] };
      matches.set(group, match);
    }
    if (!match.keywords.includes(matched)) {
      match.keywords.push(matched);
      if (typoWord !== undefined) match.typos.push({ keyword: matched, word: typoWord });
    } else if (typoWord === undefined) {
      match.typos = match.typos.filter((typo) => typo.keyword !== matched);
    }
  };
  // history words join the ranking query at a lower weight (copies: the turn owns its arrays)
  query.ids = [...query.ids];
  query.weights = [...query.weights];
  query.words = [...query.words];
  // most recent first, so `matched` lists the freshest evidence first
  for (let position = settings.history.length - 1; position >= 0; position--) {
    const entry = settings.history[position]!;
    if (typeof entry === 'object' && 'tool' in entry && typeof entry.tool === 'string') {
      const tool = index.toolIndex.get(entry.tool);
      if (tool === undefined) {
        warnings.push({
          code: 'UNKNOWN_HISTORY_TOOL',
          message: `history names tool "${entry.tool}", which is not in the registry; it is ignored`,
          tool: entry.tool,
        });
        continue;
      }
      const group = index.groupOfTool[tool]!;
      if (group >= 0) record(group, entry.tool, undefined);
      continue;
    }
    const text = typeof entry === 'string' ? entry : (entry as { message: string }).message;
    const turn: AnalyzedTurn = analyzeTurn(text, index.words());
    if (settings.typoTolerance)
      index.keywords.addTypoAlternatives(turn, (word) => index.analyzer.stem(word));
    for (const match of index.keywords.matchGroups(turn)) {
      for (const keyword of match.keywords) {
        record(match.group, keyword, match.typos.find((typo) => typo.keyword === keyword)?.word);
      }
    }
    turn.queryIds.forEach((id, slot) => {
      if (!query.ids.includes(id)) {
        query.ids.push(id);
        query.weights.push(HISTORY_QUERY_WEIGHT);
        query.words.push(turn.queryWords[slot]!);
      }
    });
  }
  let added = 0;
  for (const [group, match] of [...matches].sort((a, b) => a[0] - b[0])) {
    if (index.strategyOfGroup[group] !== 'keyword' || keywordGroups.has(group)) continue;
    added++;
    pushRankedGroup(index, candidates, group, HISTORY, match);
  }
  return added;
}

function addFallback(
  index: SelectionIndex,
  fallback: { k: number; minScore: number },
  query: RankingQuery,
  candidates: Candidates,
  warnings: Warning[],
): void {
  const relevance = index.relevance();
  const maxScore = relevance.maxScore(query.ids, query.weights, query.unknown);
  // only keyword groups' tools: always and context groups already decided for themselves
  const results = relevance.search(
    query.ids,
    query.weights,
    fallback.k,
    (doc) => index.strategyOfGroup[index.groupOfTool[doc]!] === 'keyword',
  );
  let best = 0;
  let added = 0;
  for (const result of results) {
    const score = maxScore > 0 ? result.raw / maxScore : 0;
    best = Math.max(best, score);
    if (roundScore(score) < fallback.minScore) continue;
    const matched = query.ids
      .map((id, slot) => (relevance.hasTerm(result.doc, id) ? query.words[slot]! : undefined))
      .filter((word): word is string => word !== undefined);
    pushTools(candidates, [result.doc], FALLBACK, matched, undefined, result.raw);
    added++;
  }
  if (added === 0) {
    warnings.push({
      code: 'FALLBACK_ABSTAINED',
      message: `no keyword group matched and no tool reached the fallback's minimum relevance ${fallback.minScore} (best ${roundScore(best)}), so no fallback tools are offered`,
    });
  }
}

/** The first filter `tool` fails, or undefined. */
function filterTool(
  index: SelectionIndex,
  tool: number,
  settings: ResolvedSelectOptions,
  stamp: number,
): DropCode | undefined {
  if (settings.requireContext) {
    const list = index.keyListOfTool[tool]!;
    const keys = index.keyLists[list]!;
    if (keys.length > 0) {
      if (index.keyListStamp[list] !== stamp) {
        index.keyListStamp[list] = stamp;
        let present = 1;
        for (const key of keys) if (!index.hasContextKey(settings.context, key)) present = 0;
        index.keyListPresent[list] = present;
      }
      if (index.keyListPresent[list] === 0) return 'MISSING_CONTEXT';
    }
  }
  if (settings.categoryMask !== 0 && (index.categoryOfTool[tool]! & settings.categoryMask) === 0) {
    return 'CATEGORY_EXCLUDED';
  }
  if (index.costOfTool[tool]! > settings.maxCost) return 'OVER_MAX_COST';
  if (index.latencyOfTool[tool]! > settings.maxLatency) return 'OVER_MAX_LATENCY';
  return undefined;
}

function describeFilterDrop(
  index: SelectionIndex,
  tool: RegisteredTool,
  code: DropCode,
  settings: ResolvedSelectOptions,
): DroppedTool {
  let reason: string;
  switch (code) {
    case 'MISSING_CONTEXT': {
      const missing = tool.metadata.requires_context.filter(
        (key) => !index.hasContextKey(settings.context, key),
      );
      reason = `requires context ${missing.join(', ')}, which this turn does not set; pass ${missing.map((key) => `context.${key}`).join(', ')} (CLI: ${missing.map((key) => `--context ${key}=...`).join(' ')})`;
      break;
    }
    case 'CATEGORY_EXCLUDED':
      reason = `category ${tool.category} is not among the allowed categories (${settings.categories.join(', ')})`;
      break;
    case 'OVER_MAX_COST':
      reason = `cost_estimate ${tool.metadata.cost_estimate} is above maxCost ${settings.maxCostName}`;
      break;
    default:
      reason = `latency_estimate ${tool.metadata.latency_estimate} is above maxLatency ${settings.maxLatencyName}`;
  }
  return Object.freeze({ name: tool.name, group: tool.group, code, reason });
}

/**
 * Survivors in budget order: pins, then context tools (catalog order); keyword and then
 * history tools round-robin over their groups (the best tool of every matched group before the
 * second of any; groups by their best score, ties by catalog order), so a message about two
 * topics keeps a tool of each; fallback tools by score.
 */
function orderByPriority(
  index: SelectionIndex,
  candidates: Candidates,
  survivors: Int32Array,
): Int32Array {
  // every survivor is placed once, so the order has their length
  const ordered = index.scratch(ORDERED, survivors.length);
  let position = 0;
  while (position < survivors.length) {
    const stratum = candidates.strata[survivors[position]!]!;
    let end = position;
    while (end < survivors.length && candidates.strata[survivors[end]!] === stratum) end++;
    if (stratum === KEYWORD || stratum === HISTORY) {
      roundRobin(index, candidates, survivors, position, end, ordered);
    } else if (stratum === CONTEXT) {
      const run = Array.from(survivors.subarray(position, end));
      run.sort((a, b) => candidates.tools[a]! - candidates.tools[b]!);
      ordered.set(run, position);
    } else {
      ordered.set(survivors.subarray(position, end), position);
    }
    position = end;
  }
  return ordered;
}

function roundRobin(
  index: SelectionIndex,
  candidates: Candidates,
  survivors: Int32Array,
  from: number,
  to: number,
  ordered: Int32Array,
): void {
  const { tools, raw, evidenceOf } = candidates;
  const length = to - from;
  const better = (a: number, b: number) =>
    raw[a]! > raw[b]! || (raw[a] === raw[b] && tools[a]! < tools[b]!);
  // slots sorted inside each group by score, then catalog order; groups are small, so insertion
  // sort. A ranked group's tools were added together, in catalog order, with one evidence: the
  // evidence tells groups apart, and a stable sort by score alone keeps ties in catalog order.
  const slots = index.scratch(0, length);
  const groupStarts = index.scratch(GROUP_STARTS, length + 1);
  let groupCount = 0;
  let currentGroup = -2;
  let groupStart = 0;
  for (let position = 0; position < length; position++) {
    const slot = survivors[from + position]!;
    const group = evidenceOf[slot]!;
    if (group !== currentGroup) {
      groupStarts[groupCount++] = position;
      currentGroup = group;
      groupStart = position;
    }
    const score = raw[slot]!;
    let at = position;
    while (at > groupStart) {
      const previous = slots[at - 1]!;
      if (!(score > raw[previous]!)) break;
      slots[at] = previous;
      at--;
    }
    slots[at] = slot;
  }
  groupStarts[groupCount] = length;
  // groups by their best tool (ties: catalog order)
  const groupOrder = index.scratch(1, groupCount);
  for (let group = 0; group < groupCount; group++) {
    let at = group;
    const best = slots[groupStarts[group]!]!;
    while (at > 0 && better(best, slots[groupStarts[groupOrder[at - 1]!]!]!)) {
      groupOrder[at] = groupOrder[at - 1]!;
      at--;
    }
    groupOrder[at] = group;
  }
  let next = from;
  for (let round = 0, added = true; added; round++) {
    added = false;
    for (let rank = 0; rank < groupCount; rank++) {
      const group = groupOrder[rank]!;
      const position = groupStarts[group]! + round;
      if (position < groupStarts[group + 1]!) {
        ordered[next++] = slots[position]!;
        added = true;
      }
    }
  }
}

function applyBudgets(
  index: SelectionIndex,
  candidates: Candidates,
  ordered: Slots,
  settings: ResolvedSelectOptions,
  dropped: DroppedTool[],
  warnings: Warning[],
): { kept: number[]; tokens: number | undefined } {
  const { maxTools, maxTokens } = settings;
  const tokenCache = maxTokens === undefined ? undefined : index.tokenCache(settings.provider);
  const tokensOf = (tool: number): number => {
    if (tokenCache === undefined) return 0;
    let tokens = tokenCache[tool]!;
    if (Number.isNaN(tokens)) {
      tokens = index.estimateTokens(index.tools[tool]!, settings.provider);
      tokenCache[tool] = tokens;
    }
    return tokens;
  };
  const kept: number[] = [];
  let count = 0;
  let tokens = 0;
  let position = 0;
  while (position < ordered.length && candidates.strata[ordered[position]!] === ALWAYS) {
    const slot = ordered[position++]!;
    kept.push(slot);
    count++;
    tokens += tokensOf(candidates.tools[slot]!);
  }
  if (maxTools !== undefined && count > maxTools) {
    warnings.push({
      code: 'PINS_OVER_BUDGET',
      message: `the ${count} pinned (always) tools exceed maxTools ${maxTools}; they are all kept and nothing else is added. Raise maxTools or unpin a group`,
    });
  }
  if (maxTokens !== undefined && tokens > maxTokens) {
    warnings.push({
      code: 'PINS_OVER_BUDGET',
      message: `the pinned (always) tools take an estimated ${tokens} tokens for ${settings.provider}, above maxTokens ${maxTokens}; they are all kept and nothing else is added. Raise maxTokens or unpin a group`,
    });
  }
  for (; position < ordered.length; position++) {
    const slot = ordered[position]!;
    const tool = candidates.tools[slot]!;
    if (maxTools !== undefined && count >= maxTools) {
      dropped.push(index.overToolsDrop(tool, maxTools));
      continue;
    }
    if (maxTokens !== undefined) {
      const size = tokensOf(tool);
      if (tokens + size > maxTokens) {
        dropped.push({
          name: index.toolNames[tool]!,
          group: index.toolGroups[tool]!,
          code: 'OVER_MAX_TOKENS',
          reason: `its estimated ${size} tokens would bring the selection to ${tokens + size}, above maxTokens ${maxTokens}`,
        });
        continue;
      }
      tokens += size;
    }
    kept.push(slot);
    count++;
  }
  return { kept, tokens: maxTokens === undefined ? undefined : tokens };
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let position = 0; position < a.length; position++)
    if (a[position] !== b[position]) return false;
  return true;
}

function sameTypos(
  a: readonly TypoMatch[] | undefined,
  b: readonly TypoMatch[] | undefined,
): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  return a.every(
    (typo, position) => typo.keyword === b[position]!.keyword && typo.word === b[position]!.word,
  );
}

/**
 * The selected tool for `tool` with this reason. The last one made for each tool is reused
 * while its reason is unchanged, so repeated turns hand `translate` the same objects (its
 * caches are keyed by object) and allocate nothing.
 */
function selectedTool(
  index: SelectionIndex,
  tool: number,
  strategy: SelectionStrategyName,
  evidence: Evidence,
  score: number | undefined,
): SelectedTool {
  const { matched, typos } = evidence;
  const cached = index.selectedCache[tool];
  if (cached !== undefined) {
    const reason = cached.reason;
    if (
      reason.strategy === strategy &&
      reason.score === score &&
      sameStrings(reason.matched, matched) &&
      sameTypos(reason.typos, typos)
    ) {
      return cached;
    }
  }
  evidence.frozenMatched ??= Object.freeze([...matched]);
  const reason: SelectionReason = { strategy, matched: evidence.frozenMatched };
  if (score !== undefined) reason.score = score;
  if (typos !== undefined) reason.typos = Object.freeze(typos.map((typo) => ({ ...typo })));
  const selected = createSelectedTool(index.tools[tool]!, Object.freeze(reason));
  index.selectedCache[tool] = selected;
  return selected;
}

/**
 * A registered tool plus its reason, copied field by field: spreading a frozen object takes
 * V8's slow path (about 1 µs a tool). A test checks that no registered field is missed.
 */
export function createSelectedTool(tool: RegisteredTool, reason: SelectionReason): SelectedTool {
  // the fields every tool has in one literal (V8 keeps them inside the object), then the others
  const selected: Record<string, unknown> = {
    name: tool.name,
    description: tool.description,
    category: tool.category,
    input_schema: tool.input_schema,
    metadata: tool.metadata,
    group: tool.group,
    version: tool.version,
    source: tool.source,
    index: tool.index,
    reason,
  };
  if (tool.output_schema !== undefined) selected.output_schema = tool.output_schema;
  if (tool.title !== undefined) selected.title = tool.title;
  if (tool.tags !== undefined) selected.tags = tool.tags;
  if (tool.annotations !== undefined) selected.annotations = tool.annotations;
  if (tool.examples !== undefined) selected.examples = tool.examples;
  if (tool.file !== undefined) selected.file = tool.file;
  if (tool.pointer !== undefined) selected.pointer = tool.pointer;
  if (tool.command !== undefined) selected.command = tool.command;
  return Object.freeze(selected) as unknown as SelectedTool;
}
