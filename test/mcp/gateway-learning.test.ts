import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import {
  createGateway,
  type Gateway,
  type GatewayEvent,
} from '../../src/mcp/gateway/create-gateway.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { writeUpstreamConfig } from './cli-gateway-process.js';
import {
  ALPHA_SERVER,
  BETA_SERVER,
  BIN,
  connectClient,
  fixtureServer,
  REPO_ROOT,
  textOf,
  waitFor,
} from './gateway-helpers.js';

/** An overlay of the alpha fixture's group; `tools` are its per-tool overrides. */
function alphaOverlay(tools: Record<string, unknown> = {}) {
  return {
    ...makeGroup('alpha', {
      description: 'Arithmetic and echo tools for the tests.',
      selection: { strategy: 'keyword', keywords: ['arithmetic'] },
      tools: [],
    }),
    'x-upstream': { tools },
  };
}

const notes = makeGroup('notes', {
  selection: { strategy: 'keyword', keywords: ['note'] },
  tools: [
    makeTool({
      name: 'list_notes',
      description: 'List the saved notes.',
      input_schema: { type: 'object', properties: {} },
      metadata: { executor: 'notes' },
    }),
  ],
});

async function gatewayWith(
  files: Record<string, unknown>,
  events: GatewayEvent[] = [],
  expose: 'search' | 'selected' = 'search',
): Promise<Gateway> {
  const dir = createTempDir({
    ...files,
    'handlers/notes.js': 'export function execute() { return ["buy milk"]; }\n',
  });
  const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir, handlers: ['handlers'] });
  return createGateway({
    registry,
    upstreams: [fixtureServer('alpha', ALPHA_SERVER)],
    expose,
    cwd: dir,
    onEvent: (event) => events.push(event),
  });
}

async function firstFound(gateway: Gateway, query: string): Promise<string | undefined> {
  const { client } = await connectClient(gateway);
  try {
    const result = await client.callTool({ name: 'find_tools', arguments: { query, limit: 1 } });
    return (result.structuredContent as { tools: { name: string }[] }).tools[0]?.name;
  } finally {
    await client.close();
  }
}

// The alpha fixture runs as a real process per gateway, stopped by gateway.close().
describe('the gateway learns how sessions ask for upstream tools', () => {
  it('searches the example requests an overlay gives an upstream tool', async () => {
    // "hold off" shares no word with sleep's description ("Wait for a number of milliseconds")
    const query = 'hold off before retrying';
    const without = await gatewayWith({ 'schemas/alpha_tools.json': alphaOverlay() });
    try {
      expect(await firstFound(without, query)).not.toBe('sleep');
    } finally {
      await without.close();
    }
    const withExamples = await gatewayWith({
      'schemas/alpha_tools.json': alphaOverlay({
        sleep: { example_requests: ['hold off a little before retrying the upload'] },
      }),
    });
    try {
      expect(await firstFound(withExamples, query)).toBe('sleep');
      expect(withExamples.status().catalog.notes).toEqual([]);
    } finally {
      await withExamples.close();
    }
  });

  it('reports each tool a session calls after find_tools returned it, once per search', async () => {
    const events: GatewayEvent[] = [];
    const gateway = await gatewayWith(
      { 'schemas/alpha_tools.json': alphaOverlay(), 'schemas/notes_tools.json': notes },
      events,
    );
    const found = () => events.filter((event) => event.type === 'found-tool-called');
    try {
      const { client } = await connectClient(gateway);
      await client.callTool({
        name: 'find_tools',
        arguments: { query: 'add two numbers', limit: 1 },
      });
      // not returned by a search: nothing to learn
      await client.callTool({
        name: 'call_tool',
        arguments: { name: 'sleep', arguments: { ms: 1 } },
      });
      expect(found()).toEqual([]);
      const sum = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'add', arguments: { a: 2, b: 3 } },
      });
      expect(textOf(sum)).toBe('5');
      // a second call of the same tool repeats no pair
      await client.callTool({
        name: 'call_tool',
        arguments: { name: 'add', arguments: { a: 1, b: 1 } },
      });
      await client.callTool({ name: 'find_tools', arguments: { query: 'show my saved notes' } });
      await client.callTool({ name: 'call_tool', arguments: { name: 'list_notes' } });
      // a later search replaces the candidates of the one before
      await client.callTool({
        name: 'find_tools',
        arguments: { query: 'add two numbers', limit: 1 },
      });
      await client.callTool({ name: 'find_tools', arguments: { query: 'saved notes' } });
      await client.callTool({
        name: 'call_tool',
        arguments: { name: 'add', arguments: { a: 1, b: 2 } },
      });
      // a failed call teaches nothing; the call that works after it does
      await client.callTool({ name: 'find_tools', arguments: { query: 'echo a text', limit: 1 } });
      const failed = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'echo', arguments: {} },
      });
      expect(failed.isError).toBe(true);
      await client.callTool({
        name: 'call_tool',
        arguments: { name: 'echo', arguments: { text: 'hi' } },
      });
      // a tool the session called before is not credited to a later search
      await client.callTool({ name: 'find_tools', arguments: { query: 'wait', limit: 1 } });
      await client.callTool({
        name: 'call_tool',
        arguments: { name: 'sleep', arguments: { ms: 1 } },
      });
      expect(found()).toEqual([
        {
          type: 'found-tool-called',
          query: 'add two numbers',
          tool: 'add',
          group: 'alpha',
          upstream: { server: 'alpha', tool: 'add' },
        },
        {
          type: 'found-tool-called',
          query: 'show my saved notes',
          tool: 'list_notes',
          group: 'notes',
        },
        {
          type: 'found-tool-called',
          query: 'echo a text',
          tool: 'echo',
          group: 'alpha',
          upstream: { server: 'alpha', tool: 'echo' },
        },
      ]);
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});

