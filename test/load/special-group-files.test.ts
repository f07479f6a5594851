import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../src/format/limits.js';
import { readGroupFileText } from '../../src/load/read-group-file.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { hashGroupFiles } from '../../src/watch/fingerprint-group-files.js';
import { createTempDir, makeGroup } from '../helpers/temp-files.js';

/** Paths the listing returns in addition to what it finds: a file swapped after listing. */
const swapped = vi.hoisted(() => ({ extra: [] as string[] }));

vi.mock('../../src/load/list-group-files.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/load/list-group-files.js')>();
  return {
    ...original,
    listGroupFiles: async (directory: string) =>
      [...(await original.listGroupFiles(directory)), ...swapped.extra].sort(),
    listSchemaDirectory: async (directory: string) => {
      const listing = await original.listSchemaDirectory(directory);
      return { ...listing, groupFiles: [...listing.groupFiles, ...swapped.extra].sort() };
    },
  };
});

const watchdogs: ChildProcess[] = [];

afterEach(() => {
  swapped.extra = [];
  for (const child of watchdogs.splice(0)) child.kill('SIGKILL');
});

/**
 * A FIFO at `path`, plus a watchdog process that writes to it after 3 s: a reader stuck in a
 * blocking open (the bug) is released, so the test fails instead of hanging. Killed after the
 * test by its pid.
 */
function makeFifo(path: string): void {
  execFileSync('mkfifo', [path]);
  const watchdog = spawn(
    process.execPath,
    ['-e', 'setTimeout(() => require("fs").writeFileSync(process.argv[1], "{}"), 3000)', path],
    { stdio: 'ignore' },
  );
  watchdogs.push(watchdog);
}

describe('group files that are not regular files', () => {
  it('readGroupFileText refuses a FIFO without waiting for a writer', () => {
    const dir = createTempDir();
    const fifo = join(dir, 'piped_tools.json');
    makeFifo(fifo);
    expect(readGroupFileText(fifo, DEFAULT_LOAD_LIMITS, 'piped_tools.json')).toEqual({
      diagnostic: {
        severity: 'error',
        code: 'FILE_UNREADABLE',
        file: 'piped_tools.json',
        pointer: '',
        message:
          'the path is not a regular file (it is a FIFO (named pipe)); a group file must be a plain JSON file',
      },
    });
  });

  it('refuses a directory with the same diagnostic', () => {
    const dir = createTempDir({ 'folder_tools.json/inner.txt': 'x' });
    expect(
      readGroupFileText(join(dir, 'folder_tools.json'), DEFAULT_LOAD_LIMITS, 'folder_tools.json'),
    ).toMatchObject({
      diagnostic: { code: 'FILE_UNREADABLE', message: expect.stringContaining('a directory') },
    });
  });

  it('loadRegistry reports a group file swapped for a FIFO after listing and loads the rest', async () => {
    const dir = createTempDir({ 'calendar_tools.json': makeGroup('calendar') });
    const fifo = join(dir, 'piped_tools.json');
    makeFifo(fifo);
    swapped.extra = [fifo];
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    expect(registry.groups().map((group) => group.group)).toEqual(['calendar']);
    expect(registry.diagnostics).toEqual([
      expect.objectContaining({
        code: 'FILE_UNREADABLE',
        file: 'piped_tools.json',
        message: expect.stringContaining('not a regular file'),
      }),
    ]);
  });

  it('watch-mode hashing skips a FIFO instead of reading it', async () => {
    const dir = createTempDir({ 'calendar_tools.json': makeGroup('calendar') });
    const before = await hashGroupFiles([dir], dir);
    const fifo = join(dir, 'piped_tools.json');
    makeFifo(fifo);
    swapped.extra = [fifo];
    const withFifo = await hashGroupFiles([dir], dir);
    expect(withFifo).not.toBe(before);
    // stable: the FIFO is never read, so nothing is consumed from it
    expect(await hashGroupFiles([dir], dir)).toBe(withFifo);
  });
});
