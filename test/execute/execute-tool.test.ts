import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../src/execute/tool-error.js';
import { validateToolInput } from '../../src/execute/validate-tool-input.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import {
  createRegistryWith,
  createTestingRegistry,
  FIXTURE_HANDLERS,
  makeTempDir,
} from './testing-registry.js';

const context = { user_id: 'u1', session: 's1' };

describe('registry.execute: unknown tools', () => {
  const registry = createTestingRegistry();

  it('is a TOOL_NOT_FOUND tool error that suggests close names, never a rejection', async () => {
    const result = await registry.execute('ecko', {}, context);
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'TOOL_NOT_FOUND',
        message: 'There is no tool named "ecko". Did you mean "echo"?',
        details: { tool: 'ecko', suggestions: ['echo'] },
      },
    });
  });

  it.each([
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
  ])('treats %s as an unknown tool, not an object property', async (name) => {
    const result = await registry.execute(name, {}, context);
    expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
  });

  it('answers a 100,000-character name among 1,000 tools with no suggestion and a cut name', async () => {
    const many = createRegistryWith(
      Array.from({ length: 1_000 }, (_, index) => ({ name: `${'a'.repeat(60)}${index}` })),
    );
    const result = await many.execute('a'.repeat(100_000), {});
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'TOOL_NOT_FOUND',
        message: `There is no tool named "${'a'.repeat(64)}… (100000 characters)". Call only the tools you were given.`,
        details: { tool: `${'a'.repeat(64)}… (100000 characters)`, suggestions: [] },
      },
    });
  });

  it('says so when nothing is close, and when the registry is empty', async () => {
    for (const target of [registry, createRegistry()]) {
      const result = await target.execute('completely_different_name', {});
      expect(result).toMatchObject({
        ok: false,
        error: { message: expect.stringContaining('Call only the tools you were given.') },
      });
    }
  });
});

describe('registry.execute: input validation', () => {
  const registry = createTestingRegistry();

  it('passes a valid input through to the handler', async () => {
    const result = await registry.execute('echo', { title: 'hi', count: 2 }, context);
    expect(result).toMatchObject({ ok: true, output: { input: { title: 'hi', count: 2 } } });
  });

  it('reports a missing required property with its pointer', async () => {
    const result = await registry.execute('echo', {}, context);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_INPUT');
    expect(result.error.details).toEqual([
      { pointer: '/title', message: 'missing required property "title"', keyword: 'required' },
    ]);
    expect(result.error.message).toContain('missing required property "title"');
  });

  it('reports every problem at once: wrong type, enum, minimum, format, nested', async () => {
    const result = await registry.execute(
      'echo',
      {
        title: 42,
        count: 0,
        color: 'blue',
        when: '27/11/2026',
        nested: { flag: 'yes', extra: 1 },
      },
      context,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const details = result.error.details as { pointer: string; keyword: string; message: string }[];
    const byPointer = Object.fromEntries(details.map((problem) => [problem.pointer, problem]));
    expect(byPointer['/title']?.keyword).toBe('type');
    expect(byPointer['/title']?.message).toBe('/title must be string');
    expect(byPointer['/count']?.keyword).toBe('minimum');
    expect(byPointer['/color']?.message).toBe('/color must be one of "red", "green"');
    expect(byPointer['/when']?.keyword).toBe('format');
    expect(byPointer['/nested/flag']?.keyword).toBe('type');
    expect(byPointer['/nested/extra']?.keyword).toBe('additionalProperties');
    for (const problem of details) {
      expect(Object.keys(problem).sort()).toEqual(['keyword', 'message', 'pointer']);
    }
  });

  it.each([
    // a string is read as JSON text (OpenAI's arguments): this one holds a string, not an object
    ['a JSON string', '"title: hi"'],
    ['an array', [{ title: 'hi' }]],
    ['a number', 7],
  ])('rejects an input that is %s', async (_label, input) => {
    const result = await registry.execute('echo', input, context);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', details: [{ pointer: '', keyword: 'type' }] },
    });
  });

  it('treats null and undefined input as {}', async () => {
    expect(await registry.execute('throws_string', null)).toMatchObject({
      error: { code: 'HANDLER_ERROR' },
    });
    const result = await registry.execute('echo', undefined, context);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('drops nulls sent for optional parameters (OpenAI strict mode), top-level and nested', async () => {
    const result = await registry.execute(
      'echo',
      { title: 'x', count: null, color: null, nested: { flag: true }, when: null },
      context,
    );
    expect(result).toEqual({
      ok: true,
      output: expect.objectContaining({ input: { title: 'x', nested: { flag: true } } }),
    });
    const stillInvalid = await registry.execute('echo', { title: null, count: null }, context);
    expect(stillInvalid).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', details: [{ pointer: '/title', keyword: 'type' }] },
    });
  });

  it('reports a schema ajv cannot compile as SCHEMA_COMPILE_FAILED', () => {
    const tool = {
      ...registry.get('echo')!,
      input_schema: { type: 'object', properties: {}, $ref: '#/$defs/missing' },
    };
    expect(validateToolInput(tool, {})).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_COMPILE_FAILED', details: { field: 'input_schema' } },
    });
  });

  it('keeps a null that the schema allows', async () => {
    const result = await registry.execute('echo', { title: 'x', nullable: null }, context);
    expect(result).toMatchObject({ ok: true, output: { input: { title: 'x', nullable: null } } });
  });

  it('compiles each input schema once and reuses it', async () => {
    const { getCompileCount } = await import('../../src/json-schema/compile-schema.js');
    await registry.execute('echo', { title: 'warm' }, context);
    const before = getCompileCount();
    for (let index = 0; index < 20; index++) {
      await registry.execute('echo', { title: `call ${index}` }, context);
    }
    expect(getCompileCount()).toBe(before);
  });
});

