import { readlink, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import fastGlob from 'fast-glob';
import type { Diagnostic } from '../format/types.js';
import { isNearGroupFileName } from './check-misnamed-group-file.js';
import { describeFileType } from './read-group-file.js';

/** The glob every schema directory is searched with. */
export const GROUP_FILE_GLOB = '**/*_tools.json';

/** How schema directories are walked: no dot entries, symbolic links neither followed nor returned. */
const GLOB_OPTIONS = {
  absolute: true,
  onlyFiles: true,
  dot: false,
  followSymbolicLinks: false,
  suppressErrors: true,
} as const;

/**
 * Absolute paths of the group files (`*_tools.json`) under `directory` and its subdirectories,
 * sorted by code unit so loading order (and catalog order) is deterministic. Dot entries are
 * skipped and symbolic links are neither followed nor returned.
 */
export async function listGroupFiles(directory: string): Promise<string[]> {
  const files = await fastGlob(GROUP_FILE_GLOB, { ...GLOB_OPTIONS, cwd: directory });
  return files.sort(compareCodeUnits);
}

/** An entry of a schema directory the loader does not read, and why. */
export interface SkippedEntry {
  /** Absolute path of the entry. */
  path: string;
  /**
   * `link`: a symbolic link named `*_tools.json` (`target` is where it points, absolute;
   * `dangling` when nothing is there); `linked-directory`: a symbolic link to a directory;
   * `not-regular`: an entry named `*_tools.json` that is a directory, a FIFO, a socket or a device.
   */
  reason: 'link' | 'linked-directory' | 'not-regular';
  target?: string;
  dangling?: boolean;
  /** For `not-regular`: what the entry is ("a directory", "a FIFO (named pipe)"). */
  type?: string;
}

/** The JSON files of a schema directory: its group files, and other names close to them. */
export interface SchemaDirectoryListing {
  /** `*_tools.json` files, as `listGroupFiles` returns them. */
  groupFiles: string[];
  /** Other `.json` files (any case) whose names are close to `<group>_tools.json`, sorted. */
  nearMisses: string[];
  /** Every other `.json` file (any case), sorted. */
  otherJson: string[];
  /**
   * Entries named `*_tools.json` that are not regular files, and symbolic links to directories:
   * none is read (links are never followed), and each deserves a word. Sorted.
   */
  skipped: SkippedEntry[];
}

/**
 * `listGroupFiles`, plus the `.json` files (any case) whose names are close to
 * `<group>_tools.json` (`isNearGroupFileName`) and the entries the loader skips, in one walk of
 * the directory, by the same rules (sorted, no dot entries, symbolic links not followed).
 */
export async function listSchemaDirectory(directory: string): Promise<SchemaDirectoryListing> {
  // every entry, not only files: a link or a FIFO named like a group file must not vanish unseen
  const entries = await fastGlob('**', {
    ...GLOB_OPTIONS,
    onlyFiles: false,
    objectMode: true,
    cwd: directory,
  });
  const groupFiles: string[] = [];
  const nearMisses: string[] = [];
  const otherJson: string[] = [];
  const skipped: SkippedEntry[] = [];
  for (const { name, path, dirent } of entries.sort((a, b) => compareCodeUnits(a.path, b.path))) {
    if (dirent.isFile()) {
      if (GROUP_FILE_NAME.test(name)) groupFiles.push(path);
      else if (!JSON_FILE_NAME.test(name)) continue;
      else if (isNearGroupFileName(name)) nearMisses.push(path);
      else otherJson.push(path);
    } else if (dirent.isSymbolicLink()) {
      const entry = await describeLink(path, GROUP_FILE_NAME.test(name));
      if (entry !== undefined) skipped.push(entry);
    } else if (GROUP_FILE_NAME.test(name)) {
      skipped.push({ path, reason: 'not-regular', type: describeFileType(dirent) });
    }
  }
  return { groupFiles, nearMisses, otherJson, skipped };
}

/**
 * A symbolic link as a skipped entry: always when it is named like a group file, else only
 * when it points to a directory (a link to another file is none of the loader's business).
 */
async function describeLink(
  path: string,
  groupFileName: boolean,
): Promise<SkippedEntry | undefined> {
  const target = await readlink(path).then(
    (link) => resolve(dirname(path), link),
    () => undefined,
  );
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory() === true) {
    return { path, reason: 'linked-directory', ...(target !== undefined ? { target } : {}) };
  }
  if (!groupFileName) return undefined;
  return {
    path,
    reason: 'link',
    ...(target !== undefined ? { target } : {}),
    ...(info === undefined ? { dangling: true } : {}),
  };
}

/**
 * The `ENTRY_SKIPPED` warning of an entry the loader does not read: what it is, why it is not
 * read, and what to do instead. `display` shows a path as messages do.
 */
export function describeSkippedEntry(
  entry: SkippedEntry,
  display: (file: string) => string,
): Diagnostic {
  const shown = display(entry.path);
  const target = entry.target === undefined ? undefined : display(entry.target);
  const notFollowed =
    'and symbolic links in a schema directory are not followed (a link could load files from anywhere)';
  let message: string;
  if (entry.reason === 'linked-directory') {
    message = `${shown} is a symbolic link to the directory ${target ?? '(unknown)'}, ${notFollowed}, so no group file under it is loaded; move the files here, or load the directory as a schema path of its own (--schemas ${target ?? 'DIR'})`;
  } else if (entry.reason === 'link') {
    message =
      entry.dangling === true
        ? `${shown} is a symbolic link to ${target ?? 'a missing file'}, which does not exist, ${notFollowed}; remove the link, or copy the group file here`
        : `${shown} is a symbolic link to ${target ?? 'another file'}, ${notFollowed}; copy the file here, or load it as a schema path of its own (--schemas ${target ?? 'FILE'})`;
  } else {
    message = `${shown} is named like a group file but is not a regular file (it is ${entry.type ?? 'a special file'}), so it is not loaded; a group file must be a plain JSON file${entry.type === 'a directory' ? ': rename the directory (the group files inside it are loaded)' : ''}`;
  }
  return { severity: 'warning', code: 'ENTRY_SKIPPED', file: shown, pointer: '', message };
}

/** A `.json` name, any case. */
const JSON_FILE_NAME = /\.json$/i;

/** A group file's name, case included (fast-glob's own test of GROUP_FILE_GLOB). */
const GROUP_FILE_NAME = /_tools\.json$/;

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
