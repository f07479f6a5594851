import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  appendJsonLines,
  readJsonFile,
  readJsonLines,
  updateJsonFile,
  withFileLock,
  writeFileAtomic,
} from '../../src/execute/file-store.js';
import { makeTempDir } from './testing-registry.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** This host's tag in owner names, read from a lock this process takes. */
async function ownHostTag(file: string): Promise<string> {
  return withFileLock(file, async () => {
    const [owner] = await readdir(`${file}.lock`);
    return owner?.split('-')[1] ?? '';
  });
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid ?? 999_999;
}

describe('writeFileAtomic', () => {
  it('creates parent directories and leaves no temporary file', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'a', 'b', 'store.json');
    await writeFileAtomic(file, '{"v": 1}\n');
    await writeFileAtomic(file, '{"v": 2}\n');
    expect(await readFile(file, 'utf8')).toBe('{"v": 2}\n');
    expect(await readdir(join(dir, 'a', 'b'))).toEqual(['store.json']);
  });

  it('removes its temporary file when the rename fails', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'taken'));
    await writeFile(join(dir, 'taken', 'child'), 'x');
    await expect(writeFileAtomic(join(dir, 'taken'), 'data')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['taken']);
  });
});

describe('writeFileAtomic: last checks before the commit', () => {
  it('leaves the file whole when beforeCommit rejects or the signal has aborted', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'store.json');
    await writeFileAtomic(file, 'old\n');
    await expect(
      writeFileAtomic(file, 'new\n', {
        beforeCommit: async () => {
          throw new Error('directory moved');
        },
      }),
    ).rejects.toThrow('directory moved');
    const controller = new AbortController();
    await expect(
      writeFileAtomic(file, 'new\n', {
        beforeCommit: async () => controller.abort(new Error('timed out')),
        signal: controller.signal,
      }),
    ).rejects.toThrow('timed out');
    expect(await readFile(file, 'utf8')).toBe('old\n');
    expect(await readdir(dir)).toEqual(['store.json']);
  });
});

describe('JSON stores', () => {
  it('reads a missing file as the initial value and rethrows other errors', async () => {
    const dir = await makeTempDir();
    expect(await readJsonFile(join(dir, 'none.json'), () => ({ empty: true }))).toEqual({
      empty: true,
    });
    await expect(readJsonFile(dir, () => null)).rejects.toMatchObject({ code: 'EISDIR' });
    expect(await readJsonLines(join(dir, 'none.jsonl'))).toEqual([]);
    await expect(readJsonLines(dir)).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(appendJsonLines(join(dir, 'sub'), [1])).resolves.toBeUndefined();
  });

  it('appends after a last line without a newline', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'log.jsonl');
    await writeFile(file, '{"n":1}');
    await appendJsonLines(file, [{ n: 2 }, { n: 3 }]);
    expect(await readJsonLines(file)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('does not write when update returns no value', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'counter.json');
    const result = await updateJsonFile(
      file,
      () => ({ n: 0 }),
      (current) => ({ result: current.n }),
    );
    expect(result).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('loses no update among 200 concurrent read-modify-writes', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'counter.json');
    await Promise.all(
      Array.from({ length: 200 }, () =>
        updateJsonFile(
          file,
          () => ({ n: 0 }),
          (current) => ({
            value: { n: current.n + 1 },
            result: undefined,
          }),
        ),
      ),
    );
    expect(await readJsonFile(file, () => ({ n: -1 }))).toEqual({ n: 200 });
    expect(await readdir(dir)).toEqual(['counter.json']);
  });
});

