import { describe, expect, it } from 'vitest';
import { ProviderResponseError } from '../../src/providers/provider-response-error.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';

const bundled = () => loadRegistry({ dirs: ['schemas'], strict: true });

/** Every context key the bundled tools require, so a search may load any of them. */
const FULL_CONTEXT = { user_id: 'u_1', workspace_root: '/tmp/workspace', project_id: 'p_1' };

const anthropicSearch = (input: unknown) => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id: 'toolu_s', name: 'search_tools', input }],
});

describe('registry.executeToolCalls', () => {
  it('returns no results and no messages for a response without calls', async () => {
    const registry = await bundled();
    expect(
      await registry.executeToolCalls('anthropic', {
        content: [{ type: 'text', text: 'Done.' }],
      }),
    ).toEqual({ results: [], messages: [] });
    expect(
      await registry.executeToolCalls('openai', { role: 'assistant', content: 'Done.' }),
    ).toEqual({ results: [], messages: [] });
  });

  it('rejects with a ProviderResponseError when the response is another provider’s', async () => {
    const registry = await bundled();
    await expect(
      registry.executeToolCalls('openai', { content: [] } as never),
    ).rejects.toBeInstanceOf(ProviderResponseError);
    await expect(registry.executeToolCalls('mcp' as never, {} as never)).rejects.toMatchObject({
      code: 'UNSUPPORTED_PROVIDER',
    });
  });

  it('passes the execute options to every call (here: the allowed set)', async () => {
    const registry = await bundled();
    const { results } = await registry.executeToolCalls(
      'openai',
      {
        role: 'assistant',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'file_read', arguments: '{}' } },
        ],
      },
      {},
      { allowed: ['list_tasks'] },
    );
    expect(results).toMatchObject([{ id: 'c1', ok: false, error: { code: 'NOT_SELECTED' } }]);
  });
});

describe('registry.executeToolCalls: options', () => {
  it('rejects unknown or malformed options with INVALID_OPTION, toolSearch included', async () => {
    const registry = await bundled();
    const none = { role: 'assistant', content: 'Done.' };
    await expect(
      registry.executeToolCalls('openai', none, {}, { toolSerch: {} } as never),
    ).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        'executeToolCalls: unknown option "toolSerch"; did you mean "toolSearch"? Options: timeoutMs, signal, maxInputBytes, maxOutputBytes, services, allowed, approve, needsApproval, applyDefaults, toolSearch',
    });
    await expect(
      registry.executeToolCalls('openai', none, {}, { maxOutputBytes: Number.NaN }),
    ).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        'executeToolCalls: option "maxOutputBytes" must be a positive number of bytes (Infinity for no limit), got NaN',
    });
    expect(
      await registry.executeToolCalls('openai', none, {}, { toolSearch: {}, timeoutMs: 1_000 }),
    ).toEqual({ results: [], messages: [] });
  });

  it('rejects a toolSearch limit that is not a whole number of 1 or more', async () => {
    const registry = await bundled();
    const none = { role: 'assistant', content: 'Done.' };
    for (const [limit, described] of [
      [0, '0'],
      [-2, '-2'],
      [2.5, '2.5'],
      ['5', '"5"'],
    ] as const) {
      await expect(
        registry.executeToolCalls('openai', none, {}, { toolSearch: { limit: limit as never } }),
      ).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        message: `executeToolCalls: option "toolSearch" has limit ${described}; limit must be a whole number of tools, 1 or more (default 5)`,
      });
    }
    await expect(
      registry.executeToolCalls('openai', none, {}, { toolSearch: [] as never }),
    ).rejects.toMatchObject({
      message:
        'executeToolCalls: option "toolSearch" must be an object such as { limit: 5 }, got an array of 0',
    });
    await expect(
      registry.executeToolCalls('openai', none, {}, { toolSearch: { limt: 3 } as never }),
    ).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        'executeToolCalls: option "toolSearch" has the unknown member "limt"; did you mean "limit"? Members: limit, minScore, within, translateOptions',
    });
  });
});

