import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CatalogBuilder } from '../../src/mcp/gateway/build-catalog.js';
import { createGateway, type Gateway } from '../../src/mcp/gateway/create-gateway.js';
import type { UpstreamServer } from '../../src/mcp/gateway/upstream-config.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir } from '../helpers/temp-files.js';
import { HANDSHAKE, rawSession, startCliGateway } from './cli-gateway-process.js';
import {
  connectClient,
  REPO_ROOT,
  startHttpFixture,
  stopFixture,
  textOf,
  waitFor,
} from './gateway-helpers.js';

const RAW_RPC_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'raw-rpc-server.mjs');

/** The raw JSON-RPC fixture listing `tools` as they are (`null` entries included). */
function rawServer(name: string, tools?: readonly unknown[]): UpstreamServer {
  return {
    transport: 'stdio',
    name,
    group: name,
    command: process.execPath,
    args: [RAW_RPC_SERVER],
    env: tools === undefined ? {} : { RAW_TOOLS: JSON.stringify(tools) },
  };
}

const FINE = {
  name: 'fine',
  description: 'fine tool',
  inputSchema: { type: 'object', properties: {} },
};

const LOCAL_GROUP = {
  group: 'local',
  version: '1.0.0',
  description: 'Local tools of the test.',
  selection: { strategy: 'always' },
  tools: [
    {
      name: 'local_note',
      description: 'Write a note locally.',
      category: 'mutation',
      input_schema: { type: 'object', properties: { text: { type: 'string' } } },
      metadata: { executor: 'local_note', latency_estimate: 'fast', cost_estimate: 'low' },
    },
  ],
};

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Each test starts at most two fixture processes, stopped by gateway.close() (or checked gone).
describe('a gateway over an upstream that lists what no SDK server would', () => {
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('skips a null tools/list entry with a note, as other non-objects, and keeps serving', async () => {
    gateway = await createGateway({
      registry: createRegistry().register(LOCAL_GROUP),
      upstreams: [rawServer('raw', [FINE, null, 5])],
    });
    const { client } = await connectClient(gateway);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(['local_note', 'fine']);
    expect(gateway.status().catalog.notes).toEqual([
      'server "raw": ENTRY_SKIPPED: entry 1 of the MCP tools list was skipped: it is not an object',
      'server "raw": ENTRY_SKIPPED: entry 2 of the MCP tools list was skipped: it is not an object',
    ]);
    // the server's count is of the tools it lists, not of every entry
    expect(gateway.status().servers[0]?.tools).toBe(1);
    expect(textOf(await client.callTool({ name: 'fine', arguments: {} }))).toMatch(
      /^fine called by pid \d+$/,
    );
    await client.close();
  });
});

describe('a gateway over an upstream whose tools MCP clients would reject', () => {
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('repairs or leaves out what would make the SDK client reject the whole tools/list', async () => {
    gateway = await createGateway({
      registry: createRegistry().register(LOCAL_GROUP),
      upstreams: [
        rawServer('raw', [
          FINE,
          {
            name: 'nully',
            description: 'Store a value under a key.',
            inputSchema: {
              type: 'object',
              properties: { a: null, b: 5, c: 'text', d: { type: 'string' } },
              required: ['d'],
            },
          },
          {
            name: 'hinted',
            description: 'Remove a record.',
            inputSchema: { type: 'object', properties: {} },
            annotations: { title: 7, readOnlyHint: 'yes', destructiveHint: true, custom: 'kept' },
          },
          {
            name: 'shaped',
            description: 'Return a shaped value.',
            inputSchema: { type: 'object', properties: {} },
            outputSchema: { type: 'object', properties: { out: null } },
          },
        ]),
      ],
    });
    const { client } = await connectClient(gateway);
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).toEqual([
      'local_note',
      'fine',
      'nully',
      'hinted',
      'shaped',
    ]);
    expect(tools.find((tool) => tool.name === 'nully')?.inputSchema).toEqual({
      type: 'object',
      properties: { a: {}, b: {}, c: {}, d: { type: 'string' } },
      required: ['d'],
    });
    expect(tools.find((tool) => tool.name === 'hinted')?.annotations).toEqual({
      destructiveHint: true,
    });
    expect(gateway.status().catalog.notes).toEqual([
      'server "raw": tool "nully": inputSchema at "/properties/a" is null, not a schema; it is listed as {} (any value), since MCP clients reject a whole tools/list that holds it',
      'server "raw": tool "nully": inputSchema at "/properties/b" is a number, not a schema; it is listed as {} (any value), since MCP clients reject a whole tools/list that holds it',
      'server "raw": tool "nully": inputSchema at "/properties/c" is a string, not a schema; it is listed as {} (any value), since MCP clients reject a whole tools/list that holds it',
      // an output schema is not what the gateway lists: a broken one was left out already
      'server "raw": FIELD_DROPPED shaped: output_schema of "shaped" was left out because the loader rejects it: INVALID_SCHEMA at /output_schema/properties/out: tool "shaped": output_schema/properties/out is not valid JSON Schema: "out" must be object or boolean',
      'server "raw": tool "hinted": annotations.title is 7, not a string; annotations.readOnlyHint is "yes", not a boolean; left out, since MCP clients reject a whole tools/list that holds it (a hint left out never makes the tool look safer)',
    ]);
    // the repaired schema is what calls are checked against: any value for "a"
    const call = await client.callTool({ name: 'nully', arguments: { a: [1], d: 'x' } });
    expect(textOf(call)).toMatch(/^nully called by pid \d+$/);
    await client.close();
  });
});

