import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolcapError } from '../../src/errors/toolcap-error.js';
import { translate } from '../../src/providers/translate.js';
import { selectTools } from '../../src/select/select-tools.js';
import { SelectionIndex } from '../../src/select/selection-index.js';
import type { SelectOptions } from '../../src/select/types.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { group, keywordGroup, registryOf, selectedGroups, tool } from './fixtures.js';

const SCHEMAS = join(import.meta.dirname, '../../schemas');
const USER = { user_id: 'u1', workspace_root: '/w' };

describe('always strategy', () => {
  it('pins the group in every selection, with an empty explanation', async () => {
    const registry = await loadRegistry({ dirs: [SCHEMAS] });
    for (const message of ['hello', '', 'schedule a meeting']) {
      const journal = registry
        .select(message, { context: USER })
        .tools.filter((selected) => selected.group === 'journal');
      expect(journal.map((selected) => selected.name)).toEqual([
        'recall_journal',
        'write_journal',
        'search_journals',
      ]);
      expect(journal[0]!.reason).toEqual({ strategy: 'always', matched: [] });
    }
  });
});

describe('context strategy', () => {
  const docs = group('project_docs', { strategy: 'context' }, [
    tool('list_docs', {}, { requires_context: ['project_id'] }),
    tool('read_doc', {}, { requires_context: ['project_id', 'user_id'] }),
  ]);
  const registry = registryOf([docs]);

  it('selects each tool whose own requires_context keys are set, naming them', () => {
    const selection = registry.select('open it', { context: { project_id: 'p1', user_id: 'u1' } });
    expect(selection.names).toEqual(['list_docs', 'read_doc']);
    expect(selection.tools.map((selected) => selected.reason)).toEqual([
      { strategy: 'context', matched: ['project_id'] },
      { strategy: 'context', matched: ['project_id', 'user_id'] },
    ]);
    expect(selection.dropped).toEqual([]);
  });

  it('drops the tools whose keys are missing, null or undefined, and says which keys', () => {
    const partial = registry.select('show me my docs', { context: { project_id: 'p1' } });
    expect(partial.names).toEqual(['list_docs']);
    expect(partial.dropped).toEqual([
      {
        name: 'read_doc',
        group: 'project_docs',
        code: 'MISSING_CONTEXT',
        reason:
          'its context group is offered only with context user_id, which this turn does not set; pass context.user_id',
      },
    ]);
    for (const context of [{}, { project_id: null, user_id: 'u1' }, { project_id: undefined }]) {
      const selection = registry.select('open it', { context });
      expect(selection.tools).toEqual([]);
      expect(selection.dropped.map((drop) => [drop.name, drop.code])).toEqual([
        ['list_docs', 'MISSING_CONTEXT'],
        ['read_doc', 'MISSING_CONTEXT'],
      ]);
    }
  });

  it('does not read inherited keys', () => {
    const context = Object.create({ project_id: 'p1', user_id: 'u1' }) as Record<string, unknown>;
    expect(registry.select('open it', { context }).tools).toEqual([]);
  });

  it('treats registry services as available keys', () => {
    const withServices = registryOf([docs], { services: { user_id: {}, project_id: {} } });
    expect(withServices.select('open it').names).toEqual(['list_docs', 'read_doc']);
  });

  it('calls a named context_check with (context, message)', () => {
    const calls: unknown[] = [];
    const checked = registryOf(
      [group('admin', { strategy: 'context', context_check: 'isAdmin' }, [tool('ban_user')])],
      {
        contextChecks: {
          isAdmin: (context, message) => {
            calls.push([context, message]);
            return context.role === 'admin';
          },
        },
      },
    );
    const selection = checked.select('ban him', { context: { role: 'admin' } });
    expect(selection.names).toEqual(['ban_user']);
    expect(selection.tools[0]!.reason).toEqual({ strategy: 'context', matched: ['isAdmin'] });
    expect(calls).toEqual([[{ role: 'admin' }, 'ban him']]);
    expect(checked.select('ban him', { context: { role: 'user' } }).names).toEqual([]);
  });

  it('lets a context_check select on the same registry while the turn is under way', () => {
    const inner: string[][] = [];
    let registry: ReturnType<typeof registryOf> | undefined;
    registry = registryOf(
      [
        group('pinned', { strategy: 'always' }, [tool('pin_one'), tool('pin_two')]),
        group('admin', { strategy: 'context', context_check: 'nested' }, [tool('ban_user')]),
        group('calendar', { strategy: 'keyword', keywords: ['meeting'] }, [tool('add_event')]),
      ],
      {
        contextChecks: {
          nested: () => {
            // one level deep: the inner turn's own check does not select again
            if (inner.length === 0) {
              inner.push([]);
              inner[0] = [...registry!.select('a meeting').names];
            }
            return true;
          },
        },
      },
    );
    // the outer turn's candidates survive the inner turn, and the inner one sees its own
    expect(registry.select('plan a meeting').names).toEqual([
      'pin_one',
      'pin_two',
      'ban_user',
      'add_event',
    ]);
    expect(inner).toEqual([['pin_one', 'pin_two', 'ban_user', 'add_event']]);
    expect(registry.select('nothing here').names).toEqual(['pin_one', 'pin_two', 'ban_user']);
  });

  it('warns and leaves the group out when the check throws', () => {
    const failing = registryOf(
      [group('admin', { strategy: 'context', context_check: 'boom' }, [tool('ban_user')])],
      {
        contextChecks: {
          boom: () => {
            throw new Error('no session');
          },
        },
      },
    );
    const selection = failing.select('ban him');
    expect(selection.names).toEqual([]);
    expect(selection.warnings).toEqual([
      {
        code: 'CONTEXT_CHECK_FAILED',
        message: expect.stringContaining('threw (no session)'),
      },
    ]);
  });

  it('warns and leaves the group out when an async check returns a Promise, and never lets it reject unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const checks = {
        rejects: async () => {
          throw new Error('ticket service down');
        },
        resolves: async () => true,
        forgets: (() => undefined) as unknown as () => boolean,
      };
      const registry = registryOf(
        [
          group('tickets', { strategy: 'context', context_check: 'rejects' }, [
            tool('close_ticket'),
          ]),
          group('admin', { strategy: 'context', context_check: 'resolves' }, [tool('ban_user')]),
          group('notes', { strategy: 'context', context_check: 'forgets' }, [tool('add_note')]),
        ],
        { contextChecks: checks as never },
      );
      const selection = registry.select('close it');
      expect(selection.names).toEqual([]);
      expect(selection.warnings.map((warning) => warning.message)).toEqual([
        'context_check "rejects" of group "tickets" returned a Promise: context checks must answer true or false synchronously, as select does not wait; compute the answer before the turn and pass it in the context; the group is left out of this turn',
        'context_check "resolves" of group "admin" returned a Promise: context checks must answer true or false synchronously, as select does not wait; compute the answer before the turn and pass it in the context; the group is left out of this turn',
        'context_check "forgets" of group "notes" returned undefined, not true or false; the group is left out of this turn',
      ]);
      expect(selection.dropped.find((drop) => drop.name === 'add_note')?.reason).toBe(
        'its group\'s context_check "forgets" gave no true/false answer (see the warnings)',
      );
      // the rejection settles after the turn: it must be handled, not crash the process
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('warns when the named check is not registered', () => {
    const registry = registryOf(
      [group('admin', { strategy: 'context', context_check: 'isAdmin' }, [tool('ban_user')])],
      { contextChecks: { isAdmin: () => true } },
    );
    // a snapshot without the predicate (the loader reports unknown names as diagnostics)
    const index = new SelectionIndex({
      tools: registry.list(),
      groups: registry.groups(),
      contextChecks: new Map(),
      estimateTokens: () => 0,
    });
    const selection = selectTools(index, 'ban him');
    expect(selection.names).toEqual([]);
    expect(selection.warnings[0]).toMatchObject({ code: 'UNKNOWN_CONTEXT_CHECK' });
  });

  it('ranks a group whose tools are not next to each other in the catalog like one that is', () => {
    const registry = registryOf([
      group('files', { strategy: 'keyword', keywords: ['file'] }, [
        tool('read_file', { description: 'Read a file from disk.' }),
        tool('delete_file', { description: 'Delete a file forever.' }),
        tool('copy_file', { description: 'Copy a file to a folder.' }),
      ]),
      group('notes', { strategy: 'keyword', keywords: ['note'] }, [
        tool('add_note', { description: 'Add a note to a file.' }),
      ]),
    ]);
    const [read, remove, copy, note] = registry.list();
    // files' tools in two runs of the catalog, [0, 1) and [2, 4), with notes' between them
    const split = new SelectionIndex({
      tools: [read!, note!, remove!, copy!],
      groups: registry.groups(),
      contextChecks: new Map(),
      estimateTokens: () => 0,
    });
    const scores = (selection: {
      tools: readonly { name: string; reason: { score?: number } }[];
    }) =>
      Object.fromEntries(selection.tools.map((selected) => [selected.name, selected.reason.score]));
    const message = 'delete the file and copy the note to a folder';
    const whole = registry.select(message);
    const parts = selectTools(split, message);
    expect(parts.names).toEqual(['read_file', 'add_note', 'delete_file', 'copy_file']);
    expect(scores(parts)).toEqual(scores(whole));
    expect(scores(parts).copy_file).toBeGreaterThan(scores(parts).read_file!);
  });

  it('gives the same answer when a context check selects on the same registry', () => {
    // the selector reuses per-call buffers; a check that selects again must not corrupt them
    const groups = [
      keywordGroup('mail', ['email']),
      group('admin', { strategy: 'context', context_check: 'nested' }, [tool('ban_user')]),
      keywordGroup('calendar', ['meeting']),
    ];
    let inner: string[] = [];
    const nested = registryOf(groups, {
      contextChecks: {
        nested: () => {
          inner = nested.select('an email about the meeting').names.slice();
          return true;
        },
      },
    });
    const plain = registryOf(groups, { contextChecks: { nested: () => true } });
    const outer = nested.select('book a meeting', { maxTools: 2 });
    expect(inner).toEqual(['mail_tool', 'ban_user', 'calendar_tool']);
    expect(outer.names).toEqual(plain.select('book a meeting', { maxTools: 2 }).names);
    expect(outer.names).toEqual(['ban_user', 'calendar_tool']);
  });

  it('selects a context group whose tools require nothing (vacuous condition)', () => {
    const open = registryOf([group('misc', { strategy: 'context' }, [tool('ping')])]);
    expect(open.select('hi').tools[0]!.reason).toEqual({ strategy: 'context', matched: [] });
  });
});

