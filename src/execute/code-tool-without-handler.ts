import type { RegisteredTool } from '../format/types.js';
import type { ToolCallError } from './types.js';

/**
 * The `HANDLER_NOT_FOUND` of a code-defined (fallback) tool with no `execute` and no handler
 * module for its executor, such as a framework tool `toFallbackTools` read: it is defined in
 * code, so "add fallback.js to a handler directory" would mislead. Says where it is defined
 * (when known), that toolcap has nothing to call, and the ways out. Keeps `notFound`'s details.
 */
export function codeToolWithoutHandler(
  tool: RegisteredTool,
  notFound: ToolCallError,
): ToolCallError {
  const file = tool.definedIn?.file;
  const where = file === undefined || file === '<fallback>' ? '' : ` (${file})`;
  const executor = tool.metadata.executor;
  const details =
    notFound.details !== null && typeof notFound.details === 'object'
      ? { ...notFound.details }
      : {};
  return {
    code: 'HANDLER_NOT_FOUND',
    message: `Tool "${tool.name}" is defined in code${where} and has no implementation toolcap can call: its fallback tool has no execute function, and there is no handler module "${executor}". toFallbackTools keeps the execute of AI SDK tools only; an AI SDK tool without one, and LangChain, Agents SDK and MCP server tools, run in their framework. Give the fallback tool an execute(input, context, options) function, or give handlerModules a "${executor}" module.`,
    details: { ...details, ...(file === undefined ? {} : { defined_in: file }) },
  };
}
