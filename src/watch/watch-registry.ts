import { type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Diagnostic } from '../format/types.js';
import { loadRegistry } from '../toolcap/load-registry.js';
import type { Registry } from '../toolcap/registry.js';
import { LOAD_REGISTRY_OPTIONS, type LoadRegistryOptions } from '../toolcap/registry-options.js';
import { checkOptions, isFunction, type OptionCheck, toStringList } from '../util/check-options.js';
import { hashGroupFiles, statGroupFiles } from './fingerprint-group-files.js';

/** Options of `watchRegistry`: the `loadRegistry` options plus the watching cadence. */
export interface WatchRegistryOptions extends LoadRegistryOptions {
  /** Quiet time after the last file event before reloading, in ms. Default 50. */
  debounceMs?: number;
  /**
   * Interval of the polling safety net, in ms: the names, sizes and times of the group files
   * are compared and a change reloads. It is the only mechanism where `fs.watch` is
   * unavailable (or a directory does not exist yet). 0 turns polling off. Default 1000.
   */
  pollIntervalMs?: number;
  /**
   * Loads one snapshot. Default `loadRegistry(options)`; give one to add steps to every load
   * (the CLI adds external tools and settings). It must not throw for bad files (diagnostics).
   */
  load?: () => Promise<Registry>;
}

const isMilliseconds: OptionCheck = (value) =>
  typeof value === 'number' && value >= 0 && Number.isFinite(value)
    ? undefined
    : 'a number of milliseconds (0 or more)';

const WATCH_REGISTRY_OPTIONS = {
  ...LOAD_REGISTRY_OPTIONS,
  debounceMs: isMilliseconds,
  pollIntervalMs: isMilliseconds,
  load: isFunction,
};

/** What a reload did. */
export type RegistryChange =
  | {
      /** The reload loaded without new errors; `registry` now serves. */
      type: 'swapped';
      registry: Registry;
      previous: Registry;
    }
  | {
      /**
       * The reload found errors the serving registry does not have (a broken edit): `registry`
       * (the last good one) keeps serving; `rejected` is what the files load to now, and
       * `errors` are its new error diagnostics.
       */
      type: 'rejected';
      registry: Registry;
      rejected: Registry;
      errors: readonly Diagnostic[];
    }
  | {
      /** Loading threw (e.g. too many open files); `registry` keeps serving. */
      type: 'failed';
      registry: Registry;
      error: unknown;
    };

/** Receives every change; exceptions it throws are ignored (they must not stop watching). */
export type RegistryChangeListener = (change: RegistryChange) => void;

/** A live registry: an immutable snapshot that is replaced as a whole when the files change. */
export interface RegistryWatcher {
  /**
   * The registry serving now. Each call may return a newer snapshot; a caller that holds the
   * returned reference (for a selection, a translation, an execution) keeps one consistent
   * snapshot for as long as it needs, since registries never change.
   */
  current(): Registry;
  /**
   * Reloads now if the group files changed since the last load (after any reload in
   * progress); resolves with what happened, or undefined when nothing changed.
   */
  reload(): Promise<RegistryChange | undefined>;
  /** Adds a listener; returns a function that removes it. */
  subscribe(listener: RegistryChangeListener): () => void;
  /** Stops watching and waits for a reload in progress. Idempotent. */
  close(): Promise<void>;
}

const DEFAULT_DEBOUNCE_MS = 50;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** Loads retried in one reload when the files keep changing while they are read. */
const MAX_ATTEMPTS = 5;

/**
 * Loads a registry with `loadRegistry(options)` and reloads it when group files under
 * `options.dirs` change (`fs.watch`, recursive, debounced; plus a polling safety net).
 *
 * - A reload that shows error diagnostics the serving registry does not have is a broken edit:
 *   the last good registry keeps serving and `onChange` gets `{ type: "rejected", errors }`.
 *   Errors that were already there (a file broken since start-up) do not block other edits.
 * - Otherwise the new registry replaces the old one in a single assignment (`swapped`).
 * - A load only counts when the files hashed the same before and after it, so a snapshot never
 *   mixes files from before and after an edit that touched several of them at once.
 * - The first load is served whatever its diagnostics (with `strict: true` it throws instead).
 *
 * Handler modules are not reloaded (Node caches imports); restart to pick up handler changes.
 */
export async function watchRegistry(
  options: WatchRegistryOptions = {},
  onChange?: RegistryChangeListener,
): Promise<RegistryWatcher> {
  checkOptions('watchRegistry', options, WATCH_REGISTRY_OPTIONS);
  const watcher = new GroupFileWatcher(options);
  if (onChange !== undefined) watcher.subscribe(onChange);
  try {
    await watcher.start();
  } catch (error) {
    await watcher.close();
    throw error;
  }
  return watcher;
}

class GroupFileWatcher implements RegistryWatcher {
  readonly #options: WatchRegistryOptions;
  /** The options passed on to `loadRegistry` (the watching cadence taken out). */
  readonly #loadOptions: LoadRegistryOptions;
  readonly #dirs: readonly string[];
  readonly #cwd: string;
  readonly #listeners = new Set<RegistryChangeListener>();
  readonly #fileWatchers: FSWatcher[] = [];
  #current: Registry | undefined;
  /** Hash of the files the last load (served or rejected) read. */
  #loadedHash = '';
  /** Reloads run one after another on this chain. */
  #tail: Promise<unknown> = Promise.resolve();
  #scheduled = false;
  #closed = false;
  #debounce: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;
  #polling = false;
  #lastPoll = '';

