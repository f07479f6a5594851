import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolcapError } from '../errors/toolcap-error.js';
import { errorMessage } from '../util/error-message.js';
import { PYTHON_TOOLS_FIX, sourceFileKind } from './source-file-kind.js';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/**
 * Imports the JavaScript module `specifier` (a path relative to `cwd`). A TypeScript module
 * imports where the runtime strips types (Node 22.6+ with `--experimental-strip-types`, 23.6+
 * by default) or a loader is registered (`NODE_OPTIONS="--import tsx"`). Throws a ToolcapError
 * with `code` naming the file, the cause and, for TypeScript, how to run it; a `.json` file is
 * refused with `jsonFix` (what to do with a JSON file instead), a `.py` file with how to export
 * Python tools to JSON.
 */
export async function importModule(
  specifier: string,
  cwd: string,
  code: string,
  jsonFix: string,
): Promise<Record<string, unknown>> {
  const kind = sourceFileKind(specifier);
  if (kind === 'json') {
    throw new ToolcapError(
      code,
      `${specifier} is a JSON file, not a JavaScript module: ${jsonFix}`,
    );
  }
  if (kind === 'python') {
    throw new ToolcapError(code, `${specifier} is a Python file: ${PYTHON_TOOLS_FIX}`);
  }
  const file = resolve(cwd, specifier);
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const unknownExtension =
      (error as { code?: unknown } | null)?.code === 'ERR_UNKNOWN_FILE_EXTENSION';
    if (unknownExtension && TYPESCRIPT.has(extname(file))) {
      throw new ToolcapError(
        code,
        `cannot import ${specifier}: this Node.js (${process.version}) does not run TypeScript. Run toolcap with Node 22.6 or later and --experimental-strip-types (NODE_OPTIONS=--experimental-strip-types; Node 23.6 and later strip types by default), or register a TypeScript loader (NODE_OPTIONS="--import tsx"), or point at the compiled .js file`,
        { cause: error },
      );
    }
    throw new ToolcapError(code, `cannot import ${specifier}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}
