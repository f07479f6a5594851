import { ToolcapError } from '../errors/toolcap-error.js';
import type { FallbackTool } from '../registry/fallback-tools.js';
import { importModule } from './import-module.js';
import { isFrameworkTool, type ModuleTool, readModuleExports } from './read-tool-module.js';

/**
 * Imports a module of code-defined tools, those not yet moved into group files. Its default
 * export, or its named export `tools`, or a default export `{ tools: [...] }`, may be an array
 * of tool objects (canonical objects or param lists `{ name, description, params: [...] }`),
 * taken as they are.
 * Otherwise the framework tools it exports are read as `readToolModule` reads them (AI SDK
 * ToolSets, OpenAI Agents SDK and LangChain tools, MCP SDK servers), so the module an agent
 * runs on today is the fallback as it is. Throws a ToolcapError (`FALLBACK_MODULE_INVALID`)
 * naming the export and the tool when the module cannot be imported or read.
 */
export async function loadFallbackModule(specifier: string, cwd: string): Promise<FallbackTool[]> {
  const module = await importModule(specifier, cwd, 'FALLBACK_MODULE_INVALID');
  const candidates: unknown[] = [module.default, module.tools];
  if (isObject(module.default)) candidates.push(module.default.tools);
  const list = candidates.find((candidate) => Array.isArray(candidate)) as unknown[] | undefined;
  // plain tool lists keep their meaning: the registry validates each entry
  if (list !== undefined && !list.some(isFrameworkTool)) return list as FallbackTool[];
  try {
    const { tools } = await readModuleExports(module, specifier);
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

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
