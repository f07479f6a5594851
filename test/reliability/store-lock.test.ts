import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withFileLock } from '../../src/execute/file-store.js';
import { createTempDir } from '../helpers/temp-files.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs once, just before the lock code's next `unlink` of a path under `prefix`. */
const hook = vi.hoisted(() => ({
  prefix: '',
  beforeUnlink: undefined as (() => Promise<void>) | undefined,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...original,
    unlink: async (path: string) => {
      const run = hook.beforeUnlink;
      if (run !== undefined && hook.prefix !== '' && String(path).startsWith(hook.prefix)) {
        hook.beforeUnlink = undefined;
        await run();
      }
      return original.unlink(path);
    },
  };
});

afterEach(() => {
  hook.beforeUnlink = undefined;
});

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid ?? 999_999;
}

/** This host's tag in owner names, read from a lock this process takes. */
async function ownHostTag(file: string): Promise<string> {
  return withFileLock(file, async () => {
    const [owner] = await readdir(`${file}.lock`);
    return owner?.split('-')[1] ?? '';
  });
}

describe('breaking an abandoned lock never removes a newer one', () => {
  it('a lock taken between the stale judgement and the removal survives', async () => {
    const dir = createTempDir();
    const file = join(dir, 'store.json');
    const lockPath = `${file}.lock`;
    const host = await ownHostTag(file);
    const dead = `${deadPid()}-${host}-aaaaaa`;
    await mkdir(lockPath);
    await writeFile(join(lockPath, dead), '');
    // the moment the breaker has judged the dead owner and is about to remove it, the dead
    // lock goes away and a live process (our parent) takes a new one
    const live = `${process.ppid}-${host}-bbbbbb`;
    hook.prefix = lockPath;
    hook.beforeUnlink = async () => {
      await unlink(join(lockPath, dead));
      await rmdir(lockPath);
      const staging = join(dir, '.staging');
      await mkdir(staging);
      await writeFile(join(staging, live), '');
      await rename(staging, lockPath);
    };
    let ran = false;
    await expect(
      withFileLock(
        file,
        async () => {
          ran = true;
        },
        { waitMs: 200 },
      ),
    ).rejects.toMatchObject({ code: 'STORE_LOCKED' });
    expect(ran).toBe(false);
    expect(await readdir(lockPath)).toEqual([live]);
  });
});

describe('writer processes under CPU load (a small npm run stress)', () => {
  it('30 writers, 10 at a time, some SIGKILLed: no acknowledged write lost, never two inside', () => {
    const script = join(REPO_ROOT, 'scripts', 'stress.mjs');
    if (!existsSync(join(REPO_ROOT, 'dist', 'src', 'index.js'))) {
      throw new Error('dist/ is missing: run "npm run build" first');
    }
    const run = spawnSync(
      process.execPath,
      [
        script,
        '--only',
        'lock',
        '--writers',
        '30',
        '--concurrency',
        '10',
        '--rounds',
        '1',
        '--json',
      ],
      { encoding: 'utf8', timeout: 90_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const [lock] = JSON.parse(run.stdout) as { figures: Record<string, number> }[];
    expect(lock?.figures).toMatchObject({
      writers: 30,
      lost: 0,
      duplicated: 0,
      inconsistent: 0,
      overlaps: 0,
      failed: 0,
    });
    expect(lock?.figures.acknowledged).toBeGreaterThan(0);
  }, 120_000);
});
