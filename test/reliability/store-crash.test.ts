import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readJsonFile, updateJsonFile, writeFileAtomic } from '../../src/execute/file-store.js';
import { createTempDir } from '../helpers/temp-files.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * When set, the next commit (the `renameSync` of the temporary file over the store) "crashes":
 * the process would stop between write and rename.
 */
const crash = vi.hoisted(() => ({ beforeRename: false }));

vi.mock('node:fs', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs')>();
  return {
    ...original,
    renameSync: (from: string, to: string) => {
      if (crash.beforeRename) {
        crash.beforeRename = false;
        throw Object.assign(new Error('simulated crash'), { code: 'ECRASH' });
      }
      original.renameSync(from, to);
    },
  };
});

afterEach(() => {
  crash.beforeRename = false;
});

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid ?? 999_999;
}

describe('handler stores survive a crash', () => {
  it('a write stopped between the temporary file and the rename leaves the old content whole', async () => {
    const dir = createTempDir();
    const file = join(dir, 'tasks.json');
    const before = { tasks: Array.from({ length: 500 }, (_, id) => ({ id, title: `task ${id}` })) };
    await writeFileAtomic(file, `${JSON.stringify(before)}\n`);

    crash.beforeRename = true;
    await expect(
      writeFileAtomic(file, `${JSON.stringify({ tasks: [], note: 'x'.repeat(100_000) })}\n`),
    ).rejects.toThrow('simulated crash');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(before);
    // the temporary file is removed on the way out (a real crash may leave one; it is ignored)
    expect(await readdir(dir)).toEqual(['tasks.json']);

    crash.beforeRename = true;
    await expect(
      updateJsonFile(
        file,
        () => ({ tasks: [] as unknown[] }),
        (current) => ({ value: { tasks: [...current.tasks, { id: 'new' }] }, result: undefined }),
      ),
    ).rejects.toThrow('simulated crash');
    expect(await readJsonFile(file, () => null)).toEqual(before);
    // and the lock was released: the next update goes through
    await updateJsonFile(
      file,
      () => ({ tasks: [] as unknown[] }),
      (current) => ({ value: { tasks: [...current.tasks, { id: 'next' }] }, result: undefined }),
    );
    expect((await readJsonFile(file, () => ({ tasks: [] as unknown[] }))).tasks).toHaveLength(501);
  });

  it('a leftover temporary file from a crashed process does not disturb reads or writes', async () => {
    const dir = createTempDir();
    const file = join(dir, 'journal.json');
    await writeFile(file, '{"n": 1}\n');
    await writeFile(join(dir, '.journal.json.99999.abcdef.tmp'), '{"n": 2, "trunc');
    expect(await readJsonFile(file, () => null)).toEqual({ n: 1 });
    await updateJsonFile(
      file,
      () => ({ n: 0 }),
      (current: { n: number }) => ({ value: { n: current.n + 1 }, result: undefined }),
    );
    expect(await readJsonFile(file, () => null)).toEqual({ n: 2 });
  });

  it('SIGKILL at random moments during 10 rounds of writes never leaves partial JSON', async () => {
    // a real crash needs a real process: the child runs the built store (npm run build)
    const built = join(REPO_ROOT, 'dist', 'src', 'execute', 'file-store.js');
    if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first`);
    const dir = createTempDir();
    const file = join(dir, 'counter.json');
    const script = `
      const { updateJsonFile } = await import(${JSON.stringify(pathToFileURL(built).href)});
      const padding = 'x'.repeat(200000);
      process.stdout.write('ready\\n');
      for (;;) {
        await updateJsonFile(${JSON.stringify(file)}, () => ({ n: 0 }), (current) => ({
          value: { n: current.n + 1, padding },
          result: undefined,
        }));
      }
    `;
    let last = 0;
    for (let round = 0; round < 10; round++) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 60));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      // whatever the moment of death: the store is whole, and no update went backwards
      const value = (await readJsonFile(file, () => ({ n: 0, padding: '' }))) as {
        n: number;
        padding: string;
      };
      expect(value.n).toBeGreaterThanOrEqual(last);
      expect(value.padding.length === 0 || value.padding.length === 200_000).toBe(true);
      last = value.n;
    }
    expect(last).toBeGreaterThan(0);
    // what the killed writers left (temporary files, lock staging directories) counts as stale
    // once older than 10 s: age it instead of waiting
    const old = new Date(Date.now() - 60_000);
    for (const entry of await readdir(dir)) {
      if (entry.endsWith('.tmp')) await utimes(join(dir, entry), old, old);
    }
    // the dead writer's lock is broken, so this process can still write, and it cleans up
    await updateJsonFile(
      file,
      () => ({ n: 0 }),
      (current: { n: number }) => ({ value: { n: current.n + 1 }, result: undefined }),
    );
    expect((await readJsonFile(file, () => ({ n: -1 }))).n).toBe(last + 1);
    expect(await readdir(dir)).toEqual(['counter.json']);
  });

  it('the next write removes temporaries of dead writers, and only those', async () => {
    const dir = createTempDir();
    const file = join(dir, 'notes.json');
    const dead = deadPid();
    const old = new Date(Date.now() - 60_000);
    const leftovers = {
      deadOld: `.notes.json.${dead}.a1b2c3.tmp`,
      deadOldStaging: `.notes.json.${dead}.lock-${dead}-00000000-abc.tmp`,
      deadFresh: `.notes.json.${dead}.d4e5f6.tmp`,
      liveOld: `.notes.json.${process.ppid}.a7b8c9.tmp`,
      otherTarget: `.notes.json.bak.${dead}.a1b2c3.tmp`,
      notOurs: 'notes.json.tmp',
    };
    for (const [kind, name] of Object.entries(leftovers)) {
      if (kind === 'deadOldStaging') {
        await mkdir(join(dir, name));
        await writeFile(join(dir, name, `${dead}-00000000-abc`), '');
      } else await writeFile(join(dir, name), 'partial');
      if (kind !== 'deadFresh') await utimes(join(dir, name), old, old);
    }
    await writeFileAtomic(file, '{}\n');
    expect((await readdir(dir)).sort()).toEqual(
      [
        'notes.json',
        leftovers.deadFresh,
        leftovers.liveOld,
        leftovers.otherTarget,
        leftovers.notOurs,
      ].sort(),
    );
  });
});
