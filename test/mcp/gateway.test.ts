import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGateway,
  type Gateway,
  type GatewayEvent,
} from '../../src/mcp/gateway/create-gateway.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import {
  ALPHA_SERVER,
  BETA_SERVER,
  connectClient,
  fixtureServer,
  startHttpFixture,
  stopFixture,
  textOf,
  waitFor,
} from './gateway-helpers.js';

// Real upstream processes (the SDK fixtures), stopped by gateway.close(): the SDK client ends
// each child's stdin and kills it by its handle if it lingers.
describe('a gateway over two live upstream servers', () => {
  let gateway: Gateway;
  const events: GatewayEvent[] = [];

  beforeAll(async () => {
    gateway = await createGateway({
      upstreams: [fixtureServer('alpha', ALPHA_SERVER), fixtureServer('beta', BETA_SERVER)],
      callTimeoutMs: 1_500,
      restartInitialDelayMs: 100,
      onEvent: (event) => events.push(event),
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('serves each live tools/list as a group: pages followed, versions, collisions renamed', async () => {
    const status = gateway.status();
    expect(
      status.servers.map(({ name, state, tools, server }) => ({ name, state, tools, server })),
    ).toEqual([
      {
        name: 'alpha',
        state: 'available',
        tools: 8,
        server: { name: 'alpha-server', version: '1.4.0' },
      },
      {
        name: 'beta',
        state: 'available',
        tools: 3,
        server: { name: 'beta-server', version: '2024.1' },
      },
    ]);
    expect(status.catalog.renamed).toEqual([
      { server: 'beta', from: 'echo', to: 'beta_echo', reason: 'collision' },
      { server: 'beta', from: 'search-docs', to: 'search_docs', reason: 'invalid' },
    ]);
    const { client } = await connectClient(gateway);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'echo',
      'add',
      'sleep',
      'crash',
      'fail',
      'reject',
      'grow',
      'whoami',
      'beta_echo',
      'search_docs',
      'multiply',
    ]);
    // the server's own annotations are listed, never hints derived from an inferred category
    expect(tools.find((tool) => tool.name === 'grow')?.annotations).toBeUndefined();
    expect(tools.find((tool) => tool.name === 'echo')).toMatchObject({
      title: 'Echo',
      annotations: { readOnlyHint: true },
      outputSchema: { type: 'object' },
    });
    expect(textOf(await client.callTool({ name: 'beta_echo', arguments: { text: 'hi' } }))).toBe(
      'HI',
    );
    expect(
      textOf(await client.callTool({ name: 'search_docs', arguments: { query: 'setup' } })),
    ).toBe('Results for setup: Getting started');
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      structuredContent: { text: 'hi', server: 'alpha' },
    });
    await client.close();
  });

  it('versions a group by its server when that is semver, else 0.0.0', () => {
    expect(gateway.status().catalog.groups).toEqual([
      { group: 'alpha', version: '1.4.0', tools: 8 },
      { group: 'beta', version: '0.0.0', tools: 3 },
    ]);
    const catalogEvent = events.filter((event) => event.type === 'catalog').at(-1);
    expect(catalogEvent).toMatchObject({ summary: { tools: 11 } });
  });

  it('validates arguments before forwarding and returns upstream failures as isError results', async () => {
    const { client } = await connectClient(gateway);
    const invalid = await client.callTool({ name: 'add', arguments: { a: 'one' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toBe(
      'INVALID_INPUT: Invalid input for tool "add": missing required property "b"; /a must be number. Fix these arguments and call the tool again.',
    );
    const notObject = await client.callTool({ name: 'add', arguments: 'one' as never });
    expect(textOf(notObject)).toBe(
      'INVALID_INPUT: Invalid input for tool "add": the arguments must be a JSON object of named parameters, got a string. Call it again with an object.',
    );
    expect(await client.callTool({ name: 'fail', arguments: {} })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'alpha failed on purpose' }],
    });
    expect(textOf(await client.callTool({ name: 'reject', arguments: {} }))).toBe(
      'UPSTREAM_ERROR: The MCP server "alpha" answered with an error: alpha rejects this call',
    );
    const slow = await client.callTool({ name: 'sleep', arguments: { ms: 10_000 } });
    expect(slow.isError).toBe(true);
    expect(textOf(slow)).toBe(
      'UPSTREAM_TIMEOUT: The MCP server "alpha" did not answer within 1500 ms; the call was cancelled there.',
    );
    await client.close();
  });

  it('answers an unknown tool with one -32602 error whose message is shown once', async () => {
    const { client } = await connectClient(gateway);
    await expect(client.callTool({ name: 'ehco', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      // the SDK client adds "MCP error -32602: " itself: the server's message must not repeat it
      message: 'MCP error -32602: Unknown tool: "ehco". Did you mean "echo"?',
    });
    await expect(client.callTool({ name: 'x'.repeat(5_000), arguments: {} })).rejects.toMatchObject(
      {
        message: `MCP error -32602: Unknown tool: "${'x'.repeat(64)}… (5000 characters)".`,
      },
    );
    await client.close();
  });

  it("forwards the caller's cancellation to the upstream", async () => {
    const { client } = await connectClient(gateway);
    const before = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as {
      cancelled: number;
    };
    const controller = new AbortController();
    const pending = client.callTool({ name: 'sleep', arguments: { ms: 1_000 } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('stop'), 100);
    await expect(pending).rejects.toThrow();
    await waitFor(async () => {
      const now = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as {
        cancelled: number;
      };
      return now.cancelled === before.cancelled + 1;
    });
    await client.close();
  });

  it('re-lists an upstream on list_changed and tells the sessions', async () => {
    const { client, changes, nextChange } = await connectClient(gateway);
    const changed = nextChange();
    await client.callTool({ name: 'grow', arguments: { name: 'fresh_tool' } });
    await changed;
    expect(changes()).toBe(1);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('fresh_tool');
    expect(textOf(await client.callTool({ name: 'fresh_tool', arguments: {} }))).toBe(
      'UPSTREAM_ERROR: The MCP server "alpha" answered with an error: Unknown tool: fresh_tool',
    );
    await client.close();
  });

  it('restarts a crashed upstream with backoff, reporting it unavailable until it is back', async () => {
    const { client } = await connectClient(gateway);
    const before = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as {
      pid: number;
    };
    const crashed = await client.callTool({ name: 'crash', arguments: {} });
    expect(textOf(crashed)).toBe(
      'UPSTREAM_UNAVAILABLE: The MCP server "alpha" closed the connection during the call (it crashed or exited); the gateway is restarting it. Try again in a few seconds.',
    );
    const down = events.find(
      (event) =>
        event.type === 'upstream' &&
        event.status.name === 'alpha' &&
        event.status.state === 'unavailable',
    );
    expect(down).toMatchObject({
      status: { reason: 'the server closed the connection', retryInMs: 100 },
    });
    // its tools stay listed (marked by the errors of their calls), the other server is untouched
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    expect(textOf(await client.callTool({ name: 'multiply', arguments: { a: 6, b: 7 } }))).toBe(
      '42',
    );
    await waitFor(() => gateway.status().servers[0]?.state === 'available', 5_000);
    const after = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as {
      pid: number;
    };
    expect(after.pid).not.toBe(before.pid);
    expect(gateway.status().servers[0]).toMatchObject({ state: 'available', restarts: 1 });
    await client.close();
  });
});

describe('overlays, expose modes and per-session context', () => {
  const overlay = {
    ...makeGroup('alpha', {
      description: 'Arithmetic and echo tools for the tests.',
      selection: { strategy: 'keyword', keywords: ['arithmetic', 'echo'] },
      tools: [],
    }),
    'x-upstream': {
      hidden: ['crash', 'reject'],
      pinned: ['echo', 'no_such_tool'],
      tools: { add: { title: 'Adder', description: 'Add two numbers (overlay).' } },
    },
  };
  const localGroup = makeGroup('notes', {
    selection: { strategy: 'always' },
    tools: [
      makeTool({
        name: 'whose_note',
        description: 'Report which user the note belongs to.',
        input_schema: { type: 'object', properties: {} },
        metadata: { executor: 'notes', requires_context: ['user_id', 'tenant'] },
      }),
    ],
  });
  const handler =
    'export function execute(name, input, context) { return { user: context.user_id, tenant: context.tenant }; }\n';

  const contextGroup = makeGroup('tenant', {
    selection: { strategy: 'context' },
    tools: [
      makeTool({
        name: 'tenant_report',
        description: 'Summarize the tenant.',
        metadata: { executor: 'notes', requires_context: ['tenant'] },
      }),
    ],
  });

  async function gatewayWith(options: Parameters<typeof createGateway>[0] = {}) {
    const dir = createTempDir({
      'schemas/alpha_tools.json': overlay,
      'schemas/notes_tools.json': localGroup,
      'schemas/tenant_tools.json': contextGroup,
      'handlers/notes.js': handler,
    });
    const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir, handlers: ['handlers'] });
    return createGateway({
      registry,
      upstreams: [fixtureServer('alpha', ALPHA_SERVER)],
      cwd: dir,
      ...options,
    });
  }

  it('applies an overlay: description, selection, hidden tools, overrides, pins', async () => {
    const gateway = await gatewayWith({ expose: 'all', context: { user_id: 'op', tenant: 't' } });
    try {
      const { client } = await connectClient(gateway);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'whose_note',
        'tenant_report',
        'echo',
        'add',
        'sleep',
        'fail',
        'grow',
        'whoami',
      ]);
      expect(tools.find((tool) => tool.name === 'add')).toMatchObject({
        title: 'Adder',
        description: 'Add two numbers (overlay).',
      });
      // hidden tools are not callable either
      await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
      expect(gateway.status().catalog.notes).toEqual([
        'server "alpha": schemas/alpha_tools.json: x-upstream.pinned names "no_such_tool", which the server "alpha" does not list (now); check the name',
      ]);
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it('--expose selected lists pins, and find_tools adds what it finds to the session', async () => {
    const gateway = await gatewayWith({
      expose: 'selected',
      context: { user_id: 'op', tenant: 't' },
    });
    try {
      const { client, nextChange, changes } = await connectClient(gateway);
      const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
      // the always group, the context group whose keys are given, the overlay's pin, then the
      // gateway's own tools
      expect(await names()).toEqual([
        'whose_note',
        'tenant_report',
        'echo',
        'find_tools',
        'call_tool',
      ]);
      const changed = nextChange();
      const found = await client.callTool({
        name: 'find_tools',
        arguments: { query: 'wait milliseconds', limit: 1 },
      });
      expect(found.structuredContent).toMatchObject({
        tools: [
          { name: 'sleep', group: 'alpha', available: true, inputSchema: { required: ['ms'] } },
        ],
        note: expect.stringContaining('now in your tool list'),
      });
      await changed;
      expect(await names()).toEqual([
        'whose_note',
        'tenant_report',
        'echo',
        'sleep',
        'find_tools',
        'call_tool',
      ]);
      // finding tools the list already has (a pin, an always group's tool) changes nothing
      const before = changes();
      await client.callTool({ name: 'find_tools', arguments: { query: 'echo', limit: 1 } });
      await client.callTool({ name: 'find_tools', arguments: { query: 'whose note', limit: 1 } });
      await client.callTool({ name: 'find_tools', arguments: { query: 'wait milliseconds' } });
      expect(changes()).toBe(before);
      // a client that never refreshes calls any catalog tool through call_tool
      expect(
        textOf(
          await client.callTool({
            name: 'call_tool',
            arguments: { name: 'add', arguments: { a: 1, b: 2 } },
          }),
        ),
      ).toBe('3');
      expect(
        textOf(await client.callTool({ name: 'call_tool', arguments: { name: 'nope' } })),
      ).toBe('TOOL_NOT_FOUND: Unknown tool: "nope". Search the catalog with find_tools.');
      expect(
        textOf(await client.callTool({ name: 'call_tool', arguments: { arguments: {} } })),
      ).toBe(
        'INVALID_INPUT: Invalid input for tool "call_tool": "name" must be the name of a tool (find it with find_tools).',
      );
      expect(
        textOf(await client.callTool({ name: 'find_tools', arguments: { query: '' } })),
      ).toMatch(
        /^INVALID_INPUT: Invalid input for tool "find_tools": "query" must be a non-empty string/,
      );
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it('--expose search lists only find_tools and call_tool', async () => {
    const gateway = await gatewayWith({
      expose: 'search',
      context: { user_id: 'op', tenant: 't' },
    });
    try {
      const { client } = await connectClient(gateway);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'find_tools',
        'call_tool',
      ]);
      const found = await client.callTool({
        name: 'find_tools',
        arguments: { query: 'add two numbers' },
      });
      expect((found.structuredContent as { tools: { name: string }[] }).tools[0]?.name).toBe('add');
      expect((await client.listTools()).tools).toHaveLength(2);
      // the advertised schema's bounds, each way: nothing is cut silently
      const most = await client.callTool({
        name: 'find_tools',
        arguments: { query: 'numbers', limit: 20 },
      });
      expect(most.isError).toBeUndefined();
      for (const limit of [21, 50, 0, '3', 2.5]) {
        const refused = await client.callTool({
          name: 'find_tools',
          arguments: { query: 'numbers', limit },
        });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toBe(
          'INVALID_INPUT: Invalid input for tool "find_tools": "limit" must be an integer from 1 to 20.',
        );
      }
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it('takes context from initialize and from request _meta; the operator context wins', async () => {
    const gateway = await gatewayWith({ context: { tenant: 'acme' } });
    try {
      const anonymous = await connectClient(gateway);
      expect((await anonymous.client.listTools()).tools.map((tool) => tool.name)).not.toContain(
        'whose_note',
      );
      const perRequest = await anonymous.client.callTool({
        name: 'whose_note',
        arguments: {},
        _meta: { 'toolcap/context': { user_id: 'u2' } },
      });
      expect(perRequest.structuredContent).toEqual({ user: 'u2', tenant: 'acme' });
      await expect(
        anonymous.client.callTool({
          name: 'whose_note',
          arguments: {},
          _meta: { 'toolcap/context': 'u2' },
        }),
      ).rejects.toMatchObject({
        code: -32602,
        message:
          'MCP error -32602: params._meta["toolcap/context"] must be an object of context values, e.g. {"user_id": "u1"}',
      });

      const named = await connectClient(gateway, {
        capabilities: { experimental: { 'toolcap/context': { user_id: 'u1', tenant: 'evil' } } },
      });
      expect((await named.client.listTools()).tools.map((tool) => tool.name)).toContain(
        'whose_note',
      );
      const result = await named.client.callTool({ name: 'whose_note', arguments: {} });
      expect(result.structuredContent).toEqual({ user: 'u1', tenant: 'acme' });
      await anonymous.client.close();
      await named.client.close();
    } finally {
      await gateway.close();
    }
  });

  it('refuses an overlay with tools of its own or malformed x-upstream fields', async () => {
    const dir = createTempDir({
      'schemas/alpha_tools.json': {
        ...overlay,
        tools: [makeTool({ name: 'mine' })],
        'x-upstream': undefined,
      },
      'schemas/beta_tools.json': JSON.stringify(
        {
          ...makeGroup('beta', { tools: [] }),
          'x-upstream': { hiden: ['x'], tools: { echo: { title: 3 } } },
        },
        null,
        2,
      ),
    });
    const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir });
    await expect(
      createGateway({
        registry,
        upstreams: [fixtureServer('alpha', ALPHA_SERVER), fixtureServer('beta', BETA_SERVER)],
        cwd: dir,
      }),
    ).rejects.toThrow(
      [
        'schemas/alpha_tools.json: group "alpha" overlays the upstream server of that group, so its "tools" must be [] (the server supplies them); move its 1 tool(s) to a group of another name, or, if it is a snapshot of the server (toolcap import --from-server), keep it outside the schema directories (toolcap import --out snapshots)',
        'schemas/beta_tools.json:10:5: x-upstream.hiden is not an overlay field; use hidden, pinned, tools',
        'schemas/beta_tools.json:15:9: x-upstream.tools.echo.title must be a non-empty string',
      ].join('\n'),
    );
  });
});

describe('an upstream over Streamable HTTP', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    ({ child, url } = await startHttpFixture(ALPHA_SERVER));
  });
  afterAll(() => stopFixture(child));

  it('is listed and called through the SDK client, and reported unavailable when it goes away', async () => {
    const gateway = await createGateway({
      upstreams: [
        { transport: 'http', name: 'remote', group: 'remote', url, headers: { 'x-test': '1' } },
      ],
      restartInitialDelayMs: 60_000,
    });
    try {
      const { client } = await connectClient(gateway);
      expect((await client.listTools()).tools).toHaveLength(8);
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
      process.kill(child.pid!, 'SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const failed = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(textOf(failed)).toMatch(
        /^UPSTREAM_UNAVAILABLE: The MCP server "remote" could not be reached: /,
      );
      expect(gateway.status().servers[0]).toMatchObject({
        state: 'unavailable',
        reason: expect.stringMatching(/^the last call failed: /),
      });
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toMatch(
        /^UPSTREAM_UNAVAILABLE: The MCP server "remote" is unavailable \(the last call failed: .*\); the gateway is reconnecting\./,
      );
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it('starts without a server it cannot reach, and says why', async () => {
    const gateway = await createGateway({
      upstreams: [
        fixtureServer('beta', BETA_SERVER),
        {
          transport: 'stdio',
          name: 'ghost',
          group: 'ghost',
          command: '/nonexistent/server',
          args: [],
          env: {},
        },
      ],
      restartInitialDelayMs: 60_000,
      restartMaxDelayMs: 60_000,
    });
    try {
      const [beta, ghost] = gateway.status().servers;
      expect(beta).toMatchObject({ state: 'available', tools: 3 });
      expect(ghost).toMatchObject({
        state: 'unavailable',
        tools: 0,
        retryInMs: 60_000,
        reason: expect.stringMatching(/^could not connect: .*ENOENT/),
      });
      expect(gateway.listing().tools).toEqual(['echo', 'search_docs', 'multiply']);
    } finally {
      await gateway.close();
    }
  });
});

describe('createGateway options', () => {
  it('refuses unknown and malformed options before starting anything, naming the option', async () => {
    const refuse = (options: object) => createGateway(options as never);
    await expect(refuse({ findLimt: 5 })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringMatching(
        /^createGateway: unknown option "findLimt"; did you mean "findLimit"\? Options: /,
      ),
    });
    await expect(refuse({ findLimit: 50 })).rejects.toThrow(
      'createGateway: option "findLimit" must be an integer from 1 to 20, got 50',
    );
    await expect(refuse({ callTimeoutMs: Number.NaN })).rejects.toThrow(
      'createGateway: option "callTimeoutMs" must be a number of milliseconds of at least 1, got NaN',
    );
    await expect(refuse({ expose: 'some' })).rejects.toThrow(
      'createGateway: option "expose" must be "all", "selected" or "search", got "some"',
    );
    await expect(refuse({ registry: {} })).rejects.toThrow(
      'createGateway: option "registry" must be a Registry (loadRegistry) or a source with current() (watchRegistry), got an object',
    );
  });
});
