import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ToolHandlerOptions } from '../../src/execute/types.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import {
  createRegistryWith,
  createTestingRegistry,
  FIXTURE_HANDLERS,
  makeTempDir,
} from './testing-registry.js';

const context = { user_id: 'u1', session: 's1' };

describe('handlerModules: handler modules given as objects', () => {
  it('runs the function named after the tool, with input, context and the handler options', async () => {
    const registry = createRegistryWith([{ name: 'add_note', executor: 'notes' }], {
      handlers: [],
      handlerModules: {
        notes: {
          add_note: (
            input: Record<string, unknown>,
            ctx: Record<string, unknown>,
            options: ToolHandlerOptions,
          ) => ({
            input,
            user: ctx.user_id ?? null,
            tool: options.toolName,
            has_signal: options.signal instanceof AbortSignal,
          }),
        },
      },
    });
    expect(await registry.execute('add_note', { text: 'milk' }, { user_id: 'u1' })).toEqual({
      ok: true,
      output: { input: { text: 'milk' }, user: null, tool: 'add_note', has_signal: true },
    });
  });

  it("runs a module's execute(toolName, input, context, options) for tools it has no function for", async () => {
    const calls: string[] = [];
    const registry = createRegistryWith(
      [
        { name: 'get_weather', executor: 'mcp_bridge' },
        { name: 'get_time', executor: 'mcp_bridge' },
      ],
      {
        handlerModules: {
          mcp_bridge: {
            execute: (toolName: string, input: Record<string, unknown>) => {
              calls.push(toolName);
              return { tool: toolName, input };
            },
          },
        },
      },
    );
    expect(await registry.execute('get_time', { zone: 'UTC' })).toEqual({
      ok: true,
      output: { tool: 'get_time', input: { zone: 'UTC' } },
    });
    expect(calls).toEqual(['get_time']);
  });

  it('takes an imported module namespace, exactly as a handler file would be used', async () => {
    const module = (await import(
      pathToFileURL(join(FIXTURE_HANDLERS, 'testing.js')).href
    )) as Record<string, unknown>;
    const dataDir = await makeTempDir();
    // no handler directory: the module comes from the option alone
    const registry = createTestingRegistry({
      handlers: [],
      handlerModules: { testing: module },
      dataDir,
    });
    expect(await registry.execute('echo', { title: 'x' }, context)).toMatchObject({
      ok: true,
      output: { input: { title: 'x' }, tool_name: 'echo', data_dir: dataDir, has_signal: true },
    });
  });

  it('wins over a handler directory that has a module for the same executor', async () => {
    // fixtures/handlers/testing.js also exports echo
    const registry = createTestingRegistry({
      handlerModules: { testing: { echo: () => ({ from: 'memory' }) } },
    });
    expect(await registry.execute('echo', { title: 'x' }, context)).toEqual({
      ok: true,
      output: { from: 'memory' },
    });
    // other executors are still looked for in the handler directories
    expect(await registry.execute('dispatched_tool', { n: 1 }, context)).toMatchObject({
      ok: true,
    });
  });

  it('says which given module lacks the tool, and looks names up as own keys only', async () => {
    const registry = createRegistryWith(
      [
        { name: 'add_note', executor: 'notes' },
        { name: 'toString', executor: 'notes' },
        { name: 'make_thing', executor: 'constructor' },
      ],
      { handlers: [], handlerModules: { notes: { list_notes: () => [] } } },
    );
    expect(await registry.execute('add_note', {})).toEqual({
      ok: false,
      error: {
        code: 'HANDLER_NOT_FOUND',
        message:
          'Handler module handlerModules["notes"] exports no function "add_note" and no execute(toolName, input, context); it exports list_notes. Export a function named after the tool.',
        details: { executor: 'notes', file: 'handlerModules["notes"]', exports: ['list_notes'] },
      },
    });
    // Object.prototype's toString is not the module's, and "constructor" is not a given module
    expect(await registry.execute('toString', {})).toMatchObject({
      ok: false,
      error: { code: 'HANDLER_NOT_FOUND', details: { file: 'handlerModules["notes"]' } },
    });
    expect(await registry.execute('make_thing', {})).toMatchObject({
      ok: false,
      error: {
        code: 'HANDLER_NOT_FOUND',
        message: expect.stringMatching(/^No handler module for executor "constructor"/),
      },
    });
  });

  it('runs a code-defined tool without execute through the module of its executor', async () => {
    const registry = createRegistry({
      fallbackTools: [{ name: 'get_weather', description: 'The weather in a city.' }],
      handlerModules: { fallback: { get_weather: () => ({ temperature: 21 }) } },
    });
    expect(await registry.execute('get_weather', {})).toEqual({
      ok: true,
      output: { temperature: 21 },
    });
  });

  it('is an option of loadRegistry too', async () => {
    const cwd = await makeTempDir();
    const registry = await loadRegistry({
      cwd,
      dirs: [],
      fallbackTools: [{ name: 'ping', description: 'Ping the service.', group: 'health' }],
      handlerModules: { health: { ping: () => 'pong' } },
    });
    expect(await registry.execute('ping', {})).toEqual({ ok: true, output: 'pong' });
  });

  it.each([
    [
      'tasks',
      'createRegistry: option "handlerModules" must be an object of handler modules by executor name, such as { tasks: { add_task: (input, context) => ... } } or { tasks: await import("./handlers/tasks.js") }, got "tasks"',
    ],
    [
      [{ add_task: () => 1 }],
      'createRegistry: option "handlerModules" must be an object of handler modules by executor name, such as { tasks: { add_task: (input, context) => ... } } or { tasks: await import("./handlers/tasks.js") }, got an array of 1',
    ],
    [
      { tasks: () => 1 },
      'createRegistry: option "handlerModules" has a function for executor "tasks", not a module object: give what a handler file exports, an object of functions named after the tools ({ add_task(input, context) { ... } }) or with execute(toolName, input, context), or the module itself (await import("./handlers/tasks.js"))',
    ],
    [
      { tasks: null },
      'createRegistry: option "handlerModules" has null for executor "tasks", not a module object',
    ],
    [
      { Tasks: {} },
      'createRegistry: option "handlerModules" has the executor "Tasks", which is not an executor name (lowercase letters, digits and _, starting with a letter, at most 64 characters): use the metadata.executor of its tools, such as "tasks"',
    ],
  ])('refuses %j with INVALID_OPTION and a message naming the fix', (value, message) => {
    let thrown: unknown;
    try {
      createRegistry({ handlerModules: value as never });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'INVALID_OPTION' });
    expect((thrown as Error).message.startsWith(message)).toBe(true);
  });

  it('is checked by loadRegistry before anything is read', async () => {
    await expect(loadRegistry({ handlerModules: { tasks: 'tasks.js' } as never })).rejects.toThrow(
      'loadRegistry: option "handlerModules" has "tasks.js" for executor "tasks", not a module object',
    );
  });
});
