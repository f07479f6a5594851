/**
 * Deepest nesting of arrays and objects a tool-call input may have. JSON.stringify, ajv and
 * handlers recurse on nesting, and a few thousand levels exhaust the call stack; no tool's
 * arguments come near this depth.
 */
export const MAX_INPUT_DEPTH = 512;

/**
 * Whether `value` nests arrays and objects more than `max` levels deep (a value that is not an
 * array or object is level 0, `{}` level 1). Walks without recursion, so any depth is safe to
 * measure, and stops at the first branch over `max`. A cycle is not counted as depth: it is
 * left to the JSON check, which names it.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  // entries are [value, depth]; `undefined` as value marks leaving the last object entered
  const stack: [unknown, number][] = [[value, 1]];
  const path: object[] = [];
  const onPath = new Set<object>();
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === undefined) {
      onPath.delete(path.pop()!);
      continue;
    }
    if (depth > max) return true;
    const node = current as object;
    if (onPath.has(node)) continue;
    onPath.add(node);
    path.push(node);
    stack.push([undefined, depth]);
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
