import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readJsonLines, withFileLock } from '../../src/execute/file-store.js';
import { storeFile } from '../../src/execute/handler-kit.js';
import { loadBundledRegistry, outputOf, REPO_ROOT } from './bundled-registry.js';

const user = { user_id: 'u1' };
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Holds the lock of `path` in this process until the returned function is called. */
async function holdLock(path: string): Promise<() => Promise<void>> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let held!: () => void;
  const acquired = new Promise<void>((resolve) => {
    held = resolve;
  });
  const holding = withFileLock(path, async () => {
    held();
    await gate;
  });
  await acquired;
  return async () => {
    open();
    await holding;
  };
}

/** Waits until every call queued on `path` before now has finished (they queue in order). */
function drain(path: string): Promise<void> {
  return withFileLock(path, async () => {});
}

async function taskTitles(registry: Awaited<ReturnType<typeof loadBundledRegistry>>['registry']) {
  const listed = outputOf<{ tasks: { title: string }[] }>(
    await registry.execute('list_tasks', { status: 'all' }, user),
  );
  return listed.tasks.map((task) => task.title);
}

describe('a call that reported TIMEOUT or ABORTED never writes later', () => {
  it('add_task queued behind a held lock times out and is not written when the lock frees', async () => {
    const { registry, dataDir } = await loadBundledRegistry();
    const store = storeFile(dataDir, 'tasks', 'u1', '.json');
    outputOf(await registry.execute('add_task', { title: 'before' }, user));
    const release = await holdLock(store);
    const results = await Promise.all(
      ['late 1', 'late 2', 'late 3'].map((title) =>
        registry.execute('add_task', { title }, user, { timeoutMs: 50 }),
      ),
    );
    expect(results.map((result) => !result.ok && result.error.code)).toEqual([
      'TIMEOUT',
      'TIMEOUT',
      'TIMEOUT',
    ]);
    await release();
    await drain(store);
    expect(await taskTitles(registry)).toEqual(['before']);
    // and the store takes writes again
    outputOf(await registry.execute('add_task', { title: 'after' }, user));
    expect(await taskTitles(registry)).toEqual(['before', 'after']);
  });

  it('write_journal cancelled by the caller is not written when the lock frees', async () => {
    const { registry, dataDir } = await loadBundledRegistry();
    const store = storeFile(dataDir, 'journal', 'u1', '.jsonl');
    const release = await holdLock(store);
    const controller = new AbortController();
    const pending = registry.execute('write_journal', { text: 'never' }, user, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    await release();
    await drain(store);
    expect(await readJsonLines(store)).toEqual([]);
  });

  it('add_task waiting for another process’s lock times out and is not written after', async () => {
    const built = join(REPO_ROOT, 'dist', 'src', 'execute', 'file-store.js');
    if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first`);
    const { registry, dataDir } = await loadBundledRegistry();
    const store = storeFile(dataDir, 'tasks', 'u1', '.json');
    // the child holds the store's cross-process lock until its stdin closes
    const script = `
      const { withFileLock } = await import(${JSON.stringify(pathToFileURL(built).href)});
      await withFileLock(process.argv[1], async () => {
        process.stdout.write('held\\n');
        await new Promise((resolve) => process.stdin.on('end', resolve).resume());
      });
      process.stdout.write('released\\n');
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, store], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    const output: string[] = [];
    const saw = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (output.join('').includes(text)) resolve();
        };
        child.stdout?.on('data', (chunk: Buffer) => {
          output.push(chunk.toString('utf8'));
          check();
        });
        check();
      });
    await saw('held');
    const results = await Promise.all(
      ['late a', 'late b'].map((title) =>
        registry.execute('add_task', { title }, user, { timeoutMs: 300 }),
      ),
    );
    expect(results.map((result) => !result.ok && result.error.code)).toEqual([
      'TIMEOUT',
      'TIMEOUT',
    ]);
    child.stdin?.end();
    await saw('released');
    // give a wrongly surviving waiter time to take the lock and write
    await new Promise((resolve) => setTimeout(resolve, 300));
    await drain(store);
    expect(await taskTitles(registry)).toEqual([]);
    // nothing left behind: no lock directory, no staging or temporary files
    expect(await readdir(join(dataDir, 'tasks'))).toEqual([]);
  });
});
