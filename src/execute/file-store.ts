import { createHash, randomBytes } from 'node:crypto';
import { renameSync, rmdirSync, type Stats, unlinkSync } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { ToolError } from './tool-error.js';

/** Options of `withFileLock`. */
export interface FileLockOptions {
  /** Give up waiting for another process's lock after this many ms. Default 10,000. */
  waitMs?: number;
  /**
   * A lock whose owner has not shown a sign of life for this long is considered abandoned: the
   * owner refreshes it every third of this time. Default 30,000 ms.
   */
  staleMs?: number;
  /** Also take `<path>.lock` against other processes. Default true. */
  crossProcess?: boolean;
  /**
   * Stops waiting for the lock when aborted (the call then rejects with the signal's reason),
   * and is checked again once the lock is held, before `task` runs.
   */
  signal?: AbortSignal;
}

const queues = new Map<string, Promise<void>>();
const HELD_OWNERS = Symbol.for('tool-capabilities.held-store-locks');

/**
 * Owner names of the cross-process locks this process holds now, shared by every copy of the
 * package loaded in the process (a copy must not judge another copy's lock abandoned).
 */
function heldOwners(): Set<string> {
  const shared = globalThis as Record<symbol, unknown>;
  let owners = shared[HELD_OWNERS] as Set<string> | undefined;
  if (owners === undefined) {
    owners = new Set();
    shared[HELD_OWNERS] = owners;
  }
  return owners;
}
/** This host in owner names: a pid only says something about processes of the same host. */
const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
/** Temporary files older than this whose process is gone are removed (see removeStaleTemporaries). */
const TEMPORARY_GRACE_MS = 10_000;

/**
 * Runs `task` while holding the lock of `path`: calls in this process are queued per file (so
 * read-modify-write cycles never interleave), and a `<path>.lock` directory keeps other
 * processes out (see `acquireLockDirectory` for why it is safe to break an abandoned one).
 */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const { signal } = options;
  signal?.throwIfAborted();
  const key = resolve(path);
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const current = new Promise<void>((done) => {
    release = done;
  });
  const tail = previous.then(() => current);
  queues.set(key, tail);
  try {
    // a call that gives up while queued releases its place at once: later calls then wait
    // only for the ones before it
    await abortable(previous, signal);
    signal?.throwIfAborted();
    if (options.crossProcess === false) return await task();
    const owner = await acquireLockDirectory(key, options);
    try {
      signal?.throwIfAborted();
      return await task();
    } finally {
      releaseLockDirectory(owner);
    }
  } finally {
    release();
    if (queues.get(key) === tail) queues.delete(key);
  }
}

/** A held cross-process lock. */
interface LockOwner {
  lockPath: string;
  /** The owner file's name inside the lock directory: `<pid>-<host>-<random>`. */
  name: string;
  heartbeat: NodeJS.Timeout;
}

/**
 * Takes `<path>.lock`, a directory that holds exactly one file named after its owner. It is
 * created whole (a private directory with the owner file, renamed into place: rename fails
 * while the lock directory is not empty), so the lock is never seen without its owner.
 *
 * Breaking an abandoned lock removes the dead owner's file by its unique name, then the lock
 * directory only if it is empty. A stale judgement can never remove a newer lock: a newer lock
 * has a different owner file, and a directory with a file in it cannot be removed. (Deleting
 * the lock path itself, as a lock file would need, can delete a lock that another process
 * took between the judgement and the deletion: two writers inside at once.)
 */