describe('registry.execute: context', () => {
  it.each([
    ['ctx', '"ctx"'],
    [['u1'], 'an array of 1'],
    [null, 'null'],
    [42, '42'],
  ])('rejects a context that is not an object (%j) with INVALID_OPTION', async (context, got) => {
    const registry = createTestingRegistry();
    const message = `context must be an object of context values, such as { user_id: "u1" } (or {} for none), got ${got}`;
    await expect(registry.execute('echo', {}, context as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: `execute: ${message}`,
    });
    await expect(
      registry.executeToolCalls(
        'anthropic',
        { content: [{ type: 'tool_use', id: 't', name: 'echo', input: {} }] },
        context as never,
      ),
    ).rejects.toMatchObject({ code: 'INVALID_OPTION', message: `executeToolCalls: ${message}` });
  });

  it('reports missing and null context keys as MISSING_CONTEXT', async () => {
    const registry = createTestingRegistry();
    const result = await registry.execute('echo', { title: 'x' }, { user_id: 'u1', session: null });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'MISSING_CONTEXT',
        message: expect.stringContaining('"session"'),
        details: { missing: ['session'], required: ['user_id', 'session'] },
      },
    });
    const none = await registry.execute('echo', { title: 'x' });
    expect(none).toMatchObject({ error: { details: { missing: ['user_id', 'session'] } } });
  });

  it('passes only the required keys to the handler', async () => {
    const registry = createTestingRegistry();
    const result = await registry.execute(
      'echo',
      { title: 'x' },
      { ...context, api_key: 'secret', workspace_root: '/' },
    );
    expect(result).toMatchObject({
      ok: true,
      output: { context: { user_id: 'u1', session: 's1' }, context_keys: ['user_id', 'session'] },
    });
  });

  it('fills required keys from services and hands services to the handler', async () => {
    const dataDir = await makeTempDir();
    const registry = createTestingRegistry({
      services: { session: 'from-service', clock: { now: () => 0 } },
      dataDir,
    });
    const result = await registry.execute(
      'echo',
      { title: 'x' },
      { user_id: 'u1' },
      { services: { per_call: 1 } },
    );
    expect(result).toMatchObject({
      ok: true,
      output: {
        context: { user_id: 'u1', session: 'from-service' },
        services: ['clock', 'per_call', 'session'],
        tool_name: 'echo',
        data_dir: dataDir,
        has_signal: true,
      },
    });
  });

  it('keeps a __proto__ context key a plain key', async () => {
    const registry = createRegistryWith([{ name: 'echo', requires: ['__proto__'] }]);
    const given = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const result = await registry.execute('echo', {}, given);
    expect(result.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (result.ok) {
      expect(result.output).toMatchObject({ context_keys: ['__proto__'] });
    }
  });
});

