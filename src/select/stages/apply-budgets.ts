import type { BudgetOrder } from '../over-max-tools-reason.js';
import { ALWAYS, FALLBACK, type Turn } from '../turn.js';

/** The slots the budgets kept, and the estimated tokens of their tools (with `maxTokens`). */
export interface BudgetResult {
  kept: number[];
  estimatedTokens: number | undefined;
}

/**
 * Stage 6: `maxTools` and `maxTokens` over candidates in priority order. Pinned tools are all
 * kept, even over budget (with a `PINS_OVER_BUDGET` warning); then each candidate is kept while
 * the budgets allow: `maxTools` stops when full, `maxTokens` skips a tool that does not fit and
 * tries the next. Every tool left out is reported (`OVER_MAX_TOOLS`, `OVER_MAX_TOKENS`).
 */
export function applyBudgets(turn: Turn, ordered: readonly number[]): BudgetResult {
  const { index, settings, candidates } = turn;
  const { maxTools, maxTokens, provider } = settings;
  const tokensOf = (tool: number) =>
    maxTokens === undefined ? 0 : index.tokenEstimate(tool, provider);
  const kept: number[] = [];
  let tokens = 0;
  let position = 0;
  // the order the drop reasons describe; fallback tools, when offered, are the last stratum
  const order: BudgetOrder =
    settings.relevance !== undefined
      ? 'relevance'
      : candidates.count > 0 && candidates.strata[candidates.count - 1] === FALLBACK
        ? 'fallback'
        : 'matched';
  for (
    ;
    position < ordered.length && candidates.strata[ordered[position]!] === ALWAYS;
    position++
  ) {
    kept.push(ordered[position]!);
    tokens += tokensOf(candidates.tools[ordered[position]!]!);
  }
  if (maxTools !== undefined && kept.length > maxTools) {
    turn.warnings.push({
      code: 'PINS_OVER_BUDGET',
      message: `the ${kept.length} pinned (always) tools exceed maxTools ${maxTools}; they are all kept and nothing else is added. Raise maxTools or unpin a group`,
    });
  }
  if (maxTokens !== undefined && tokens > maxTokens) {
    turn.warnings.push({
      code: 'PINS_OVER_BUDGET',
      message: `the pinned (always) tools take an estimated ${tokens} tokens for ${provider}, above maxTokens ${maxTokens}; they are all kept and nothing else is added. Raise maxTokens or unpin a group`,
    });
  }
  for (; position < ordered.length; position++) {
    const tool = candidates.tools[ordered[position]!]!;
    if (maxTools !== undefined && kept.length >= maxTools) {
      turn.dropped.push(index.overMaxToolsDrop(tool, maxTools, order));
      continue;
    }
    if (maxTokens !== undefined) {
      const size = tokensOf(tool);
      if (tokens + size > maxTokens) {
        turn.dropped.push({
          name: index.toolNames[tool]!,
          group: index.toolGroups[tool]!,
          code: 'OVER_MAX_TOKENS',
          reason: `its estimated ${size} tokens would bring the selection to ${tokens + size}, above maxTokens ${maxTokens}`,
        });
        continue;
      }
      tokens += size;
    }
    kept.push(ordered[position]!);
  }
  return { kept, estimatedTokens: maxTokens === undefined ? undefined : tokens };
}
