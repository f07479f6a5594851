/**
 * The `files` executor: read and edit text files inside the `workspace_root` from the context
 * (`file_read`, `file_edit`). Every path is resolved inside the root, symlinks included, and the
 * file actually opened is checked again (a directory swapped for a symlink between the check
 * and the open is caught); edits are exact-match replacements written atomically (temporary
 * file + rename, mode preserved) through the checked directory.
 * @module
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ToolContext, ToolHandlerOptions } from '../src/entries/handler-kit.js';
import {
  requireContextString,
  ToolError,
  withFileLock,
  writeFileAtomic,
} from '../src/entries/handler-kit.js';

/** Lines returned by file_read when no limit is given. */
export const DEFAULT_READ_LIMIT = 2000;
/** Longer lines are cut in file_read output (the file is untouched). */
export const MAX_LINE_CHARACTERS = 2000;
/** Largest file file_read and file_edit accept. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

interface WorkspaceRoot {
  /** As given (resolved to absolute). */
  given: string;
  /** After symlinks. */
  real: string;
}

/** Reads a text file and returns its lines numbered like `cat -n`, from `offset` for `limit` lines. */
export async function file_read(
  input: Record<string, unknown>,
  context: ToolContext,
): Promise<{
  file_path: string;
  content: string;
  start_line: number;
  end_line: number;
  total_lines: number;
  truncated: boolean;
}> {
  const root = await workspaceRoot(context);
  const target = await resolveInWorkspace(root, String(input.file_path));
  const { text } = await readVerifiedText(root, target, String(input.file_path));
  const lines = splitLines(text);
  const offset = typeof input.offset === 'number' ? input.offset : 1;
  const limit = typeof input.limit === 'number' ? input.limit : DEFAULT_READ_LIMIT;
  if (lines.length > 0 && offset > lines.length) {
    throw new ToolError(
      'OFFSET_OUT_OF_RANGE',
      `offset ${offset} is past the end of ${target.display}, which has ${lines.length} lines.`,
      { offset, total_lines: lines.length },
    );
  }
  const selected = lines.slice(offset - 1, offset - 1 + limit);
  const content = selected
    .map((line, index) => {
      const shown =
        line.length > MAX_LINE_CHARACTERS
          ? `${line.slice(0, MAX_LINE_CHARACTERS)}… [line cut]`
          : line;
      return `${String(offset + index).padStart(6)}\t${shown}`;
    })
    .join('\n');
  const endLine = selected.length === 0 ? 0 : offset + selected.length - 1;
  return {
    file_path: target.display,
    content,
    start_line: selected.length === 0 ? 0 : offset,
    end_line: endLine,
    total_lines: lines.length,
    truncated: endLine < lines.length,
  };
}

/**
 * Replaces `old_string` with `new_string`: the match is exact; it fails when the
 * text is not found, or found more than once unless `replace_all` is true.
 */
export async function file_edit(
  input: Record<string, unknown>,
  context: ToolContext,
  options?: ToolHandlerOptions,
): Promise<{ file_path: string; replacements: number }> {
  const oldString = String(input.old_string);
  const newString = String(input.new_string);
  const replaceAll = input.replace_all === true;
  if (oldString === '') {
    throw new ToolError(
      'EMPTY_OLD_STRING',
      'old_string is empty; give the exact text to replace (read the file first).',
      {},
    );
  }
  if (oldString === newString) {
    throw new ToolError(
      'NO_CHANGE',
      'old_string and new_string are identical, so the edit would change nothing.',
      {},
    );
  }
  const filePath = String(input.file_path);
  const root = await workspaceRoot(context);
  const target = await resolveInWorkspace(root, filePath);
  // in-process serialization: two edits of one file never interleave their read and write
  return withFileLock(
    target.real,
    async () => {
      const directory = await openWorkspaceDirectory(root, target, filePath);
      try {
        const { text, mode } = await readVerifiedText(root, target, filePath, directory);
        const count = countOccurrences(text, oldString);
        if (count === 0) {
          throw new ToolError(
            'OLD_STRING_NOT_FOUND',
            `old_string was not found in ${target.display}. It must match the file exactly, including whitespace and indentation; read the file again and copy the text.`,
            { file_path: target.display },
          );
        }
        if (count > 1 && !replaceAll) {
          throw new ToolError(
            'OLD_STRING_NOT_UNIQUE',
            `old_string occurs ${count} times in ${target.display}. Include more surrounding text to make it unique, or set replace_all to true to replace every occurrence.`,
            { file_path: target.display, occurrences: count },
          );
        }
        const index = text.indexOf(oldString);
        const updated = replaceAll
          ? text.split(oldString).join(newString)
          : text.slice(0, index) + newString + text.slice(index + oldString.length);
        await writeFileAtomic(directory.entry(basename(target.real)), updated, {
          mode,
          // the directory may have been swapped since it was checked: check it again last
          beforeCommit: () => directory.verify(),
          ...(options?.signal !== undefined ? { signal: options.signal } : {}),
        });
        return { file_path: target.display, replacements: replaceAll ? count : 1 };
      } finally {
        await directory.close();
      }
    },
    {
      crossProcess: false,
      ...(options?.signal !== undefined ? { signal: options.signal } : {}),
    },
  );
}