describe('registry.execute: handler failures are tool-error results', () => {
  const registry = createTestingRegistry();

  it('turns an exception into HANDLER_ERROR', async () => {
    expect(await registry.execute('throws', {})).toEqual({
      ok: false,
      error: {
        code: 'HANDLER_ERROR',
        message: 'Tool "throws" failed: the database is down',
        details: { name: 'Error' },
      },
    });
  });

  it('keeps the code and details of a ToolError (also from another package copy)', async () => {
    expect(await registry.execute('throws_tool_error', {})).toEqual({
      ok: false,
      error: { code: 'THING_NOT_FOUND', message: 'no such thing', details: { thing: 'x' } },
    });
  });

  it('describes thrown non-errors and rejected system errors', async () => {
    expect(await registry.execute('throws_string', {})).toMatchObject({
      error: { code: 'HANDLER_ERROR', message: 'Tool "throws_string" failed: plain string' },
    });
    expect(await registry.execute('rejects_with_code', {})).toMatchObject({
      error: { code: 'HANDLER_ERROR', details: { error_code: 'EACCES' } },
    });
  });

  it('stops waiting for a handler that hangs past its timeout', async () => {
    const started = Date.now();
    const result = await registry.execute('hangs', {}, {}, { timeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'TIMEOUT',
        message: expect.stringContaining('100 ms'),
        details: { timeout_ms: 100 },
      },
    });
  });

  it('uses the latency_estimate timeout by default', async () => {
    const fast = createTestingRegistry({ executionLimits: { timeoutsMs: { fast: 50 } } });
    expect(await fast.execute('hangs', {})).toMatchObject({
      error: { code: 'TIMEOUT', details: { timeout_ms: 50 } },
    });
  });

  it('aborts the handler signal on timeout', async () => {
    const result = await registry.execute('waits_for_abort', {}, {}, { timeoutMs: 30 });
    expect(result).toMatchObject({ error: { code: 'TIMEOUT' } });
    const reason = (globalThis as { __toolcapAbortReason?: unknown }).__toolcapAbortReason;
    expect(reason).toBeInstanceOf(Error);
    expect((reason as Error).name).toBe('TimeoutError');
  });

  it('reports a handler that blocks the event loop past its time limit as TIMEOUT, not ok', async () => {
    // the loop holds the thread far past the limit, so the timer cannot fire before it returns
    const blockPast = (timeoutMs: number) => {
      const started = performance.now();
      while (performance.now() - started < timeoutMs * 10) {
        // busy
      }
    };
    const busy = createRegistry({
      fallbackTools: [
        {
          name: 'busy',
          description: 'Blocks the event loop, then returns.',
          execute: () => {
            blockPast(30);
            return 1;
          },
        },
        {
          name: 'busy_async',
          description: 'Blocks the event loop inside an async function.',
          execute: async () => {
            blockPast(30);
            return 1;
          },
        },
        {
          name: 'busy_throws',
          description: 'Blocks the event loop, then throws.',
          execute: () => {
            blockPast(30);
            throw new Error('too late to matter');
          },
        },
      ],
    });
    expect(await busy.execute('busy', {}, {}, { timeoutMs: 30 })).toEqual({
      ok: false,
      error: {
        code: 'TIMEOUT',
        message:
          'Tool "busy" finished after its 30 ms time limit (its handler kept the event loop busy, so it could not be stopped in time); its result was discarded. Try a smaller request or try again later.',
        details: { timeout_ms: 30, finished_late: true },
      },
    });
    for (const name of ['busy_async', 'busy_throws']) {
      expect(await busy.execute(name, {}, {}, { timeoutMs: 30 })).toMatchObject({
        ok: false,
        error: { code: 'TIMEOUT', details: { timeout_ms: 30, finished_late: true } },
      });
    }
    // without a limit the same handler's result stands
    expect(await busy.execute('busy', {}, {}, { timeoutMs: Number.POSITIVE_INFINITY })).toEqual({
      ok: true,
      output: 1,
    });
  });

  it('returns ABORTED when the caller cancels, before or during the call', async () => {
    const controller = new AbortController();
    const pending = registry.execute('hangs', {}, {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user pressed stop')), 20);
    expect(await pending).toEqual({
      ok: false,
      error: {
        code: 'ABORTED',
        message: 'The call to tool "hangs" was cancelled.',
        details: { reason: 'user pressed stop' },
      },
    });
    expect(
      await registry.execute('echo', { title: 'x' }, context, { signal: AbortSignal.abort() }),
    ).toMatchObject({ error: { code: 'ABORTED' } });
  });

  it('accepts an unlimited timeout', async () => {
    expect(
      await registry.execute('good_output', {}, {}, { timeoutMs: Number.POSITIVE_INFINITY }),
    ).toEqual({ ok: true, output: { count: 3 } });
  });
});

describe('registry.execute: a failed call is bounded by maxOutputBytes too', () => {
  const registry = createRegistry({
    fallbackTools: [
      {
        name: 'loud',
        description: 'Throws an Error with a 5,000,000-character message.',
        execute: () => {
          throw new Error('x'.repeat(5_000_000));
        },
      },
      {
        name: 'loud_tool_error',
        description: 'Throws a ToolError with a 3 MB message and 3 MB of details.',
        execute: () => {
          throw new ToolError('BIG', 'y'.repeat(3e6), { blob: 'z'.repeat(3e6) });
        },
      },
      {
        name: 'wide_tool_error',
        description: 'Throws a ToolError whose message is wide characters.',
        execute: () => {
          throw new ToolError('WIDE', `${'é'.repeat(1_000)}${'😀'.repeat(3_000)}`, { small: 1 });
        },
      },
      {
        name: 'short_tool_error',
        description: 'Throws a short ToolError.',
        execute: () => {
          throw new ToolError('SHORT', 'Nothing to see.', { id: 7 });
        },
      },
    ],
  });
  const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
  const cutNote = (message: string, original: number) => {
    const match = /… \[cut after (\d+) of (\d+) characters\]$/.exec(message);
    expect(match?.[2]).toBe(String(original));
    return Number(match?.[1]);
  };

  it('cuts an over-long handler message and says where and from what length', async () => {
    const result = await registry.execute('loud', {});
    if (result.ok) throw new Error('expected a failure');
    const full = `Tool "loud" failed: ${'x'.repeat(5_000_000)}`;
    expect(result.error.code).toBe('HANDLER_ERROR');
    expect(result.error.details).toEqual({ name: 'Error' });
    const kept = cutNote(result.error.message, full.length);
    expect(result.error.message.startsWith(full.slice(0, kept))).toBe(true);
    expect(bytesOf(result.error)).toBeLessThanOrEqual(1024 * 1024);
    // the cut keeps as much as fits (the note's digits leave a few bytes at most)
    expect(bytesOf(result.error)).toBeGreaterThan(1024 * 1024 - 16);
  });

  it('replaces over-limit ToolError details with a summary and cuts the message, per call', async () => {
    const details = { blob: 'z'.repeat(3e6) };
    for (const limit of [undefined, 10_000]) {
      const result = await registry.execute(
        'loud_tool_error',
        {},
        {},
        limit === undefined ? {} : { maxOutputBytes: limit },
      );
      if (result.ok) throw new Error('expected a failure');
      expect(result.error.code).toBe('BIG');
      expect(result.error.details).toEqual({ truncated: true, bytes: bytesOf(details) });
      cutNote(result.error.message, 3e6);
      expect(bytesOf(result.error)).toBeLessThanOrEqual(limit ?? 1024 * 1024);
    }
  });

  it('counts bytes, not characters, and never splits a character', async () => {
    const result = await registry.execute('wide_tool_error', {}, {}, { maxOutputBytes: 5_000 });
    if (result.ok) throw new Error('expected a failure');
    expect(bytesOf(result.error)).toBeLessThanOrEqual(5_000);
    expect(result.error.details).toEqual({ small: 1 });
    const kept = cutNote(result.error.message, 1_000 + 2 * 3_000);
    const head = result.error.message.slice(0, kept);
    expect(head).toBe(`${'é'.repeat(1_000)}${'😀'.repeat(3_000)}`.slice(0, kept));
    // 2,000 bytes of é, then whole emoji (4 bytes each) up to the limit
    expect(head.length).toBeGreaterThan(1_000);
    expect((head.length - 1_000) % 2).toBe(0);
  });

  it('leaves errors that fit alone, and keeps 4 KiB for messages under a tiny limit', async () => {
    expect(await registry.execute('short_tool_error', {}, {}, { maxOutputBytes: 10 })).toEqual({
      ok: false,
      error: { code: 'SHORT', message: 'Nothing to see.', details: { id: 7 } },
    });
    const tiny = await registry.execute('loud', {}, {}, { maxOutputBytes: 10 });
    if (tiny.ok) throw new Error('expected a failure');
    expect(bytesOf(tiny.error)).toBeLessThanOrEqual(4 * 1024);
    expect(bytesOf(tiny.error)).toBeGreaterThan(4 * 1024 - 16);
  });
});

describe('registry.execute: per-call options are checked like loadRegistry options', () => {
  const registry = createTestingRegistry();
  const limitShape = (unit: string) => `a positive number of ${unit} (Infinity for no limit)`;

  it.each([
    [
      { maxInputBytes: Number.NaN },
      `option "maxInputBytes" must be ${limitShape('bytes')}, got NaN`,
    ],
    [{ maxInputBytes: -1 }, `option "maxInputBytes" must be ${limitShape('bytes')}, got -1`],
    [
      { maxOutputBytes: Number.NaN },
      `option "maxOutputBytes" must be ${limitShape('bytes')}, got NaN`,
    ],
    [{ timeoutMs: 0 }, `option "timeoutMs" must be ${limitShape('milliseconds')}, got 0`],
    [{ timeoutMs: -1 }, `option "timeoutMs" must be ${limitShape('milliseconds')}, got -1`],
    [
      { timeoutMs: Number.NaN },
      `option "timeoutMs" must be ${limitShape('milliseconds')}, got NaN`,
    ],
    [
      { timeout: 5 },
      'unknown option "timeout"; did you mean "timeoutMs"? Options: timeoutMs, signal, maxInputBytes, maxOutputBytes, services, allowed, approve, needsApproval, applyDefaults',
    ],
    [
      { allowed: 'echo' },
      'option "allowed" must be an array of tool names or a Selection (an object whose names is an array of tool names), got "echo"',
    ],
    [
      { allowed: { names: 'echo' } },
      'option "allowed" must be an array of tool names or a Selection (an object whose names is an array of tool names), got an object',
    ],
    [{ signal: {} }, 'option "signal" must be an AbortSignal, got an object'],
    [{ services: 'db' }, 'option "services" must be an object, got "db"'],
    [{ approve: true }, 'option "approve" must be a function, got true'],
    [
      { needsApproval: 'yes' },
      'option "needsApproval" must be true, false or a function (tool) => boolean, got "yes"',
    ],
    [{ applyDefaults: 1 }, 'option "applyDefaults" must be true or false, got 1'],
    [null, 'options must be an object such as { timeoutMs: ... }, got null'],
  ])('rejects %j with INVALID_OPTION before anything runs', async (options, message) => {
    await expect(registry.execute('good_output', {}, {}, options as never)).rejects.toMatchObject({
      name: 'ToolcapError',
      code: 'INVALID_OPTION',
      message: `execute: ${message}`,
    });
    // an unknown tool name is no excuse: the options are a host bug either way
    await expect(registry.execute('no_such_tool', {}, {}, options as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
    });
  });

  it('accepts every documented form', async () => {
    const selection = { names: ['good_output'] };
    for (const options of [
      {},
      { timeoutMs: Number.POSITIVE_INFINITY, maxInputBytes: Number.POSITIVE_INFINITY },
      { timeoutMs: 1_000, maxInputBytes: 1_000, maxOutputBytes: 1_000 },
      { allowed: ['good_output'] },
      { allowed: selection },
      { signal: new AbortController().signal, services: {}, applyDefaults: true },
      { approve: () => true, needsApproval: true },
      { needsApproval: () => false },
    ]) {
      expect(await registry.execute('good_output', {}, {}, options)).toEqual({
        ok: true,
        output: { count: 3 },
      });
    }
  });
});

describe('registry.execute: hostile thrown values are tool errors too', () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const trapsThrow = new Proxy(
    {},
    new Proxy(
      {},
      {
        get: () => () => {
          throw new Error('every trap throws');
        },
      },
    ),
  );
  class MessageThrows extends Error {
    override get message(): string {
      throw new Error('message getter throws');
    }
  }
  const cases: [string, () => unknown, string][] = [
    [
      'an object whose toString throws',
      () => ({
        toString() {
          throw new Error('toString throws');
        },
      }),
      'Tool "hostile" failed: a thrown value that cannot be described (object)',
    ],
    [
      'a Proxy that throws on every trap',
      () => trapsThrow,
      'Tool "hostile" failed: a thrown value that cannot be described (object)',
    ],
    ['a Symbol', () => Symbol('odd'), 'Tool "hostile" failed: Symbol(odd)'],
    [
      'an Error whose message getter throws',
      () => new MessageThrows(),
      'Tool "hostile" failed: a thrown value that cannot be described (object)',
    ],
    [
      'a revoked Proxy',
      () => revoked.proxy,
      'Tool "hostile" failed: a thrown value that cannot be described (object)',
    ],
  ];

  it.each(cases)('%s becomes HANDLER_ERROR', async (_label, makeValue, message) => {
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'hostile',
          description: 'Throws a hostile value.',
          execute: () => {
            throw makeValue();
          },
        },
      ],
    });
    const result = await registry.execute('hostile', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'HANDLER_ERROR', message } });
    // the details are plain JSON whatever was thrown
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});