async function acquireLockDirectory(path: string, options: FileLockOptions): Promise<LockOwner> {
  const lockPath = `${path}.lock`;
  const waitMs = options.waitMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const name = `${process.pid}-${HOST_TAG}-${randomBytes(6).toString('hex')}`;
  // named like writeFileAtomic's temporaries, so a crash that leaves it is cleaned the same way
  const staging = join(directory, `.${basename(path)}.${process.pid}.lock-${name}.tmp`);
  await mkdir(staging);
  await writeFile(join(staging, name), '', { mode: 0o600 });
  const deadline = Date.now() + waitMs;
  try {
    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted();
      try {
        await rename(staging, lockPath);
        heldOwners().add(name);
        return { lockPath, name, heartbeat: startHeartbeat(join(lockPath, name), staleMs) };
      } catch (error) {
        if (!isLockTaken(error)) throw error;
      }
      if (await clearAbandonedLock(lockPath, staleMs)) continue;
      if (Date.now() >= deadline) {
        throw new ToolError(
          'STORE_LOCKED',
          `The store ${path} is locked by another process (${lockPath}) for more than ${waitMs} ms; try again, or delete the lock directory if no toolcap process is running.`,
          { path, lock: lockPath },
        );
      }
      await delay(Math.min(100, 5 * 2 ** Math.min(attempt, 4)) + Math.random() * 5, options.signal);
    }
  } finally {
    // still here after a failure: the staging directory was never renamed
    await rm(staging, { recursive: true, force: true }).catch(() => {});
  }
}

/** rename's answers when the lock directory exists and is not empty (or is a legacy lock file). */
function isLockTaken(error: unknown): boolean {
  return ['ENOTEMPTY', 'EEXIST', 'EPERM', 'EACCES', 'ENOTDIR', 'EISDIR', 'EBUSY'].some((code) =>
    isErrorCode(error, code),
  );
}

/**
 * Removes what keeps `lockPath` taken when nobody alive holds it, and says whether to retry
 * at once: an empty lock directory (its owner released it, or died between the two steps of
 * a release), the files of owners that are gone, a lock file of an older toolcap version whose
 * process is gone. Every removal is safe against a concurrent new lock (see above).
 */
async function clearAbandonedLock(lockPath: string, staleMs: number): Promise<boolean> {
  let info: Stats;
  try {
    info = await lstat(lockPath);
  } catch (error) {
    return isErrorCode(error, 'ENOENT');
  }
  if (!info.isDirectory()) return clearLegacyLockFile(lockPath, staleMs);
  let names: string[];
  try {
    names = await readdir(lockPath);
  } catch {
    return true; // vanished or changed: look again
  }
  let cleared = false;
  for (const name of names) {
    const file = join(lockPath, name);
    if (!(await isAbandonedOwner(name, file, staleMs))) continue;
    // by its unique name: a lock taken since holds a different file, which this cannot remove
    await unlink(file).catch(() => {});
    cleared = true;
  }
  if (names.length === 0 || cleared) {
    // only an empty directory can go; a lock renamed in meanwhile makes this fail, harmlessly
    await rmdir(lockPath).catch(() => {});
    return true;
  }
  return false;
}

async function isAbandonedOwner(name: string, file: string, staleMs: number): Promise<boolean> {
  const match = /^(\d+)-([0-9a-f]{8})-[0-9a-f]+$/.exec(name);
  if (match !== null && match[2] === HOST_TAG) {
    const pid = Number(match[1]);
    // this pid is us: an owner file we do not hold is from a dead process that had our pid
    if (pid === process.pid) return !heldOwners().has(name);
    if (!isProcessAlive(pid)) return true;
  }
  // another host, a reused pid or a foreign file: only a lock without heartbeat is stale
  try {
    return Date.now() - (await stat(file)).mtimeMs > staleMs;
  } catch {
    return false; // released in between
  }
}

/** A `<path>.lock` file (toolcap before lock directories): broken when its pid is gone or old. */
async function clearLegacyLockFile(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const [info, text] = await Promise.all([stat(lockPath), readFile(lockPath, 'utf8')]);
    const pid = Number.parseInt(text, 10);
    const abandoned =
      Date.now() - info.mtimeMs > staleMs ||
      (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isProcessAlive(pid));
    if (!abandoned) return false;
    // new versions never create a file here, so this cannot remove a lock of theirs
    await unlink(lockPath).catch(() => {});
    return true;
  } catch {
    return true; // vanished in between: retry
  }
}

/** Refreshes the owner file's time so that a live owner is never judged stale by age. */
function startHeartbeat(ownerFile: string, staleMs: number): NodeJS.Timeout {
  const timer = setInterval(
    () => {
      const now = new Date();
      utimes(ownerFile, now, now).catch(() => {});
    },
    Math.max(10, Math.floor(staleMs / 3)),
  );
  timer.unref();
  return timer;
}

