import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../src/format/limits.js';
import { readGroupFileText } from '../../src/load/read-group-file.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { hashGroupFiles } from '../../src/watch/fingerprint-group-files.js';
import { runCli } from '../helpers/run-cli.js';
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

describe('entries of a schema directory that are not loaded', () => {
  it('are each an ENTRY_SKIPPED warning naming the entry, why, and what to do', async () => {
    const dir = createTempDir({
      'schemas/calendar_tools.json': makeGroup('calendar'),
      'shared/billing_tools.json': makeGroup('billing'),
      'shared/more/notes_tools.json': makeGroup('notes'),
      'schemas/folder_tools.json/readme.txt': 'not a group',
    });
    symlinkSync('../shared/billing_tools.json', join(dir, 'schemas/billing_tools.json'));
    symlinkSync('../shared/more', join(dir, 'schemas/more'));
    symlinkSync('../shared/gone_tools.json', join(dir, 'schemas/gone_tools.json'));
    // a link to a file not named like a group file is none of the loader's business
    symlinkSync('../shared/billing_tools.json', join(dir, 'schemas/notes.txt'));
    makeFifo(join(dir, 'schemas/piped_tools.json'));
    const registry = await loadRegistry({ cwd: dir });
    expect(registry.groups().map((group) => group.group)).toEqual(['calendar']);
    const notFollowed =
      'and symbolic links in a schema directory are not followed (a link could load files from anywhere)';
    expect(registry.diagnostics).toEqual(
      [
        [
          'schemas/billing_tools.json',
          `schemas/billing_tools.json is a symbolic link to shared/billing_tools.json, ${notFollowed}; copy the file here, or load it as a schema path of its own (--schemas shared/billing_tools.json)`,
        ],
        [
          'schemas/folder_tools.json',
          'schemas/folder_tools.json is named like a group file but is not a regular file (it is a directory), so it is not loaded; a group file must be a plain JSON file: rename the directory (the group files inside it are loaded)',
        ],
        [
          'schemas/gone_tools.json',
          `schemas/gone_tools.json is a symbolic link to shared/gone_tools.json, which does not exist, ${notFollowed}; remove the link, or copy the group file here`,
        ],
        [
          'schemas/more',
          `schemas/more is a symbolic link to the directory shared/more, ${notFollowed}, so no group file under it is loaded; move the files here, or load the directory as a schema path of its own (--schemas shared/more)`,
        ],
        [
          'schemas/piped_tools.json',
          'schemas/piped_tools.json is named like a group file but is not a regular file (it is a FIFO (named pipe)), so it is not loaded; a group file must be a plain JSON file',
        ],
      ].map(([file, message]) => ({
        severity: 'warning',
        code: 'ENTRY_SKIPPED',
        file,
        pointer: '',
        message,
      })),
    );
    // the advice works: the link's target, given directly, loads
    const direct = await loadRegistry({ cwd: dir, dirs: ['schemas', 'shared/more'] });
    expect(direct.groups().map((group) => group.group)).toEqual(['calendar', 'notes']);
  });

  it('a FIFO given directly as a schema path is FILE_UNREADABLE, not a misnamed path', async () => {
    const dir = createTempDir();
    mkdirSync(join(dir, 't_fifo'));
    makeFifo(join(dir, 't_fifo/fifo_tools.json'));
    makeFifo(join(dir, 't_fifo/pipe'));
    const named = await runCli(['validate', '--schemas', 't_fifo/fifo_tools.json'], { cwd: dir });
    expect(named.code).toBe(1);
    expect(named.stdout.split('\n')[0]).toBe(
      't_fifo/fifo_tools.json: error FILE_UNREADABLE the path is not a regular file (it is a FIFO (named pipe)); a group file must be a plain JSON file',
    );
    const other = await loadRegistry({ cwd: dir, dirs: ['t_fifo/pipe'] });
    expect(other.diagnostics.map(({ code, message }) => [code, message])).toEqual([
      [
        'SCHEMAS_DIR_NOT_FOUND',
        't_fifo/pipe is not a regular file (it is a FIFO (named pipe)), not a directory of group files, and its name does not end in _tools.json; give the directory that holds the group files, or a file named <group>_tools.json',
      ],
    ]);
  });

  it('validate fails when nothing was read, even at a directory named like a group file', async () => {
    const dir = createTempDir({ 'shared/billing_tools.json': makeGroup('billing') });
    mkdirSync(join(dir, 'e3/x_tools.json'), { recursive: true });
    mkdirSync(join(dir, 'linked'));
    symlinkSync('../shared/billing_tools.json', join(dir, 'linked/billing_tools.json'));
    for (const path of ['e3/x_tools.json', 'e3', 'linked']) {
      const result = await runCli(['validate', '--schemas', path], { cwd: dir });
      expect(result.code, path).toBe(1);
      expect(result.stderr, path).toBe(
        'toolcap: no group file was found, so nothing was checked; group files are named <group>_tools.json (--schemas PATH; default ./schemas)\n',
      );
    }
  });
});
