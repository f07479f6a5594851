import { ToolcapError } from '../errors/toolcap-error.js';
import type { FallbackTool } from '../registry/fallback-tools.js';
import { importModule } from './import-module.js';
import { type ModuleTool, readModuleExports } from './read-tool-module.js';

/**
 * Imports a module of code-defined tools, those not yet moved into group files, and reads
 * every export that holds tools exactly as `readToolModule` does (AI SDK ToolSets, OpenAI
 * Agents SDK and LangChain tools, MCP SDK servers, arrays of plain tool objects, an object's
 * `tools`), so the module an agent runs on today is the fallback as it is. Plain tool objects
 * (canonical objects or param lists `{ name, description, params: [...] }`) are taken as they
 * are: the registry validates each one, and reports two of one name. Throws a ToolcapError
 * (`FALLBACK_MODULE_INVALID`) naming the export and the tool when the module cannot be
 * imported or read.
 */
export async function loadFallbackModule(specifier: string, cwd: string): Promise<FallbackTool[]> {
  const module = await importModule(specifier, cwd, 'FALLBACK_MODULE_INVALID');
  try {
    const { tools } = await readModuleExports(module, specifier, { sameName: 'keep' });
    return tools.map((tool) => toFallbackTool(tool, specifier));
  } catch (error) {
    if (ToolcapError.isInstance(error) && error.code === 'MODULE_TOOLS_INVALID') {
      throw new ToolcapError('FALLBACK_MODULE_INVALID', error.message, { cause: error });
    }
    throw error;
  }
}

function toFallbackTool(tool: ModuleTool, file: string): FallbackTool {
  if (tool.kind === 'object') return tool.value as FallbackTool;
  if (tool.inputSchema === undefined) {
    throw new ToolcapError(
      'FALLBACK_MODULE_INVALID',
      `export "${tool.exportName}" of ${file}, tool "${tool.name}": ${tool.problem}`,
    );
  }
  return { name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema };
}