describe('registry.execute: recursive schemas', () => {
  it('validates a schema that refers to its own root ("$ref": "#"), in both dialects', async () => {
    const tree = {
      type: 'object',
      properties: {
        label: { type: 'string' },
        children: { type: 'array', items: { $ref: '#' } },
      },
      required: ['label'],
    };
    const comment = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { text: { type: 'string' }, reply: { $ref: '#' } },
      required: ['text'],
    };
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'tree_tool',
          description: 'Takes a tree.',
          input_schema: tree,
          execute: () => 'ok',
        },
        {
          name: 'comment_tool',
          description: 'Takes a thread.',
          input_schema: comment,
          execute: () => 'ok',
        },
      ],
    });
    expect(registry.diagnostics).toEqual([]);
    const good = { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] };
    expect(await registry.execute('tree_tool', good)).toMatchObject({ ok: true });
    expect(
      await registry.execute('tree_tool', { label: 'a', children: [{ children: [] }] }),
    ).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', details: [{ pointer: '/children/0/label' }] },
    });
    expect(
      await registry.execute('comment_tool', { text: 'a', reply: { text: 'b' } }),
    ).toMatchObject({ ok: true });
    expect(
      await registry.execute('comment_tool', { text: 'a', reply: { reply: {} } }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        details: [{ pointer: '/reply/text' }, { pointer: '/reply/reply/text' }],
      },
    });
  });
});

