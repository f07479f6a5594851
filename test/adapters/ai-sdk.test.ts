import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createAiSdkTools, createPrepareStep } from '../../src/entries/ai-sdk.js';
import { loadBundledRegistry } from '../handlers/bundled-registry.js';
import { loadWaitingRegistry } from './waiting-registry.js';

type GenerateResult = Exclude<
  NonNullable<ConstructorParameters<typeof MockLanguageModelV3>[0]>['doGenerate'],
  ((...args: never[]) => unknown) | unknown[] | undefined
>;

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A scripted model answer that calls one tool. */
function toolCall(toolName: string, input: unknown, toolCallId = 'call-1'): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: USAGE,
    warnings: [],
  };
}

/** A scripted final text answer. */
function text(value: string): GenerateResult {
  return {
    content: [{ type: 'text', text: value }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: USAGE,
    warnings: [],
  };
}

/** The names of the function tools a model call was offered. */
function offered(call: { tools?: readonly { name: string }[] | undefined }): string[] {
  return (call.tools ?? []).map((tool) => tool.name);
}

/** The tool-result parts of a prompt, as the model receives them. */
function toolOutputs(prompt: readonly { role: string; content: unknown }[]): unknown[] {
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content as { type: string; output: unknown }[])
    .map((part) => part.output);
}

