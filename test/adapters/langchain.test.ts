import { AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { createLangChainTools } from '../../src/entries/langchain.js';
import { loadBundledRegistry } from '../handlers/bundled-registry.js';
import { loadWaitingRegistry } from './waiting-registry.js';

describe('createLangChainTools', () => {
  it('makes structured tools whose schema is the tool JSON Schema', async () => {
    const { registry } = await loadBundledRegistry();
    const tools = createLangChainTools(registry, { tools: ['add_task', 'get_agenda'] });
    expect(tools.map((tool) => tool.name)).toEqual(['add_task', 'get_agenda']);
    const addTask = registry.get('add_task')!;
    expect(convertToOpenAITool(tools[0]!)).toEqual({
      type: 'function',
      function: {
        name: 'add_task',
        description: addTask.description,
        parameters: addTask.input_schema,
      },
    });
  });

  it('runs a model tool call through registry.execute with the runtime context', async () => {
    const { registry } = await loadBundledRegistry();
    const tools = createLangChainTools(registry);
    const model = new FakeStreamingChatModel({
      chunks: [
        new AIMessageChunk({
          content: '',
          tool_calls: [
            {
              id: 'call-1',
              name: 'add_task',
              args: { title: 'Renew passport' },
              type: 'tool_call',
            },
          ],
        }),
      ],
    }).bindTools(tools);
    const reply = await model.invoke([new HumanMessage('add a task: renew passport')]);
    const [call] = reply.tool_calls ?? [];
    const tool = tools.find((candidate) => candidate.name === call!.name)!;
    const message = (await tool.invoke(
      { ...call!, type: 'tool_call' },
      { context: { user_id: 'ada' } },
    )) as ToolMessage;
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.status).toBe('success');
    expect(message.tool_call_id).toBe('call-1');
    expect(JSON.parse(message.content as string)).toMatchObject({
      task: { title: 'Renew passport', status: 'open' },
    });
  });

  it('returns a failed call as an error ToolMessage the model reads', async () => {
    const { registry } = await loadBundledRegistry();
    const [listTasks] = createLangChainTools(registry, { tools: ['list_tasks'] });
    const message = (await listTasks!.invoke({
      id: 'call-2',
      name: 'list_tasks',
      args: {},
      type: 'tool_call',
    })) as ToolMessage;
    expect(message.status).toBe('error');
    expect(message.tool_call_id).toBe('call-2');
    expect(message.content).toMatch(/^MISSING_CONTEXT: /);
  });

  it('answers arguments the schema refuses with the registry INVALID_INPUT, not an exception', async () => {
    const { registry } = await loadBundledRegistry();
    const [addTask] = createLangChainTools(registry, { tools: ['add_task'] });
    const message = (await addTask!.invoke(
      { id: 'call-3', name: 'add_task', args: { title: 5 }, type: 'tool_call' },
      { context: { user_id: 'ada' } },
    )) as ToolMessage;
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.status).toBe('error');
    expect(message.tool_call_id).toBe('call-3');
    expect(message.content).toMatch(/^INVALID_INPUT: .*\/title must be string/);
    // plain arguments: the registry's failure, thrown
    await expect(
      addTask!.invoke({ title: 'x', priority: 'urgent' }, { context: { user_id: 'ada' } }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^INVALID_INPUT: .*\/priority must be one of/),
    });
  });

  it('answers a tool call LangChain refuses but the registry accepts with a success ToolMessage', async () => {
    const { registry } = await loadBundledRegistry();
    const [addTask] = createLangChainTools(registry, { tools: ['add_task'] });
    // null for an optional field: LangChain's schema check refuses it, the registry drops it
    const message = (await addTask!.invoke(
      { id: 'call-5', name: 'add_task', args: { title: 'B', due_date: null }, type: 'tool_call' },
      { context: { user_id: 'ada' } },
    )) as ToolMessage;
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.status).toBe('success');
    expect(message.tool_call_id).toBe('call-5');
    expect(message.name).toBe('add_task');
    expect(JSON.parse(message.content as string)).toMatchObject({ task: { title: 'B' } });
    // plain arguments: the output itself, as on the normal path
    const output = await addTask!.invoke(
      { title: 'C', due_date: null },
      { context: { user_id: 'ada' } },
    );
    expect(output).toMatchObject({ task: { title: 'C' } });
  });

  it('throws the failure when invoked with plain arguments; the context option wins', async () => {
    const { registry } = await loadBundledRegistry();
    const [listTasks] = createLangChainTools(registry, {
      tools: ['list_tasks'],
      context: {},
    });
    await expect(listTasks!.invoke({}, { context: { user_id: 'ada' } })).rejects.toMatchObject({
      code: 'MISSING_CONTEXT',
      message: expect.stringMatching(/^MISSING_CONTEXT: /),
    });
  });

  it("passes the run's abort signal and the execute options", async () => {
    const registry = await loadWaitingRegistry();
    const controller = new AbortController();
    const [wait] = createLangChainTools(registry);
    const aborted = wait!.invoke({}, { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    const [timed] = createLangChainTools(registry, { executeOptions: { timeoutMs: 20 } });
    await expect(timed!.invoke({})).rejects.toMatchObject({ code: 'TIMEOUT' });
    // a signal of its own and the run's: either one cancels
    const own = new AbortController();
    const [both] = createLangChainTools(registry, { executeOptions: { signal: own.signal } });
    const cancelled = both!.invoke({}, { signal: new AbortController().signal });
    own.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('rejects unknown options with a message naming them', async () => {
    const { registry } = await loadBundledRegistry();
    expect(() => createLangChainTools(registry, { tool: ['x'] } as never)).toThrowError(
      'createLangChainTools: unknown option "tool"; did you mean "tools"?',
    );
    // execute options are checked when the tools are built, not on the first call
    expect(() =>
      createLangChainTools(registry, { executeOptions: { timeout: 5 } } as never),
    ).toThrowError(
      /^createLangChainTools: option "executeOptions" is wrong: unknown option "timeout"; did you mean "timeoutMs"\?/,
    );
  });
});
