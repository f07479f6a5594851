import { resolve } from 'node:path';
import { checkHandlerDirs, checkToolHandlers } from '../execute/check-tool-handlers.js';
import type { Diagnostic } from '../format/types.js';
import { displayPath } from '../load/display-path.js';
import type { Registry } from '../toolcap/registry.js';
import type { CliIo } from './io.js';
import { type ParsedArgs, stringList } from './parse-cli-args.js';

/** Usage line of `--check-handlers` (toolcap validate). */
export const CHECK_HANDLERS_USAGE = `  --check-handlers         also import each tool's handler module (runs its top-level code) and
                           report tools whose handler is missing, fails to import or exports
                           neither the tool's function nor execute`;

/**
 * The handler problems the command line asks for: a `--handlers` directory that does not exist
 * (a warning, as a missing `--schemas` path is an error), and with `checkHandlers` every tool's
 * handler resolved as a call would resolve it (then the default ./handlers is checked too).
 */
export async function checkCliHandlers(
  values: ParsedArgs['values'],
  registry: Registry,
  io: CliIo,
  checkHandlers: boolean,
): Promise<Diagnostic[]> {
  const display = (file: string) => displayPath(file, io.cwd);
  const given = stringList(values.handlers).map((dir) => resolve(io.cwd, dir));
  const dirs = checkHandlers ? registry.settings.handlerDirs : given;
  const diagnostics = checkHandlerDirs(dirs, display);
  if (checkHandlers) {
    diagnostics.push(
      ...(await checkToolHandlers(registry.list(), registry.settings.handlerDirs, display)),
    );
  }
  return diagnostics;
}
