import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ExecuteResult } from '../../execute/types.js';

/** A tool-error result, in the `CODE: message` form of every tool error the server returns. */
export function toolError(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] };
}

/** An execute result as an MCP `tools/call` result. */
export function toCallToolResult(result: ExecuteResult): CallToolResult {
  if (!result.ok) return toolError(result.error.code, result.error.message);
  const { output } = result;
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  const isObject = output !== null && typeof output === 'object' && !Array.isArray(output);
  return {
    content: [{ type: 'text', text }],
    ...(isObject ? { structuredContent: output } : {}),
  };
}
