import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/mcp/gateway/create-gateway.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';
import { createTempDir } from '../helpers/temp-files.js';
import { HANDSHAKE, rawSession, startCliGateway } from './cli-gateway-process.js';
import {
  ALPHA_SERVER,
  BETA_SERVER,
  connectClient,
  fixtureServer,
  REPO_ROOT,
  textOf,
  waitFor,
} from './gateway-helpers.js';

/** A port nothing listens on now (the OS picked it free a moment ago). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The alpha fixture over HTTP on `port`; resolves once it listens. */
async function startAlphaHttp(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [ALPHA_SERVER, '--http', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await waitFor(() => stderr.includes('listening http://'));
  return child;
}

function stopByPid(child: ChildProcess | undefined): void {
  if (child?.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
}

describe('names of a server that comes up after start-up', () => {
  it('keeps a served name with its tool: the late server gets the prefixed name, with a note', {
    timeout: 60_000,
  }, async () => {
    const dir = createTempDir();
    const port = await freePort();
    const config = join(dir, 'servers.json');
    // remote is first in the file, but down at start
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          remote: { url: `http://127.0.0.1:${port}/mcp` },
          local: { command: process.execPath, args: [BETA_SERVER] },
        },
      }),
    );
    const cli = startCliGateway(['--upstream', config], { cwd: dir });
    let remote: ChildProcess | undefined;
    try {
      const session = rawSession(cli.child);
      await cli.waitForStderr(/serving \d+ tool\(s\) over stdio/);
      for (const message of HANDSHAKE) session.send(message);
      await session.answer('init');
      const call = async (id: number, name: string) => {
        session.send({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name, arguments: { text: 'hi' } },
        });
        return textOf((await session.answer(id)).result);
      };
      // beta upper-cases, alpha echoes as is
      expect(await call(1, 'echo')).toBe('HI');

      remote = await startAlphaHttp(port);
      await cli.waitForStderr(/upstream "remote" available/, 30_000);
      await cli.waitForStderr(/renamed "echo" of upstream "remote"/);
      expect(cli.stderr()).toContain(
        'toolcap mcp: renamed "echo" of upstream "remote" to "remote_echo" (upstream "local" had the name before "remote" came up; a served name keeps its tool while the gateway runs, a restart names tools by file order)\n',
      );
      expect(cli.stderr()).not.toContain('renamed "echo" of upstream "local"');
      expect(await call(2, 'echo')).toBe('HI');
      expect(await call(3, 'remote_echo')).toBe('hi');
    } finally {
      expect(await cli.stop()).toBe(0);
      stopByPid(remote);
    }
  });
});

describe('names across reloads of the local group files', () => {
  const localTool = (name: string) => ({
    name,
    description: `A local ${name} tool.`,
    execute: () => `local ${name}`,
  });

  it('never gives a served name to another tool: a removed local tool keeps its name held, a new one does not take an upstream name', async () => {
    let current: Registry = createRegistry({ fallbackTools: [localTool('echo')] });
    const listeners = new Set<() => void>();
    const swap = (registry: Registry) => {
      current = registry;
      for (const listener of listeners) listener();
    };
    const gateway = await createGateway({
      registry: {
        current: () => current,
        subscribe: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      upstreams: [fixtureServer('beta', BETA_SERVER)],
    });
    try {
      const { client } = await connectClient(gateway);
      const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
      expect(await names()).toEqual(expect.arrayContaining(['echo', 'beta_echo', 'multiply']));

      // the local echo goes away: beta's echo stays beta_echo, and echo names no tool
      swap(createRegistry({ fallbackTools: [localTool('other')] }));
      expect(await names()).toEqual(expect.arrayContaining(['other', 'beta_echo']));
      expect(await names()).not.toContain('echo');
      expect(gateway.status().catalog.renamed).toContainEqual({
        from: 'echo',
        to: 'beta_echo',
        reason: 'served',
        heldBy: 'local',
        server: 'beta',
      });

      // a local multiply arrives: beta's multiply keeps the name, the local one is not served
      swap(createRegistry({ fallbackTools: [localTool('multiply')] }));
      const result = await client.callTool({ name: 'multiply', arguments: { a: 2, b: 3 } });
      expect(textOf(result)).toBe('6');
      expect(gateway.listing().hidden).toContainEqual({
        name: 'multiply',
        reason:
          'the gateway serves the tool "multiply" of upstream "beta" under this name, and names never move while it runs; rename the tool, or restart the gateway to give local tools their names',
      });
      // the local echo comes back under its own name
      swap(createRegistry({ fallbackTools: [localTool('echo')] }));
      expect(textOf(await client.callTool({ name: 'echo', arguments: {} }))).toBe('local echo');
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});

/** The listing fixture: its tools and capabilities come from its environment. */
const LISTING_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'listing-server.mjs');

describe('why an upstream tool is renamed', () => {
  it('tells a duplicate from an invalid name, and the gateway’s own tool from another group’s', {
    timeout: 60_000,
  }, async () => {
    const dir = createTempDir();
    const config = join(dir, 'servers.json');
    const tool = (name: string) => ({
      name,
      description: `The ${name} tool of the listing server.`,
      inputSchema: { type: 'object' },
    });
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          odd: {
            command: process.execPath,
            args: [LISTING_SERVER],
            env: { LISTING_TOOLS: JSON.stringify([tool('dup'), tool('dup'), tool('find_tools')]) },
          },
        },
      }),
    );
    const cli = startCliGateway(['--upstream', config, '--expose', 'selected'], { cwd: dir });
    try {
      await cli.waitForStderr(/serving \d+ tool\(s\) over stdio/);
      expect(cli.stderr()).toContain(
        'toolcap mcp: renamed "dup" of upstream "odd" to "dup_2" (the server lists another tool under that name)\n',
      );
      expect(cli.stderr()).toContain(
        'toolcap mcp: renamed "find_tools" of upstream "odd" to "odd_find_tools" (the name is the gateway\'s own tool in this --expose mode)\n',
      );
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });
});