describe('requires_context drops', () => {
  it('drops a selected tool whose keys are missing and says which and how', async () => {
    const registry = await loadRegistry({ dirs: [SCHEMAS] });
    const selection = registry.select('schedule a meeting');
    expect(selection.tools).toEqual([]);
    expect(selection.dropped).toContainEqual({
      name: 'create_event',
      group: 'calendar',
      code: 'MISSING_CONTEXT',
      reason: 'requires context user_id, which this turn does not set; pass context.user_id',
    });
    // the project docs' context group first (its strategy's verdict), then the filter's drops
    expect(selection.dropped.map((drop) => drop.name)).toEqual([
      'list_project_docs',
      'read_project_doc',
      'write_project_doc',
      'search_project_docs',
      'recall_journal',
      'write_journal',
      'search_journals',
      'create_event',
      'get_agenda',
      'update_event',
      'cancel_event',
    ]);
  });

  it('keeps them with requireContext: false', async () => {
    const registry = await loadRegistry({ dirs: [SCHEMAS] });
    const selection = registry.select('schedule a meeting', { requireContext: false });
    expect(selection.dropped).toEqual([]);
    expect(selection.names).toContain('create_event');
    // a context group without a context_check is offered as if its tools' keys were set
    expect(
      selection.tools.filter((selected) => selected.group === 'project_docs').map((t) => t.reason),
    ).toEqual(Array(4).fill({ strategy: 'context', matched: ['project_id'] }));
  });

  it('keeps a context group decided by its keys with requireContext: false', () => {
    const clock = registryOf([
      group('clock', { strategy: 'context' }, [
        tool('local_time', {}, { requires_context: ['timezone'] }),
      ]),
      group('calendar', { strategy: 'keyword', keywords: ['time'] }, [
        tool('calendar_tool', {}, { requires_context: ['user_id'] }),
      ]),
    ]);
    const strict = clock.select('what time is it');
    // the strategy's verdict and the filter's say which dropped the tool
    expect(strict.dropped.map((drop) => [drop.name, drop.reason])).toEqual([
      [
        'local_time',
        'its context group is offered only with context timezone, which this turn does not set; pass context.timezone',
      ],
      [
        'calendar_tool',
        'requires context user_id, which this turn does not set; pass context.user_id',
      ],
    ]);
    const loose = clock.select('what time is it', { requireContext: false });
    expect(loose.names).toEqual(['local_time', 'calendar_tool']);
    expect(loose.dropped).toEqual([]);
  });

  it('leaves a context_check the verdict with requireContext: false', () => {
    const checked = registryOf(
      [
        group('clock', { strategy: 'context', context_check: 'never' }, [
          tool('local_time', {}, { requires_context: ['timezone'] }),
        ]),
      ],
      { contextChecks: { never: () => false } },
    );
    expect(checked.select('hi', { requireContext: false }).dropped).toMatchObject([
      { name: 'local_time', code: 'CONTEXT_NOT_MET' },
    ]);
  });
});

