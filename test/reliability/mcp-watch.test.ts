import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { CliIoTransport } from '../helpers/cli-io-transport.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { ALPHA_SERVER } from '../mcp/gateway-helpers.js';

function groupText(group: string, tools: string[]): string {
  return JSON.stringify(
    makeGroup(group, {
      tools: tools.map((name) => makeTool({ name, metadata: { executor: 'echo' } })),
    }),
  );
}

describe('toolcap mcp --watch', () => {
  it('answers tools/list from the current snapshot and notifies list_changed on a swap', async () => {
    const dir = createTempDir({
      'schemas/alpha_tools.json': groupText('alpha', ['alpha_tool']),
      'handlers/echo.js': 'export function execute(name, input) { return { name, input }; }\n',
    });
    const stdin = new PassThrough();
    const transport = new CliIoTransport(stdin);
    let stderr = '';
    const exit = main(['mcp', '--watch', '--data-dir', join(dir, 'data')], {
      stdout: (text) => transport.receive(text),
      stderr: (text) => {
        stderr += text;
      },
      cwd: dir,
      env: {},
      isTty: false,
      stdin,
    });
    const client = new Client({ name: 'watch-test', version: '1.0.0' });
    let notified = 0;
    let onNotified: (() => void) | undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
      onNotified?.();
    });
    await client.connect(transport);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['alpha_tool']);

    const changed = new Promise<void>((resolve) => {
      onNotified = resolve;
    });
    writeFileSync(join(dir, 'schemas', 'beta_tools.json'), groupText('beta', ['beta_tool']));
    await changed;
    expect(notified).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'alpha_tool',
      'beta_tool',
    ]);
    expect(await client.callTool({ name: 'beta_tool', arguments: { query: 'q' } })).toMatchObject({
      structuredContent: { name: 'beta_tool', input: { query: 'q' } },
    });

    // a broken edit: diagnostics on stderr, the previous tools keep serving, no notification
    writeFileSync(join(dir, 'schemas', 'beta_tools.json'), '{"group": "beta",');
    const deadline = Date.now() + 5_000;
    while (!stderr.includes('still serving the previous tools') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(stderr).toContain('still serving the previous tools');
    expect(stderr).toMatch(/beta_tools\.json:1:\d+: error JSON_SYNTAX/);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'alpha_tool',
      'beta_tool',
    ]);
    expect(notified).toBe(1);

    await client.close();
    expect(await exit).toBe(0);
  });
});

/** `toolcap mcp --watch --upstream servers.json` run in-process in `dir`, with a connected client. */
async function startWatchingGateway(dir: string, name: string) {
  const stdin = new PassThrough();
  const transport = new CliIoTransport(stdin);
  const output = { stderr: '' };
  const exit = main(
    ['mcp', '--watch', '--upstream', 'servers.json', '--data-dir', join(dir, 'data')],
    {
      stdout: (text) => transport.receive(text),
      stderr: (text) => {
        output.stderr += text;
      },
      cwd: dir,
      env: {},
      isTty: false,
      stdin,
    },
  );
  const client = new Client({ name, version: '1.0.0' });
  return { transport, output, exit, client };
}

describe('toolcap mcp --watch --upstream', () => {
  it('re-applies an edited overlay to the live upstream group, and keeps the last good one on a broken edit', async () => {
    const overlay = (extension: unknown) =>
      JSON.stringify({ ...makeGroup('alpha', { tools: [] }), 'x-upstream': extension });
    const dir = createTempDir({
      'schemas/alpha_tools.json': overlay({ hidden: ['crash'] }),
      'servers.json': {
        mcpServers: { alpha: { command: process.execPath, args: [ALPHA_SERVER] } },
      },
    });
    const { transport, output, exit, client } = await startWatchingGateway(dir, 'watch-overlay');
    let notified = 0;
    let onNotified: (() => void) | undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
      onNotified?.();
    });
    await client.connect(transport);
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names()).not.toContain('crash');
    expect(await names()).toContain('fail');

    const changed = new Promise<void>((resolve) => {
      onNotified = resolve;
    });
    writeFileSync(join(dir, 'schemas', 'alpha_tools.json'), overlay({ hidden: ['crash', 'fail'] }));
    await changed;
    expect(await names()).not.toContain('fail');

    writeFileSync(join(dir, 'schemas', 'alpha_tools.json'), overlay({ hiden: ['crash'] }));
    const deadline = Date.now() + 5_000;
    while (!output.stderr.includes('an overlay edit has errors') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(output.stderr).toContain(
      'toolcap mcp: an overlay edit has errors; still serving the previous tools',
    );
    expect(output.stderr).toMatch(
      /schemas\/alpha_tools\.json:\d+:\d+: x-upstream\.hiden is not an overlay field/,
    );
    expect(await names()).not.toContain('fail');
    expect(notified).toBe(1);
    // the accepted edit says what is served; the rejected one says only that it was rejected
    expect(output.stderr.match(/reloaded the tools/g)).toHaveLength(1);
    expect(output.stderr).toContain(
      "toolcap mcp: reloaded the tools (0 loaded; serving 6 with the upstream servers' tools)\n",
    );

    await client.close();
    expect(await exit).toBe(0);
  });
  it('says when a group file added while it runs has a tool an upstream server already serves', async () => {
    const dir = createTempDir({
      'schemas/alpha_tools.json': JSON.stringify({
        ...makeGroup('alpha', { tools: [] }),
        'x-upstream': {},
      }),
      'servers.json': {
        mcpServers: { alpha: { command: process.execPath, args: [ALPHA_SERVER] } },
      },
    });
    const { transport, output, exit, client } = await startWatchingGateway(dir, 'watch-shadowed');
    let onNotified: (() => void) | undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => onNotified?.());
    await client.connect(transport);
    const changed = new Promise<void>((resolve) => {
      onNotified = resolve;
    });
    writeFileSync(
      join(dir, 'schemas', 'mine_tools.json'),
      JSON.stringify(
        makeGroup('mine', { tools: [makeTool({ name: 'echo' }), makeTool({ name: 'mine_one' })] }),
      ),
    );
    await changed;
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('mine_one');
    expect(output.stderr).toMatch(/toolcap mcp: not listing echo \(.*upstream.*alpha.*\)\n/);
    // once, not again at the next reload
    expect(output.stderr.match(/not listing echo/g)).toHaveLength(1);
    await client.close();
    expect(await exit).toBe(0);
  });
});
