import { describe, expect, it } from 'vitest';
import { needsApprovalByDefault } from '../../src/execute/approval-gate.js';
import { executeToolCalls } from '../../src/execute/execute-tool-calls.js';
import type { ToolCall } from '../../src/execute/types.js';
import type { RegisteredTool } from '../../src/format/types.js';
import type { FallbackTool } from '../../src/registry/fallback-tools.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import type { CreateRegistryOptions } from '../../src/toolcap/registry-options.js';

/** Records every input its tools receive, so tests see what a handler saw. */
function recordingRegistry(extra: FallbackTool[] = [], options: CreateRegistryOptions = {}) {
  const seen: { tool: string; input: Record<string, unknown> }[] = [];
  const record =
    (tool: string) =>
    (input: Record<string, unknown>): unknown => {
      seen.push({ tool, input });
      return { ran: tool, input };
    };
  const registry = createRegistry({
    fallbackTools: [
      {
        name: 'list_notes',
        description: 'List notes.',
        category: 'retrieval',
        input_schema: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, default: 10 },
            order: { type: 'string', enum: ['newest', 'oldest'], default: 'newest' },
            filter: {
              type: 'object',
              properties: {
                tag: { type: 'string' },
                archived: { type: 'boolean', default: false },
              },
            },
            labels: { type: 'array', items: { type: 'string' }, default: ['inbox'] },
          },
        },
        execute: record('list_notes'),
      },
      {
        name: 'delete_note',
        description: 'Delete a note.',
        category: 'mutation',
        input_schema: {
          type: 'object',
          properties: { id: { type: 'string' } },
          required: ['id'],
        },
        execute: record('delete_note'),
      },
      {
        name: 'add_note',
        description: 'Add a note.',
        category: 'creation',
        input_schema: {
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
        },
        execute: record('add_note'),
      },
      ...extra,
    ],
    ...options,
  });
  return { registry, seen };
}

describe('registry.execute: JSON-string arguments', () => {
  it('parses a JSON string and runs the tool with the object', async () => {
    const { registry, seen } = recordingRegistry();
    const result = await registry.execute('add_note', '{"text":"buy milk"}');
    expect(result).toEqual({ ok: true, output: { ran: 'add_note', input: { text: 'buy milk' } } });
    expect(seen).toEqual([{ tool: 'add_note', input: { text: 'buy milk' } }]);
  });

  it('reads an empty or blank string as {}', async () => {
    const { registry } = recordingRegistry();
    expect(await registry.execute('list_notes', '')).toMatchObject({ ok: true });
    expect(await registry.execute('list_notes', '  \n')).toMatchObject({
      ok: true,
      output: { input: {} },
    });
  });

  it('reports text that is not JSON as INVALID_INPUT with the parser reason, and runs nothing', async () => {
    const { registry, seen } = recordingRegistry();
    const result = await registry.execute('add_note', '{"text": "buy milk"');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_INPUT');
    expect(result.error.message).toMatch(
      /^The arguments for tool "add_note" are not valid JSON \(.+\)\. Send the arguments as one JSON object/,
    );
    expect(result.error.details).toEqual({ reason: expect.any(String) });
    expect(seen).toEqual([]);
  });

  it('refuses a string over maxInputBytes before parsing it', async () => {
    const { registry } = recordingRegistry();
    const text = JSON.stringify({ text: 'x'.repeat(200) });
    const result = await registry.execute('add_note', text, {}, { maxInputBytes: 100 });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'INPUT_TOO_LARGE',
        message: `The arguments for tool "add_note" are ${text.length} bytes of JSON, more than the 100-byte limit (executionLimits.maxInputBytes). Send a shorter input, e.g. split the content over several calls.`,
        details: { bytes: text.length, limit: 100 },
      },
    });
  });

  it('answers an unknown tool name with a TOOL_NOT_FOUND tool error, as executeToolCalls does', async () => {
    const { registry } = recordingRegistry();
    await expect(registry.execute('add_nots', '{}')).resolves.toMatchObject({
      ok: false,
      error: {
        code: 'TOOL_NOT_FOUND',
        message: expect.stringContaining('Did you mean "add_note"'),
      },
    });
  });
});