describe('an unexpected error while the gateway builds its catalog or starts', () => {
  it('costs only the server whose listing caused it, with a note naming the error', () => {
    const hostile = {
      get name(): string {
        throw new Error('a listing no check foresaw');
      },
    };
    const catalog = new CatalogBuilder().build({
      local: createRegistry().register(LOCAL_GROUP),
      overlays: new Map(),
      upstreams: [
        { server: rawServer('odd'), listing: { tools: [FINE, hostile] } },
        { server: rawServer('good'), listing: { tools: [{ ...FINE, name: 'good_tool' }] } },
      ],
      reserved: [],
    });
    expect(catalog.registry.list().map((tool) => tool.name)).toEqual(['local_note', 'good_tool']);
    expect(catalog.notes).toEqual([
      'server "odd": its tools cannot be served (its tools/list could not be read: a listing no check foresaw)',
    ]);
  });

  it('stops the upstream servers it started before createGateway rejects', async () => {
    const pids: number[] = [];
    const registry = createRegistry().register(LOCAL_GROUP);
    const failing = createGateway({
      registry: {
        current: () => registry,
        subscribe: () => {
          throw new Error('the source cannot be watched');
        },
      },
      upstreams: [rawServer('raw')],
      onEvent: (event) => {
        if (event.type === 'upstream' && event.status.pid !== undefined) {
          pids.push(event.status.pid);
        }
      },
    });
    await expect(failing).rejects.toThrow('the source cannot be watched');
    expect(pids).toHaveLength(1);
    // left running, the server's pipes would keep the caller's process alive for good
    await waitFor(() => !isRunning(pids[0]!));
  });
});

