import type { RegisteredTool } from '../../format/types.js';
import { roundScore } from '../round-score.js';
import { STRATEGY_OF_STRATUM, type Turn } from '../turn.js';
import type { SelectedTool, Selection, SelectionReason } from '../types.js';

/**
 * Stage 7: the selection. Tools in catalog order (the same tools always give byte-identical
 * provider payloads) unless `order: "relevance"`, each the registered tool plus its reason
 * (scores rounded to 4 decimals). Every object is
 * made for this call, so changing it changes nothing else.
 */
export function buildSelection(
  turn: Turn,
  kept: readonly number[],
  estimatedTokens: number | undefined,
): Selection {
  const { candidates } = turn;
  const ordered =
    turn.settings.order === 'catalog'
      ? [...kept].sort((a, b) => candidates.tools[a]! - candidates.tools[b]!)
      : kept;
  const tools = ordered.map((slot) => {
    const evidence = candidates.evidence[slot]!;
    const score = candidates.scores[slot]!;
    const reason: SelectionReason = {
      strategy: STRATEGY_OF_STRATUM[candidates.strata[slot]!]!,
      matched: [...evidence.matched],
    };
    // `matched` by kind, each only when the tool has some
    if (evidence.words.length > 0) reason.matched_words = [...evidence.words];
    if (evidence.keywords.length > 0) reason.matched_keywords = [...evidence.keywords];
    if (evidence.calledTools.length > 0) reason.matched_history = [...evidence.calledTools];
    if (evidence.raisedBy !== undefined) reason.raised_by = evidence.raisedBy;
    if (!Number.isNaN(score)) reason.score = roundScore(score);
    if (evidence.typos !== undefined) reason.typos = evidence.typos.map((typo) => ({ ...typo }));
    return createSelectedTool(turn.index.tools[candidates.tools[slot]!]!, reason);
  });
  const selection: Selection = {
    tools,
    names: tools.map((tool) => tool.name),
    dropped: turn.dropped,
    warnings: turn.warnings,
  };
  if (estimatedTokens !== undefined) selection.estimatedTokens = estimatedTokens;
  return selection;
}

/**
 * A registered tool plus its reason, copied field by field (spreading a frozen object takes
 * V8's slow path, about 1 µs a tool). A test checks that no registered field is missed.
 */
export function createSelectedTool(tool: RegisteredTool, reason: SelectionReason): SelectedTool {
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
  if (tool.example_requests !== undefined) selected.example_requests = tool.example_requests;
  if (tool.file !== undefined) selected.file = tool.file;
  if (tool.pointer !== undefined) selected.pointer = tool.pointer;
  if (tool.command !== undefined) selected.command = tool.command;
  return selected as unknown as SelectedTool;
}