describe('registry.execute: output', () => {
  const registry = createTestingRegistry();

  it('validates the output against output_schema', async () => {
    expect(await registry.execute('good_output', {})).toEqual({ ok: true, output: { count: 3 } });
    const result = await registry.execute('bad_output', {});
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_OUTPUT',
        details: [{ pointer: '/count', keyword: 'type', message: '/count must be integer' }],
      },
    });
  });

  it('returns plain JSON: undefined becomes null, Dates become strings', async () => {
    expect(await registry.execute('returns_undefined', {})).toEqual({ ok: true, output: null });
    expect(await registry.execute('returns_date', {})).toEqual({
      ok: true,
      output: { when: '1970-01-01T00:00:00.000Z' },
    });
  });

  it('rejects output that is not JSON-serializable', async () => {
    expect(await registry.execute('returns_bigint', {})).toMatchObject({
      error: { code: 'INVALID_OUTPUT', message: expect.stringContaining('not JSON-serializable') },
    });
    expect(await registry.execute('returns_function', {})).toMatchObject({
      error: { code: 'INVALID_OUTPUT' },
    });
  });

  it('rejects output over the size limit', async () => {
    expect(
      await registry.execute('returns_big', { size: 100 }, {}, { maxOutputBytes: 50 }),
    ).toEqual({
      ok: false,
      error: {
        code: 'OUTPUT_TOO_LARGE',
        message: expect.stringContaining('50-byte limit'),
        details: { bytes: 111, limit: 50 },
      },
    });
    const limited = createTestingRegistry({ executionLimits: { maxOutputBytes: 1000 } });
    expect(await limited.execute('returns_big', { size: 2000 })).toMatchObject({
      error: { code: 'OUTPUT_TOO_LARGE' },
    });
    expect(await limited.execute('returns_big', { size: 10 })).toMatchObject({ ok: true });
  });
});