describe('history strategy', () => {
  const registry = registryOf([
    keywordGroup('calendar', ['schedule', 'meeting']),
    keywordGroup('tasks', ['task']),
    keywordGroup('files', ['file']),
  ]);

  it('keeps the groups of recent user messages', () => {
    const selection = registry.select('move it to Friday', {
      history: ['schedule a meeting with Dana'],
    });
    expect(selection.names).toEqual(['calendar_tool']);
    expect(selection.tools[0]!.reason).toMatchObject({
      strategy: 'history',
      matched: ['schedule', 'meeting'],
    });
  });

  it('keeps the groups of tools called recently', () => {
    const selection = registry.select('and the other one', {
      history: [{ tool: 'tasks_tool' }, { message: 'open the file' }],
    });
    expect(selection.tools.map((selected) => [selected.name, selected.reason.matched])).toEqual([
      ['tasks_tool', ['tasks_tool']],
      ['files_tool', ['file']],
    ]);
  });

  it('counts only the latest historyWindow entries (default 4)', () => {
    const history = ['open the file', 'a', 'b', 'c', 'd'];
    expect(selectedGroups(registry, 'next', { history })).toEqual([]);
    expect(selectedGroups(registry, 'next', { history, historyWindow: 5 })).toEqual(['files']);
    expect(
      selectedGroups(registry, 'next', { history: ['open the file'], historyWindow: 0 }),
    ).toEqual([]);
  });

  it('lets the current message win: a matched group stays a keyword match', () => {
    const selection = registry.select('add a task', { history: ['the task list'] });
    expect(selection.tools[0]!.reason.strategy).toBe('keyword');
  });

  it('warns about unknown tool names', () => {
    const selection = registry.select('next', { history: [{ tool: 'nope' }] });
    expect(selection.warnings).toEqual([
      {
        code: 'UNKNOWN_HISTORY_TOOL',
        message: 'history names tool "nope", which is not in the registry; it is ignored',
        tool: 'nope',
      },
    ]);
    const close = registry.select('next', { history: [{ tool: 'tasks_tol' }] });
    expect(close.warnings.map((warning) => warning.message)).toEqual([
      'history names tool "tasks_tol", which is not in the registry (did you mean "tasks_tool"?); it is ignored',
    ]);
  });

  it('applies typo tolerance to history too', () => {
    const selection = registry.select('next', { history: ['shedule'], typoTolerance: true });
    expect(selection.tools[0]!.reason).toMatchObject({
      strategy: 'history',
      matched: ['schedule'],
      typos: [{ keyword: 'schedule', word: 'shedule' }],
    });
  });

  it('ranks history groups after keyword groups under a budget', () => {
    const selection = registry.select('open the file', { history: ['a task'], maxTools: 1 });
    expect(selection.names).toEqual(['files_tool']);
    expect(selection.dropped).toMatchObject([{ name: 'tasks_tool', code: 'OVER_MAX_TOOLS' }]);
  });
});

