import type { FallbackTool } from '../registry/fallback-tools.js';
import { importModule } from './import-module.js';
import { JSON_FORMATS } from './source-file-kind.js';
import { toFallbackTools } from './to-fallback-tools.js';

/**
 * Imports the module `specifier` (a path relative to `cwd`) of code-defined tools, those not
 * yet moved into group files, and turns what it exports into fallback tools with
 * `toFallbackTools`, exactly as an agent does at run time, so the module an agent runs on today
 * is the fallback as it is. Throws a ToolcapError (`FALLBACK_MODULE_INVALID`) naming the file,
 * the export and the entry when the module cannot be imported or read.
 */
export async function loadFallbackModule(specifier: string, cwd: string): Promise<FallbackTool[]> {
  const module = await importModule(
    specifier,
    cwd,
    'FALLBACK_MODULE_INVALID',
    `the fallback is the module (.js, .mjs, .ts) that defines your tools in code, the one your agent imports them from. A JSON tool list is not code: move its tools into a group file with toolcap import --from FORMAT ${specifier} --group NAME (FORMAT: ${JSON_FORMATS}), or export them from a module (export default [...])`,
  );
  return toFallbackTools(module, { file: specifier });
}
