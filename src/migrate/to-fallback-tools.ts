import { ToolcapError } from '../errors/toolcap-error.js';
import { formatPointer } from '../format/json-pointer.js';
import type { FallbackTool } from '../registry/fallback-tools.js';
import { checkOptions, isString } from '../util/check-options.js';
import {
  type FoundTool,
  isModuleNamespace,
  readModuleEntries,
  readValueEntries,
} from './read-tool-module.js';
import { type AiSdkTool, runAiSdkTool } from './run-ai-sdk-tool.js';

/** Options of `toFallbackTools`. */
export interface ToFallbackToolsOptions {
  /**
   * The module's path (`src/agent/tools.js`), named by the registry's diagnostics about these
   * tools and by errors. Default `<fallback>`.
   */
  file?: string;
}

/**
 * The `fallbackTools` of `loadRegistry`, `createRegistry` and `reportMigration` for the tools a
 * module defines in code, read exactly as `toolcap import --from module` and `toolcap migrate
 * status --fallback` read them. `source` is the module's namespace (`await import(...)`: every
 * export that holds tools), or one export's value: a Vercel AI SDK ToolSet, OpenAI Agents SDK or
 * LangChain tools, an MCP SDK server, an array of any of these or of plain tool objects, an
 * object's `tools`. Each framework tool becomes `{ name, description, inputSchema }` (its
 * schema as JSON Schema); an AI SDK tool with an `execute` keeps it, run as the AI SDK runs it
 * (see `runAiSdkTool`), and the other frameworks' tools keep running in their framework; plain
 * tool objects (canonical or param lists, with their `execute`) are taken as they are. A tool whose schema has no JSON
 * Schema form (a Zod `z.date()`, ...) carries a `problem` instead: the registry reports it
 * (`INVALID_FALLBACK_TOOL`) and loads the others. Every tool's `definedIn` names `file` and its
 * place in the exports. Throws a ToolcapError (`FALLBACK_MODULE_INVALID`) naming the export and
 * the entry when `source` holds no tools, an entry that is not a tool, or an MCP server that
 * cannot be listed.
 */
export async function toFallbackTools(
  source: unknown,
  options: ToFallbackToolsOptions = {},
): Promise<FallbackTool[]> {
  checkOptions('toFallbackTools', options, { file: isString });
  const file = options.file ?? '<fallback>';
  try {
    // two tools of one name are the registry's DUPLICATE_TOOL, like two in a list
    const { found } = isModuleNamespace(source)
      ? await readModuleEntries(source, file, { sameName: 'keep' })
      : await readValueEntries(source, file, { sameName: 'keep' });
    return found.map((entry) => toFallbackTool(entry, file));
  } catch (error) {
    if (ToolcapError.isInstance(error) && error.code === 'MODULE_TOOLS_INVALID') {
      throw new ToolcapError('FALLBACK_MODULE_INVALID', error.message, { cause: error });
    }
    throw error;
  }
}

function toFallbackTool({ tool, path }: FoundTool, file: string): FallbackTool {
  const definedIn = { file, pointer: formatPointer(path) };
  if (tool.kind === 'object') return { ...(tool.value as FallbackTool), definedIn };
  const base = { name: tool.name, description: tool.description ?? '', definedIn };
  if (tool.inputSchema === undefined) {
    return { ...base, problem: tool.problem ?? 'its parameters cannot be read' };
  }
  // an AI SDK tool's own execute is a plain function toolcap can run; other frameworks' tools
  // need their framework's run context, so they keep running there
  const value = tool.value as { execute?: unknown };
  return tool.kind === 'ai-sdk' && typeof value.execute === 'function'
    ? { ...base, inputSchema: tool.inputSchema, execute: runAiSdkTool(value as AiSdkTool) }
    : { ...base, inputSchema: tool.inputSchema };
}
