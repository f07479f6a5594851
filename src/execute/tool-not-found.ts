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
  const suggestions = text === '' ? [] : suggestSimilar(text, candidates);
  const hint =
    suggestions.length > 0
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