describe('an overlay naming one upstream tool twice', () => {
  it('says which key applies instead of calling the other unknown', async () => {
    const dir = createTempDir({
      'schemas/beta_tools.json': {
        ...makeGroup('beta', { tools: [] }),
        'x-upstream': {
          tools: {
            'search-docs': { example_requests: ['look it up in the manual'] },
            search_docs: { example_requests: ['find the install page'] },
          },
        },
      },
    });
    const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir });
    const gateway = await createGateway({
      registry,
      upstreams: [fixtureServer('beta', BETA_SERVER)],
      cwd: dir,
    });
    try {
      expect(gateway.status().catalog.notes).toContain(
        'server "beta": schemas/beta_tools.json: x-upstream.tools names one tool of the server "beta" twice, as "search-docs" and "search_docs"; only "search-docs" applies: merge them',
      );
    } finally {
      await gateway.close();
    }
  });
});

describe('what a session in --expose selected credits to a search', () => {
  it('not a tool that was already in its list', async () => {
    const events: GatewayEvent[] = [];
    const gateway = await gatewayWith(
      { 'schemas/alpha_tools.json': { ...alphaOverlay(), 'x-upstream': { pinned: ['echo'] } } },
      events,
      'selected',
    );
    try {
      const { client } = await connectClient(gateway);
      await client.callTool({
        name: 'find_tools',
        arguments: { query: 'echo a text back', limit: 1 },
      });
      await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      await client.callTool({
        name: 'find_tools',
        arguments: { query: 'add two numbers', limit: 1 },
      });
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      expect(events.filter((event) => event.type === 'found-tool-called')).toEqual([
        expect.objectContaining({ query: 'add two numbers', tool: 'add' }),
      ]);
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});

describe('toolcap mcp --record-pairs, then toolcap learn --from pairs', () => {
  it('records the pairs and learns them into the overlay and the local group file', async () => {
    const dir = createTempDir({
      'schemas/alpha_tools.json': alphaOverlay({ add: { title: 'Adder' } }),
      'schemas/notes_tools.json': notes,
      'handlers/notes.js': 'export function execute() { return ["buy milk"]; }\n',
    });
    // the client's transport starts the gateway as a process; closing the client ends its stdin
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        BIN,
        'mcp',
        '--upstream',
        writeUpstreamConfig(dir),
        '--schemas',
        join(dir, 'schemas'),
        '--handlers',
        join(dir, 'handlers'),
        '--expose',
        'search',
        '--record-pairs',
        join(dir, 'pairs.jsonl'),
      ],
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'learning', version: '1.0.0' });
    await client.connect(transport);
    try {
      let first = true;
      for (const [query, name, args] of [
        ['sum of 2 and 40 please', 'add', { a: 2, b: 40 }],
        ['wait a second before retrying', 'sleep', { ms: 1 }],
        ['which notes did I save?', 'list_notes', {}],
      ] as const) {
        await client.callTool({ name: 'find_tools', arguments: { query, limit: 20 } });
        const called = await client.callTool({
          name: 'call_tool',
          arguments: { name, arguments: args },
        });
        expect(called.isError, `${name}: ${textOf(called)}\n${stderr}`).toBeFalsy();
        if (first) {
          // a log rotated away: later pairs go to a new file at the same path
          await waitFor(
            () =>
              existsSync(join(dir, 'pairs.jsonl')) &&
              readFileSync(join(dir, 'pairs.jsonl'), 'utf8') !== '',
          );
          renameSync(join(dir, 'pairs.jsonl'), join(dir, 'pairs.jsonl.1'));
          first = false;
        }
      }
    } finally {
      await client.close();
    }
    const lines = [
      ...readFileSync(join(dir, 'pairs.jsonl.1'), 'utf8').trim().split('\n'),
      ...readFileSync(join(dir, 'pairs.jsonl'), 'utf8').trim().split('\n'),
    ];
    writeFileSync(join(dir, 'pairs.jsonl'), `${lines.join('\n')}\n`);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        message: 'sum of 2 and 40 please',
        tool: 'add',
        group: 'alpha',
        server: 'alpha',
        server_tool: 'add',
      },
      {
        message: 'wait a second before retrying',
        tool: 'sleep',
        group: 'alpha',
        server: 'alpha',
        server_tool: 'sleep',
      },
      { message: 'which notes did I save?', tool: 'list_notes', group: 'notes' },
    ]);

    const learned = await runCli(['learn', '--from', 'pairs', 'pairs.jsonl', '--json'], {
      cwd: dir,
    });
    expect(learned.stderr).toBe('');
    expect(learned.code).toBe(0);
    const report = learned.json() as {
      groups: { group: string; new_version: string; tools: { tool: string; added: string[] }[] }[];
    };
    expect(report.groups).toEqual([
      expect.objectContaining({
        group: 'alpha',
        new_version: '1.0.1',
        tools: [
          expect.objectContaining({ tool: 'add', added: ['sum of 2 and 40 please'] }),
          expect.objectContaining({ tool: 'sleep', added: ['wait a second before retrying'] }),
        ],
      }),
      expect.objectContaining({
        group: 'notes',
        tools: [
          expect.objectContaining({ tool: 'list_notes', added: ['which notes did I save?'] }),
        ],
      }),
    ]);
    const overlay = JSON.parse(readFileSync(join(dir, 'schemas/alpha_tools.json'), 'utf8'));
    expect(overlay['x-upstream'].tools).toEqual({
      add: { title: 'Adder', example_requests: ['sum of 2 and 40 please'] },
      sleep: { example_requests: ['wait a second before retrying'] },
    });
    // the edited overlay is valid
    const validated = await runCli(['validate', '--schemas', 'schemas'], { cwd: dir });
    expect(validated.code).toBe(0);
  });

  it('refuses --record-pairs without find_tools, and a file it cannot open', async () => {
    const dir = createTempDir({ 'schemas/notes_tools.json': notes });
    const all = await runCli(['mcp', '--record-pairs', 'pairs.jsonl'], { cwd: dir });
    expect(all.code).toBe(2);
    expect(all.stderr).toContain(
      '--record-pairs records the tools found with find_tools, which only --expose selected or --expose search offer',
    );
    const stateless = await runCli(
      [
        'mcp',
        '--expose',
        'search',
        '--record-pairs',
        'p.jsonl',
        '--http',
        '127.0.0.1:0',
        '--stateless',
      ],
      { cwd: dir },
    );
    expect(stateless.code).toBe(2);
    expect(stateless.stderr).toContain(
      '--record-pairs needs sessions: with --stateless each HTTP request stands alone, so no search can be connected to the call after it',
    );
    const missing = await runCli(
      ['mcp', '--expose', 'search', '--record-pairs', 'no/such/dir/pairs.jsonl'],
      { cwd: dir },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      '--record-pairs no/such/dir/pairs.jsonl: cannot open the file for appending (ENOENT',
    );
    expect(missing.stderr).toContain('check that its directory exists and is writable');
  });
});