// One fixture process for the whole block, stopped by gateway.close(); no restart unless it
// really went down.
describe('answers of a tools/call the SDK cannot read', () => {
  let gateway: Gateway | undefined;
  const problems: string[] = [];
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
    problems.length = 0;
  });
  const start = async (options: { maxUpstreamMessageBytes?: number } = {}) => {
    gateway = await createGateway({
      upstreams: [
        rawServer('raw', [
          FINE,
          ...['big', 'null_result', 'extra_member', 'noise'].map((name) => ({ ...FINE, name })),
        ]),
      ],
      restartInitialDelayMs: 60_000,
      callTimeoutMs: 60_000,
      ...options,
      onEvent: (event) => {
        if (event.type === 'upstream-problem') problems.push(`${event.server}: ${event.problem}`);
      },
    });
    return gateway;
  };
  const pidOf = (gateway: Gateway) => gateway.status().servers[0]?.pid;

  it('fails only the call whose answer is over the limit, naming its size; the server stays up', async () => {
    const served = await start();
    const pid = pidOf(served);
    const { client } = await connectClient(served);
    const result = await client.callTool({ name: 'big', arguments: { chars: 20_000_000 } });
    expect(result.isError).toBe(true);
    // the text and its JSON-RPC envelope (whose size depends on the request id)
    expect(textOf(result)).toMatch(
      /^UPSTREAM_RESULT_TOO_LARGE: The MCP server "raw" answered with 200000\d\d bytes, more than the gateway's 10485760-byte limit for a message from an upstream server; the answer was dropped unread \(the server stays connected\)\. Ask for less data \(e\.g\. a smaller limit or range\)\.$/,
    );
    // the same process answers the next call: nothing was dropped or restarted
    expect(textOf(await client.callTool({ name: 'fine', arguments: {} }))).toBe(
      `fine called by pid ${pid}`,
    );
    expect(served.status().servers[0]).toMatchObject({ state: 'available', restarts: 0, pid });
    // under the limit, the same tool answers
    const small = await client.callTool({ name: 'big', arguments: { chars: 1000 } });
    expect(textOf(small)).toBe('x'.repeat(1000));
    await client.close();
  });

  it('takes its limit from maxUpstreamMessageBytes', async () => {
    const served = await start({ maxUpstreamMessageBytes: 4096 });
    const { client } = await connectClient(served);
    const result = await client.callTool({ name: 'big', arguments: { chars: 5000 } });
    expect(textOf(result)).toMatch(
      /^UPSTREAM_RESULT_TOO_LARGE: The MCP server "raw" answered with 50\d\d bytes, more than the gateway's 4096-byte limit /,
    );
    expect(textOf(await client.callTool({ name: 'big', arguments: { chars: 4000 } }))).toBe(
      'x'.repeat(4000),
    );
    await client.close();
  });

  it('drops, and reports, what answers no request; the call itself is answered', async () => {
    const served = await start({ maxUpstreamMessageBytes: 4096 });
    const { client } = await connectClient(served);
    const result = await client.callTool({ name: 'noise', arguments: { chars: 5000 } });
    expect(textOf(result)).toBe('after the noise');
    expect(problems).toEqual([
      // the parser's own words differ between Node versions
      expect.stringMatching(
        /^raw: a line on its stdout is not JSON \(.+\), dropped: "starting up\.\.\."$/,
      ),
      'raw: a message of 5086 bytes on its stdout, more than the limit of 4096 bytes, was dropped unread; it showed no response id at either end, so a call waiting for it ends at its time limit',
    ]);
    await client.close();
  });

  it('answers UPSTREAM_INVALID_RESULT at once for a response the SDK would drop', async () => {
    const served = await start();
    const { client } = await connectClient(served);
    // the call limit is 60 s: an answer now is no timeout
    const nullResult = await client.callTool({ name: 'null_result', arguments: {} });
    expect(nullResult.isError).toBe(true);
    expect(textOf(nullResult)).toBe(
      'UPSTREAM_INVALID_RESULT: The MCP server "raw" answered with a message that is not a valid JSON-RPC response: its "result" is null, not an object.',
    );
    const extra = await client.callTool({ name: 'extra_member', arguments: {} });
    expect(textOf(extra)).toBe(
      'UPSTREAM_INVALID_RESULT: The MCP server "raw" answered with a message that is not a valid JSON-RPC response: it has members a response does not have ("extra").',
    );
    expect(served.status().servers[0]).toMatchObject({ state: 'available', restarts: 0 });
    expect(problems).toEqual([]);
    await client.close();
  });
});