describe('client-side tool search', () => {
  it('answers a search with the best matches by relevance, at most `limit`', async () => {
    const registry = await bundled();
    const { results, messages } = await registry.executeToolCalls(
      'anthropic',
      anthropicSearch({ query: 'read a file' }),
      FULL_CONTEXT,
      { toolSearch: { limit: 2 } },
    );
    expect(results).toEqual([
      {
        id: 'toolu_s',
        name: 'search_tools',
        ok: true,
        output: { query: 'read a file', tools: ['file_read', 'file_edit'] },
      },
    ]);
    expect(messages[0]!.content[0]!.content).toEqual([
      { type: 'tool_reference', tool_name: 'file_read' },
      { type: 'tool_reference', tool_name: 'file_edit' },
    ]);
  });

  it('loads only tools `within` the request, however they rank', async () => {
    const registry = await bundled();
    const { results } = await registry.executeToolCalls(
      'anthropic',
      anthropicSearch({ query: 'read a file' }),
      FULL_CONTEXT,
      { toolSearch: { within: ['read_project_doc', 'list_tasks'] } },
    );
    expect(results[0]).toMatchObject({ output: { tools: ['read_project_doc'] } });
  });

  it('leaves out matches below minScore', async () => {
    const registry = await bundled();
    const { results } = await registry.executeToolCalls(
      'anthropic',
      anthropicSearch({ query: 'read a file' }),
      FULL_CONTEXT,
      { toolSearch: { minScore: 0.5 } },
    );
    expect(results[0]).toMatchObject({ output: { tools: ['file_read', 'file_edit'] } });
  });

  it('loads named tools and whole groups given as `paths` (OpenAI’s default search arguments)', async () => {
    const registry = await bundled();
    const { results, messages } = await registry.executeToolCalls(
      'openai-responses',
      [
        {
          type: 'tool_search_call',
          call_id: 'call_s',
          execution: 'client',
          arguments: { paths: ['tasks', 'file_read', 'no_such_thing'] },
        },
      ],
      FULL_CONTEXT,
    );
    expect(results).toEqual([
      {
        id: 'call_s',
        name: 'tool_search',
        ok: true,
        output: { tools: ['add_task', 'list_tasks', 'complete_task', 'file_read'] },
      },
    ]);
    expect(messages[0]).toMatchObject({
      type: 'tool_search_output',
      call_id: 'call_s',
      tools: [
        { name: 'add_task', defer_loading: true },
        { name: 'list_tasks' },
        { name: 'complete_task' },
        { name: 'file_read' },
      ],
    });
  });

  it('reads JSON-string search arguments, and asks for a query when there is none', async () => {
    const registry = await bundled();
    const found = await registry.executeToolCalls(
      'anthropic',
      anthropicSearch('{"query": "agenda"}'),
      {},
      { toolSearch: {} },
    );
    expect(found.results[0]).toMatchObject({ ok: true, output: { query: 'agenda' } });
    const empty = await registry.executeToolCalls(
      'anthropic',
      anthropicSearch({ q: 'agenda' }),
      {},
      { toolSearch: {} },
    );
    expect(empty.results[0]).toEqual({
      id: 'toolu_s',
      name: 'search_tools',
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message:
          'The tool search needs a "query": what you need a tool for, in a few words (for example {"query": "cancel a meeting"}).',
        details: [
          { pointer: '/query', message: 'missing required property "query"', keyword: 'required' },
        ],
      },
    });
    expect(empty.messages[0]!.content[0]).toMatchObject({ is_error: true });
  });

  it('treats a registry tool named search_tools as a tool, not as the search', async () => {
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'search_tools',
          description: 'Search the hardware store.',
          category: 'retrieval',
          input_schema: { type: 'object', properties: { query: { type: 'string' } } },
          execute: (input) => ({ hammers: [input.query] }),
        },
      ],
    });
    const { results } = await registry.executeToolCalls(
      'anthropic',
      anthropicSearch({ query: 'claw' }),
      {},
      { toolSearch: {} },
    );
    expect(results).toEqual([
      { id: 'toolu_s', name: 'search_tools', ok: true, output: { hammers: ['claw'] } },
    ]);
  });

  it('keeps results in the response’s order when searches and calls are mixed', async () => {
    const registry = await bundled();
    const { results } = await registry.executeToolCalls(
      'anthropic',
      {
        content: [
          { type: 'tool_use', id: 'a', name: 'no_tool', input: {} },
          { type: 'tool_use', id: 'b', name: 'search_tools', input: { query: 'agenda' } },
          { type: 'tool_use', id: 'c', name: 'other_missing', input: {} },
        ],
      },
      {},
      { toolSearch: {} },
    );
    expect(results.map((result) => [result.id, result.ok])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
  });

  it('loads only tools `allowed` would let run, from a query or from paths', async () => {
    const registry = await bundled();
    const tools = registry.list().map((tool) => tool.name);
    const selection = registry.select('add a task to buy milk', { context: FULL_CONTEXT });
    expect(selection.names).toContain('add_task');
    expect(selection.names).not.toContain('file_read');
    const allowed = [...selection.names, 'file_read'];
    const deferred = tools.filter((name) => !selection.names.includes(name));
    const { results, messages } = await registry.executeToolCalls(
      'anthropic',
      {
        content: [
          { type: 'tool_use', id: 's1', name: 'search_tools', input: { query: 'read a file' } },
          { type: 'tool_use', id: 's2', name: 'search_tools', input: { query: 'edit a file' } },
        ],
      },
      FULL_CONTEXT,
      { allowed, toolSearch: { within: deferred } },
    );
    // file_edit matches best but the same call's `allowed` would refuse it: NOT_SELECTED
    expect(results.map((result) => result.ok && result.output)).toEqual([
      { query: 'read a file', tools: ['file_read'] },
      { query: 'edit a file', tools: ['file_read'] },
    ]);
    expect(messages[0]!.content[0]!.content).toEqual([
      { type: 'tool_reference', tool_name: 'file_read' },
    ]);
    const byPath = await registry.executeToolCalls(
      'openai-responses',
      {
        type: 'tool_search_call',
        call_id: 'call_s',
        execution: 'client',
        arguments: { paths: ['files', 'tasks'] },
      },
      FULL_CONTEXT,
      { allowed: { names: ['file_read', 'list_tasks'] } },
    );
    expect(byPath.results[0]).toMatchObject({ output: { tools: ['file_read', 'list_tasks'] } });
    expect(byPath.messages[0]).toMatchObject({
      tools: [{ name: 'file_read' }, { name: 'list_tasks' }],
    });
  });

  it('loads no tool whose requires_context keys the context and services lack', async () => {
    const registry = await bundled();
    const search = { type: 'tool_search_call', call_id: 'c', execution: 'client' } as const;
    const files = { ...search, arguments: { paths: ['files', 'project_docs', 'journal'] } };
    // select would drop these tools (MISSING_CONTEXT); a call to them would fail the same way
    const none = await registry.executeToolCalls('openai-responses', files, {});
    expect(none.results[0]).toMatchObject({ ok: true, output: { tools: [] } });
    const some = await registry.executeToolCalls('openai-responses', files, { user_id: 'u_1' });
    expect(some.results[0]).toMatchObject({
      output: { tools: ['recall_journal', 'write_journal', 'search_journals'] },
    });
    // a null value counts as missing, as it does for a call; a service provides the key
    const served = await registry.executeToolCalls(
      'openai-responses',
      { ...search, arguments: { query: 'read a file' } },
      { workspace_root: null },
      { services: { workspace_root: '/tmp/workspace' } },
    );
    expect(served.results[0]).toMatchObject({ output: { tools: ['file_read', 'file_edit'] } });
  });

  it('answers Anthropic’s search_tools only when asked to: else it is an unknown tool', async () => {
    const registry = await bundled();
    const { results, messages } = await registry.executeToolCalls(
      'anthropic',
      anthropicSearch({ query: 'agenda' }),
    );
    expect(results).toMatchObject([{ ok: false, error: { code: 'TOOL_NOT_FOUND' } }]);
    // no tool_reference to a tool the request may not declare
    expect(messages[0]!.content[0]!.content).toEqual(expect.any(String));
  });
});

