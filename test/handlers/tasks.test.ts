import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundledRegistry, outputOf } from './bundled-registry.js';

interface Task {
  id: string;
  title: string;
  status: string;
  priority: string;
  due_date?: string;
}

describe('tasks handler', () => {
  it('adds, lists in due-date/priority order, and completes tasks', async () => {
    const { registry } = await loadBundledRegistry();
    const user = { user_id: 'u1' };
    const later = outputOf<{ task: Task }>(
      await registry.execute('add_task', { title: 'later', due_date: '2026-12-01' }, user),
    ).task;
    const urgent = outputOf<{ task: Task }>(
      await registry.execute(
        'add_task',
        { title: 'urgent', due_date: '2026-11-01', priority: 'high', notes: 'call Dana' },
        user,
      ),
    ).task;
    await registry.execute('add_task', { title: 'someday', priority: 'low' }, user);
    await registry.execute('add_task', { title: 'same day, normal', due_date: '2026-11-01' }, user);
    expect(urgent).toMatchObject({ title: 'urgent', status: 'open', priority: 'high' });
    expect(later.priority).toBe('normal');

    const listed = outputOf<{ tasks: Task[]; count: number }>(
      await registry.execute('list_tasks', {}, user),
    );
    expect(listed.tasks.map((task) => task.title)).toEqual([
      'urgent',
      'same day, normal',
      'later',
      'someday',
    ]);
    expect(listed.count).toBe(4);

    const done = outputOf<{ task: Task; already_done: boolean }>(
      await registry.execute('complete_task', { task_id: urgent.id }, user),
    );
    expect(done).toMatchObject({ task: { status: 'done' }, already_done: false });
    const again = outputOf<{ already_done: boolean }>(
      await registry.execute('complete_task', { task_id: urgent.id }, user),
    );
    expect(again.already_done).toBe(true);

    const open = outputOf<{ tasks: Task[] }>(await registry.execute('list_tasks', {}, user));
    expect(open.tasks.map((task) => task.title)).not.toContain('urgent');
    const doneList = outputOf<{ tasks: Task[] }>(
      await registry.execute('list_tasks', { status: 'done' }, user),
    );
    expect(doneList.tasks.map((task) => task.title)).toEqual(['urgent']);
    const dueSoon = outputOf<{ tasks: Task[] }>(
      await registry.execute('list_tasks', { status: 'all', due_before: '2026-11-15' }, user),
    );
    expect(dueSoon.tasks.map((task) => task.title).sort()).toEqual(['same day, normal', 'urgent']);
  });

  it('keeps users apart', async () => {
    const { registry } = await loadBundledRegistry();
    await registry.execute('add_task', { title: 'mine' }, { user_id: 'alice' });
    const other = outputOf<{ count: number }>(
      await registry.execute('list_tasks', {}, { user_id: 'bob' }),
    );
    expect(other.count).toBe(0);
  });

  it('reports an unknown task id as TASK_NOT_FOUND', async () => {
    const { registry } = await loadBundledRegistry();
    expect(
      await registry.execute('complete_task', { task_id: 'task_nope' }, { user_id: 'u1' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'TASK_NOT_FOUND', details: { task_id: 'task_nope' } },
    });
  });

  it('loses none of 200 concurrent add_task calls', async () => {
    const { registry, dataDir } = await loadBundledRegistry();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        registry.execute('add_task', { title: `task ${index}` }, { user_id: 'busy' }),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    const listed = outputOf<{ tasks: Task[]; count: number }>(
      await registry.execute('list_tasks', { status: 'all' }, { user_id: 'busy' }),
    );
    expect(listed.count).toBe(200);
    expect(new Set(listed.tasks.map((task) => task.title)).size).toBe(200);
    expect(new Set(listed.tasks.map((task) => task.id)).size).toBe(200);
    const stored = JSON.parse(await readFile(join(dataDir, 'tasks', 'busy.json'), 'utf8')) as {
      tasks: unknown[];
    };
    expect(stored.tasks).toHaveLength(200);
  });

  it('stores each user in a file whose name cannot escape the data dir', async () => {
    const { registry, dataDir } = await loadBundledRegistry();
    await registry.execute('add_task', { title: 'x' }, { user_id: '../../etc/passwd' });
    const stored = await readFile(
      join(dataDir, 'tasks', '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.json'),
      'utf8',
    );
    expect(stored).toContain('"title": "x"');
  });

  it('reports a corrupt store instead of overwriting it', async () => {
    const { registry, dataDir } = await loadBundledRegistry();
    await registry.execute('add_task', { title: 'x' }, { user_id: 'c' });
    await writeFile(join(dataDir, 'tasks', 'c.json'), '{"tasks": oops');
    expect(await registry.execute('add_task', { title: 'y' }, { user_id: 'c' })).toMatchObject({
      error: { code: 'STORE_CORRUPT' },
    });
    await writeFile(join(dataDir, 'tasks', 'c.json'), '{"items": []}');
    expect(await registry.execute('list_tasks', {}, { user_id: 'c' })).toMatchObject({
      error: { code: 'STORE_CORRUPT' },
    });
    expect(await readFile(join(dataDir, 'tasks', 'c.json'), 'utf8')).toBe('{"items": []}');
  });

  it('rejects a context user_id that is not a string', async () => {
    const { registry } = await loadBundledRegistry();
    expect(await registry.execute('list_tasks', {}, { user_id: { id: 1 } })).toMatchObject({
      error: { code: 'INVALID_CONTEXT' },
    });
    expect(outputOf(await registry.execute('list_tasks', {}, { user_id: 42 }))).toMatchObject({
      count: 0,
    });
  });
});
