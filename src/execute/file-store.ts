import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { ToolError } from './tool-error.js';

/** Options of `withFileLock`. */
export interface FileLockOptions {
  /** Give up waiting for another process's lock after this many ms. Default 10,000. */
  waitMs?: number;
  /** A lock file older than this is considered abandoned. Default 30,000 ms. */
  staleMs?: number;
  /** Also take `<path>.lock` against other processes. Default true. */
  crossProcess?: boolean;
}

const queues = new Map<string, Promise<void>>();

/**
 * Runs `task` while holding the lock of `path`: calls in this process are queued per file (so
 * read-modify-write cycles never interleave), and a `<path>.lock` file created with O_EXCL
 * keeps other processes out. A lock left by a dead process (or older than `staleMs`) is broken.
 */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const key = resolve(path);
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const current = new Promise<void>((done) => {
    release = done;
  });
  const tail = previous.then(() => current);
  queues.set(key, tail);
  await previous;
  try {
    return options.crossProcess === false ? await task() : await withLockFile(key, task, options);
  } finally {
    release();
    if (queues.get(key) === tail) queues.delete(key);
  }
}

async function withLockFile<T>(
  path: string,
  task: () => Promise<T>,
  options: FileLockOptions,
): Promise<T> {
  const lockPath = `${path}.lock`;
  const waitMs = options.waitMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  await mkdir(dirname(path), { recursive: true });
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    if (await createLockFile(lockPath)) break;
    if (await isStaleLock(lockPath, staleMs)) {
      await unlink(lockPath).catch(() => {});
      continue;
    }
    if (Date.now() >= deadline) {
      throw new ToolError(
        'STORE_LOCKED',
        `The store ${path} is locked by another process (${lockPath}) for more than ${waitMs} ms; try again, or delete the lock file if no toolcap process is running.`,
        { path, lock: lockPath },
      );
    }
    await delay(Math.min(100, 5 * 2 ** Math.min(attempt, 4)) + Math.random() * 5);
  }
  try {
    return await task();
  } finally {
    await unlink(lockPath).catch(() => {});
  }
}

/**
 * Creates `lockPath` holding this process's pid, atomically: the pid is written to a private
 * temporary file that is then hard-linked to the lock path (link fails if the lock exists). A
 * writer killed at any moment leaves either no lock or a lock naming its (dead) pid, never an
 * empty lock file that nobody could tell from one being written.
 */
async function createLockFile(lockPath: string): Promise<boolean> {
  const temporary = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, `${process.pid}\n`, { mode: 0o600 });
  try {
    await link(temporary, lockPath);
    return true;
  } catch (error) {
    if (isErrorCode(error, 'EEXIST')) return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

async function isStaleLock(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const [info, text] = await Promise.all([stat(lockPath), readFile(lockPath, 'utf8')]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const pid = Number.parseInt(text, 10);
    // locks are created with their content (see createLockFile): no pid means not ours to judge
    if (!Number.isInteger(pid) || pid <= 0) return false;
    if (pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return isErrorCode(error, 'ESRCH');
    }
  } catch {
    return false; // vanished in between: retry
  }
}

/** Options of `writeFileAtomic`. */
export interface WriteFileAtomicOptions {
  /** File mode of a new file. Default 0o600 (stores hold personal data). */
  mode?: number;
}

/**
 * Writes `data` to `path` so that readers see the old content or the new, never a mix: the
 * data goes to a temporary file in the same directory, is flushed to disk, and is renamed
 * over `path`. Parent directories are created. Does not lock; combine with `withFileLock`.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const temporary = join(
    directory,
    `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await open(temporary, 'wx', options.mode ?? 0o600);
  try {
    try {
      await handle.writeFile(data);
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/** Reads a JSON file; a missing file gives `initial()`. A corrupt file is a `STORE_CORRUPT` error. */
export async function readJsonFile<T>(path: string, initial: () => T): Promise<T> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrorCode(error, 'ENOENT')) return initial();
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ToolError(
      'STORE_CORRUPT',
      `The store ${path} is not valid JSON (${errorMessage(error)}); restore it from a backup or move it away to start empty.`,
      { path },
    );
  }
}

/**
 * Read-modify-write of a JSON file under `withFileLock`: `update` gets the current value (or
 * `initial()`) and returns the result to hand back plus, when something changed, the new value
 * to write atomically. No update is ever lost to a concurrent one.
 */
export function updateJsonFile<T, R>(
  path: string,
  initial: () => T,
  update: (current: T) => { value?: T; result: R } | Promise<{ value?: T; result: R }>,
): Promise<R> {
  return withFileLock(path, async () => {
    const current = await readJsonFile(path, initial);
    const { value, result } = await update(current);
    if (value !== undefined) await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
    return result;
  });
}

/**
 * Reads a JSON-lines file (one JSON value a line); a missing file is empty. Blank and malformed
 * lines (from a hand edit) are skipped so one bad line never hides the rest.
 */
export async function readJsonLines(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrorCode(error, 'ENOENT')) return [];
    throw error;
  }
  const records: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      // skipped: see the doc comment
    }
  }
  return records;
}

/** Appends records to a JSON-lines file: locked, and rewritten atomically (write + rename). */
export function appendJsonLines(path: string, records: readonly unknown[]): Promise<void> {
  return withFileLock(path, async () => {
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (!isErrorCode(error, 'ENOENT')) throw error;
    }
    if (text !== '' && !text.endsWith('\n')) text += '\n';
    for (const record of records) text += `${JSON.stringify(record)}\n`;
    await writeFileAtomic(path, text);
  });
}

function isErrorCode(error: unknown, code: string): boolean {
  return error !== null && typeof error === 'object' && 'code' in error && error.code === code;
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
