import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createMcpServer, toCallToolResult } from '../../src/mcp/create-mcp-server.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { createTestingRegistry } from '../execute/testing-registry.js';
import { CliIoTransport } from '../helpers/cli-io-transport.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('toolcap mcp (in-process)', () => {
  it('serves tools through CliIo and stops when stdin ends', async () => {
    const stdin = new PassThrough();
    const transport = new CliIoTransport(stdin);
    let stderr = '';
    const dataDir = await mkdtemp(join(tmpdir(), 'toolcap-mcp-'));
    const exit = main(
      [
        'mcp',
        '--context',
        'project_id=p1',
        '--context',
        'user_id=u1',
        '--data-dir',
        dataDir,
        '--all-tools',
      ],
      {
        stdout: (text) => transport.receive(text),
        stderr: (text) => {
          stderr += text;
        },
        cwd: REPO_ROOT,
        env: {},
        isTty: false,
        stdin,
      },
    );
    const client = new Client({ name: 'in-process', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('file_read');
    const written = await client.callTool({
      name: 'write_project_doc',
      arguments: { title: 'Plan', content: 'Ship in March.' },
    });
    expect(written.structuredContent).toMatchObject({ created: true });
    const missing = await client.callTool({ name: 'file_read', arguments: { file_path: 'x' } });
    expect(missing).toMatchObject({ isError: true });
    await client.close();
    expect(await exit).toBe(0);
    expect(stderr).toMatch(/serving 16 tool\(s\) over stdio/);
  });

  it('rejects unexpected arguments', async () => {
    let stderr = '';
    const code = await main(['mcp', 'extra'], {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
      cwd: REPO_ROOT,
      env: {},
      isTty: false,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('toolcap mcp');
  });
});

describe('createMcpServer', () => {
  async function connect(registry = createTestingRegistry(), options = {}) {
    const handle = await createMcpServer(registry, options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await handle.server.connect(serverSide);
    const client = new Client({ name: 'memory', version: '1.0.0' });
    await client.connect(clientSide);
    return { client, handle };
  }

  it('hides tools whose context is missing unless a service provides it', async () => {
    const { handle } = await connect();
    expect(handle.hidden).toContainEqual({
      name: 'echo',
      reason: 'missing context: user_id, session',
    });
    const served = await connect(
      createTestingRegistry({ services: { session: 's', user_id: 'u' } }),
    );
    expect(served.handle.tools).toContain('echo');
    const shown = await connect(createTestingRegistry(), { hideUnavailable: false });
    expect(shown.handle.tools).toContain('echo');
  });

  it('passes the output schema and validates structured content on the client', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'good_output')?.outputSchema).toMatchObject({
      type: 'object',
    });
    const result = await client.callTool({ name: 'good_output', arguments: {} });
    expect(result).toMatchObject({ structuredContent: { count: 3 } });
    const thrown = await client.callTool({ name: 'throws', arguments: {} });
    expect(thrown).toEqual({
      isError: true,
      content: [
        { type: 'text', text: 'HANDLER_ERROR: Tool "throws" failed: the database is down' },
      ],
    });
  });

  it('cancels a running call when the client aborts it', async () => {
    const { client } = await connect();
    const controller = new AbortController();
    const pending = client.callTool({ name: 'waits_for_abort', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('stop'), 30);
    await expect(pending).rejects.toThrow();
  });

  it('maps outputs that are not objects to text only', () => {
    expect(toCallToolResult({ ok: true, output: 'plain' })).toEqual({
      content: [{ type: 'text', text: 'plain' }],
    });
    expect(toCallToolResult({ ok: true, output: [1, 2] })).toEqual({
      content: [{ type: 'text', text: '[1,2]' }],
    });
  });

  it('leaves out a tool that cannot be translated and serves the rest', async () => {
    const registry = createRegistry({
      fallbackTools: [
        { name: 'fine_tool', description: 'Fine.', execute: () => ({ ok: 1 }) },
        { name: 'second_tool', description: 'Also fine.', execute: () => 2 },
      ],
    });
    // a registry whose first tool has a name no MCP translation accepts (the loader never
    // produces one; the server must still serve the others)
    const tools = registry
      .list()
      .map((tool, index) => (index === 0 ? { ...tool, name: 'fine-tool' } : tool));
    const broken = Object.create(registry) as typeof registry;
    Object.defineProperties(broken, {
      list: { value: () => tools },
      size: { get: () => tools.length },
      groups: { value: () => registry.groups() },
      has: { value: (name: string) => tools.some((tool) => tool.name === name) },
      get: { value: (name: string) => tools.find((tool) => tool.name === name) },
    });
    const handle = await createMcpServer(broken);
    expect(handle.tools).toEqual(['second_tool']);
    expect(handle.hidden).toEqual([
      { name: 'fine-tool', reason: expect.stringContaining('cannot be translated for MCP') },
    ]);
  });
});