describe('allowed: only the turn’s tools run', () => {
  it('refuses a tool outside the list with NOT_SELECTED, naming the tools it may call', async () => {
    const { registry, seen } = recordingRegistry();
    const result = await registry.execute(
      'delete_note',
      { id: 'n1' },
      {},
      {
        allowed: ['list_notes', 'add_note'],
      },
    );
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'NOT_SELECTED',
        message:
          'Tool "delete_note" is not available in this turn, so it did not run. The tools you can call now: list_notes, add_note.',
        details: { tool: 'delete_note', allowed: ['list_notes', 'add_note'] },
      },
    });
    expect(seen).toEqual([]);
  });

  it('accepts a selection (its names) and lets its tools run', async () => {
    const { registry } = recordingRegistry();
    const selection = { names: ['add_note'] };
    expect(
      await registry.execute('add_note', { text: 'x' }, {}, { allowed: selection }),
    ).toMatchObject({ ok: true });
    expect(await registry.execute('list_notes', {}, {}, { allowed: selection })).toMatchObject({
      ok: false,
      error: { code: 'NOT_SELECTED' },
    });
  });

  it('refuses before validating: a bad call to a tool outside the turn is NOT_SELECTED', async () => {
    const { registry } = recordingRegistry();
    expect(await registry.execute('delete_note', '{oops', {}, { allowed: [] })).toMatchObject({
      ok: false,
      error: {
        code: 'NOT_SELECTED',
        message:
          'Tool "delete_note" is not available in this turn, so it did not run. No tools are available now.',
      },
    });
  });

  it('lists at most 20 names, then how many more', async () => {
    const { registry } = recordingRegistry();
    const names = Array.from({ length: 25 }, (_, index) => `tool_${index}`);
    const result = await registry.execute('add_note', {}, {}, { allowed: names });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toContain('tool_19, and 5 more.');
    expect(result.error.message).not.toContain('tool_20');
  });
});

describe('approve: gating mutations', () => {
  it('asks about mutation tools only by default, with the call and the tool', async () => {
    const { registry } = recordingRegistry();
    const asked: { call: ToolCall; tool: string }[] = [];
    const approve = (call: ToolCall, tool: RegisteredTool) => {
      asked.push({ call, tool: tool.name });
      return true;
    };
    expect(await registry.execute('add_note', { text: 'x' }, {}, { approve })).toMatchObject({
      ok: true,
    });
    expect(await registry.execute('delete_note', { id: 'n1' }, {}, { approve })).toMatchObject({
      ok: true,
    });
    expect(asked).toEqual([
      { call: { name: 'delete_note', input: { id: 'n1' } }, tool: 'delete_note' },
    ]);
  });

  it('refuses a denied call with NOT_APPROVED and never runs the handler', async () => {
    const { registry, seen } = recordingRegistry();
    const result = await registry.execute(
      'delete_note',
      { id: 'n1' },
      {},
      { approve: () => false },
    );
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'NOT_APPROVED',
        message:
          'The call to tool "delete_note" was not approved, so it did not run. Do not call it again unless the user asks you to; tell the user what you wanted to do instead.',
        details: { tool: 'delete_note' },
      },
    });
    expect(seen).toEqual([]);
  });

  it.each([
    ['"yes"', 'yes'],
    ['1', 1],
    ['undefined', undefined],
  ])('approves only true: %s refuses', async (_label, answer) => {
    const { registry } = recordingRegistry();
    const result = await registry.execute(
      'delete_note',
      { id: 'n1' },
      {},
      { approve: () => answer as unknown as boolean },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'NOT_APPROVED' } });
  });

  it('fails closed when the hook throws or rejects', async () => {
    const { registry, seen } = recordingRegistry();
    for (const approve of [
      () => {
        throw new Error('prompt closed');
      },
      () => Promise.reject(new Error('prompt closed')),
    ]) {
      const result = await registry.execute('delete_note', { id: 'n1' }, {}, { approve });
      expect(result).toEqual({
        ok: false,
        error: {
          code: 'NOT_APPROVED',
          message:
            'The call to tool "delete_note" could not be approved (the approval check failed), so it did not run.',
          details: { tool: 'delete_note', reason: 'prompt closed' },
        },
      });
    }
    expect(seen).toEqual([]);
  });

  it('asks only about valid calls: an invalid input is INVALID_INPUT without a question', async () => {
    const { registry } = recordingRegistry();
    let asked = 0;
    const result = await registry.execute(
      'delete_note',
      { id: 42 },
      {},
      {
        approve: () => {
          asked++;
          return true;
        },
      },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(asked).toBe(0);
  });

  it('gives the hook a copy: changing it does not change what the handler gets', async () => {
    const { registry, seen } = recordingRegistry();
    await registry.execute(
      'delete_note',
      { id: 'n1' },
      {},
      {
        approve: (call) => {
          call.input.id = 'other';
          return true;
        },
      },
    );
    expect(seen).toEqual([{ tool: 'delete_note', input: { id: 'n1' } }]);
  });

  it('needsApproval: true asks about every tool; a function chooses', async () => {
    const { registry } = recordingRegistry();
    const asked: string[] = [];
    const approve = (call: ToolCall) => {
      asked.push(call.name);
      return true;
    };
    await registry.execute('list_notes', {}, {}, { approve, needsApproval: true });
    await registry.execute(
      'add_note',
      { text: 'x' },
      {},
      {
        approve,
        needsApproval: (tool) => tool.category === 'creation',
      },
    );
    await registry.execute(
      'delete_note',
      { id: 'x' },
      {},
      {
        approve,
        needsApproval: (tool) => tool.category === 'creation',
      },
    );
    expect(asked).toEqual(['list_notes', 'add_note']);
  });

  it('the default rule: mutation tools and tools annotated destructiveHint: true', () => {
    const tool = (category: RegisteredTool['category'], destructiveHint?: boolean) =>
      ({
        category,
        ...(destructiveHint === undefined ? {} : { annotations: { destructiveHint } }),
      }) as RegisteredTool;
    expect(needsApprovalByDefault(tool('mutation'))).toBe(true);
    expect(needsApprovalByDefault(tool('creation', true))).toBe(true);
    expect(needsApprovalByDefault(tool('creation'))).toBe(false);
    expect(needsApprovalByDefault(tool('creation', false))).toBe(false);
    expect(needsApprovalByDefault(tool('retrieval'))).toBe(false);
  });
});