describe('withFileLock', () => {
  it('runs tasks on one file one at a time, in order, even when one fails', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    const order: string[] = [];
    const task = (name: string, fail = false) =>
      withFileLock(file, async () => {
        order.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([task('a'), task('b', true), task('c')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('breaks a lock left by a dead process', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    await writeFile(`${file}.lock`, `${deadPid()}\n`);
    expect(await withFileLock(file, async () => 'ran')).toBe('ran');
  });

  it('breaks a lock older than staleMs, even of a live process', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    await writeFile(`${file}.lock`, `${process.ppid}\n`);
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    expect(await withFileLock(file, async () => 'ran', { staleMs: 30_000 })).toBe('ran');
  });

  it('gives up with STORE_LOCKED while a live process holds the lock', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    for (const content of [`${process.ppid}\n`, `${process.pid}\n`, '']) {
      await writeFile(`${file}.lock`, content);
      await expect(withFileLock(file, async () => 'ran', { waitMs: 50 })).rejects.toMatchObject({
        code: 'STORE_LOCKED',
      });
    }
  });

  it('skips the lock file when crossProcess is false', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    await writeFile(`${file}.lock`, `${process.ppid}\n`);
    expect(await withFileLock(file, async () => 'ran', { crossProcess: false, waitMs: 10 })).toBe(
      'ran',
    );
  });

  it('breaks a lock directory whose owner process is gone, or empty', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    // an owner file names the owner's pid and host; this host's tag is in our own lock's name
    const host = await ownHostTag(file);
    await mkdir(`${file}.lock`);
    await writeFile(join(`${file}.lock`, `${deadPid()}-${host}-abcdef`), '');
    expect(await withFileLock(file, async () => 'ran')).toBe('ran');
    await mkdir(`${file}.lock`);
    expect(await withFileLock(file, async () => 'ran on empty')).toBe('ran on empty');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('waits for a live owner or a fresh foreign one, and breaks one without heartbeat', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    const host = await ownHostTag(file);
    const owners = [`${process.ppid}-${host}-abcdef`, `${deadPid()}-0badc0de-abcdef`, 'unknown'];
    for (const owner of owners) {
      await mkdir(`${file}.lock`);
      await writeFile(join(`${file}.lock`, owner), '');
      await expect(withFileLock(file, async () => 'ran', { waitMs: 50 })).rejects.toMatchObject({
        code: 'STORE_LOCKED',
        message: expect.stringContaining('delete the lock directory'),
      });
      const old = new Date(Date.now() - 60_000);
      await utimes(join(`${file}.lock`, owner), old, old);
      expect(await withFileLock(file, async () => 'ran', { staleMs: 30_000 })).toBe('ran');
    }
  });

  it('keeps a held lock fresh while its task runs', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    await withFileLock(
      file,
      async () => {
        const [owner] = await readdir(`${file}.lock`);
        const ownerFile = join(`${file}.lock`, owner ?? '');
        const old = new Date(Date.now() - 60_000);
        await utimes(ownerFile, old, old);
        await new Promise((resolve) => setTimeout(resolve, 120));
        expect(Date.now() - (await stat(ownerFile)).mtimeMs).toBeLessThan(30_000);
      },
      { staleMs: 60 },
    );
  });

  it('stops waiting when the signal aborts, before or during the wait, and runs nothing', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    await writeFile(`${file}.lock`, `${process.ppid}\n`);
    let ran = false;
    const task = async () => {
      ran = true;
    };
    await expect(
      withFileLock(file, task, { signal: AbortSignal.abort(new Error('early')) }),
    ).rejects.toThrow('early');
    const controller = new AbortController();
    const waiting = withFileLock(file, task, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('late')), 30);
    await expect(waiting).rejects.toThrow('late');
    expect(ran).toBe(false);
    // the waiter's staging directory is gone too
    expect((await readdir(dir)).sort()).toEqual(['x.json.lock']);
  });

  it('a call that gives up in the queue lets the calls behind it run in order', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'x.json');
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const first = withFileLock(file, async () => {
      order.push('first');
      await gate;
    });
    const controller = new AbortController();
    const cancelled = withFileLock(
      file,
      async () => {
        order.push('cancelled');
      },
      { signal: controller.signal },
    );
    const third = withFileLock(file, async () => {
      order.push('third');
    });
    controller.abort(new Error('gone'));
    await expect(cancelled).rejects.toThrow('gone');
    open();
    await Promise.all([first, third]);
    expect(order).toEqual(['first', 'third']);
  });

  it('keeps two processes appending to one file from losing lines', async () => {
    const built = join(REPO_ROOT, 'dist', 'src', 'execute', 'file-store.js');
    if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first`);
    const dir = await makeTempDir();
    const file = join(dir, 'shared.jsonl');
    const script = `
      const { appendJsonLines } = await import(${JSON.stringify(pathToFileURL(built).href)});
      const tag = process.argv[1];
      await Promise.all(Array.from({ length: 60 }, (_, i) => appendJsonLines(${JSON.stringify(file)}, [{ tag, i }])));
    `;
    const runOne = (tag: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, tag], {
          stdio: 'inherit',
        });
        child.on('close', resolve);
      });
    expect(await Promise.all([runOne('a'), runOne('b')])).toEqual([0, 0]);
    const records = (await readJsonLines(file)) as { tag: string }[];
    expect(records).toHaveLength(120);
    expect(records.filter((record) => record.tag === 'a')).toHaveLength(60);
  });
});
