import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { todayUtc } from '../../src/execute/handler-kit.js';
import { loadBundledRegistry, outputOf } from './bundled-registry.js';

interface Entry {
  id: string;
  date: string;
  text: string;
  mood?: string;
  tags?: string[];
  score?: number;
}

describe('journal handler', () => {
  it('writes entries and recalls a day, oldest first', async () => {
    const { registry } = await loadBundledRegistry();
    const user = { user_id: 'u1' };
    const first = outputOf<{ entry: Entry }>(
      await registry.execute(
        'write_journal',
        {
          text: 'Finished the quarterly report.',
          date: '2026-11-20',
          mood: 'good',
          tags: ['work'],
        },
        user,
      ),
    ).entry;
    expect(first).toMatchObject({ date: '2026-11-20', mood: 'good', tags: ['work'] });
    await registry.execute('write_journal', { text: 'Dinner with Sam.', date: '2026-11-20' }, user);
    await registry.execute('write_journal', { text: 'Another day.', date: '2026-11-21' }, user);
    const day = outputOf<{ date: string; entries: Entry[]; count: number }>(
      await registry.execute('recall_journal', { date: '2026-11-20' }, user),
    );
    expect(day.count).toBe(2);
    expect(day.entries.map((entry) => entry.text)).toEqual([
      'Finished the quarterly report.',
      'Dinner with Sam.',
    ]);
  });

  it('defaults to today (UTC)', async () => {
    const { registry } = await loadBundledRegistry();
    const written = outputOf<{ entry: Entry }>(
      await registry.execute('write_journal', { text: 'Today.' }, { user_id: 'u1' }),
    ).entry;
    expect(written.date).toBe(todayUtc());
    const recalled = outputOf<{ date: string; count: number }>(
      await registry.execute('recall_journal', {}, { user_id: 'u1' }),
    );
    expect(recalled).toMatchObject({ date: todayUtc(), count: 1 });
  });

  it('searches by words and tags, best match first, within the limit', async () => {
    const { registry } = await loadBundledRegistry();
    const user = { user_id: 'u1' };
    await registry.execute('write_journal', { text: 'Long walk by the river.' }, user);
    await registry.execute(
      'write_journal',
      { text: 'Meeting ran late again.', tags: ['work', 'meetings'] },
      user,
    );
    await registry.execute('write_journal', { text: 'Work was calm; meeting moved.' }, user);
    const found = outputOf<{ results: Entry[]; count: number }>(
      await registry.execute('search_journals', { query: 'work meeting' }, user),
    );
    expect(found.results.map((entry) => entry.text)).toEqual([
      'Meeting ran late again.',
      'Work was calm; meeting moved.',
    ]);
    expect(found.results[0]?.score).toBeGreaterThan(found.results[1]?.score ?? 0);
    const limited = outputOf<{ count: number }>(
      await registry.execute('search_journals', { query: 'meeting', limit: 1 }, user),
    );
    expect(limited.count).toBe(1);
    const none = outputOf<{ count: number }>(
      await registry.execute('search_journals', { query: 'zebra' }, user),
    );
    expect(none.count).toBe(0);
  });

  it('rejects an invalid date and mood before anything is written', async () => {
    const { registry } = await loadBundledRegistry();
    const result = await registry.execute(
      'write_journal',
      { text: '', date: 'yesterday', mood: 'ecstatic' },
      { user_id: 'u1' },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(
      (result.error.details as { pointer: string }[]).map((problem) => problem.pointer).sort(),
    ).toEqual(['/date', '/mood', '/text']);
  });

  it('loses none of 200 concurrent writes and skips a damaged line', async () => {
    const { registry, dataDir } = await loadBundledRegistry();
    const user = { user_id: 'writer' };
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        registry.execute(
          'write_journal',
          { text: `entry number ${index}`, date: '2026-01-01' },
          user,
        ),
      ),
    );
    expect(results.filter((result) => !result.ok)).toEqual([]);
    const file = join(dataDir, 'journal', 'writer.jsonl');
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(200);
    await appendFile(file, '{"broken": \n');
    const day = outputOf<{ entries: Entry[]; count: number }>(
      await registry.execute('recall_journal', { date: '2026-01-01' }, user),
    );
    expect(day.count).toBe(200);
    expect(new Set(day.entries.map((entry) => entry.text)).size).toBe(200);
    await registry.execute('write_journal', { text: 'after the damage', date: '2026-01-01' }, user);
    const after = outputOf<{ count: number }>(
      await registry.execute('recall_journal', { date: '2026-01-01' }, user),
    );
    expect(after.count).toBe(201);
  });
});
