import type { FallbackTool } from '../registry/fallback-tools.js';
import { importModule } from './import-module.js';
import { toFallbackTools } from './to-fallback-tools.js';

/**
 * Imports the module `specifier` (a path relative to `cwd`) of code-defined tools, those not
 * yet moved into group files, and turns what it exports into fallback tools with
 * `toFallbackTools`, exactly as an agent does at run time, so the module an agent runs on today
 * is the fallback as it is. Throws a ToolcapError (`FALLBACK_MODULE_INVALID`) naming the file,
 * the export and the entry when the module cannot be imported or read.
 */
export async function loadFallbackModule(specifier: string, cwd: string): Promise<FallbackTool[]> {
  const module = await importModule(specifier, cwd, 'FALLBACK_MODULE_INVALID');
  return toFallbackTools(module, { file: specifier });
}
