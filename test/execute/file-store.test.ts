import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
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