describe('fallback', () => {
  const registry = registryOf([
    group('weather', { strategy: 'keyword', keywords: ['forecast'] }, [
      tool('get_weather', { description: 'Current weather and temperature for a city.' }),
      tool('get_rain_radar', { description: 'Rain radar images for a region.' }),
    ]),
    group('journal', { strategy: 'always' }, [tool('write_journal')]),
    group('docs', { strategy: 'context' }, [
      tool(
        'weather_docs',
        { description: 'Weather documents.' },
        { requires_context: ['project_id'] },
      ),
    ]),
  ]);

  it('is off by default: no keyword match, no keyword tools', () => {
    expect(registry.select('what is the weather in Paris').names).toEqual(['write_journal']);
  });

  it('offers the top-k tools of keyword groups by relevance', () => {
    const selection = registry.select('what is the weather in Paris', {
      fallback: { k: 1, minScore: 0.05 },
    });
    expect(selection.names).toEqual(['get_weather', 'write_journal']);
    expect(selection.tools[0]!.reason).toEqual({
      strategy: 'fallback',
      matched: ['weather'],
      matched_words: ['weather'],
      score: expect.any(Number),
    });
    expect(selection.tools[0]!.reason.score).toBeGreaterThanOrEqual(0.05);
  });

  it('abstains below the minimum score, with a warning', () => {
    const selection = registry.select('what is the weather in Paris', {
      fallback: { k: 3, minScore: 0.99 },
    });
    expect(selection.names).toEqual(['write_journal']);
    expect(selection.warnings).toEqual([
      {
        code: 'FALLBACK_ABSTAINED',
        message: expect.stringMatching(/minimum relevance 0\.99 \(best 0\.\d+\)/),
      },
    ]);
    expect(registry.select('hello there', { fallback: {} }).warnings[0]?.code).toBe(
      'FALLBACK_ABSTAINED',
    );
  });

  it('is not used when a keyword group matched', () => {
    const selection = registry.select('forecast for Paris', { fallback: { k: 5, minScore: 0 } });
    expect(selection.tools.map((selected) => selected.reason.strategy)).toEqual([
      'keyword',
      'keyword',
      'always',
    ]);
  });

  it('accepts "none"', () => {
    expect(registry.select('weather', { fallback: 'none' }).names).toEqual(['write_journal']);
  });
});

