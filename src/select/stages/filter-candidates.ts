import type { Candidate, Turn } from '../turn.js';
import type { DropCode, DroppedTool } from '../types.js';

/**
 * Stage 3: the candidates that pass the turn's filters, in their order; the others are
 * reported as dropped with the first filter they fail: missing `requires_context` keys (unless
 * `requireContext: false`), then `categories`, `maxCost` and `maxLatency`. Reads only the
 * per-tool filter data of the index, never the tool objects.
 */
export function filterCandidates(turn: Turn): Candidate[] {
  const survivors: Candidate[] = [];
  for (const candidate of turn.candidates) {
    const code = failedFilter(turn, candidate.tool);
    if (code === undefined) survivors.push(candidate);
    else turn.dropped.push(filterDrop(turn, candidate.tool, code));
  }
  return survivors;
}

function failedFilter(turn: Turn, tool: number): DropCode | undefined {
  const { index, settings } = turn;
  if (settings.requireContext) {
    for (const key of index.keysOfTool[tool]!) {
      if (!index.hasContextKey(settings.context, key)) return 'MISSING_CONTEXT';
    }
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

/** The `MISSING_CONTEXT` drop of `tool`, naming the keys this turn does not set. */
export function missingContextDrop(turn: Turn, tool: number): DroppedTool {
  const { index, settings } = turn;
  const missing = index.keysOfTool[tool]!.filter(
    (key) => !index.hasContextKey(settings.context, key),
  );
  return {
    name: index.toolNames[tool]!,
    group: index.toolGroups[tool]!,
    code: 'MISSING_CONTEXT',
    reason: `requires context ${missing.join(', ')}, which this turn does not set; pass ${missing.map((key) => `context.${key}`).join(', ')}`,
  };
}
