import { createHash } from 'node:crypto';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { listGroupFiles as listDirectory } from '../load/list-group-files.js';
import { OPEN_NONBLOCKING } from '../load/read-group-file.js';

/**
 * Absolute paths of the group files under `dirs` (the files `loadRegistry` reads: directories
 * searched recursively, and group files named directly), sorted; a missing dir contributes none.
 */
export async function listGroupFiles(dirs: readonly string[], cwd: string): Promise<string[]> {
  const files = new Set<string>();
  for (const dir of dirs) {
    const absolute = resolve(cwd, dir);
    try {
      const info = await stat(absolute);
      if (!info.isDirectory()) {
        // a group file named directly, as the loader takes it
        if (info.isFile() && absolute.endsWith('_tools.json')) files.add(absolute);
        continue;
      }
    } catch {
      // a group file named directly that is missing now still counts: its return is a change
      if (absolute.endsWith('_tools.json')) files.add(absolute);
      continue;
    }
    try {
      for (const file of await listDirectory(absolute)) files.add(file);
    } catch {
      // unreadable right now: the loader reports it; the next change or poll tries again
    }
  }
  return [...files].sort();
}

/**
 * A hash of the names and contents of every group file under `dirs`. Equal before and after a
 * load means the load read one stable state of the files (file times are too coarse: two
 * writes in the same clock tick keep the same mtime).
 */
export async function hashGroupFiles(dirs: readonly string[], cwd: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await listGroupFiles(dirs, cwd)) {
    hash
      .update(file)
      .update('\0')
      .update(await readGroupFileBytes(file))
      .update('\0');
  }
  return hash.digest('hex');
}

/**
 * The bytes of one group file, or a marker when it is missing or not a regular file. Opened
 * non-blocking and checked on the descriptor, as the loader does: reading a FIFO swapped in
 * after listing would wait forever for a writer (and hold a thread of the pool).
 */
async function readGroupFileBytes(file: string): Promise<Uint8Array | string> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, OPEN_NONBLOCKING);
    if (!(await handle.stat()).isFile()) return '\0not a regular file';
    return await handle.readFile();
  } catch {
    return '\0missing';
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** A cheap fingerprint (names, sizes, modification times) for polling. */
export async function statGroupFiles(dirs: readonly string[], cwd: string): Promise<string> {
  const parts: string[] = [];
  for (const file of await listGroupFiles(dirs, cwd)) {
    try {
      const info = await stat(file);
      parts.push(`${file}\0${info.size}\0${info.mtimeMs}\0${info.ino}`);
    } catch {
      parts.push(`${file}\0missing`);
    }
  }
  return parts.join('\n');
}
