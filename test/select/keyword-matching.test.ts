import { describe, expect, it } from 'vitest';
import { group, keywordGroup, registryOf, selectedGroups, tool } from './fixtures.js';

// each case of issue 3's keyword matching rules, through registry.select
describe('keyword matching', () => {
  const registry = registryOf([
    keywordGroup('calendar', ['réunion', 'appointment', 'schedule', 'remind me']),
    keywordGroup('git', ['rebase', 'pull request']),
    keywordGroup('tasks', ['task', 'to-do']),
    keywordGroup('mail', ['mail', 'e-mail']),
    keywordGroup('cpp', ['c++']),
    keywordGroup('csharp', ['c#']),
    keywordGroup('node', ['node.js']),
    keywordGroup('french', ['reunion']),
  ]);
  const groups = (message: string, options = {}) => selectedGroups(registry, message, options);

  it('is case-insensitive and folds diacritics both ways', () => {
    expect(groups('Book a RÉUNION')).toEqual(['calendar', 'french']);
    expect(groups('book a reunion')).toEqual(['calendar', 'french']);
    expect(groups('Réunion')).toEqual(['calendar', 'french']);
  });

  it('stems with Porter: appointments, scheduling, rebasing', () => {
    expect(groups('any appointments on Friday?')).toEqual(['calendar']);
    expect(groups('I am scheduling the week')).toEqual(['calendar']);
    expect(groups('rebasing onto main')).toEqual(['git']);
  });

  it('reports the keyword as written in the group file', () => {
    const selection = registry.select('Scheduling a réunion about appointments');
    expect(selection.tools.find((selected) => selected.group === 'calendar')?.reason).toEqual({
      strategy: 'keyword',
      matched: ['schedule', 'réunion', 'appointment'],
      matched_keywords: ['schedule', 'réunion', 'appointment'],
      score: expect.any(Number),
    });
  });

  it('matches whole words only: task is not in multitasking or taskmaster', () => {
    expect(groups('I am multitasking')).toEqual([]);
    expect(groups('the taskmaster says hi')).toEqual([]);
    expect(groups('add a task')).toEqual(['tasks']);
    expect(groups('my tasks')).toEqual(['tasks']);
  });

  it('matches whole words only: mail is not in mailbox', () => {
    expect(groups('check the mailbox')).toEqual([]);
    expect(groups('check the mail')).toEqual(['mail']);
  });

  it('matches a part of a compound word', () => {
    expect(groups('open the task-list')).toEqual(['tasks']);
  });

  it('matches multi-word keywords only as consecutive words', () => {
    expect(groups('please open a pull request')).toEqual(['git']);
    expect(groups('Pull Requests are waiting')).toEqual(['git']);
    expect(groups('a pull-request and a pullrequest')).toEqual(['git']);
    expect(groups('pull the request')).toEqual([]);
    expect(groups('request pull')).toEqual([]);
    expect(groups('pull')).toEqual([]);
    expect(groups('Remind me to call Dana')).toEqual(['calendar']);
    expect(groups('remind everyone, me too')).toEqual([]);
  });

  it('brings in every group a keyword or its first word belongs to, each keyword once', () => {
    const shared = registryOf([
      keywordGroup('reports', ['report', 'sales report']),
      keywordGroup('sales', ['sales', 'sales report', 'invoice']),
      keywordGroup('billing', ['invoice', 'report']),
    ]);
    const reasons = (message: string) =>
      Object.fromEntries(
        shared
          .select(message)
          .tools.map((selected) => [selected.group, selected.reason.matched] as const),
      );
    // "sales" starts a one-word keyword of sales and two-word keywords of reports and sales
    expect(reasons('the sales report, the invoice and the report again')).toEqual({
      reports: ['sales report', 'report'],
      sales: ['sales', 'sales report', 'invoice'],
      billing: ['report', 'invoice'],
    });
    expect(reasons('sales figures')).toEqual({ sales: ['sales'] });
    expect(reasons('an invoice')).toEqual({ sales: ['invoice'], billing: ['invoice'] });
  });

  it('keeps symbols: c++, c#, node.js match themselves, not a bare c or node', () => {
    expect(groups('fix the C++ build')).toEqual(['cpp']);
    expect(groups('write it in C#')).toEqual(['csharp']);
    expect(groups('write it in Ｃ＃')).toEqual(['csharp']);
    expect(groups('a Node.JS server')).toEqual(['node']);
    expect(groups('write some c code')).toEqual([]);
    expect(groups('plan c')).toEqual([]);
    expect(groups('a node in the graph')).toEqual([]);
    expect(groups('1+1 is not c++ ...')).toEqual(['cpp']);
  });

  it('counts the parts of a dotted word: a keyword node matches node.js, c does not match c++', () => {
    const parts = registryOf([
      keywordGroup('runtime', ['node']),
      keywordGroup('clang', ['c']),
      keywordGroup('dotnet', ['net']),
    ]);
    expect(selectedGroups(parts, 'a node.js app')).toEqual(['runtime']);
    expect(selectedGroups(parts, 'an asp.net site')).toEqual(['dotnet']);
    expect(selectedGroups(parts, 'fix the c++ build and the c# one')).toEqual([]);
  });

  it('keeps symbols: to-do and e-mail match their spellings, not their halves', () => {
    expect(groups('my to-do list')).toEqual(['tasks']);
    expect(groups('my todo list')).toEqual(['tasks']);
    expect(groups('things to do')).toEqual([]);
    expect(groups('send an e-mail')).toEqual(['mail']);
    expect(groups('send an email')).toEqual(['mail']);
    expect(groups('e mail')).toEqual(['mail']);
  });

  it('never builds regexes from keywords', () => {
    const tricky = registryOf([keywordGroup('regex', ['a.*b', '(x', '[y]+'])]);
    expect(selectedGroups(tricky, 'aXXXb')).toEqual([]);
    expect(selectedGroups(tricky, 'a.*b')).toEqual(['regex']);
    expect(selectedGroups(tricky, 'x')).toEqual(['regex']);
  });

  describe('typo tolerance', () => {
    it('is off by default', () => {
      expect(groups('shedule a call')).toEqual([]);
    });

    it('matches one edit away for words of 5+ letters and reports it', () => {
      const selection = registry.select('shedule a call', { typoTolerance: true });
      expect(selection.tools[0]?.reason).toEqual({
        strategy: 'keyword',
        matched: ['schedule'],
        matched_keywords: ['schedule'],
        score: expect.any(Number),
        typos: [{ keyword: 'schedule', word: 'shedule' }],
      });
      expect(groups('apointments please', { typoTolerance: true })).toEqual(['calendar']);
      expect(groups('reabse onto main', { typoTolerance: true })).toEqual(['git']);
    });

    it('ranks with the corrected word', () => {
      const selection = registry.select('shedule', { typoTolerance: true });
      expect(selection.tools[0]?.reason.score).toBeGreaterThan(0);
    });

    it('does not apply to short words or to words that match exactly', () => {
      expect(groups('tsak', { typoTolerance: true })).toEqual([]);
      expect(groups('mial', { typoTolerance: true })).toEqual([]);
      const exact = registry.select('schedule and shedule', { typoTolerance: true });
      expect(exact.tools[0]?.reason.typos).toBeUndefined();
    });

    it('applies inside multi-word keywords', () => {
      expect(groups('pull requets', { typoTolerance: true })).toEqual(['git']);
    });
  });

  it('ignores the keywords of always and context groups (their own rule decides)', () => {
    const mixed = registryOf([
      group('journal', { strategy: 'always', keywords: ['diary'] }, [tool('write_journal')]),
      group('docs', { strategy: 'context', keywords: ['document'] }, [
        tool('read_doc', {}, { requires_context: ['project_id'] }),
      ]),
    ]);
    expect(
      mixed.select('my diary and a document').tools.map((selected) => selected.reason.strategy),
    ).toEqual(['always']);
  });

  it('uses the registry analyzer when one is configured', () => {
    const custom = registryOf([keywordGroup('calendar', ['meetings'])], {
      analyzer: { stemmer: 'none' },
    });
    expect(selectedGroups(custom, 'one meeting')).toEqual([]);
    expect(selectedGroups(custom, 'two meetings')).toEqual(['calendar']);
  });
});
