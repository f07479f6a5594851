import { describe, expect, it } from 'vitest';
import { group, registryOf, tool } from './fixtures.js';

/**
 * Documented selection rules, each pinned so that a one-line change of the rule fails here
 * (independently of the reference selector, which the property tests compare with).
 */
describe('selection rules', () => {
  // two tools whose documents have the same shape: each distinctive word once, same lengths
  const twins = (first: string, second: string, keyword: string) =>
    group('notes', { strategy: 'keyword', keywords: [keyword] }, [
      tool(`${first}_note`, { description: `Keeps the ${first} entries.` }),
      tool(`${second}_note`, { description: `Keeps the ${second} entries.` }),
      tool('plain_note', { description: 'Keeps the other entries.' }),
    ]);

  it('history words weigh half a word of the message in the ranking', () => {
    const registry = registryOf([twins('zorblat', 'quexil', 'notes')]);
    // made-up words: no English commonness or related words to weigh them differently; the
    // message names zorblat, quexil appears only in an earlier turn
    const selection = registry.select('notes about zorblat', { history: ['quexil'] });
    const score = (name: string) =>
      selection.tools.find((entry) => entry.name === name)!.reason.score!;
    const base = score('plain_note');
    const ratio = (score('quexil_note') - base) / (score('zorblat_note') - base);
    expect(ratio).toBeCloseTo(0.5, 2);
  });

  it('reads history newest first: matched lists the freshest evidence first', () => {
    const registry = registryOf([
      group('calendar', { strategy: 'keyword', keywords: ['meeting', 'agenda', 'calendar'] }, [
        tool('get_agenda'),
      ]),
    ]);
    const selection = registry.select('and then?', {
      history: ['the meeting', 'my agenda', { tool: 'get_agenda' }],
    });
    expect(selection.tools[0]!.reason).toMatchObject({
      strategy: 'history',
      matched: ['get_agenda', 'agenda', 'meeting'],
    });
    // only the latest historyWindow entries count
    const windowed = registry.select('and then?', {
      history: ['the meeting', 'my agenda'],
      historyWindow: 1,
    });
    expect(windowed.tools[0]!.reason.matched).toEqual(['agenda']);
  });

  it('breaks ties between groups by catalog order, and between a group’s tools too', () => {
    // two groups whose best tools score exactly the same
    const twinGroup = (name: string) =>
      group(name, { strategy: 'keyword', keywords: ['ledger'] }, [
        tool(`${name}_one`, { description: 'Reads the ledger.' }),
        tool(`${name}_two`, { description: 'Reads the ledger.' }),
      ]);
    const registry = registryOf([twinGroup('zeta'), twinGroup('alpha')]);
    const selection = registry.select('ledger', { maxTools: 3, order: 'relevance' });
    // round 1: zeta_one (zeta is earlier in the catalog), alpha_one; round 2: zeta_two
    expect(selection.names).toEqual(['zeta_one', 'alpha_one', 'zeta_two']);
    expect(selection.dropped.map((drop) => drop.name)).toEqual(['alpha_two']);
  });

  it('orders groups by their best tool, and a group’s tools by score', () => {
    const registry = registryOf([
      group('weak', { strategy: 'keyword', keywords: ['invoice'] }, [
        tool('weak_a', { description: 'Files things.' }),
        tool('weak_b', { description: 'Sends an invoice.' }),
      ]),
      group('strong', { strategy: 'keyword', keywords: ['refund'] }, [
        tool('strong_a', { description: 'Lists payments.' }),
        tool('strong_b', { description: 'Issues a refund for an invoice payment.' }),
      ]),
    ]);
    const selection = registry.select('refund this invoice payment', { order: 'relevance' });
    expect(selection.names).toEqual(['strong_b', 'weak_b', 'strong_a', 'weak_a']);
  });

  it('fills budgets in priority order: pins, context, keyword, history, fallback', () => {
    const registry = registryOf([
      group('history_group', { strategy: 'keyword', keywords: ['archive'] }, [tool('archive_it')]),
      group('keyword_group', { strategy: 'keyword', keywords: ['invoice'] }, [tool('send_it')]),
      group('context_group', { strategy: 'context' }, [tool('scoped_it')]),
      group('pinned_group', { strategy: 'always' }, [tool('pinned_it')]),
    ]);
    const options = { history: ['archive'], order: 'relevance' as const };
    expect(registry.select('invoice', options).names).toEqual([
      'pinned_it',
      'scoped_it',
      'send_it',
      'archive_it',
    ]);
    expect(registry.select('invoice', { ...options, maxTools: 3 }).dropped).toEqual([
      expect.objectContaining({ name: 'archive_it', code: 'OVER_MAX_TOOLS' }),
    ]);
  });
});