describe('executeToolCalls (execute layer): many calls at once', () => {
  it('asks one call at a time, in the calls’ order, while approved calls already run', async () => {
    const { registry } = recordingRegistry();
    const events: string[] = [];
    const answers: ((value: boolean) => void)[] = [];
    const approve = (call: ToolCall) => {
      events.push(`ask ${call.id}`);
      return new Promise<boolean>((resolve) => answers.push(resolve));
    };
    const pending = executeToolCalls(
      registry,
      [
        { id: 'a', name: 'delete_note', input: { id: '1' } },
        { id: 'b', name: 'list_notes', input: {} },
        { id: 'c', name: 'delete_note', input: { id: '2' } },
      ],
      {},
      { approve },
    );
    await new Promise((resolve) => setImmediate(resolve));
    // the second question waits for the first answer
    expect(events).toEqual(['ask a']);
    answers[0]!(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['ask a', 'ask c']);
    answers[1]!(false);
    const results = await pending;
    expect(results.map((result) => [result.id, result.ok])).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
    ]);
  });

  it('ends a call waiting for approval as ABORTED when the signal aborts', async () => {
    const { registry } = recordingRegistry();
    const controller = new AbortController();
    const pending = executeToolCalls(
      registry,
      [
        { id: 'a', name: 'delete_note', input: { id: '1' } },
        { id: 'b', name: 'delete_note', input: { id: '2' } },
      ],
      {},
      { approve: () => new Promise<boolean>(() => {}), signal: controller.signal },
    );
    controller.abort(new Error('user left'));
    const results = await pending;
    expect(results).toEqual([
      {
        id: 'a',
        name: 'delete_note',
        ok: false,
        error: {
          code: 'ABORTED',
          message: 'The call to tool "delete_note" was cancelled while it waited for approval.',
          details: { reason: 'user left' },
        },
      },
      expect.objectContaining({ id: 'b', error: expect.objectContaining({ code: 'ABORTED' }) }),
    ]);
  });

  it('runs calls in parallel: each call starts before the others finish', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: string[] = [];
    const { registry } = recordingRegistry([
      {
        name: 'first',
        description: 'Waits for second.',
        category: 'retrieval',
        execute: async () => {
          started.push('first');
          await gate;
          return 'first done';
        },
      },
      {
        name: 'second',
        description: 'Lets first finish.',
        category: 'retrieval',
        execute: () => {
          started.push('second');
          release();
          return 'second done';
        },
      },
    ]);
    const results = await executeToolCalls(
      registry,
      [
        { id: '1', name: 'first', input: {} },
        { id: '2', name: 'second', input: {} },
      ],
      {},
      {},
    );
    expect(started).toEqual(['first', 'second']);
    expect(results).toEqual([
      { id: '1', name: 'first', ok: true, output: 'first done' },
      { id: '2', name: 'second', ok: true, output: 'second done' },
    ]);
  });

  it('answers an unknown name with TOOL_NOT_FOUND, suggesting only tools the turn allows', async () => {
    const { registry } = recordingRegistry();
    const [open, narrowed, nameless] = await executeToolCalls(
      registry,
      [
        { id: '1', name: 'delete_notes', input: {} },
        { id: '2', name: 'delete_notes', input: {} },
        { id: '3', name: '', input: {} },
      ],
      {},
      {},
    );
    expect(open).toEqual({
      id: '1',
      name: 'delete_notes',
      ok: false,
      error: {
        code: 'TOOL_NOT_FOUND',
        message: 'There is no tool named "delete_notes". Did you mean "delete_note"?',
        details: { tool: 'delete_notes', suggestions: ['delete_note'] },
      },
    });
    const [limited] = await executeToolCalls(
      registry,
      [{ id: '2', name: 'delete_notes', input: {} }],
      {},
      { allowed: ['list_notes'] },
    );
    expect(limited).toMatchObject({
      error: {
        code: 'TOOL_NOT_FOUND',
        message: 'There is no tool named "delete_notes". Call only the tools you were given.',
      },
    });
    expect(narrowed).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
    expect(nameless).toMatchObject({
      error: {
        code: 'TOOL_NOT_FOUND',
        message: 'The tool call names no tool. Call only the tools you were given.',
      },
    });
  });

  it.each([
    'constructor',
    '__proto__',
    'toString',
  ])('treats %s as an unknown tool', async (name) => {
    const { registry } = recordingRegistry();
    const [result] = await executeToolCalls(registry, [{ id: '1', name, input: {} }], {}, {});
    expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
  });
});