describe('selection output', () => {
  const registry = registryOf([
    keywordGroup('alpha', ['alpha']),
    group('beta', { strategy: 'keyword', keywords: ['beta'] }, [
      tool('beta_one', { title: 'Beta one', tags: ['beta'], annotations: { readOnlyHint: true } }),
      tool('beta_two', { examples: [{}], output_schema: { type: 'object' } }),
    ]),
    group('pins', { strategy: 'always' }, [tool('pinned')]),
  ]);

  it('lists tools in catalog order by default, with their names for allowed_tools', () => {
    const selection = registry.select('beta and alpha');
    expect(selection.names).toEqual(['alpha_tool', 'beta_one', 'beta_two', 'pinned']);
    expect(selection.tools.map((selected) => selected.name)).toEqual(selection.names);
  });

  it('orders by priority and relevance with order: "relevance"', () => {
    const selection = registry.select('beta one and alpha', { order: 'relevance' });
    expect(selection.names[0]).toBe('pinned');
  });

  it('is byte-identical across repeated turns (prompt caching)', () => {
    const first = registry.select('beta and alpha');
    const second = registry.select('beta and alpha');
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(JSON.stringify(translate(second.tools, 'anthropic'))).toBe(
      JSON.stringify(translate(first.tools, 'anthropic')),
    );
  });

  it('carries every registered field plus the reason', () => {
    const selection = registry.select('beta');
    for (const selected of selection.tools) {
      const registered = registry.get(selected.name)!;
      const { reason, ...rest } = selected;
      expect(rest).toEqual({ ...registered });
      expect(Object.keys(rest).sort()).toEqual(Object.keys(registered).sort());
      expect(reason.strategy).toBeDefined();
    }
  });

  it('hands out fresh objects: changing a selection changes no later one', () => {
    const first = registry.select('beta and alpha');
    const expected = JSON.stringify(first);
    const tool = first.tools[0] as unknown as {
      description: string;
      reason: { matched: string[] };
    };
    tool.description = 'changed';
    tool.reason.matched.push('changed');
    (first.names as string[]).push('changed');
    (first.dropped as unknown[]).push({ name: 'changed' });
    expect(JSON.stringify(registry.select('beta and alpha'))).toBe(expected);
  });

  it('translates directly', () => {
    const selection = registry.select('beta');
    const result = translate(selection.tools, 'openai');
    expect(result.payload.map((entry) => entry.function.name)).toEqual(selection.names);
  });

  it('selects nothing for an empty message (but pins)', () => {
    expect(registry.select('').names).toEqual(['pinned']);
  });
});

