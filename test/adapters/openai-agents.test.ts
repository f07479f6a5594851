import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  Agent,
  type AgentInputItem,
  type AgentOutputItem,
  type MCPServer,
  type MCPToolFilterCallable,
  type Model,
  type ModelRequest,
  type ModelResponse,
  RunContext,
  Runner,
  Usage,
} from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';

type MCPTool = Parameters<MCPToolFilterCallable>[1];
type ToolFilter = NonNullable<MCPServer['toolFilter']>;

import { createAgentsTools, createMcpToolFilter } from '../../src/entries/openai-agents.js';
import { loadBundledRegistry } from '../handlers/bundled-registry.js';
import { makeGroup, makeTool } from '../helpers/temp-files.js';
import { loadWaitingRegistry } from './waiting-registry.js';

/** A model that answers with scripted outputs, in order, and records each request. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #outputs: AgentOutputItem[][];

  constructor(outputs: AgentOutputItem[][]) {
    this.#outputs = [...outputs];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output = this.#outputs.shift();
    if (output === undefined) throw new Error('the script has no more answers');
    return { usage: new Usage(), output };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not scripted');
  }
}

function callTool(name: string, input: unknown, callId = 'call-1'): AgentOutputItem[] {
  return [
    { type: 'function_call', callId, name, arguments: JSON.stringify(input), status: 'completed' },
  ];
}

function say(text: string): AgentOutputItem[] {
  return [
    {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text }],
    },
  ];
}

/** The outputs of the function calls in a request's input, by call id. */
function callOutputs(request: ModelRequest): Record<string, unknown> {
  const items = (typeof request.input === 'string' ? [] : request.input) as AgentInputItem[];
  return Object.fromEntries(
    items.flatMap((item) =>
      item.type === 'function_call_result' ? [[item.callId, item.output]] : [],
    ),
  );
}

const runner = new Runner({ tracingDisabled: true });

describe('createAgentsTools', () => {
  it('offers the openai translation, strict where the translator says so', async () => {
    const bundled = (await loadBundledRegistry()).registry;
    // an open map cannot be strict
    const registry = bundled.register(
      makeGroup('labels', {
        tools: [
          makeTool({
            name: 'set_labels',
            input_schema: {
              type: 'object',
              properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
              required: ['labels'],
            },
          }),
        ],
      }),
    );
    const tools = createAgentsTools(registry, { tools: ['add_task', 'set_labels'] });
    const translated = registry.translate(
      [registry.get('add_task')!, registry.get('set_labels')!],
      'openai',
    ).payload;
    expect(translated.map((entry) => entry.function.strict)).toEqual([true, false]);
    expect(tools.map((tool) => [tool.name, tool.strict])).toEqual([
      ['add_task', true],
      ['set_labels', false],
    ]);
    const model = new ScriptedModel([say('hello')]);
    await runner.run(new Agent({ name: 'assistant', model, tools }), 'hi');
    expect(model.requests[0]!.tools).toMatchObject(
      translated.map((entry) => ({
        type: 'function',
        name: entry.function.name,
        description: entry.function.description,
        parameters: entry.function.parameters,
        strict: entry.function.strict,
      })),
    );
  });

  it('runs calls through registry.execute with the run context', async () => {
    const { registry } = await loadBundledRegistry();
    const model = new ScriptedModel([
      callTool('add_task', { title: 'Call the bank', priority: null, due_date: null, notes: null }),
      say('Added.'),
    ]);
    const agent = new Agent({ name: 'assistant', model, tools: createAgentsTools(registry) });
    const result = await runner.run(agent, 'add a task: call the bank', {
      context: { user_id: 'ada' },
    });
    expect(result.finalOutput).toBe('Added.');
    const output = callOutputs(model.requests[1]!)['call-1'] as { type: string; text: string };
    expect(JSON.parse(output.text)).toMatchObject({
      task: { title: 'Call the bank', status: 'open', priority: 'normal' },
    });
  });

  it('returns a failed call to the model as the tool output: code, then what to fix', async () => {
    const { registry } = await loadBundledRegistry();
    const model = new ScriptedModel([
      callTool('list_tasks', { status: null }, 'no-context'),
      callTool('file_read', { path: 42 }, 'bad-input'),
      say('Sorry.'),
    ]);
    const agent = new Agent({
      name: 'assistant',
      model,
      tools: createAgentsTools(registry, { context: { workspace_root: '/tmp' } }),
    });
    await runner.run(agent, 'show my tasks', { context: { user_id: 'not used' } });
    const outputs = callOutputs(model.requests[2]!);
    expect(outputs['no-context']).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^MISSING_CONTEXT: /),
    });
    expect(outputs['bad-input']).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^INVALID_INPUT: Invalid input for tool "file_read": /),
    });
  });

  it('interrupts the run for approval where needsApproval says so', async () => {
    const { registry } = await loadBundledRegistry();
    const model = new ScriptedModel([callTool('complete_task', { task_id: 't1' })]);
    const agent = new Agent({
      name: 'assistant',
      model,
      tools: createAgentsTools(registry, {
        needsApproval: (tool) => tool.category === 'mutation',
      }),
    });
    const result = await runner.run(agent, 'complete t1', { context: { user_id: 'ada' } });
    expect(result.interruptions.map((item) => item.name)).toEqual(['complete_task']);
    expect(model.requests).toHaveLength(1);
  });

  it('passes the execute options; a call that outlives them is a tool error', async () => {
    const registry = await loadWaitingRegistry();
    const model = new ScriptedModel([callTool('wait_for_abort', {}), say('Too slow.')]);
    const agent = new Agent({
      name: 'assistant',
      model,
      tools: createAgentsTools(registry, { executeOptions: { timeoutMs: 20 } }),
    });
    await runner.run(agent, 'wait');
    expect(callOutputs(model.requests[1]!)['call-1']).toMatchObject({
      text: expect.stringMatching(/^TIMEOUT: /),
    });
  });

  it("passes the call's abort signal", async () => {
    const registry = await loadWaitingRegistry();
    const [wait] = createAgentsTools(registry);
    const controller = new AbortController();
    const output = wait!.invoke(new RunContext({}), '{}', { signal: controller.signal });
    controller.abort();
    expect(await output).toMatch(/^ABORTED: /);
  });

  it('rejects unknown tools and options with a message naming them', async () => {
    const { registry } = await loadBundledRegistry();
    expect(() => createAgentsTools(registry, { tools: ['list_task'] })).toThrowError(
      'createAgentsTools: option "tools" names "list_task", which is not a tool of the registry; did you mean "list_tasks"?',
    );
    expect(() => createAgentsTools(registry, { needsApproval: true as never })).toThrowError(
      'createAgentsTools: option "needsApproval" must be a function, got true',
    );
  });
});

