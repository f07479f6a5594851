import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolcapError } from '../errors/toolcap-error.js';
import type { FallbackTool } from '../registry/fallback-tools.js';
import { errorMessage } from '../util/error-message.js';

/**
 * Imports a module of code-defined tools (seed 004 "Migration Notes"): its default export, or
 * its named export `tools`, must be an array of tools (canonical objects or seed 003
 * `{ name, description, params }`); a default export `{ tools: [...] }` works too. Throws a
 * ToolcapError (`FALLBACK_MODULE_INVALID`) naming what was found instead.
 */
export async function loadFallbackModule(specifier: string, cwd: string): Promise<FallbackTool[]> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(cwd, specifier)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new ToolcapError(
      'FALLBACK_MODULE_INVALID',
      `cannot import ${specifier}: ${errorMessage(error)}`,
    );
  }
  const candidates: unknown[] = [module.default, module.tools];
  if (isObject(module.default)) candidates.push(module.default.tools);
  const tools = candidates.find((candidate) => Array.isArray(candidate));
  if (tools === undefined) {
    const exported = Object.keys(module).join(', ') || 'nothing';
    throw new ToolcapError(
      'FALLBACK_MODULE_INVALID',
      `${specifier} exports no array of tools (it exports: ${exported}); use "export default [...]" or "export const tools = [...]"`,
    );
  }
  return tools as FallbackTool[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