describe('applyDefaults', () => {
  it('fills in defaults (nested ones too) before the handler runs', async () => {
    const { registry, seen } = recordingRegistry();
    await registry.execute('list_notes', { filter: { tag: 'work' } }, {}, { applyDefaults: true });
    expect(seen[0]!.input).toEqual({
      limit: 10,
      order: 'newest',
      filter: { tag: 'work', archived: false },
      labels: ['inbox'],
    });
  });

  it('never changes the caller’s input, and hands out a fresh copy of each default', async () => {
    const { registry, seen } = recordingRegistry();
    const input = { filter: {} };
    await registry.execute('list_notes', input, {}, { applyDefaults: true });
    await registry.execute('list_notes', {}, {}, { applyDefaults: true });
    expect(input).toEqual({ filter: {} });
    (seen[0]!.input.labels as string[]).push('changed');
    expect(seen[1]!.input.labels).toEqual(['inbox']);
  });

  it('replaces the nulls OpenAI strict mode sends for left-out parameters with their defaults', async () => {
    const { registry, seen } = recordingRegistry();
    await registry.execute(
      'list_notes',
      '{"limit": null, "order": "oldest", "filter": null, "labels": null}',
      {},
      { applyDefaults: true },
    );
    expect(seen[0]!.input).toEqual({ limit: 10, order: 'oldest', labels: ['inbox'] });
  });

  it('keeps values the call gave, and applies nothing without the option', async () => {
    const { registry, seen } = recordingRegistry();
    await registry.execute('list_notes', { limit: 3 }, {}, { applyDefaults: true });
    await registry.execute('list_notes', {});
    expect(seen.map((entry) => entry.input)).toEqual([
      { limit: 3, order: 'newest', labels: ['inbox'] },
      {},
    ]);
  });

  it('is the default of every call when the registry is created with applyDefaults: true', async () => {
    const { registry, seen } = recordingRegistry([], { applyDefaults: true });
    await registry.execute('list_notes', { limit: 3 });
    await registry.execute('list_notes', {}, {}, { applyDefaults: false });
    await registry.executeToolCalls('anthropic', {
      content: [{ type: 'tool_use', id: 'c1', name: 'list_notes', input: {} }],
    });
    expect(seen.map((entry) => entry.input)).toEqual([
      { limit: 3, order: 'newest', labels: ['inbox'] },
      {},
      { limit: 10, order: 'newest', labels: ['inbox'] },
    ]);
  });

  it('refuses a registry applyDefaults that is not a boolean', () => {
    expect(() => createRegistry({ applyDefaults: 'yes' as unknown as boolean })).toThrow(
      'createRegistry: option "applyDefaults" must be true or false, got "yes"',
    );
  });

  it('leaves an invalid input to validation, which reports it as usual', async () => {
    const { registry } = recordingRegistry();
    expect(
      await registry.execute('list_notes', { limit: 'ten' }, {}, { applyDefaults: true }),
    ).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', details: [{ pointer: '/limit', keyword: 'type' }] },
    });
    expect(await registry.execute('list_notes', [1, 2], {}, { applyDefaults: true })).toMatchObject(
      { ok: false, error: { code: 'INVALID_INPUT' } },
    );
  });
});

describe('approve: a failing needsApproval', () => {
  it('refuses the call (fail closed) instead of throwing', async () => {
    const { registry, seen } = recordingRegistry();
    const result = await registry.execute(
      'delete_note',
      { id: 'n1' },
      {},
      {
        approve: () => true,
        needsApproval: () => {
          throw new Error('policy store offline');
        },
      },
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'NOT_APPROVED', details: { reason: 'policy store offline' } },
    });
    expect(seen).toEqual([]);
  });
});
