import type { Warning } from '../format/types.js';
import { resolveSelectOptions } from './resolve-select-options.js';
import type { SelectionIndex } from './selection-index.js';
import type { SemanticTurn } from './semantic-index.js';
import { applyBudgets } from './stages/apply-budgets.js';
import { buildSelection } from './stages/build-selection.js';
import { collectCandidates } from './stages/collect-candidates.js';
import { explainTools } from './stages/explain-tools.js';
import { filterCandidates } from './stages/filter-candidates.js';
import { orderCandidates } from './stages/order-candidates.js';
import { readTurn } from './stages/read-turn.js';
import { scoreCandidates } from './stages/score-candidates.js';
import type { Turn } from './turn.js';
import type { Selection, SelectOptions } from './types.js';

/**
 * Chooses the tools for one turn; see `Registry.select`. Seven stages over a turn made for this
 * call: read the message and history, collect the candidates of each strategy, score the
 * ranked ones, filter, order by budget priority, apply the budgets, build the selection. The work grows with the message and the
 * candidates (the tools of the pinned, context and matched groups), not with the catalog:
 * keywords are found through an inverted index and only candidates are scored. The reference
 * selector (`reference/reference-select.ts`) states the same rules plainly; property tests
 * compare the two. With `semantic`, relevance is the fused lexical and semantic score.
 */
export function selectTools(
  index: SelectionIndex,
  message: string,
  options: SelectOptions = {},
  semantic?: SemanticTurn,
): Selection {
  const settings = resolveSelectOptions(message, options);
  const warnings: Warning[] = [];
  const reading = readTurn(index, message, settings, warnings);
  const candidates = index.borrowCandidates();
  try {
    const turn: Turn = {
      index,
      message,
      settings,
      reading,
      candidates,
      rankedRanges: [],
      rankedStart: 0,
      rankedEnd: 0,
      dropped: [],
      warnings,
      semantic,
    };
    const selection = runStages(turn);
    // opt-in, after the stages: a plain select never pays for it
    if (settings.explain !== undefined) selection.explained = explainTools(turn, selection);
    return selection;
  } finally {
    index.returnCandidates(candidates);
  }
}

/** Stages 2-7 over a turn whose message and history are read. */
function runStages(turn: Turn): Selection {
  const { settings } = turn;
  collectCandidates(turn);
  scoreCandidates(turn);
  const survivors = filterCandidates(turn);
  const budgeted = settings.maxTools !== undefined || settings.maxTokens !== undefined;
  if (!budgeted && settings.order === 'catalog') {
    return buildSelection(turn, survivors, undefined);
  }
  const ordered = orderCandidates(turn.candidates, survivors);
  if (!budgeted) return buildSelection(turn, ordered, undefined);
  const { kept, estimatedTokens } = applyBudgets(turn, ordered);
  return buildSelection(turn, kept, estimatedTokens);
}