describe('registry.execute: input size limit', () => {
  const registry = createTestingRegistry();

  it('rejects an input over the per-call limit before validating or running it', async () => {
    const input = { title: 'x'.repeat(100) };
    const bytes = JSON.stringify(input).length;
    const result = await registry.execute('echo', input, context, { maxInputBytes: 50 });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'INPUT_TOO_LARGE',
        message: `The input for tool "echo" is ${bytes} bytes of JSON, more than the 50-byte limit (executionLimits.maxInputBytes). Send a shorter input, e.g. split the content over several calls.`,
        details: { bytes, limit: 50 },
      },
    });
    // too large wins over invalid: the size is checked first
    expect(
      await registry.execute('echo', { count: 'x'.repeat(100) }, context, { maxInputBytes: 50 }),
    ).toMatchObject({ error: { code: 'INPUT_TOO_LARGE' } });
  });

  it('counts UTF-8 bytes, not characters', async () => {
    const input = { title: 'é'.repeat(20) }; // 32 characters, 52 bytes of JSON
    expect(await registry.execute('echo', input, context, { maxInputBytes: 40 })).toMatchObject({
      error: { code: 'INPUT_TOO_LARGE', details: { bytes: 52, limit: 40 } },
    });
    expect(await registry.execute('echo', input, context, { maxInputBytes: 52 })).toMatchObject({
      ok: true,
    });
  });

  it('takes the default from executionLimits.maxInputBytes; Infinity turns it off', async () => {
    const limited = createTestingRegistry({ executionLimits: { maxInputBytes: 100 } });
    expect(await limited.execute('echo', { title: 'x'.repeat(200) }, context)).toMatchObject({
      error: { code: 'INPUT_TOO_LARGE', details: { limit: 100 } },
    });
    expect(await limited.execute('echo', { title: 'short' }, context)).toMatchObject({
      ok: true,
    });
    expect(
      await limited.execute('echo', { title: 'x'.repeat(200) }, context, {
        maxInputBytes: Number.POSITIVE_INFINITY,
      }),
    ).toMatchObject({ ok: true });
    // 1 MiB by default
    const big = { title: 'x'.repeat(1024 * 1024) };
    expect(await registry.execute('echo', big, context)).toMatchObject({
      error: { code: 'INPUT_TOO_LARGE', details: { limit: 1024 * 1024 } },
    });
  });

  it('reports an input that has no JSON form as INVALID_INPUT with the reason', async () => {
    const cyclic: Record<string, unknown> = { title: 'loop' };
    cyclic.self = cyclic;
    const result = await registry.execute('echo', cyclic, context);
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: expect.stringMatching(
          /^The input for tool "echo" is not JSON-serializable \(.*circular.*\); pass plain JSON values/,
        ),
        details: { reason: expect.stringContaining('circular') },
      },
    });
    expect(await registry.execute('echo', { title: 'n', count: 1n }, context)).toMatchObject({
      error: { code: 'INVALID_INPUT', details: { reason: expect.stringContaining('BigInt') } },
    });
  });

  it('refuses input nested deeper than 512 levels, object or JSON text, naming the depth', async () => {
    const nested = (levels: number): unknown => {
      let value: unknown = 1;
      for (let level = 1; level < levels; level++) value = level % 2 === 0 ? [value] : { a: value };
      return { title: 'deep', a: value };
    };
    const refused = {
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message:
          'The input for tool "echo" is refused: the arguments nest deeper than 512 levels of objects and arrays inside each other. Send flatter arguments.',
        details: { reason: 'the arguments nest deeper than 512 levels' },
      },
    };
    for (const levels of [513, 4_500, 100_000]) {
      const input = nested(levels);
      expect(await registry.execute('echo', input, context)).toEqual(refused);
      if (levels <= 4_500) {
        const text = `{"title":"deep","a":${'{"a":'.repeat(levels - 1)}1${'}'.repeat(levels)}`;
        expect(await registry.execute('echo', text, context)).toEqual(refused);
      }
    }
    // 512 levels are still JSON the tool is given (here: refused by its schema, not the depth)
    const deepest = await registry.execute('echo', nested(512), context);
    expect(JSON.stringify(deepest)).not.toContain('nest deeper');
  });
});

