import { execFile } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isValidExecutorName } from '../format/names.js';
import { errorMessage } from '../util/error-message.js';
import type { ToolCallError, ToolDispatcher, ToolHandler } from './types.js';

/** A loaded handler module, as far as execute cares. */
export type HandlerModule = Readonly<Record<string, unknown>>;

/**
 * A resolved implementation of one tool; `file` is the module's absolute path, or
 * `handlerModules["<executor>"]` for a module given in memory.
 */
export type ResolvedHandler =
  | { kind: 'tool'; handler: ToolHandler; file: string }
  | { kind: 'dispatcher'; handler: ToolDispatcher; file: string };

/** A loaded module: its absolute path, and the short name messages use (`handlers/x.js`). */
interface LoadedModule {
  module: HandlerModule;
  file: string;
  shown: string;
}

// JavaScript first: it runs everywhere. TypeScript runs under vitest/tsx or Node with type
// stripping; elsewhere its compiled twin in ../dist/<dir>/ is used when there is one (the layout
// `tsc` gives this package's own handlers/).
//
// Tool errors go to the model: their messages and details name a module by its handler
// directory's base name and its file name (`handlers/github.ts`), never by an absolute path.
const JAVASCRIPT_EXTENSIONS = ['.js', '.mjs', '.cjs'];
const TYPESCRIPT_EXTENSIONS = ['.ts', '.mts'];

const loaded = new Map<string, LoadedModule>();

/**
 * Finds the function that implements `toolName` in the module of `executor`: the one given in
 * memory in `handlerModules` (the registry's option), else `handlers/<executor>`, searching
 * `handlerDirs` in order. Only files directly inside a handler dir (after resolving symlinks)
 * are imported. Successful loads are cached per process.
 */
export async function resolveHandler(
  handlerDirs: readonly string[],
  executor: string,
  toolName: string,
  handlerModules?: ReadonlyMap<string, HandlerModule>,
): Promise<ResolvedHandler | ToolCallError> {
  if (!isValidExecutorName(executor)) {
    return {
      code: 'HANDLER_NOT_FOUND',
      message: `Tool "${toolName}" names the executor ${JSON.stringify(executor)}, which is not a plain identifier; handler modules are only loaded by name from the handler dirs.`,
      details: { executor },
    };
  }
  const given = handlerModules?.get(executor);
  const found: LoadedModule | ToolCallError =
    given === undefined
      ? await loadHandlerModule(handlerDirs, executor)
      : { module: given, file: inMemoryName(executor), shown: inMemoryName(executor) };
  if ('code' in found) return found;
  const { module, file, shown } = found;
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
    message: `Handler module ${shown} exports no function "${toolName}" and no execute(toolName, input, context); it exports ${exported.length > 0 ? exported.join(', ') : 'no functions'}. Export a function named after the tool.`,
    details: { executor, file: shown, exports: exported },
  };
}

/** How messages name a module given in `handlerModules`. */
function inMemoryName(executor: string): string {
  return `handlerModules[${JSON.stringify(executor)}]`;
}

async function loadHandlerModule(
  handlerDirs: readonly string[],
  executor: string,
): Promise<LoadedModule | ToolCallError> {
  const cacheKey = `${handlerDirs.join('\0')}\0${executor}`;
  const cached = loaded.get(cacheKey);
  if (cached !== undefined) return cached;

  // files that exist but resolve outside their handler dir: never imported, but named
  const refused: string[] = [];
  const lookUp = async (realDir: string, name: string, extension: string) => {
    const found = await fileInside(realDir, `${executor}${extension}`);
    if (found?.inside === false) refused.push(`${name}/${executor}${extension}`);
    return found?.inside === true ? found.file : undefined;
  };
  for (const dir of handlerDirs) {
    const realDir = await realpathOrUndefined(dir);
    if (realDir === undefined) continue;
    const name = basename(dir);
    for (const extension of JAVASCRIPT_EXTENSIONS) {
      const file = await lookUp(realDir, name, extension);
      if (file === undefined) continue;
      const result = await importHandler(file, `${name}/${executor}${extension}`, executor);
      if ('module' in result) loaded.set(cacheKey, result);
      return result;
    }
    for (const extension of TYPESCRIPT_EXTENSIONS) {
      const file = await lookUp(realDir, name, extension);
      if (file === undefined) continue;
      const shown = `${name}/${executor}${extension}`;
      const result = await importHandler(file, shown, executor);
      if ('module' in result) {
        loaded.set(cacheKey, result);
        return result;
      }
      const twin = await findBuiltTwin(dir, executor);
      if (twin === undefined) {
        return {
          ...result,
          message: `${result.message}. ${shown} is TypeScript, which this Node.js process cannot import: compile it to JavaScript (for example with tsc) and put the .js file in a handler directory, or run Node.js with a TypeScript loader (node --import tsx, or --experimental-strip-types on Node.js 22.6 and later).`,
        };
      }
      const built = await importHandler(twin, `dist/${name}/${basename(twin)}`, executor);
      if ('module' in built) loaded.set(cacheKey, built);
      return built;
    }
  }
  const searched = handlerDirs.map((dir) => basename(dir));
  const where = searched.length > 0 ? searched.join(', ') : '(no handler directories)';
  const extensions = [...JAVASCRIPT_EXTENSIONS, ...TYPESCRIPT_EXTENSIONS].join('/');
  if (refused.length > 0) {
    return {
      code: 'HANDLER_NOT_FOUND',
      message: `No handler module for executor "${executor}" was imported: ${refused.join(', ')} ${refused.length > 1 ? 'resolve' : 'resolves'} (through a symlink) to a file outside ${refused.length > 1 ? 'their' : 'its'} handler directory, and handler modules are only imported from inside the handler directories. Move or copy the module into the handler directory, or add the directory that really holds it to the handlers option.`,
      details: { executor, searched, refused },
    };
  }
  return {
    code: 'HANDLER_NOT_FOUND',
    message: `No handler module for executor "${executor}": looked for ${executor}${extensions} in ${where}. Add ${executor}.js to a handler directory, or add the directory that holds it to the handlers option.`,
    details: { executor, searched },
  };
}

