import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/providers/translate.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';

// These tests run the built CLI (`npm test` builds first; during development run `npm run build`).
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(REPO_ROOT, 'dist', 'cli', 'toolcap.mjs');
const TOOLS_DIR = join('test', 'fixtures', 'external-tools');

let client: Client;
let transport: StdioClientTransport;
let stderr = '';

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
  const dataDir = await mkdtemp(join(tmpdir(), 'toolcap-mcp-'));
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--tools-dir', TOOLS_DIR, '--context', 'user_id=u1', '--data-dir', dataDir],
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  client = new Client({ name: 'toolcap-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
});

describe('toolcap mcp over a real stdio transport', () => {
  it('identifies itself and lists the mcp translation of the callable tools', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'toolcap' });
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['add_task', 'write_journal', 'create_event', 'word_count']),
    );
    // files needs workspace_root and project_docs needs project_id: not given, so not listed
    expect(names).not.toContain('file_edit');
    expect(names).not.toContain('read_project_doc');

    const registry = await loadRegistry({ cwd: REPO_ROOT, dirs: ['schemas'] });
    const expected = translate(
      registry
        .list()
        .filter((tool) => tool.metadata.requires_context.every((key) => key === 'user_id')),
      'mcp',
    ).payload;
    const listedJsonTools = tools.filter((tool) => registry.has(tool.name));
    expect(listedJsonTools).toEqual(expected);
    expect(stderr).toContain('not listing file_edit (missing context: workspace_root)');
  });

  it('runs a call and returns text plus structured content', async () => {
    const added = await client.callTool({
      name: 'add_task',
      arguments: { title: 'ship it', priority: 'high' },
    });
    expect(added.isError).toBeFalsy();
    const structured = added.structuredContent as { task: { id: string; title: string } };
    expect(structured.task.title).toBe('ship it');
    const content = added.content as { type: string; text: string }[];
    expect(JSON.parse(content[0]?.text ?? '')).toEqual(structured);

    const listed = await client.callTool({ name: 'list_tasks', arguments: {} });
    expect(listed.structuredContent).toMatchObject({
      count: 1,
      tasks: [{ id: structured.task.id }],
    });
    const counted = await client.callTool({ name: 'word_count', arguments: { text: 'a b c' } });
    expect(counted.structuredContent).toEqual({ words: 3 });
  });

  it('returns invalid input and handler failures as isError results with the message', async () => {
    const invalid = await client.callTool({
      name: 'add_task',
      arguments: { title: 7, priority: 'urgent' },
    });
    expect(invalid.isError).toBe(true);
    const invalidText = (invalid.content as { text: string }[])[0]?.text ?? '';
    expect(invalidText).toMatch(
      /^INVALID_INPUT: Invalid input for tool "add_task": \/title must be string/,
    );
    expect(invalidText).toContain('/priority must be one of');

    const failed = await client.callTool({
      name: 'complete_task',
      arguments: { task_id: 'task_nope' },
    });
    expect(failed.isError).toBe(true);
    expect((failed.content as { text: string }[])[0]?.text).toMatch(/^TASK_NOT_FOUND: /);

    const garbage = await client.callTool({ name: 'prints_garbage', arguments: {} });
    expect(garbage.isError).toBe(true);
    expect((garbage.content as { text: string }[])[0]?.text).toMatch(/^INVALID_OUTPUT: .*not JSON/);

    const missing = await client.callTool({ name: 'file_read', arguments: { file_path: 'x' } });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]?.text).toMatch(/^MISSING_CONTEXT: /);
  });

  it('answers an unknown tool with a JSON-RPC error that suggests a name', async () => {
    await expect(client.callTool({ name: 'add_tsk', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Did you mean "add_task"'),
    });
  });
});

describe('toolcap mcp stdout', () => {
  it('carries nothing but JSON-RPC messages, even with load diagnostics', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--tools-dir', TOOLS_DIR], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '0' },
      },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await waitFor(() => out.includes('"id":2'));
    child.stdin.end();
    expect(await exited).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(err).toContain('EXTERNAL_NAME_MISMATCH');
    expect(err).toMatch(/serving \d+ tool\(s\) over stdio/);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
