import type { ToolDefinition, Warning } from '../format/types.js';
import type { PreparedEntry } from './provider-translator.js';

/**
 * Which of `prepared` a `deferLoading` option defers: `true` = all, a list = those names.
 * Names in the list that are not in the payload produce an `UNKNOWN_TOOL_OPTION` warning.
 */
export function deferredTools<Entry>(
  prepared: readonly PreparedEntry<Entry>[],
  deferLoading: boolean | readonly string[] | undefined,
  warnings: Warning[],
): Set<ToolDefinition> {
  if (deferLoading === undefined || deferLoading === false) return new Set();
  if (deferLoading === true) return new Set(prepared.map((item) => item.tool));
  const names = new Set(deferLoading);
  const deferred = new Set(
    prepared.filter((item) => names.has(item.tool.name)).map((item) => item.tool),
  );
  const present = new Set(prepared.map((item) => item.tool.name));
  const unknown = [...names].filter((name) => !present.has(name));
  if (unknown.length > 0) {
    warnings.push({
      code: 'UNKNOWN_TOOL_OPTION',
      message: `deferLoading names tools that are not in this list: ${unknown.join(', ')}; they were ignored`,
    });
  }
  return deferred;
}