describe('select option validation', () => {
  const registry = registryOf([keywordGroup('alpha', ['alpha'])]);
  const invalid: [SelectOptions, RegExp][] = [
    [{ maxTools: 0 }, /maxTools must be a positive integer, got 0/],
    [{ maxTools: 1.5 }, /maxTools must be a positive integer/],
    [{ maxTokens: -1 }, /maxTokens must be a positive integer/],
    [{ maxTools: Number.POSITIVE_INFINITY }, /maxTools must be a positive integer, got Infinity/],
    [{ maxTools: Number.NaN }, /maxTools must be a positive integer, got NaN/],
    [
      { historyWindow: -1 },
      /historyWindow must be an integer of 0 or more \(0: no history counts\), got -1/,
    ],
    [{ maxCost: 'cheap' as never }, /maxCost must be one of "low", "medium", "high", got "cheap"/],
    [{ maxLatency: 'instant' as never }, /maxLatency must be one of "fast", "medium", "slow"/],
    [{ categories: ['reading'] as never }, /categories\[\] must be one of "creation"/],
    [{ categories: [] }, /categories must be a non-empty array/],
    [{ categories: 'retrieval' as never }, /categories must be a non-empty array/],
    [
      { provider: 'openia' as never },
      /provider must be one of "openai", .*"canonical", got "openia"; did you mean "openai"\?$/,
    ],
    [
      { provider: 'gemini' as never },
      /provider must be one of "openai", "openai-responses", "anthropic", "google", "bedrock", "mcp", "canonical", got "gemini"; did you mean "google"\?$/,
    ],
    [{ provider: 'xyz' as never }, /provider must be one of "openai", .*"canonical", got "xyz"$/],
    [{ fallback: 'some' as never }, /fallback must be "none" or \{ k, minScore \}/],
    [{ fallback: { k: 0 } }, /fallback\.k must be a positive integer/],
    [{ fallback: { minScore: 2 } }, /fallback\.minScore must be a number from 0 to 1/],
    [{ order: 'random' as never }, /order must be one of "catalog", "relevance"/],
    [{ context: [] as never }, /context must be an object/],
    [{ history: 'hello' as never }, /history must be an array/],
    [
      { history: ['hi', 42] as never },
      /history\[1\] must be a string \(a user message\), \{ message: string \} or \{ tool: string \} \(a tool called\), got 42/,
    ],
    [
      { history: [{ tool: 'alpha_tool', message: 'hi' }] as never },
      /history\[0\] has both message and tool; give them as two entries, \{ message \} for what the user said and \{ tool \} for the tool called/,
    ],
    [
      { history: [{ tools: 'alpha_tool' }] as never },
      /history\[0\] has an unknown member "tools"; did you mean "tool"\? Members: message, tool/,
    ],
    [{ history: [{ tool: 3 }] as never }, /history\[0\]\.tool must be a string, got 3/],
    [{ typoTolerance: 'yes' as never }, /typoTolerance must be true or false, got "yes"/],
    [{ typoTolerance: 1 as never }, /typoTolerance must be true or false, got 1/],
    [{ requireContext: 'false' as never }, /requireContext must be true or false, got "false"/],
    [{ requireContext: 0 as never }, /requireContext must be true or false, got 0/],
    [
      { fallback: { min_score: 0.99 } as never },
      /fallback has an unknown member "min_score"; did you mean "minScore"\? Members: k, minScore/,
    ],
    [
      { relevance: { min_score: 0.99, n: 3 } as never },
      /relevance has an unknown member "min_score"; did you mean "minScore"\? Members: k, minScore/,
    ],
    [{ fallback: [] as never }, /fallback must be "none" or \{ k, minScore \}, got an array of 0/],
  ];
  it.each(invalid)('rejects %j', (options, message) => {
    let error: unknown;
    try {
      registry.select('alpha', options);
    } catch (caught) {
      error = caught;
    }
    expect(ToolcapError.isInstance(error)).toBe(true);
    expect((error as ToolcapError).code).toBe('INVALID_SELECT_OPTION');
    expect((error as Error).message).toMatch(message);
  });
});
