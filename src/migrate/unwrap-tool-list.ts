import { ToolcapError } from '../errors/toolcap-error.js';

/**
 * Finds the tool list inside what an import file holds: an array as is; `{tools: [...]}` (an MCP
 * `tools/list` result, an OpenAI or Anthropic request body, a dump of param-list tools);
 * `{result: {tools}}` (a JSON-RPC response); `{toolConfig: {tools}}` (a Bedrock Converse
 * request); one tool object (an external tool's `--schema` answer, or one Gemini
 * `{functionDeclarations}`) as a list of one. Throws a ToolcapError (`IMPORT_INVALID_INPUT`) for anything else.
 */
export function unwrapToolList(input: unknown): unknown[] {
  if (Array.isArray(input)) return input;
  if (isObject(input)) {
    if (Array.isArray(input.tools)) return input.tools;
    if (isObject(input.result) && Array.isArray(input.result.tools)) return input.result.tools;
    if (isObject(input.toolConfig) && Array.isArray(input.toolConfig.tools)) {
      return input.toolConfig.tools;
    }
    if (typeof input.name === 'string' || Array.isArray(input.functionDeclarations)) return [input];
  }
  throw new ToolcapError(
    'IMPORT_INVALID_INPUT',
    'the input holds no tool list: expected an array of tools, an object with "tools": [...] (e.g. an MCP tools/list result), or one tool object with a "name"',
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
