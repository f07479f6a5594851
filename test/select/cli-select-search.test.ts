import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir } from '../helpers/temp-files.js';
import { group, tool } from './fixtures.js';

const ROOT = join(import.meta.dirname, '../..');

describe('toolcap select', () => {
  it('prints the issue 3 JSON shape', async () => {
    const result = await runCli(
      ['select', '--context', 'user_id=u1', '--json', 'Schedule a réunion with Dana'],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const output = result.json() as { tools: unknown[]; dropped: unknown[]; warnings: unknown[] };
    expect(Object.keys(output)).toEqual(['tools', 'dropped', 'warnings']);
    expect(output.tools[0]).toEqual({
      name: 'create_event',
      group: 'calendar',
      version: '1.1.1',
      category: 'creation',
      executor: 'calendar',
      cost_estimate: 'low',
      latency_estimate: 'fast',
      requires_context: ['user_id'],
      reason: {
        strategy: 'keyword',
        matched: ['schedule', 'réunion'],
        matched_keywords: ['schedule', 'réunion'],
        score: expect.any(Number),
      },
    });
    expect((output.tools as { name: string }[]).map((entry) => entry.name)).toEqual([
      'create_event',
      'get_agenda',
      'update_event',
      'cancel_event',
      'recall_journal',
      'write_journal',
      'search_journals',
    ]);
    // the project docs' context group does not apply without project_id, and says so
    expect(output.dropped).toEqual(
      ['list_project_docs', 'read_project_doc', 'write_project_doc', 'search_project_docs'].map(
        (name) => ({
          name,
          group: 'project_docs',
          code: 'MISSING_CONTEXT',
          reason: expect.stringContaining(
            'its context group is offered only with context project_id',
          ),
        }),
      ),
    );
    expect(output.warnings).toEqual([]);
  });

  it('adds the provider payload with --provider', async () => {
    const result = await runCli(
      ['select', '--context', 'user_id=u1', '--provider', 'anthropic', '--json', 'add a task'],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    const output = result.json() as { tools: { name: string }[]; payload: { name: string }[] };
    expect(output.payload.map((entry) => entry.name)).toEqual(
      output.tools.map((entry) => entry.name),
    );
    expect(output.payload[0]).toHaveProperty('input_schema');
  });

  it('reports what translating the payload changed, as --provider translate does', async () => {
    const args = ['select', '--context', 'user_id=u1', '--provider', 'google', 'hello'];
    const result = await runCli([...args.slice(0, -1), '--json', 'hello'], { cwd: ROOT });
    const output = result.json() as { warnings: Record<string, unknown>[] };
    const translated = await runCli(
      ['translate', '--provider', 'google', '--json', '--tools', 'recall_journal,write_journal'],
      { cwd: ROOT },
    );
    const expected = (translated.json() as { warnings: unknown[] }).warnings;
    expect(expected.length).toBeGreaterThan(0);
    // the pinned journal tools: their translation warnings, marked as such
    expect(output.warnings).toEqual(
      expect.arrayContaining(
        expected.map((warning) => ({ ...(warning as object), source: 'translate' })),
      ),
    );
    expect(output.warnings[0]).toMatchObject({
      code: 'KEYWORD_MOVED_TO_DESCRIPTION',
      tool: 'recall_journal',
      pointer: '/properties/date/format',
      source: 'translate',
    });
    const text = await runCli(args, { cwd: ROOT });
    expect(text.stderr).toContain(
      'warning KEYWORD_MOVED_TO_DESCRIPTION recall_journal (translating for google): format "date" is not accepted by Gemini',
    );
  });

  it('prints a table of tool, group, strategy and why, then the dropped tools', async () => {
    const result = await runCli(
      ['select', '--context', 'user_id=u1', '--max-tools', '4', 'remind me: add a to-do'],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^TOOL\s+GROUP\s+STRATEGY\s+WHY$/);
    expect(result.stdout).toContain('pinned: the group is always offered');
    expect(result.stdout).toMatch(
      /add_task\s+tasks@1\.0\.0\s+keyword\s+keywords: todo \(score 0\.\d+\)/,
    );
    expect(result.stdout).toMatch(/DROPPED\s+GROUP\s+CODE\s+REASON/);
    expect(result.stdout).toMatch(/OVER_MAX_TOOLS/);
    expect(result.stderr).toBe('');
  });

  it('reports drops, context tools and warnings (warnings on stderr)', async () => {
    const result = await runCli(
      ['select', '--context', 'project_id=p1', '--max-tools', '1', 'open the doc'],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/list_project_docs\s+project_docs@1\.0\.0\s+context/);
    expect(result.stdout).toContain('MISSING_CONTEXT');
    expect(result.stderr).toBe('');
    const none = await runCli(['select', 'hello'], { cwd: ROOT });
    expect(none.stdout.startsWith('no tools selected\n')).toBe(true);
    // why, and what to do: the bundled keyword groups exist but none matched
    expect(none.stderr).toMatch(
      /^No keyword group matched: the message has none of the keywords of calendar \(\w+, [^)]*\); .*\. Add --fallback K to offer the K most relevant tools/,
    );
    // a keyword group matched, but its tools need context: the DROPPED table says why
    const dropped = await runCli(['select', 'schedule a meeting'], { cwd: ROOT });
    expect(dropped.stdout.startsWith('no tools selected\n')).toBe(true);
    expect(dropped.stdout).toMatch(/create_event\s+calendar\s+MISSING_CONTEXT/);
    expect(dropped.stderr).toBe('');
    const ranked = await runCli(['select', '--fallback', '3', 'hello'], { cwd: ROOT });
    expect(ranked.stderr).not.toContain('No keyword group matched');
    const pins = await runCli(['select', '--context', 'user_id=u1', '--max-tools', '1', 'hello'], {
      cwd: ROOT,
    });
    expect(pins.stderr).toMatch(/warning PINS_OVER_BUDGET the 3 pinned/);
    const context = await runCli(
      ['select', '--context', 'user_id=u1', '--context', 'project_id=p1', 'open the doc'],
      { cwd: ROOT },
    );
    expect(context.stdout).toMatch(
      /list_project_docs\s+project_docs@1\.0\.0\s+context\s+context: project_id/,
    );
  });

  it('keeps groups from --history messages and tool names', async () => {
    const message = await runCli(
      [
        'select',
        '--context',
        'user_id=u1',
        '--history',
        'schedule a meeting with Dana',
        '--json',
        'move it to Friday',
      ],
      { cwd: ROOT },
    );
    const tools = (message.json() as { tools: { name: string; reason: { strategy: string } }[] })
      .tools;
    expect(tools.find((entry) => entry.name === 'update_event')?.reason.strategy).toBe('history');
    const called = await runCli(
      ['select', '--context', 'user_id=u1', '--history', 'add_task', 'and another one'],
      { cwd: ROOT },
    );
    expect(called.stdout).toMatch(/add_task\s+tasks@1\.0\.0\s+history\s+earlier turns: add_task/);
    const windowed = await runCli(
      [
        'select',
        '--context',
        'user_id=u1',
        '--history',
        'add_task',
        '--history',
        'x',
        '--history-window',
        '1',
        'next',
      ],
      { cwd: ROOT },
    );
    expect(windowed.stdout).not.toContain('add_task');
    // 0 is a window: no history counts (as the library's historyWindow: 0)
    const none = await runCli(
      [
        'select',
        '--context',
        'user_id=u1',
        '--history',
        'add_task',
        '--history-window',
        '0',
        'and another one',
      ],
      { cwd: ROOT },
    );
    expect(none.code).toBe(0);
    expect(none.stdout).not.toContain('add_task');
    const negative = await runCli(['select', '--history-window=-1', 'next'], { cwd: ROOT });
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain(
      '--history-window must be a whole number, 0 or more (0: no history counts), got "-1"',
    );
  });

  it('supports budgets, filters, fallback and typos', async () => {
    const tokens = await runCli(
      [
        'select',
        '--context',
        'user_id=u1',
        '--max-tokens',
        '50',
        '--provider',
        'openai',
        'add a task',
      ],
      { cwd: ROOT },
    );
    expect(tokens.stdout).toContain('OVER_MAX_TOKENS');
    const filtered = await runCli(
      [
        'select',
        '--context',
        'user_id=u1',
        '--category',
        'retrieval',
        '--max-cost',
        'low',
        '--max-latency',
        'fast',
        '--json',
        'add a task',
      ],
      { cwd: ROOT },
    );
    const output = filtered.json() as { tools: { category: string }[] };
    expect(output.tools.every((entry) => entry.category === 'retrieval')).toBe(true);
    const fallback = await runCli(
      [
        'select',
        '--context',
        'user_id=u1',
        '--fallback',
        '2',
        '--min-score',
        '0.01',
        'mark it done',
      ],
      { cwd: ROOT },
    );
    expect(fallback.stdout).toMatch(
      /complete_task\s+tasks@1\.0\.0\s+fallback\s+relevance: mark, done \(score 0\.\d+\)/,
    );
    const abstained = await runCli(
      ['select', '--context', 'user_id=u1', '--fallback', '2', 'who is attending'],
      { cwd: ROOT },
    );
    expect(abstained.stderr).toContain('warning FALLBACK_ABSTAINED');
    const typos = await runCli(
      ['select', '--context', 'user_id=u1', '--typos', 'shedule something'],
      { cwd: ROOT },
    );
    expect(typos.stdout).toContain('keywords: schedule (typo: "shedule")');
  });

  it.each([
    [[], /takes 1 argument\(s\) \(MESSAGE\), got 0/],
    [['a', 'b'], /takes 1 argument\(s\) \(MESSAGE\), got 2/],
    [['--max-tools', '0', 'hi'], /--max-tools must be a positive integer, got "0"/],
    [['--max-tokens', 'lots', 'hi'], /--max-tokens must be a positive integer/],
    [['--provider', 'openia', 'hi'], /--provider must be one of openai, openai-responses/],
    [['--context', 'user_id', 'hi'], /--context expects KEY=VALUE/],
    [['--min-score', '0.5', 'hi'], /--min-score needs --fallback K/],
    [['--fallback', '2', '--min-score', '2', 'hi'], /--min-score must be a number from 0 to 1/],
    [['--category', 'reading', 'hi'], /--category must be one of creation, retrieval/],
    [['--max-cost', 'free', 'hi'], /--max-cost must be one of low, medium, high/],
    [['--max-latency', 'now', 'hi'], /--max-latency must be one of fast, medium, slow/],
    [['--max-tool', '3', 'hi'], /unknown option --max-tool .*did you mean --max-tools\?/],
  ])('exits 2 on usage errors: %j', async (args, message) => {
    const result = await runCli(['select', ...args], { cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('Run "toolcap help select" for its options.');
  });

  it('ranks keyword groups by relevance with --relevance K, and says which flag sets context', async () => {
    const result = await runCli(
      ['select', '--relevance', '2', '--context', 'user_id=u1', 'what is on my calendar'],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/calendar@1\.1\.1\s+relevance\s+relevance: calendar/);
    expect(result.stdout.match(/ relevance /g)).toHaveLength(2);
    expect(result.stdout).toContain('pass context.project_id (--context project_id=...)');
    const both = await runCli(['select', '--relevance', '2', '--fallback', '2', 'x'], {
      cwd: ROOT,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --relevance or --fallback');
  });

  it('prints help', async () => {
    const result = await runCli(['help', 'select'], { cwd: ROOT });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--max-tokens N');
    const general = await runCli(['help'], { cwd: ROOT });
    expect(general.stdout).toMatch(/select\s+choose the tools for one conversation turn/);
    expect(general.stdout).toMatch(/search\s+rank tools by relevance to a query/);
  });

  it('prints load diagnostics on stderr and still selects', async () => {
    const dir = createTempDir({
      'good_tools.json': group('good', { strategy: 'keyword', keywords: ['good'] }, [
        tool('good_tool'),
      ]),
      'bad_tools.json': { group: 'bad' },
    });
    const result = await runCli(['select', '--schemas', dir, 'good'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/good_tool\s+good@1\.0\.0\s+keyword/);
    expect(result.stderr).toMatch(/bad_tools\.json/);
  });
});

describe('toolcap search', () => {
  it('names --typos in its usage line', async () => {
    const help = await runCli(['search', '--help'], { cwd: ROOT });
    expect(help.stdout.split('\n')[0]).toBe(
      'Usage: toolcap search [--schemas PATH]... [--k N] [--typos] [--vectors SOURCE] [--json] QUERY',
    );
  });

  it('prints {"results": [{name, group, score, matched}]}', async () => {
    const result = await runCli(['search', '--k', '2', '--json', 'move my meeting to friday'], {
      cwd: ROOT,
    });
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({
      results: [
        {
          name: 'update_event',
          group: 'calendar',
          score: expect.any(Number),
          matched: ['move', 'meeting'],
        },
        {
          name: expect.any(String),
          group: 'calendar',
          score: expect.any(Number),
          matched: expect.any(Array),
        },
      ],
    });
  });

  it('prints a ranked table, or says nothing matched', async () => {
    const result = await runCli(['search', 'todo deadline'], { cwd: ROOT });
    expect(result.stdout.split('\n')[0]).toMatch(/^#\s+TOOL\s+GROUP\s+SCORE\s+MATCHED$/);
    expect(result.stdout.split('\n')[1]).toMatch(
      /^1\s+add_task\s+tasks\s+0\.\d{4}\s+todo, deadline$/,
    );
    const none = await runCli(['search', 'zzzz'], { cwd: ROOT });
    expect(none.stdout).toBe('no matching tools\n');
    const typos = await runCli(['search', '--typos', '--json', 'agnda'], { cwd: ROOT });
    expect((typos.json() as { results: { name: string }[] }).results[0]?.name).toBe('get_agenda');
  });

  it.each([
    [[], /takes 1 argument\(s\) \(QUERY\), got 0/],
    [['--k', '0', 'x'], /--k must be a positive integer/],
  ])('exits 2 on usage errors: %j', async (args, message) => {
    const result = await runCli(['search', ...args], { cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe('natural', () => {
  it('never loads the natural index (Porter is a port; natural only stems non a-z words)', async () => {
    const result = await runCli(['select', '--typos', 'shedule a réunion'], { cwd: ROOT });
    expect(result.code).toBe(0);
    const { createRequire } = await import('node:module');
    const cache = Object.keys(createRequire(import.meta.url).cache);
    const natural = cache.filter((path) => path.includes(`${'node_modules'}/natural/`));
    expect(natural.filter((path) => path.endsWith('natural/lib/natural/index.js'))).toEqual([]);
    expect(
      natural.filter((path) => path.includes('/wordnet/') || path.includes('/classifiers/')),
    ).toEqual([]);
  });
});

describe('toolcap --typos', () => {
  it('corrects the same words in select --relevance as in search', async () => {
    const dir = createTempDir({
      'shop_tools.json': group('shop', { strategy: 'keyword', keywords: ['order'] }, [
        tool('cancel_order', { description: 'Cancel an order that has not shipped yet.' }),
      ]),
    });
    const search = await runCli(['search', '--schemas', dir, '--typos', 'cancle'], { cwd: dir });
    expect(search.stdout).toBe(
      '#  TOOL          GROUP  SCORE   MATCHED\n1  cancel_order  shop   0.7692  cancle~cancel\n',
    );
    const select = await runCli(
      ['select', '--schemas', dir, '--relevance', '3', '--typos', 'cancle'],
      { cwd: dir },
    );
    expect(select.stderr).toBe('');
    // the search score plus the raise of the group that has the best tool (0.2)
    expect(select.stdout).toBe(
      'TOOL          GROUP       STRATEGY   WHY\ncancel_order  shop@1.0.0  relevance  relevance: cancle~cancel (score 0.9692)\n',
    );
  });
});
