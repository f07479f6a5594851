import { describe, expect, it } from 'vitest';
import { loadBundledRegistry, outputOf } from './bundled-registry.js';

const project = { project_id: 'apollo' };

describe('project_docs handler', () => {
  it('writes, lists, reads, replaces and searches documents', async () => {
    const { registry } = await loadBundledRegistry();
    const plan = outputOf<{ doc: { id: string; characters: number }; created: boolean }>(
      await registry.execute(
        'write_project_doc',
        {
          title: 'Launch plan',
          content: '# Launch\n\nThe rocket launches in March.\n\nBudget review follows.',
        },
        project,
      ),
    );
    expect(plan.created).toBe(true);
    await registry.execute(
      'write_project_doc',
      { title: 'Budget', content: 'Costs are tracked weekly.\nRocket fuel is the largest item.' },
      project,
    );
    const listed = outputOf<{ docs: { id: string; title: string }[]; count: number }>(
      await registry.execute('list_project_docs', {}, project),
    );
    expect(listed.count).toBe(2);
    expect(listed.docs.map((doc) => doc.title).sort()).toEqual(['Budget', 'Launch plan']);

    const read = outputOf<{ doc: { content: string } }>(
      await registry.execute('read_project_doc', { doc_id: plan.doc.id }, project),
    );
    expect(read.doc.content).toContain('March');

    const replaced = outputOf<{ created: boolean }>(
      await registry.execute(
        'write_project_doc',
        { doc_id: plan.doc.id, title: 'Launch plan v2', content: 'Launch moved to April.' },
        project,
      ),
    );
    expect(replaced.created).toBe(false);
    const reread = outputOf<{ doc: { title: string; content: string } }>(
      await registry.execute('read_project_doc', { doc_id: plan.doc.id }, project),
    );
    expect(reread.doc).toMatchObject({
      title: 'Launch plan v2',
      content: 'Launch moved to April.',
    });

    const found = outputOf<{ results: { title: string; passage: string; line: number }[] }>(
      await registry.execute('search_project_docs', { query: 'rocket fuel' }, project),
    );
    expect(found.results[0]).toMatchObject({ title: 'Budget', line: 1 });
    const byTitle = outputOf<{ results: { title: string }[] }>(
      await registry.execute('search_project_docs', { query: 'budget', limit: 5 }, project),
    );
    expect(byTitle.results.map((result) => result.title)).toEqual(['Budget']);
  });

  it('keeps projects apart and reports unknown ids', async () => {
    const { registry } = await loadBundledRegistry();
    await registry.execute('write_project_doc', { title: 'A', content: 'a' }, project);
    const other = outputOf<{ count: number }>(
      await registry.execute('list_project_docs', {}, { project_id: 'other' }),
    );
    expect(other.count).toBe(0);
    expect(await registry.execute('read_project_doc', { doc_id: 'doc_x' }, project)).toMatchObject({
      error: { code: 'DOC_NOT_FOUND' },
    });
    expect(
      await registry.execute(
        'write_project_doc',
        { doc_id: 'doc_x', title: 't', content: 'c' },
        project,
      ),
    ).toMatchObject({ error: { code: 'DOC_NOT_FOUND' } });
    expect(await registry.execute('list_project_docs', {}, { user_id: 'u1' })).toMatchObject({
      error: { code: 'MISSING_CONTEXT', details: { missing: ['project_id'] } },
    });
  });
});
