import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isValidExecutorName } from '../format/names.js';
import { errorMessage } from '../util/error-message.js';
import type { ToolCallError, ToolDispatcher, ToolHandler } from './types.js';

/** A loaded handler module, as far as execute cares. */
export type HandlerModule = Readonly<Record<string, unknown>>;

/** A resolved implementation of one tool. */
export type ResolvedHandler =
  | { kind: 'tool'; handler: ToolHandler; file: string }
  | { kind: 'dispatcher'; handler: ToolDispatcher; file: string };

// JavaScript first: it runs everywhere. TypeScript runs under vitest/tsx or Node with type
// stripping; elsewhere its compiled twin in dist/ is used.
const JAVASCRIPT_EXTENSIONS = ['.js', '.mjs', '.cjs'];
const TYPESCRIPT_EXTENSIONS = ['.ts', '.mts'];

const loaded = new Map<string, { module: HandlerModule; file: string }>();

/**
 * Finds the function that implements `toolName` in `handlers/<executor>`, searching
 * `handlerDirs` in order. Only files directly inside a handler dir (after resolving symlinks)
 * are imported. Successful loads are cached per process.
 */
export async function resolveHandler(
  handlerDirs: readonly string[],
  executor: string,
  toolName: string,
): Promise<ResolvedHandler | ToolCallError> {
  if (!isValidExecutorName(executor)) {
    return {
      code: 'HANDLER_NOT_FOUND',
      message: `Tool "${toolName}" names the executor ${JSON.stringify(executor)}, which is not a plain identifier; handler modules are only loaded by name from the handler dirs.`,
      details: { executor },
    };
  }
  const found = await loadHandlerModule(handlerDirs, executor);
  if ('code' in found) return found;
  const { module, file } = found;
  const sources: Readonly<Record<string, unknown>>[] = [module];
  const fallback = module.default;
  if (fallback !== null && typeof fallback === 'object') {
    sources.push(fallback as Readonly<Record<string, unknown>>);
  }
  for (const source of sources) {
    const candidate = Object.hasOwn(source, toolName) ? source[toolName] : undefined;
    if (typeof candidate === 'function') {
      return { kind: 'tool', handler: candidate as ToolHandler, file };
    }
  }
  for (const source of sources) {
    const candidate = Object.hasOwn(source, 'execute') ? source.execute : undefined;
    if (typeof candidate === 'function') {
      return { kind: 'dispatcher', handler: candidate as ToolDispatcher, file };
    }
  }
  const exported = Object.keys(module).filter((key) => typeof module[key] === 'function');
  return {
    code: 'HANDLER_NOT_FOUND',
    message: `Handler module ${file} exports no function "${toolName}" and no execute(toolName, input, context); it exports ${exported.length > 0 ? exported.join(', ') : 'no functions'}. Export a function named after the tool.`,
    details: { executor, file, exports: exported },
  };
}

async function loadHandlerModule(
  handlerDirs: readonly string[],
  executor: string,
): Promise<{ module: HandlerModule; file: string } | ToolCallError> {
  const cacheKey = `${handlerDirs.join('\0')}\0${executor}`;
  const cached = loaded.get(cacheKey);
  if (cached !== undefined) return cached;

  for (const dir of handlerDirs) {
    const realDir = await realpathOrUndefined(dir);
    if (realDir === undefined) continue;
    for (const extension of JAVASCRIPT_EXTENSIONS) {
      const file = await fileInside(realDir, `${executor}${extension}`);
      if (file === undefined) continue;
      const result = await importHandler(file, executor);
      if ('module' in result) loaded.set(cacheKey, result);
      return result;
    }
    for (const extension of TYPESCRIPT_EXTENSIONS) {
      const file = await fileInside(realDir, `${executor}${extension}`);
      if (file === undefined) continue;
      const result = await importHandler(file, executor);
      if ('module' in result) {
        loaded.set(cacheKey, result);
        return result;
      }
      const twin = await findBuiltTwin(dir, executor);
      if (twin === undefined) {
        return {
          ...result,
          message: `${result.message}. ${file} is TypeScript, which this Node.js cannot import, and no compiled twin exists at ${join(twinDirectory(dir), `${executor}.js`)}: run "npm run build" (it compiles handlers/*.ts to dist/handlers/*.js) or point --handlers at a directory of .js handlers.`,
        };
      }
      const built = await importHandler(twin, executor);
      if ('module' in built) loaded.set(cacheKey, built);
      return built;
    }
  }
  return {
    code: 'HANDLER_NOT_FOUND',
    message: `No handler module for executor "${executor}": looked for ${executor}.js/.mjs/.cjs/.ts in ${handlerDirs.length > 0 ? handlerDirs.join(', ') : '(no handler dirs)'}. Add handlers/${executor}.js or pass --handlers DIR.`,
    details: { executor, searched: [...handlerDirs] },
  };
}

async function importHandler(
  file: string,
  executor: string,
): Promise<{ module: HandlerModule; file: string } | ToolCallError> {
  try {
    const module = (await import(pathToFileURL(file).href)) as HandlerModule;
    return { module, file };
  } catch (error) {
    const reason = errorMessage(error);
    const code =
      error !== null && typeof error === 'object' && 'code' in error ? String(error.code) : '';
    return {
      code: 'HANDLER_LOAD_FAILED',
      message: `Handler module ${file} for executor "${executor}" could not be imported: ${reason}`,
      details: { executor, file, reason, ...(code !== '' ? { error_code: code } : {}) },
    };
  }
}

/** `<parent>/dist/<name>` for a handler dir `<parent>/<name>`: where `tsc` writes its output. */
function twinDirectory(dir: string): string {
  return join(dirname(dir), 'dist', basename(dir));
}

async function findBuiltTwin(dir: string, executor: string): Promise<string | undefined> {
  const realTwin = await realpathOrUndefined(twinDirectory(dir));
  if (realTwin === undefined) return undefined;
  for (const extension of ['.js', '.mjs']) {
    const file = await fileInside(realTwin, `${executor}${extension}`);
    if (file !== undefined) return file;
  }
  return undefined;
}

/** The real path of `dir/name` when it is a file that stays inside `dir` after symlinks. */
async function fileInside(realDir: string, name: string): Promise<string | undefined> {
  const real = await realpathOrUndefined(join(realDir, name));
  if (real === undefined) return undefined;
  const path = relative(realDir, real);
  if (path === '' || path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)) {
    return undefined;
  }
  try {
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

async function realpathOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

/** Forgets cached handler modules (tests; hot reload of handler code needs a new process). */
export function clearHandlerCache(): void {
  loaded.clear();
}