// One HTTP fixture process, killed by its pid after the block.
describe('an HTTP upstream answering a tools/call with an invalid response', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    ({ child, url } = await startHttpFixture(RAW_RPC_SERVER, {
      ...process.env,
      RAW_TOOLS: JSON.stringify([FINE, { ...FINE, name: 'null_result' }]),
    }));
  });
  afterAll(() => stopFixture(child));

  it('is UPSTREAM_INVALID_RESULT, and the server stays available', async () => {
    const gateway = await createGateway({
      upstreams: [{ transport: 'http', name: 'remote', group: 'remote', url, headers: {} }],
      restartInitialDelayMs: 60_000,
    });
    try {
      const { client } = await connectClient(gateway);
      const result = await client.callTool({ name: 'null_result', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'UPSTREAM_INVALID_RESULT: The MCP server "remote" answered with a message that is not a valid JSON-RPC response: its "result" is null, not an object.',
      );
      expect(gateway.status().servers[0]).toMatchObject({ state: 'available', restarts: 0 });
      expect(textOf(await client.callTool({ name: 'fine', arguments: {} }))).toMatch(
        /^fine called by pid \d+$/,
      );
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});

// One `toolcap mcp` process (the built CLI) and its one upstream, stopped by closing its stdin.
describe('toolcap mcp over an upstream listing a null entry, a long name and a numeric description', () => {
  it('serves, says what it changed in short quoted values, and exits when its input ends', async () => {
    const long = `x-${'y'.repeat(298)}`;
    const tools = [
      FINE,
      null,
      { ...FINE, name: long },
      { ...FINE, name: 'numbered', description: 5 },
      { ...FINE, name: 'big' },
      { ...FINE, name: 'noise' },
    ];
    const dir = createTempDir({
      'servers.json': {
        mcpServers: {
          raw: {
            command: process.execPath,
            args: [RAW_RPC_SERVER],
            env: { RAW_TOOLS: JSON.stringify(tools) },
          },
        },
      },
    });
    const gateway = startCliGateway(
      ['--upstream', 'servers.json', '--schemas', dir, '--max-upstream-message-bytes', '4096'],
      { cwd: dir },
    );
    try {
      await gateway.waitForStderr(/serving 5 tool\(s\) over stdio/);
      const session = rawSession(gateway.child);
      for (const message of HANDSHAKE) session.send(message);
      session.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const listed = (await session.answer(1)).result as { tools: { name: string }[] };
      expect(listed.tools.map((tool) => tool.name)).toEqual([
        'fine',
        expect.stringMatching(/^x_y+_[0-9a-f]{8}$/),
        'numbered',
        'big',
        'noise',
      ]);
      session.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'big', arguments: { chars: 5000 } },
      });
      const big = (await session.answer(2)).result as { content: { text: string }[] };
      expect(big.content[0]?.text).toMatch(
        /^UPSTREAM_RESULT_TOO_LARGE: The MCP server "raw" answered with 50\d\d bytes, more than the gateway's 4096-byte limit /,
      );
      // what the server writes on stdout besides JSON-RPC is reported, not silently dropped
      session.send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'noise', arguments: { chars: 10 } },
      });
      const noise = (await session.answer(3)).result as { content: { text: string }[] };
      expect(noise.content[0]?.text).toBe('after the noise');
      await gateway.waitForStderr(
        /toolcap mcp: upstream "raw": a line on its stdout is not JSON \(.+\), dropped: "starting up\.\.\."\n/,
      );
      const lines = gateway.stderr().split('\n');
      expect(lines).toContain(
        'toolcap mcp: server "raw": ENTRY_SKIPPED: entry 1 of the MCP tools list was skipped: it is not an object',
      );
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^toolcap mcp: renamed "x-${'y'.repeat(62)}… \\(300 characters\\)" of upstream "raw" to "x_y+_[0-9a-f]{8}" \\(not a valid tool name\\)$`,
          ),
        ),
      );
      expect(lines).toContain(
        'toolcap mcp: server "raw": DESCRIPTION_MISSING numbered: the tool\'s description is 5, not a string; "numbered" is used, but the model chooses tools by their descriptions, so write a real one',
      );
      expect(gateway.stderr()).not.toContain('y'.repeat(100));
      expect(await gateway.stop()).toBe(0);
    } finally {
      await gateway.stop();
    }
  });
});

describe('toolcap mcp --max-upstream-message-bytes', () => {
  it('is a usage error without --upstream, or under 1024', async () => {
    const alone = await runCli(['mcp', '--max-upstream-message-bytes', '5000'], {
      cwd: createTempDir(),
    });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(
      'toolcap: --max-upstream-message-bytes limits what upstream MCP servers send: it only applies with --upstream FILE',
    );
    const small = await runCli(
      ['mcp', '--upstream', 'servers.json', '--max-upstream-message-bytes', '100'],
      { cwd: createTempDir() },
    );
    expect(small.code).toBe(2);
    expect(small.stderr).toContain(
      "toolcap: --max-upstream-message-bytes 100 is too small: an upstream's handshake alone may need more; give at least 1024",
    );
  });
});