describe('createAiSdkTools', () => {
  it('sends each tool to the model with its JSON Schema, description and examples', async () => {
    const { registry } = await loadBundledRegistry();
    const model = new MockLanguageModelV3({ doGenerate: [text('hello')] });
    await generateText({
      model,
      tools: createAiSdkTools(registry, { tools: ['create_event', 'list_tasks'] }),
      prompt: 'hi',
    });
    const tools = model.doGenerateCalls[0]!.tools!;
    const createEvent = registry.get('create_event')!;
    expect(tools.map((tool) => tool.name)).toEqual(['create_event', 'list_tasks']);
    expect(tools[0]).toEqual({
      type: 'function',
      name: 'create_event',
      description: createEvent.description,
      inputSchema: createEvent.input_schema,
      inputExamples: [
        {
          input: {
            title: 'Design review with Dana',
            start: '2026-11-27T10:00:00Z',
            attendees: ['Dana'],
          },
        },
      ],
    });
    expect(tools[1]).not.toHaveProperty('inputExamples');
  });

  it('runs calls through registry.execute with experimental_context as the context', async () => {
    const { registry } = await loadBundledRegistry();
    const model = new MockLanguageModelV3({
      doGenerate: [toolCall('add_task', { title: 'Review the budget' }), text('Added.')],
    });
    const result = await generateText({
      model,
      tools: createAiSdkTools(registry),
      experimental_context: { user_id: 'ada' },
      stopWhen: stepCountIs(3),
      prompt: 'add a task: review the budget',
    });
    expect(result.text).toBe('Added.');
    const [output] = toolOutputs(model.doGenerateCalls[1]!.prompt);
    expect(output).toMatchObject({
      type: 'json',
      value: { task: { title: 'Review the budget', status: 'open' } },
    });
    const listed = await registry.execute('list_tasks', {}, { user_id: 'ada' });
    expect(listed).toMatchObject({ ok: true, output: { tasks: [{ title: 'Review the budget' }] } });
  });

  it('sends a failed call back to the model as an error result: code, then what to fix', async () => {
    const { registry } = await loadBundledRegistry();
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCall('add_task', { priority: 'urgent' }, 'bad-input'),
        toolCall('list_tasks', {}, 'no-context'),
        text('Sorry.'),
      ],
    });
    const result = await generateText({
      model,
      tools: createAiSdkTools(registry, { context: {} }),
      experimental_context: { user_id: 'ignored: the context option wins' },
      stopWhen: stepCountIs(4),
      prompt: 'add a task',
    });
    expect(result.text).toBe('Sorry.');
    const outputs = toolOutputs(model.doGenerateCalls[2]!.prompt);
    expect(outputs).toEqual([
      {
        type: 'error-text',
        value: expect.stringMatching(/^INVALID_INPUT: Invalid input for tool "add_task": /),
      },
      {
        type: 'error-text',
        value: expect.stringMatching(/^MISSING_CONTEXT: /),
      },
    ]);
    const errors = result.steps.flatMap((step) =>
      step.content.filter((part) => part.type === 'tool-error'),
    );
    expect(errors.map((part) => (part.error as { code: string }).code)).toEqual([
      'INVALID_INPUT',
      'MISSING_CONTEXT',
    ]);
  });

  it('asks the SDK for approval where needsApproval says so, without running the tool', async () => {
    const { registry } = await loadBundledRegistry();
    const asked: string[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: [toolCall('complete_task', { task_id: 't1' })],
    });
    const result = await generateText({
      model,
      tools: createAiSdkTools(registry, {
        needsApproval: (tool, input) => {
          asked.push(`${tool.name} ${JSON.stringify(input)}`);
          return tool.category === 'mutation';
        },
      }),
      experimental_context: { user_id: 'ada' },
      stopWhen: stepCountIs(3),
      prompt: 'complete task t1',
    });
    expect(asked).toEqual(['complete_task {"task_id":"t1"}']);
    expect(result.content.map((part) => part.type)).toEqual(['tool-call', 'tool-approval-request']);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("passes the SDK's abort signal and the execute options", async () => {
    const registry = await loadWaitingRegistry();
    const controller = new AbortController();
    const call = { toolCallId: 'c1', messages: [], abortSignal: controller.signal };
    const aborted = createAiSdkTools(registry).wait_for_abort!.execute!({}, call);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED', toolName: 'wait_for_abort' });
    const timed = createAiSdkTools(registry, { executeOptions: { timeoutMs: 20 } });
    await expect(
      timed.wait_for_abort!.execute!({}, { toolCallId: 'c2', messages: [] }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('rejects unknown tools and options with a message naming them', async () => {
    const { registry } = await loadBundledRegistry();
    expect(() => createAiSdkTools(registry, { tools: ['add_tsk'] })).toThrowError(
      'createAiSdkTools: option "tools" names "add_tsk", which is not a tool of the registry; did you mean "add_task"?',
    );
    expect(() => createAiSdkTools(registry, { tools: 'add_task' as never })).toThrowError(
      'createAiSdkTools: option "tools" must be an array of tool names, got "add_task"',
    );
    expect(() => createAiSdkTools(registry, { tools: ['nothing_like_it_at_all'] })).toThrowError(
      /names "nothing_like_it_at_all", which is not a tool of the registry$/,
    );
    expect(() => createAiSdkTools(registry, { context: 'ada' as never })).toThrowError(
      'createAiSdkTools: option "context" must be an object, got "ada"',
    );
  });

  it('looks up model-supplied names without the object prototype', async () => {
    const { registry } = await loadBundledRegistry();
    const tools = createAiSdkTools(registry);
    expect('constructor' in tools).toBe(false);
    expect(Object.keys(tools)).toEqual(registry.list().map((tool) => tool.name));
  });
});

describe('createPrepareStep', () => {
  it('offers each step the tools registry.select picks for the last user message', async () => {
    const { registry } = await loadBundledRegistry();
    const model = new MockLanguageModelV3({
      doGenerate: [toolCall('add_task', { title: 'Water the plants' }), text('Done.')],
    });
    const steps: number[] = [];
    await generateText({
      model,
      tools: createAiSdkTools(registry),
      prepareStep: createPrepareStep(registry, {
        onSelection: (_selection, step) => steps.push(step.stepNumber),
      }),
      experimental_context: { user_id: 'ada' },
      stopWhen: stepCountIs(3),
      prompt: 'Add a task to water the plants',
    });
    const expected = registry.select('Add a task to water the plants', {
      context: { user_id: 'ada' },
    }).names;
    expect(expected).toContain('add_task');
    expect(expected).not.toContain('create_event');
    expect(offered(model.doGenerateCalls[0]!)).toEqual(expected);
    expect(offered(model.doGenerateCalls[1]!)).toEqual(expected);
    expect(steps).toEqual([0, 1]);
  });

  it('keeps a group offered on a later turn through the tool calls in the history', async () => {
    const { registry } = await loadBundledRegistry();
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Add a task to water the plants' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'add_task', input: { title: 'x' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'add_task',
            output: { type: 'json', value: {} },
          },
        ],
      },
      { role: 'assistant', content: 'Added.' },
      { role: 'user', content: [{ type: 'text', text: 'Thanks, mark it as finished' }] },
    ];
    const model = new MockLanguageModelV3({ doGenerate: [text('ok')] });
    const selections: string[][] = [];
    await generateText({
      model,
      tools: createAiSdkTools(registry),
      prepareStep: createPrepareStep(registry, {
        select: { context: { user_id: 'ada' } },
        onSelection: (selection) => selections.push([...selection.names]),
      }),
      messages,
    });
    const withHistory = registry.select('Thanks, mark it as finished', {
      context: { user_id: 'ada' },
      history: ['Add a task to water the plants', { tool: 'add_task' }],
    });
    const withoutHistory = registry.select('Thanks, mark it as finished', {
      context: { user_id: 'ada' },
    });
    expect(withHistory.names).toContain('complete_task');
    expect(withoutHistory.names).not.toContain('complete_task');
    expect(selections).toEqual([withHistory.names]);
    expect(offered(model.doGenerateCalls[0]!)).toEqual(withHistory.names);
  });

  it('reads user text parts, skips system and empty messages, and selects for "" without a user message', async () => {
    const { registry } = await loadBundledRegistry();
    const selections: string[][] = [];
    const prepareStep = createPrepareStep(registry, {
      select: { context: { user_id: 'ada' }, fallback: 'none' },
      onSelection: (selection) => selections.push([...selection.names]),
    });
    prepareStep({
      stepNumber: 0,
      experimental_context: undefined,
      messages: [
        { role: 'system', content: 'You help with tasks.' },
        { role: 'user', content: [{ type: 'image', image: new Uint8Array([1]) }] },
        { role: 'assistant', content: 'Which one?' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'my calendar' },
            { type: 'text', text: 'for tomorrow' },
          ],
        },
      ],
    });
    prepareStep({
      stepNumber: 0,
      experimental_context: undefined,
      messages: [{ role: 'system', content: 'No user yet.' }],
    });
    const pinned = registry.select('', { context: { user_id: 'ada' } }).names;
    expect(selections).toEqual([
      registry.select('my calendar\nfor tomorrow', { context: { user_id: 'ada' } }).names,
      pinned,
    ]);
    expect(selections[0]).toContain('get_agenda');
  });

  it('keeps alwaysActive tools that are not in the registry', async () => {
    const { registry } = await loadBundledRegistry();
    const prepareStep = createPrepareStep(registry, {
      alwaysActive: ['my_own_tool', 'add_task'],
      select: { context: { user_id: 'ada' }, categories: ['retrieval'] },
    });
    const result = prepareStep({
      stepNumber: 0,
      messages: [{ role: 'user', content: 'what is on my todo list' }],
      experimental_context: undefined,
    });
    expect(result?.activeTools).toEqual(['recall_journal', 'list_tasks', 'my_own_tool']);
  });

  it('checks its options when it is created', async () => {
    const { registry } = await loadBundledRegistry();
    expect(() => createPrepareStep(registry, { select: { maxTools: 0 } })).toThrowError(
      /maxTools must be a positive integer, got 0/,
    );
    expect(() => createPrepareStep(registry, { select: { history: [] } as never })).toThrowError(
      'createPrepareStep: option "select.history" is not used: the history comes from the step messages; remove it',
    );
    expect(() => createPrepareStep(registry, { alwaysActive: 'x' as never })).toThrowError(
      'createPrepareStep: option "alwaysActive" must be an array of tool names, got "x"',
    );
  });
});