/**
 * Releases synchronously: a caller's result is decided when its write is committed, and no
 * timer (a call's deadline) may run between that commit and the caller receiving the result.
 */
function releaseLockDirectory(owner: LockOwner): void {
  clearInterval(owner.heartbeat);
  heldOwners().delete(owner.name);
  try {
    unlinkSync(join(owner.lockPath, owner.name));
  } catch {
    // broken as stale while we held it: nothing of ours is left to remove
  }
  try {
    rmdirSync(owner.lockPath);
  } catch {
    // not empty: another process already holds the next lock
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return !isErrorCode(error, 'ESRCH');
  }
}

/** Options of `writeFileAtomic`. */
export interface WriteFileAtomicOptions {
  /** File mode of a new file. Default 0o600 (stores hold personal data). */
  mode?: number;
  /**
   * Checked just before the rename that commits the write: once it has aborted, the file is
   * left as it was and the call rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /**
   * Runs once the data is on disk, just before the rename: a rejection leaves the file as it
   * was (the temporary file is removed) and is passed on. For last checks on the directory.
   */
  beforeCommit?: () => Promise<void>;
}

/**
 * Writes `data` to `path` so that readers see the old content or the new, never a mix: the
 * data goes to a temporary file in the same directory, is flushed to disk, and is renamed
 * over `path`. Parent directories are created, and temporary files of `path` left by a
 * process that died (older than 10 s) are removed. Does not lock; combine with `withFileLock`.
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
    await removeStaleTemporaries(directory, basename(path));
    await options.beforeCommit?.();
    options.signal?.throwIfAborted();
    // the commit: synchronous right after the check, so no deadline can fire in between
    renameSync(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/**
 * Removes `.<name>.<pid>.<random>.tmp` entries (temporary files, and staging directories of
 * the lock) whose process is gone and that are older than `TEMPORARY_GRACE_MS`: what a writer
 * killed mid-write leaves. The age guards temporaries of another host sharing the directory,
 * which live for milliseconds.
 */
async function removeStaleTemporaries(directory: string, name: string): Promise<void> {
  const prefix = `.${name}.`;
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue;
    // exactly "<pid>.<token>" between the prefix and ".tmp" (another target's name has more dots)
    const parts = entry.slice(prefix.length, -'.tmp'.length).split('.');
    if (parts.length !== 2 || !/^[1-9]\d*$/.test(parts[0]!)) continue;
    const pid = Number(parts[0]);
    if (pid === process.pid || isProcessAlive(pid)) continue;
    const file = join(directory, entry);
    try {
      if (Date.now() - (await lstat(file)).mtimeMs <= TEMPORARY_GRACE_MS) continue;
      await rm(file, { recursive: true, force: true });
    } catch {
      // gone already, or not ours to remove
    }
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

/** Options of `updateJsonFile` and `appendJsonLines`. */
export interface StoreWriteOptions {
  /**
   * The caller's signal (a handler's `options.signal`): while waiting for the lock and just
   * before the write it is checked, so a call that has timed out or was cancelled never
   * writes later.
   */
  signal?: AbortSignal;
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
  options: StoreWriteOptions = {},
): Promise<R> {
  return withFileLock(
    path,
    async () => {
      const current = await readJsonFile(path, initial);
      const { value, result } = await update(current);
      if (value !== undefined) {
        await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, options);
      }
      return result;
    },
    options,
  );
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
export function appendJsonLines(
  path: string,
  records: readonly unknown[],
  options: StoreWriteOptions = {},
): Promise<void> {
  return withFileLock(
    path,
    async () => {
      let text = '';
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if (!isErrorCode(error, 'ENOENT')) throw error;
      }
      if (text !== '' && !text.endsWith('\n')) text += '\n';
      for (const record of records) text += `${JSON.stringify(record)}\n`;
      await writeFileAtomic(path, text, options);
    },
    options,
  );
}

function isErrorCode(error: unknown, code: string): boolean {
  return error !== null && typeof error === 'object' && 'code' in error && error.code === code;
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return promise;
  return new Promise((done, fail) => {
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        done();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        fail(error);
      },
    );
  });
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return abortable(new Promise((done) => setTimeout(done, ms)), signal);
}
