import { filterRejectMask } from '../selection-index.js';
import type { Turn } from '../turn.js';
import type { DropCode, DroppedTool } from '../types.js';

/**
 * Stage 4: the slots of the candidates that pass the turn's filters, in order; the others are
 * reported as dropped with the first filter they fail: missing `requires_context` keys (unless
 * `requireContext: false`), then `categories`, `maxCost` and `maxLatency`. Most candidates pass
 * with one test of the tool's filter bits against what this turn rejects; only the others are
 * checked in full. Never reads the tool objects.
 */
export function filterCandidates(turn: Turn): number[] {
  const { candidates, index } = turn;
  const rejected = filterRejectMask(turn.settings);
  const present = new Map<number, boolean>();
  const survivors: number[] = [];
  for (let slot = 0; slot < candidates.count; slot++) {
    const tool = candidates.tools[slot]!;
    const code =
      (index.filterBitsOfTool[tool]! & rejected) === 0
        ? undefined
        : failedFilter(turn, tool, present);
    if (code === undefined) survivors.push(slot);
    else turn.dropped.push(filterDrop(turn, tool, code));
  }
  return survivors;
}

/** The first filter `tool` fails; `present` memoizes key lists shared by many tools. */
function failedFilter(
  turn: Turn,
  tool: number,
  present: Map<number, boolean>,
): DropCode | undefined {
  const { index, settings } = turn;
  if (settings.requireContext) {
    const list = index.keyListOfTool[tool]!;
    let ok = present.get(list);
    if (ok === undefined) {
      ok = index.keyLists[list]!.every((key) => index.hasContextKey(settings.context, key));
      present.set(list, ok);
    }
    if (!ok) return 'MISSING_CONTEXT';
  }
  if (settings.categoryMask !== 0 && (index.categoryOfTool[tool]! & settings.categoryMask) === 0) {
    return 'CATEGORY_EXCLUDED';
  }
  if (index.costOfTool[tool]! > settings.maxCost) return 'OVER_MAX_COST';
  if (index.latencyOfTool[tool]! > settings.maxLatency) return 'OVER_MAX_LATENCY';
  return undefined;
}

function filterDrop(turn: Turn, tool: number, code: DropCode): DroppedTool {
  const { index, settings } = turn;
  if (code === 'MISSING_CONTEXT') return missingContextDrop(turn, tool);
  const registered = index.tools[tool]!;
  let reason: string;
  switch (code) {
    case 'CATEGORY_EXCLUDED':
      reason = `category ${registered.category} is not among the allowed categories (${settings.categories.join(', ')})`;
      break;
    case 'OVER_MAX_COST':
      reason = `cost_estimate ${registered.metadata.cost_estimate} is above maxCost ${settings.maxCostName}`;
      break;
    default:
      reason = `latency_estimate ${registered.metadata.latency_estimate} is above maxLatency ${settings.maxLatencyName}`;
  }
  return { name: registered.name, group: registered.group, code, reason };
}

/**
 * The `MISSING_CONTEXT` drop of `tool`, naming the keys this turn does not set and what left it
 * out: its `context` group's condition (`by: 'context group'`) or the `requireContext` filter.
 */
export function missingContextDrop(
  turn: Turn,
  tool: number,
  by: 'context group' | 'filter' = 'filter',
): DroppedTool {
  const { index, settings } = turn;
  const missing = index.keyLists[index.keyListOfTool[tool]!]!.filter(
    (key) => !index.hasContextKey(settings.context, key),
  );
  return {
    name: index.toolNames[tool]!,
    group: index.toolGroups[tool]!,
    code: 'MISSING_CONTEXT',
    reason: missingContextReason(missing, by),
  };
}

/** The reason of a `MISSING_CONTEXT` drop (shared with the reference selection). */
export function missingContextReason(
  missing: readonly string[],
  by: 'context group' | 'filter',
): string {
  const pass = `pass ${missing.map((key) => `context.${key}`).join(', ')}`;
  return by === 'context group'
    ? `its context group is offered only with context ${missing.join(', ')}, which this turn does not set; ${pass}`
    : `requires context ${missing.join(', ')}, which this turn does not set; ${pass}`;
}