async function importHandler(
  file: string,
  shown: string,
  executor: string,
): Promise<LoadedModule | ToolCallError> {
  const url = pathToFileURL(file).href;
  try {
    const module = (await import(url)) as HandlerModule;
    return { module, file, shown };
  } catch (error) {
    // import errors quote the module's URL or path (and sometimes its directory's)
    const reason = errorMessage(error)
      .replaceAll(url, shown)
      .replaceAll(file, shown)
      .replaceAll(dirname(file), dirname(shown));
    const code =
      error !== null && typeof error === 'object' && 'code' in error ? String(error.code) : '';
    // ESM syntax in a .js file of a CommonJS package (npm init writes "type": "commonjs")
    const hint = /Cannot use import statement outside a module|Unexpected token 'export'/.test(
      reason,
    )
      ? '. The module uses import/export but Node.js loads it as CommonJS: add "type": "module" to the package.json next to it (npm pkg set type=module), or name it .mjs'
      : '';
    // Node's import() error has no line for a syntax error; its syntax check prints one
    const line = hint === '' && code === '' ? await syntaxErrorLine(file) : undefined;
    const where = line === undefined ? '' : ` (${shown}:${line})`;
    return {
      code: 'HANDLER_LOAD_FAILED',
      message: `Handler module ${shown} for executor "${executor}" could not be imported: ${reason}${where}${hint}`,
      details: {
        executor,
        file: shown,
        reason,
        ...(line === undefined ? {} : { line }),
        ...(code !== '' ? { error_code: code } : {}),
      },
    };
  }
}

/**
 * The line of a JavaScript module's syntax error, from `node --check` (the file is parsed, never
 * run); undefined for other files or when the check says nothing usable.
 */
function syntaxErrorLine(file: string): Promise<number | undefined> {
  if (!/\.[cm]?js$/.test(file)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--check', file],
      { timeout: 10_000, maxBuffer: 64 * 1024 },
      (_error, _stdout, stderr) => {
        const first = String(stderr).split('\n', 1)[0] ?? '';
        const match = /:(\d+)$/.exec(first);
        resolve(first.startsWith(file) && match !== null ? Number(match[1]) : undefined);
      },
    );
  });
}

/** `<parent>/dist/<name>` for a handler dir `<parent>/<name>`: where `tsc` writes its output. */
function twinDirectory(dir: string): string {
  return join(dirname(dir), 'dist', basename(dir));
}

async function findBuiltTwin(dir: string, executor: string): Promise<string | undefined> {
  const realTwin = await realpathOrUndefined(twinDirectory(dir));
  if (realTwin === undefined) return undefined;
  for (const extension of ['.js', '.mjs']) {
    const found = await fileInside(realTwin, `${executor}${extension}`);
    if (found?.inside === true) return found.file;
  }
  return undefined;
}

/**
 * `dir/name` when it is a file: its real path when it stays inside `dir` after symlinks, or
 * `inside: false` when it resolves outside (never imported). Undefined when there is no file.
 */
async function fileInside(
  realDir: string,
  name: string,
): Promise<{ inside: true; file: string } | { inside: false } | undefined> {
  const real = await realpathOrUndefined(join(realDir, name));
  if (real === undefined) return undefined;
  try {
    if (!(await stat(real)).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const path = relative(realDir, real);
  return path === '' || path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)
    ? { inside: false }
    : { inside: true, file: real };
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
