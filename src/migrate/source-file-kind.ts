import { extname } from 'node:path';
import { PROVIDER_IDS } from '../format/provider-ids.js';

/** What a file given as a tool source holds, judged by its extension. */
export type SourceFileKind = 'json' | 'javascript' | 'python';

const KINDS: ReadonlyMap<string, SourceFileKind> = new Map([
  ['.json', 'json'],
  ['.js', 'javascript'],
  ['.mjs', 'javascript'],
  ['.cjs', 'javascript'],
  ['.jsx', 'javascript'],
  ['.ts', 'javascript'],
  ['.mts', 'javascript'],
  ['.cts', 'javascript'],
  ['.tsx', 'javascript'],
  ['.py', 'python'],
  ['.pyw', 'python'],
]);

/**
 * The kind of a tool source file by its extension (`.json`; `.js`, `.mjs`, `.ts`, ...; `.py`),
 * or undefined for any other: lets a command that got the wrong kind of file say which option
 * reads it instead of passing on a parser's or Node's message.
 */
export function sourceFileKind(file: string): SourceFileKind | undefined {
  return KINDS.get(extname(file).toLowerCase());
}

/**
 * How to bring tools defined in Python into toolcap, for messages about a `.py` file: toolcap
 * runs JavaScript only, so the tools are exported to JSON first.
 */
export const PYTHON_TOOLS_FIX =
  'toolcap loads JavaScript modules only, so it cannot read tools defined in Python. Export them to JSON from Python, then run toolcap import on that file: with --from openai for OpenAI tool definitions (LangChain\'s convert_to_openai_tool(fn) for each tool; with pydantic, {"type": "function", "function": {name, description, "parameters": Model.model_json_schema()}}), or with --from params for {name, description, params: [{name, type, description, required, default}]} entries (see "Tools defined in Python" in docs/guide/migration.md)';

/** The `--from` formats that read JSON files, for messages: `openai, ... or params`. */
export const JSON_FORMATS = `${PROVIDER_IDS.join(', ')} or params`;