async function workspaceRoot(context: ToolContext): Promise<WorkspaceRoot> {
  const given = resolve(requireContextString(context, 'workspace_root'));
  try {
    const real = await realpath(given);
    if ((await stat(real)).isDirectory()) return { given, real };
  } catch {
    // reported below
  }
  throw new ToolError(
    'WORKSPACE_NOT_FOUND',
    `The workspace root ${given} does not exist or is not a directory; this is a host setup problem.`,
    { workspace_root: given },
  );
}

interface ResolvedFile {
  real: string;
  display: string;
}

/**
 * Resolves `filePath` (absolute, or relative to the root) and checks that the file, after
 * resolving every symlink, lies inside the workspace root.
 */
async function resolveInWorkspace(root: WorkspaceRoot, filePath: string): Promise<ResolvedFile> {
  if (filePath.includes('\0')) {
    throw new ToolError('INVALID_PATH', 'file_path contains a NUL character.', {});
  }
  const lexical = resolve(root.given, filePath);
  if (!isInside(root.given, lexical) && !isInside(root.real, lexical)) {
    throw outside(filePath);
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    // a missing file: still refuse to say anything about paths outside the root
    if (!(await existingAncestorInside(root, lexical))) throw outside(filePath);
    throw new ToolError(
      'FILE_NOT_FOUND',
      `${relative(root.given, lexical) || filePath} does not exist in the workspace; check the path (relative paths start at the workspace root).`,
      { file_path: filePath },
    );
  }
  if (!isInside(root.real, real)) throw outside(filePath, true);
  // checked here for a clear message; the file actually opened is checked again later
  const info = await stat(real).catch(() => undefined);
  if (info !== undefined && !info.isFile()) {
    throw new ToolError('NOT_A_FILE', `${filePath} is not a regular file.`, {
      file_path: filePath,
    });
  }
  return { real, display: relative(root.real, real) };
}

async function existingAncestorInside(root: WorkspaceRoot, path: string): Promise<boolean> {
  let current = dirname(path);
  for (;;) {
    try {
      return isInside(root.real, await realpath(current));
    } catch {
      const parent = dirname(current);
      if (parent === current) return false;
      current = parent;
    }
  }
}

function outside(filePath: string, viaLink = false): ToolError {
  return new ToolError(
    'PATH_OUTSIDE_WORKSPACE',
    `${filePath} is outside the workspace root${viaLink ? ' (through a symbolic link)' : ''}; only files inside the workspace can be read or edited.`,
    { file_path: filePath },
  );
}

/**
 * Opens the resolved file and reads it, after checking that what was opened is inside the
 * root: the path was checked before the open, and a directory component swapped for a
 * symlink in between would otherwise hand out a file outside the workspace. With `directory`
 * (an edit), the file is opened through the checked directory instead (and checked all the
 * same: elsewhere than Linux that directory is only a path).
 */