  constructor(options: WatchRegistryOptions) {
    this.#options = options;
    const { debounceMs: _debounce, pollIntervalMs: _poll, load: _load, ...loadOptions } = options;
    this.#loadOptions = loadOptions;
    this.#cwd = options.cwd ?? process.cwd();
    this.#dirs = (options.dirs === undefined ? ['schemas'] : toStringList(options.dirs)).map(
      (dir) => resolve(this.#cwd, dir),
    );
  }

  async start(): Promise<void> {
    // watch before the first load, so an edit made while it runs is not missed
    for (const dir of this.#dirs) this.#watchDirectory(dir);
    const interval = this.#options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    if (interval > 0) {
      this.#lastPoll = await statGroupFiles(this.#dirs, this.#cwd);
      this.#poll = setInterval(() => void this.#checkPoll(), interval);
    }
    const first = this.#enqueue(async () => {
      const hash = await hashGroupFiles(this.#dirs, this.#cwd);
      this.#current = await (this.#options.load?.() ?? loadRegistry(this.#loadOptions));
      // if the files changed during this load, the next reload sees another hash and reloads
      this.#loadedHash = hash;
    });
    await first;
  }

  current(): Registry {
    if (this.#current === undefined) throw new Error('the watcher has not loaded yet');
    return this.#current;
  }

  reload(): Promise<RegistryChange | undefined> {
    return this.#enqueue(() => this.#reloadOnce());
  }

  subscribe(listener: RegistryChangeListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#debounce);
    clearInterval(this.#poll);
    for (const fileWatcher of this.#fileWatchers.splice(0)) fileWatcher.close();
    await this.#tail;
    this.#listeners.clear();
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(work);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Queues one reload unless one is already waiting to start. */
  #schedule(): void {
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    void this.#enqueue(() => {
      this.#scheduled = false;
      return this.#reloadOnce();
    });
  }

  #watchDirectory(dir: string): void {
    // a group file named directly: watch its directory (an editor's atomic save replaces the
    // file, which ends a watch on the file itself) for that one name
    const file = isGroupFilePath(dir) ? basename(dir) : undefined;
    let fileWatcher: FSWatcher;
    try {
      const target = file === undefined ? dir : dirname(dir);
      fileWatcher = watch(target, { recursive: file === undefined }, (_event, filename) => {
        if (file !== undefined && filename !== null && basename(filename) !== file) return;
        if (filename !== null && !isRelevant(filename)) return;
        clearTimeout(this.#debounce);
        this.#debounce = setTimeout(
          () => this.#schedule(),
          this.#options.debounceMs ?? DEFAULT_DEBOUNCE_MS,
        );
      });
    } catch {
      // missing directory or no recursive watch on this platform: polling covers it
      return;
    }
    fileWatcher.on('error', () => {
      // the directory went away: stop this watcher, polling notices when it comes back
      fileWatcher.close();
    });
    this.#fileWatchers.push(fileWatcher);
  }

  async #checkPoll(): Promise<void> {
    if (this.#polling || this.#closed) return;
    this.#polling = true;
    try {
      const fingerprint = await statGroupFiles(this.#dirs, this.#cwd);
      if (fingerprint !== this.#lastPoll) {
        this.#lastPoll = fingerprint;
        this.#schedule();
      }
    } catch {
      // unreadable right now; the next poll tries again
    } finally {
      this.#polling = false;
    }
  }

  async #reloadOnce(): Promise<RegistryChange | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS && !this.#closed; attempt++) {
      const before = await hashGroupFiles(this.#dirs, this.#cwd);
      if (before === this.#loadedHash) return undefined;
      let candidate: Registry;
      try {
        candidate = await (this.#options.load?.() ??
          loadRegistry({ ...this.#loadOptions, strict: false }));
      } catch (error) {
        return this.#emit({ type: 'failed', registry: this.current(), error });
      }
      const after = await hashGroupFiles(this.#dirs, this.#cwd);
      // edited while loading: the snapshot could mix old and new files, so load again
      if (after !== before) continue;
      if (this.#closed) return undefined;
      this.#loadedHash = after;
      const previous = this.current();
      const errors = newErrors(candidate, previous, this.#options.strict === true);
      if (errors.length > 0) {
        return this.#emit({ type: 'rejected', registry: previous, rejected: candidate, errors });
      }
      this.#current = candidate;
      return this.#emit({ type: 'swapped', registry: candidate, previous });
    }
    // still changing: the next file event or poll reloads again
    return undefined;
  }

  #emit(change: RegistryChange): RegistryChange {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // a listener's failure must not stop the watcher
      }
    }
    return change;
  }
}

/** Error diagnostics of `candidate` that `serving` does not have (all errors when strict). */
function newErrors(candidate: Registry, serving: Registry, strict: boolean): Diagnostic[] {
  const errors = candidate.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (strict) return errors;
  const known = new Set(
    serving.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map(diagnosticKey),
  );
  return errors.filter((diagnostic) => !known.has(diagnosticKey(diagnostic)));
}

/** Identity of a diagnostic without its position (an edit elsewhere moves lines). */
function diagnosticKey(diagnostic: Diagnostic): string {
  return [diagnostic.code, diagnostic.file, diagnostic.pointer, diagnostic.message].join('\0');
}

/** Group files, and names without an extension (directories, which may hold group files). */
/** Whether `path` names a group file (not a directory) rather than a directory of them. */
function isGroupFilePath(path: string): boolean {
  if (!path.endsWith('_tools.json')) return false;
  try {
    return !statSync(path).isDirectory();
  } catch {
    return true;
  }
}

function isRelevant(filename: string): boolean {
  const name = basename(filename);
  return name.endsWith('_tools.json') || !name.includes('.');
}