describe('registry.executeToolCalls: names under a prefix models add', () => {
  const names = [
    ['functions.list_tasks', 'functions.'],
    ['default_api:list_tasks', 'default_api:'],
    ['default_api.list_tasks', 'default_api.'],
    ['mcp__tasks__list_tasks', 'mcp__tasks__'],
    ['my_tools.list_tasks', 'my_tools.'],
  ] as const;

  it('suggests the tool without running it, for every provider', async () => {
    const registry = await bundled();
    for (const [name, prefix] of names) {
      const responses = {
        openai: {
          role: 'assistant',
          tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: '{}' } }],
        },
        google: { parts: [{ functionCall: { name, args: {} } }] },
        anthropic: { content: [{ type: 'tool_use', id: 'c1', name, input: {} }] },
      } as const;
      for (const [provider, response] of Object.entries(responses)) {
        const { results } = await registry.executeToolCalls(
          provider as 'openai',
          response as never,
          { user_id: 'u1' },
        );
        expect(results).toEqual([
          expect.objectContaining({
            ok: false,
            error: {
              code: 'TOOL_NOT_FOUND',
              message: `There is no tool named "${name}". Did you mean "list_tasks"? Call it by its name alone, without the prefix "${prefix}".`,
              details: { tool: name, suggestions: ['list_tasks'] },
            },
          }),
        ]);
      }
    }
  });

  it('suggests only a tool the turn allows', async () => {
    const registry = await bundled();
    const result = await registry.execute(
      'functions.list_tasks',
      {},
      { user_id: 'u1' },
      { allowed: ['add_task'] },
    );
    expect(result).toMatchObject({ ok: false, error: { details: { suggestions: [] } } });
  });
});