/** The Agents SDK's MCPServer over an MCP SDK server in the same process. */
class InMemoryMcpServer implements MCPServer {
  readonly name = 'tasks-server';
  cacheToolsList = false;
  toolFilter: ToolFilter;
  readonly #client = new Client({ name: 'test', version: '1.0.0' });
  readonly #server: McpServer;

  constructor(server: McpServer, toolFilter: ToolFilter) {
    this.#server = server;
    this.toolFilter = toolFilter;
  }

  async connect(): Promise<void> {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await this.#server.connect(serverTransport);
    await this.#client.connect(clientTransport);
  }

  async close(): Promise<void> {
    await this.#client.close();
  }

  async listTools(): Promise<MCPTool[]> {
    return (await this.#client.listTools()).tools as MCPTool[];
  }

  async callTool(): Promise<never> {
    throw new Error('not called in these tests');
  }

  async invalidateToolsCache(): Promise<void> {}
}

function tasksServer(): McpServer {
  const server = new McpServer({ name: 'tasks', version: '1.0.0' });
  for (const name of ['add-task', 'list-tasks', 'get-weather-now', 'create_event']) {
    server.registerTool(name, { description: `${name} tool` }, async () => ({ content: [] }));
  }
  return server;
}

const servers: InMemoryMcpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('createMcpToolFilter', () => {
  async function offeredFor(
    message: string,
    options: Partial<Parameters<typeof createMcpToolFilter>[1]> = {},
  ): Promise<string[]> {
    const { registry } = await loadBundledRegistry();
    const server = new InMemoryMcpServer(
      tasksServer(),
      createMcpToolFilter(registry, {
        message: ({ runContext }) => (runContext.context as { message: string }).message,
        ...options,
      }),
    );
    servers.push(server);
    await server.connect();
    const model = new ScriptedModel([say('ok')]);
    await runner.run(new Agent({ name: 'assistant', model, mcpServers: [server] }), message, {
      context: { message, user_id: 'ada' },
    });
    return model.requests[0]!.tools.map((tool) => (tool as { name: string }).name);
  }

  it("lists only the server tools the registry selects for the turn's message", async () => {
    // the server's add-task and list-tasks are the registry's add_task and list_tasks (the SDK
    // offers them as such); get-weather-now is unknown to the registry
    expect(await offeredFor('add a task for tomorrow')).toEqual([
      'add_task',
      'list_tasks',
      'get_weather_now',
    ]);
    expect(await offeredFor('book a meeting on my calendar')).toEqual([
      'get_weather_now',
      'create_event',
    ]);
  });

  it('hides unknown tools with unknownTools: "block", and passes select options', async () => {
    expect(
      await offeredFor('add a task for tomorrow', {
        unknownTools: 'block',
        select: { categories: ['retrieval'] },
      }),
    ).toEqual(['list_tasks']);
  });

  it('uses the history the run provides', async () => {
    const history = [{ tool: 'add_task' }];
    expect(
      await offeredFor('thanks, that is all', { unknownTools: 'block', history: () => history }),
    ).toEqual(['add_task', 'list_tasks']);
    expect(await offeredFor('thanks, that is all', { unknownTools: 'block' })).toEqual([]);
  });

  it('selects once per run context and message', async () => {
    const { registry } = await loadBundledRegistry();
    let reads = 0;
    const filter = createMcpToolFilter(registry, {
      message: () => {
        reads++;
        return 'add a task';
      },
      select: { context: { user_id: 'ada' } },
    });
    const runContext = new RunContext({});
    const context = { runContext, agent: new Agent({ name: 'a' }), serverName: 's' };
    const tool = { name: 'add-task', inputSchema: { type: 'object' as const } } as MCPTool;
    expect(await filter(context, tool)).toBe(true);
    expect(await filter(context, { ...tool, name: 'create_event' })).toBe(false);
    expect(reads).toBe(2);
  });

  it('requires a message reader and checks its options', async () => {
    const { registry } = await loadBundledRegistry();
    expect(() => createMcpToolFilter(registry, {} as never)).toThrowError(
      'createMcpToolFilter: option "message" is required: a function that reads the turn\'s user message from the run, such as ({ runContext }) => runContext.context.message',
    );
    expect(() =>
      createMcpToolFilter(registry, { message: () => '', unknownTools: 'hide' as never }),
    ).toThrowError(
      'createMcpToolFilter: option "unknownTools" must be "allow" or "block", got "hide"',
    );
  });
});