describe('registry.execute: handler modules', () => {
  const registry = createTestingRegistry();

  it('calls a dispatcher execute(toolName, input, context)', async () => {
    expect(await registry.execute('dispatched_tool', { a: 1 })).toEqual({
      ok: true,
      output: { dispatched: 'dispatched_tool', input: { a: 1 }, context: {} },
    });
  });

  it('loads CommonJS and TypeScript handler modules', async () => {
    expect(await registry.execute('legacy_tool', {})).toMatchObject({
      ok: true,
      output: { legacy: true },
    });
    expect(await registry.execute('typed_tool', { value: 21 })).toEqual({
      ok: true,
      output: { doubled: 42 },
    });
  });

  it('reports a module without the tool function', async () => {
    const result = await registry.execute('unexported_tool', {});
    expect(result).toMatchObject({
      error: { code: 'HANDLER_NOT_FOUND', message: expect.stringContaining('no functions') },
    });
  });

  it('reports a missing module with the dirs searched', async () => {
    const result = await registry.execute('orphan_tool', {});
    expect(result).toMatchObject({
      error: {
        code: 'HANDLER_NOT_FOUND',
        details: { executor: 'nowhere', searched: ['handlers'] },
      },
    });
  });

  it('searches handler dirs in order', async () => {
    const first = await makeTempDir();
    await writeFile(
      join(first, 'testing.js'),
      'export function good_output() { return { count: 99 }; }\n',
    );
    const layered = createTestingRegistry({ handlers: [first, FIXTURE_HANDLERS] });
    expect(await layered.execute('good_output', {})).toEqual({ ok: true, output: { count: 99 } });
  });

  it('reports a module that fails to import as HANDLER_LOAD_FAILED', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'broken.mjs'), 'export function broken_tool() {\n  return 1;\n');
    const broken = createRegistryWith([{ name: 'broken_tool', executor: 'broken' }], {
      handlers: [dir],
    });
    const result = await broken.execute('broken_tool', {});
    expect(result).toMatchObject({
      error: { code: 'HANDLER_LOAD_FAILED', details: { executor: 'broken', line: 3 } },
    });
    // the line of the syntax error, which Node's import() error leaves out
    expect(result.ok === false && result.error.message).toMatch(
      /^Handler module .*broken\.mjs for executor "broken" could not be imported: .* \(.*broken\.mjs:3\)$/,
    );
  });

  it('never imports a module that a symlink places outside the handler dir', async () => {
    const root = await makeTempDir();
    await mkdir(join(root, 'handlers'));
    await mkdir(join(root, 'outside'));
    await writeFile(
      join(root, 'outside', 'evil.js'),
      'globalThis.__toolcapEvilLoaded = true; export function evil_tool() { return 1; }\n',
    );
    await symlink(join(root, 'outside', 'evil.js'), join(root, 'handlers', 'evil.mjs'));
    const guarded = createRegistryWith([{ name: 'evil_tool', executor: 'evil' }], {
      handlers: [join(root, 'handlers')],
    });
    expect(await guarded.execute('evil_tool', {})).toEqual({
      ok: false,
      error: {
        code: 'HANDLER_NOT_FOUND',
        message:
          'No handler module for executor "evil" was imported: handlers/evil.mjs resolves (through a symlink) to a file outside its handler directory, and handler modules are only imported from inside the handler directories. Move or copy the module into the handler directory, or add the directory that really holds it to the handlers option.',
        details: { executor: 'evil', searched: ['handlers'], refused: ['handlers/evil.mjs'] },
      },
    });
    expect((globalThis as { __toolcapEvilLoaded?: boolean }).__toolcapEvilLoaded).toBeUndefined();
    // a module that really is in a later handler dir is still found
    await mkdir(join(root, 'more'));
    await writeFile(join(root, 'more', 'evil.js'), 'export function evil_tool() { return 2; }\n');
    const later = createRegistryWith([{ name: 'evil_tool', executor: 'evil' }], {
      handlers: [join(root, 'handlers'), join(root, 'more')],
    });
    expect(await later.execute('evil_tool', {})).toEqual({ ok: true, output: 2 });
  });

  it('falls back to the compiled twin in dist/ when a .ts handler cannot be imported', async () => {
    const root = await makeTempDir();
    await mkdir(join(root, 'hx'));
    await mkdir(join(root, 'dist', 'hx'), { recursive: true });
    // stands in for TypeScript the runtime cannot load
    await writeFile(join(root, 'hx', 'twin.ts'), 'export function twin_tool( {\n');
    const registry = createRegistryWith([{ name: 'twin_tool', executor: 'twin' }], {
      handlers: [join(root, 'hx')],
    });
    const missing = await registry.execute('twin_tool', {});
    expect(missing).toMatchObject({
      error: {
        code: 'HANDLER_LOAD_FAILED',
        message: expect.stringContaining('hx/twin.ts is TypeScript, which this Node.js process'),
      },
    });
    await writeFile(
      join(root, 'dist', 'hx', 'twin.js'),
      'export function twin_tool() { return { built: true }; }\n',
    );
    expect(await registry.execute('twin_tool', {})).toEqual({ ok: true, output: { built: true } });
  });
});

describe('registry.execute: code-defined fallback tools', () => {
  it('runs the fallback implementation with input, context and options', async () => {
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'legacy_greet',
          description: 'Greets someone (still defined in code).',
          params: [{ name: 'who', type: 'string', required: true }],
          metadata: { requires_context: ['user_id'] },
          execute: (...args: unknown[]) => {
            const [input, ctx, options] = args as [
              Record<string, unknown>,
              Record<string, unknown>,
              { toolName?: string },
            ];
            return {
              greeting: `hello ${String(input.who)} from ${String(ctx.user_id)}`,
              has_options: options.toolName === 'legacy_greet',
            };
          },
        },
      ],
    });
    expect(await registry.execute('legacy_greet', { who: 'Ada' }, { user_id: 'u9' })).toEqual({
      ok: true,
      output: { greeting: 'hello Ada from u9', has_options: true },
    });
    expect(await registry.execute('legacy_greet', {}, { user_id: 'u9' })).toMatchObject({
      error: { code: 'INVALID_INPUT' },
    });
  });
});
