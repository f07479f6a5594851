import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { group, registryOf, tool } from './fixtures.js';

const ROOT = join(import.meta.dirname, '../..');

// `matched` mixes request words, group keywords and called tools; the reason also lists each
// kind apart, so a program can tell them apart, and leaves `matched` as it was
describe("a selected tool's reason, by kind of match", () => {
  const registry = registryOf([
    group('calendar', { strategy: 'keyword', keywords: ['schedule', 'meeting'] }, [
      tool('create_event', { description: 'Create a calendar event.' }),
    ]),
    // a keyword spelled like one of the group's tools
    group('tasks', { strategy: 'keyword', keywords: ['todo', 'add_task'] }, [
      tool('add_task', { description: 'Add a task to the list.' }),
    ]),
    group('shop', { strategy: 'keyword', keywords: ['store'] }, [
      tool('purchase_item', { description: 'Purchase an item from the shop.' }),
      tool('list_orders', { description: 'List the orders placed so far.' }),
    ]),
    group('journal', { strategy: 'always' }, [tool('write_journal')]),
  ]);

  it('a keyword match lists the keywords in matched_keywords, and no other kind', () => {
    const reason = registry.select('schedule a meeting').tools[0]!.reason;
    expect(reason).toEqual({
      strategy: 'keyword',
      matched: ['schedule', 'meeting'],
      matched_keywords: ['schedule', 'meeting'],
      score: expect.any(Number),
    });
  });

  it('a history match puts keywords and called tools apart, newest first', () => {
    const selection = registry.select('and the other one', {
      history: [
        'schedule a meeting',
        { tool: 'create_event' },
        'a todo: add_task',
        { tool: 'add_task' },
      ],
    });
    expect(selection.tools.map((selected) => [selected.name, selected.reason])).toEqual([
      [
        'create_event',
        {
          strategy: 'history',
          matched: ['create_event', 'schedule', 'meeting'],
          matched_keywords: ['schedule', 'meeting'],
          matched_history: ['create_event'],
          score: expect.any(Number),
        },
      ],
      [
        'add_task',
        {
          strategy: 'history',
          // the call and the keyword share a spelling: matched has it once, each kind has it
          matched: ['add_task', 'todo'],
          matched_keywords: ['todo', 'add_task'],
          matched_history: ['add_task'],
          score: expect.any(Number),
        },
      ],
      ['write_journal', { strategy: 'always', matched: [] }],
    ]);
  });

  it("a word match lists the request's words in matched_words, related words as word→related", () => {
    const selection = registry.select('buy a lamp', { fallback: { k: 1, minScore: 0 } });
    expect(selection.tools[0]!.reason).toEqual({
      strategy: 'fallback',
      matched: ['buy→purchase'],
      matched_words: ['buy→purchase'],
      score: expect.any(Number),
    });
  });

  it('a relevance tool lists words, history and the tool that raised it apart', () => {
    const used = registry.select('buy a lamp', {
      relevance: { k: 5 },
      history: [{ tool: 'purchase_item' }, 'schedule it'],
    });
    const purchase = used.tools.find((selected) => selected.name === 'purchase_item')!.reason;
    expect(purchase).toEqual({
      strategy: 'relevance',
      matched: ['buy→purchase', 'purchase_item'],
      matched_words: ['buy→purchase'],
      matched_history: ['purchase_item'],
      score: expect.any(Number),
    });
    const calendar = used.tools.find((selected) => selected.name === 'create_event')!.reason;
    // the request word and the history keyword are both "schedule": only the kinds tell
    expect(calendar).toEqual({
      strategy: 'relevance',
      matched: ['schedule', 'schedule'],
      matched_words: ['schedule'],
      matched_keywords: ['schedule'],
      score: expect.any(Number),
    });
    // before any group is used, the best tool raises its siblings, and they name it
    const fresh = registry.select('buy a lamp', { relevance: { k: 5 } });
    const sibling = fresh.tools.find((selected) => selected.name === 'list_orders')!.reason;
    expect(sibling).toEqual({
      strategy: 'relevance',
      matched: ['purchase_item'],
      raised_by: 'purchase_item',
      score: expect.any(Number),
    });
  });

  it('toolcap select --json prints the kinds in each reason', async () => {
    const result = await runCli(
      [
        'select',
        '--json',
        '--context',
        'user_id=u1',
        '--history',
        'create_event',
        '--history',
        'add a task',
        'and then?',
      ],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    const { tools } = result.json() as { tools: { name: string; reason: unknown }[] };
    expect(tools.find((entry) => entry.name === 'get_agenda')?.reason).toEqual({
      strategy: 'history',
      matched: ['create_event'],
      matched_history: ['create_event'],
      score: expect.any(Number),
    });
    expect(tools.find((entry) => entry.name === 'add_task')?.reason).toEqual({
      strategy: 'history',
      matched: ['task'],
      matched_keywords: ['task'],
      score: expect.any(Number),
    });
  });
});
