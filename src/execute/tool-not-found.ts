import { shortenName } from '../util/shorten-name.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import type { ExecutionTarget } from './execution-target.js';
import type { ToolCallError } from './types.js';

/**
 * The tool error for a call to a name no tool has (a model inventing a tool, or a typo in the
 * host): what the model reads, with the closest names it may call (from `allowed` when the
 * turn limits the tools). Names longer than any valid tool name get no suggestion and are cut
 * in the message and the details, so a hostile name costs nothing and echoes nothing.
 */
export function toolNotFound(
  target: ExecutionTarget,
  name: unknown,
  allowed: ReadonlySet<string> | undefined,
): ToolCallError {
  const text = typeof name === 'string' ? name : '';
  const candidates = allowed ?? target.list().map((tool) => tool.name);
  // a known name under a prefix some models add is suggested, never called: the host offered
  // the name alone, and a prefixed name must not reach a tool the turn did not offer by it
  const known = new Set(candidates);
  const unprefixed =
    text === '' ? undefined : unprefixedNames(text).find((rest) => known.has(rest));
  const suggestions =
    text === '' ? [] : unprefixed === undefined ? suggestSimilar(text, candidates) : [unprefixed];
  const hint =
    unprefixed !== undefined
      ? ` Did you mean "${unprefixed}"? Call it by its name alone, without the prefix ${JSON.stringify(text.slice(0, text.length - unprefixed.length))}.`
      : suggestions.length > 0
        ? ` Did you mean ${suggestions.map((suggestion) => `"${suggestion}"`).join(' or ')}?`
        : ' Call only the tools you were given.';
  const called =
    text === ''
      ? 'The tool call names no tool.'
      : `There is no tool named ${JSON.stringify(shortenName(text))}.`;
  return {
    code: 'TOOL_NOT_FOUND',
    message: `${called}${hint}`,
    details: { tool: shortenName(text), suggestions },
  };
}

/** Longest prefixed name looked at: a valid name (64) behind a prefix of as many characters. */
const MAX_PREFIXED_NAME_LENGTH = 128;

/**
 * The names `name` may stand for once a prefix that models add is taken off, longest first:
 * `functions.NAME`, `default_api:NAME` or any `NAMESPACE.NAME` / `NAMESPACE:NAME` (the part
 * after a `.` or `:`), and `mcp__SERVER__NAME` (the part after a `__` that follows the server).
 */
function unprefixedNames(name: string): string[] {
  if (name.length > MAX_PREFIXED_NAME_LENGTH) return [];
  const names: string[] = [];
  for (let at = 0; at < name.length; at++) {
    if (name[at] === '.' || name[at] === ':') names.push(name.slice(at + 1));
  }
  if (name.startsWith('mcp__')) {
    for (let at = name.indexOf('__', 5); at !== -1; at = name.indexOf('__', at + 1)) {
      names.push(name.slice(at + 2));
    }
  }
  return names.filter((rest) => rest !== '').sort((a, b) => b.length - a.length);
}
