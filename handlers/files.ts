/**
 * The `files` executor: read and edit text files inside the `workspace_root` from the context
 * (seed 000 `file_edit`). Every path is resolved inside the root, symlinks included; edits are
 * exact-match replacements written atomically (temporary file + rename, mode preserved).
 * @module
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { withFileLock, writeFileAtomic } from '../src/execute/file-store.js';
import { requireContextString } from '../src/execute/handler-kit.js';
import { ToolError } from '../src/execute/tool-error.js';
import type { ToolContext } from '../src/execute/types.js';

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
  const text = await readTextFile(target);
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
 * Replaces `old_string` with `new_string` (seed 000): the match is exact; it fails when the
 * text is not found, or found more than once unless `replace_all` is true.
 */
export async function file_edit(
  input: Record<string, unknown>,
  context: ToolContext,
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
  const root = await workspaceRoot(context);
  const target = await resolveInWorkspace(root, String(input.file_path));
  // in-process serialization: two edits of one file never interleave their read and write
  return withFileLock(
    target.real,
    async () => {
      const text = await readTextFile(target);
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
      await writeFileAtomic(target.real, updated, { mode: target.mode });
      return { file_path: target.display, replacements: replaceAll ? count : 1 };
    },
    { crossProcess: false },
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
  mode: number;
  size: number;
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
  const info = await stat(real);
  if (!info.isFile()) {
    throw new ToolError('NOT_A_FILE', `${filePath} is not a regular file.`, {
      file_path: filePath,
    });
  }
  return {
    real,
    display: relative(root.real, real),
    mode: info.mode & 0o7777,
    size: info.size,
  };
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

async function readTextFile(target: ResolvedFile): Promise<string> {
  if (target.size > MAX_FILE_BYTES) {
    throw new ToolError(
      'FILE_TOO_LARGE',
      `${target.display} is ${target.size} bytes, more than ${MAX_FILE_BYTES}; it cannot be read or edited whole.`,
      { file_path: target.display, bytes: target.size },
    );
  }
  const buffer = await readFile(target.real);
  if (buffer.subarray(0, 8192).includes(0)) {
    throw new ToolError(
      'BINARY_FILE',
      `${target.display} looks like a binary file (it contains NUL bytes); only text files can be read or edited.`,
      { file_path: target.display },
    );
  }
  return buffer.toString('utf8');
}

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