async function readVerifiedText(
  root: WorkspaceRoot,
  target: ResolvedFile,
  filePath: string,
  directory?: WorkspaceDirectory,
): Promise<{ text: string; mode: number }> {
  let handle: FileHandle;
  try {
    const path = directory === undefined ? target.real : directory.entry(basename(target.real));
    // non-blocking: a FIFO swapped in must not hang the call; no-follow: nor may a symlink
    handle = await open(path, constants.O_RDONLY | NONBLOCK | NOFOLLOW);
  } catch (error) {
    if (isErrorCode(error, 'ELOOP')) throw outside(filePath, true);
    throw new ToolError(
      'FILE_NOT_FOUND',
      `${target.display} could not be opened (${errorCodeOf(error)}); it may have been moved or deleted, read the directory again.`,
      { file_path: filePath },
    );
  }
  try {
    const info = await handle.stat();
    await checkOpenedInside(root, handle, info, target, filePath);
    if (!info.isFile()) {
      throw new ToolError('NOT_A_FILE', `${filePath} is not a regular file.`, {
        file_path: filePath,
      });
    }
    if (info.size > MAX_FILE_BYTES) {
      throw new ToolError(
        'FILE_TOO_LARGE',
        `${target.display} is ${info.size} bytes, more than ${MAX_FILE_BYTES}; it cannot be read or edited whole.`,
        { file_path: target.display, bytes: info.size },
      );
    }
    const buffer = await handle.readFile();
    if (buffer.subarray(0, 8192).includes(0)) {
      throw new ToolError(
        'BINARY_FILE',
        `${target.display} looks like a binary file (it contains NUL bytes); only text files can be read or edited.`,
        { file_path: target.display },
      );
    }
    return { text: buffer.toString('utf8'), mode: info.mode & 0o7777 };
  } finally {
    await handle.close();
  }
}

/**
 * Where the descriptor's file really is: `/proc/self/fd/N` on Linux names the file that was
 * opened, whatever happened to the path since. Undefined where there is no such view.
 */
async function locateDescriptor(fd: number): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** Fails unless the opened file lies inside the root (see readVerifiedText). */
async function checkOpenedInside(
  root: WorkspaceRoot,
  handle: FileHandle,
  info: Stats,
  target: ResolvedFile,
  filePath: string,
): Promise<void> {
  const located = await locateDescriptor(handle.fd);
  if (located !== undefined) {
    if (!isInside(root.real, located)) throw outside(filePath, true);
    return;
  }
  // elsewhere: the path, resolved again now, must lead inside to the very file that was opened
  try {
    const again = await realpath(target.real);
    const current = await stat(again);
    if (isInside(root.real, again) && current.ino === info.ino && current.dev === info.dev) return;
  } catch {
    // moved or deleted: refused below
  }
  throw outside(filePath, true);
}

/** The directory of an edited file, held open and checked to be inside the root. */
interface WorkspaceDirectory {
  /** A path to `name` in the held directory (through `/proc/self/fd` on Linux). */
  entry(name: string): string;
  /** Fails unless the held directory is still inside the root (and, elsewhere, at its path). */
  verify(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the directory of `target` and checks it lies inside the root. On Linux every later
 * step (reading the file, writing the temporary file, the rename) goes through
 * `/proc/self/fd/N/<name>`, which names an entry of the opened directory whatever is swapped
 * in at its path, so nothing can be read or written outside. Elsewhere the path is used and
 * checked again just before the rename (a narrow window remains).
 */
async function openWorkspaceDirectory(
  root: WorkspaceRoot,
  target: ResolvedFile,
  filePath: string,
): Promise<WorkspaceDirectory> {
  const path = dirname(target.real);
  const handle = await open(path, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
  try {
    const info = await handle.stat();
    const located = await locateDescriptor(handle.fd);
    const verify = async () => {
      if (located !== undefined) {
        // the held directory itself: it must not have been moved out of the root since
        const now = await locateDescriptor(handle.fd);
        if (now === undefined || !isInside(root.real, now)) throw outside(filePath, true);
        return;
      }
      const again = await realpath(path).catch(() => '');
      const current = await stat(again).catch(() => undefined);
      if (
        !isInside(root.real, again) ||
        current === undefined ||
        current.ino !== info.ino ||
        current.dev !== info.dev
      ) {
        throw outside(filePath, true);
      }
    };
    await verify();
    return {
      entry: (name) =>
        located !== undefined ? `/proc/self/fd/${handle.fd}/${name}` : join(path, name),
      verify,
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function isErrorCode(error: unknown, code: string): boolean {
  return error !== null && typeof error === 'object' && 'code' in error && error.code === code;
}

function errorCodeOf(error: unknown): string {
  return error !== null && typeof error === 'object' && 'code' in error
    ? String(error.code)
    : 'unknown error';
}

/** Opening never blocks (a FIFO) and never follows a final symlink; no-ops where unsupported. */
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (
    let index = text.indexOf(search);
    index !== -1;
    index = text.indexOf(search, index + search.length)
  ) {
    count++;
  }
  return count;
}

function isInside(root: string, path: string): boolean {
  const relativePath = relative(root, path);
  return (
    relativePath === '' ||
    (relativePath !== '..' && !relativePath.startsWith(`..${sep}`) && !isAbsolute(relativePath))
  );
}
