import { statSync } from 'node:fs';
import type { Diagnostic, RegisteredTool } from '../format/types.js';
import { resolveHandler } from './load-handler.js';
import type { ToolCallError } from './types.js';

/**
 * Resolves the handler of every tool loaded from a group file the way a call does
 * (`resolveHandler`: `<executor>.js` and its siblings in `handlerDirs`, then the tool's function
 * or an `execute` dispatcher) and returns an error diagnostic per tool whose handler module is
 * missing (`HANDLER_NOT_FOUND`), cannot be imported (`HANDLER_LOAD_FAILED`) or exports neither
 * (`HANDLER_NOT_FOUND`). Importing a module runs its top-level code, as the first call would.
 * `display` turns a group file's absolute path into the path shown.
 */
export async function checkToolHandlers(
  tools: readonly RegisteredTool[],
  handlerDirs: readonly string[],
  display: (file: string) => string,
): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  // a module that is missing or fails to import fails every tool of its executor: import it
  // (and, on a syntax error, run node --check) once, not once a tool
  const moduleFailures = new Map<string, ToolCallError>();
  for (const tool of tools) {
    if (tool.source !== 'json' || tool.file === undefined) continue;
    const { executor } = tool.metadata;
    const failure =
      moduleFailures.get(executor) ?? (await resolveHandler(handlerDirs, executor, tool.name));
    if (!('code' in failure)) continue;
    if (isModuleFailure(failure)) moduleFailures.set(executor, failure);
    diagnostics.push({
      severity: 'error',
      code: failure.code,
      file: display(tool.file),
      pointer: `${tool.pointer ?? ''}/metadata/executor`,
      message: `tool "${tool.name}" (executor "${executor}"): ${failure.message}`,
    });
  }
  return diagnostics;
}

/**
 * A `HANDLERS_DIR_NOT_FOUND` warning for each of `handlerDirs` (absolute) that does not exist
 * or is not a directory: no handler is ever found in it, which would otherwise surface only as
 * `HANDLER_NOT_FOUND` when a tool is called.
 */
export function checkHandlerDirs(
  handlerDirs: readonly string[],
  display: (file: string) => string,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const dir of handlerDirs) {
    let problem: string | undefined;
    try {
      if (!statSync(dir).isDirectory()) problem = 'is not a directory';
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problem = code === 'ENOENT' ? 'does not exist' : `could not be read (${code})`;
    }
    if (problem === undefined) continue;
    const shown = display(dir);
    diagnostics.push({
      severity: 'warning',
      code: 'HANDLERS_DIR_NOT_FOUND',
      file: shown,
      pointer: '',
      message: `handler directory ${shown} ${problem}, so no handler module is found in it; check the path`,
    });
  }
  return diagnostics;
}

/** Whether a resolution failed for the module itself, not for the one tool's export. */
function isModuleFailure(failure: ToolCallError): boolean {
  if (failure.code === 'HANDLER_LOAD_FAILED') return true;
  const details = failure.details as { exports?: unknown } | null | undefined;
  return details?.exports === undefined;
}
