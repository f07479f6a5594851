import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/mcp/gateway/create-gateway.js';
import { createTempDir } from '../helpers/temp-files.js';
import {
  HANDSHAKE,
  rawSession,
  startCliGateway,
  writeUpstreamConfig,
} from './cli-gateway-process.js';
import { REPO_ROOT, waitFor } from './gateway-helpers.js';

/** A server that never answers the handshake; it writes its pid to `pidFile`. */
const HANG_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'hang-server.mjs');

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The hang fixture's pid once it wrote it (bounded). */
async function readPid(pidFile: string): Promise<number> {
  await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '');
  return Number(readFileSync(pidFile, 'utf8'));
}

/** Stops the fixture by its pid if the gateway left it running, so no test leaks it. */
function stopLeftover(pid: number | undefined): void {
  if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL');
}

/** A servers file whose one server, "hang", never answers the handshake (see hang-server.mjs). */
function writeHangConfig(...extra: string[]) {
  const dir = createTempDir();
  const pidFile = join(dir, 'hang.pid');
  const config = join(dir, 'servers.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { hang: { command: process.execPath, args: [HANG_SERVER, pidFile, ...extra] } },
    }),
  );
  return { dir, pidFile, config };
}

describe('closing the gateway while an upstream is still connecting', () => {
  it('stops the upstream at once instead of waiting for its handshake to time out', async () => {
    const pidFile = join(createTempDir(), 'hang.pid');
    let pid: number | undefined;
    const gateway = await createGateway({
      upstreams: [
        {
          transport: 'stdio',
          name: 'hang',
          group: 'hang',
          command: process.execPath,
          args: [HANG_SERVER, pidFile],
          env: {},
        },
      ],
      startupWaitMs: 100,
      // far longer than the test: only closing can end the handshake
      connectTimeoutMs: 600_000,
    });
    try {
      pid = await readPid(pidFile);
      expect(gateway.status().servers).toMatchObject([{ name: 'hang', state: 'connecting' }]);
      expect(gateway.listing().tools).toEqual([]);
      await gateway.close();
      expect(isRunning(pid)).toBe(false);
      expect(gateway.status().servers).toMatchObject([{ name: 'hang', state: 'closed' }]);
    } finally {
      await gateway.close();
      stopLeftover(pid);
    }
  });
});

describe('cancelling start-up', () => {
  it("createGateway rejects with the signal's reason and stops the upstream it started", async () => {
    const pidFile = join(createTempDir(), 'hang.pid');
    const controller = new AbortController();
    let pid: number | undefined;
    const starting = createGateway({
      upstreams: [
        {
          transport: 'stdio',
          name: 'hang',
          group: 'hang',
          command: process.execPath,
          args: [HANG_SERVER, pidFile],
          env: {},
        },
      ],
      // far longer than the test: only the signal can end start-up
      startupWaitMs: 600_000,
      connectTimeoutMs: 600_000,
      signal: controller.signal,
    });
    try {
      pid = await readPid(pidFile);
      controller.abort(new Error('operator stopped it'));
      await expect(starting).rejects.toThrow('operator stopped it');
      await waitFor(() => !isRunning(pid!));
    } finally {
      stopLeftover(pid);
    }
  });

  it('createGateway refuses an already aborted signal before starting anything', async () => {
    await expect(
      createGateway({ signal: AbortSignal.abort(new Error('too late')) }),
    ).rejects.toThrow('too late');
    await expect(createGateway({ signal: 'stop' as never })).rejects.toThrow(/an AbortSignal/);
  });

  it('toolcap mcp --http stops on SIGTERM during start-up, and stops the upstream', {
    timeout: 60_000,
  }, async () => {
    const { dir, pidFile, config } = writeHangConfig();
    const cli = startCliGateway(['--upstream', config, '--http', '127.0.0.1:0'], { cwd: dir });
    let pid: number | undefined;
    try {
      pid = await readPid(pidFile);
      await cli.waitForStderr(/listening at http:\/\/127\.0\.0\.1:\d+\/mcp \(starting\)/);
      // the start-up wait (15 s) is still running: stop() sends SIGTERM by pid
      expect(await cli.stop()).toBe(0);
      expect(cli.stderr()).toContain('toolcap mcp: stopping (during start-up)\n');
      expect(cli.stderr()).not.toContain('serving');
      await waitFor(() => !isRunning(pid!));
    } finally {
      await cli.stop();
      stopLeftover(pid);
    }
  });
});

describe('toolcap mcp with an upstream that never answers', () => {
  it('says it is still connecting after the start-up wait, and exits on end of input without waiting for it', {
    timeout: 60_000,
  }, async () => {
    const { dir, pidFile, config } = writeHangConfig();
    const cli = startCliGateway(['--upstream', config], { cwd: dir });
    let pid: number | undefined;
    try {
      cli.child.stdin.end();
      pid = await readPid(pidFile);
      // the start-up wait is 15 s; the handshake limit (30 s) is still far away
      await cli.waitForStderr(/serving 0 tool\(s\) over stdio/, 30_000);
      expect(cli.stderr()).toContain(
        'toolcap mcp: upstream "hang" still connecting after 15 s; serving without its tools until it answers\n',
      );
      // stop() kills the process after 10 s: exiting on its own means it did not wait
      expect(await cli.stop()).toBe(0);
      expect(isRunning(pid)).toBe(false);
      expect(cli.stderr()).not.toMatch(/could not connect/);
    } finally {
      await cli.stop();
      stopLeftover(pid);
    }
  });
});

/** A server that ignores SIGTERM and the end of its input; it writes its pid to `pidFile`. */
const STUBBORN_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'stubborn-server.mjs');

/** `toolcap mcp` on stdio in front of the stubborn server, which writes its pid to `pidFile`. */
function startStubbornGateway() {
  const dir = createTempDir();
  const pidFile = join(dir, 'stubborn.pid');
  const config = join(dir, 'servers.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { stubborn: { command: process.execPath, args: [STUBBORN_SERVER, pidFile] } },
    }),
  );
  return { cli: startCliGateway(['--upstream', config], { cwd: dir }), pidFile };
}

describe('toolcap mcp on stdio, stopped by a signal', () => {
  it('answers the call in progress on SIGTERM, stops an upstream that ignores SIGTERM, and exits 0', {
    timeout: 60_000,
  }, async () => {
    const { cli, pidFile } = startStubbornGateway();
    let pid: number | undefined;
    try {
      const session = rawSession(cli.child);
      await cli.waitForStderr(/serving 1 tool\(s\) over stdio/);
      pid = await readPid(pidFile);
      for (const message of HANDSHAKE) session.send(message);
      await session.answer('init');
      session.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'sleep', arguments: { ms: 400 } },
      });
      // the upstream has the call: stop the gateway now, by its pid
      await cli.waitForStderr(/\[stubborn\] sleeping/);
      process.kill(cli.child.pid!, 'SIGTERM');
      expect(await session.answer(1)).toMatchObject({
        result: { content: [{ type: 'text', text: 'slept 400 ms' }] },
      });
      expect(await cli.exited()).toBe(0);
      expect(cli.stderr()).toContain('toolcap mcp: stopping\n');
      // end of input and SIGTERM were ignored: SIGKILL came 4 s after the call finished
      await waitFor(() => !isRunning(pid!));
    } finally {
      await cli.stop();
      stopLeftover(pid);
    }
  });

  it('a second signal ends it at once, and kills an upstream that ignores SIGTERM', {
    timeout: 60_000,
  }, async () => {
    const { cli, pidFile } = startStubbornGateway();
    let pid: number | undefined;
    try {
      await cli.waitForStderr(/serving 1 tool\(s\) over stdio/);
      pid = await readPid(pidFile);
      process.kill(cli.child.pid!, 'SIGINT');
      await cli.waitForStderr(/toolcap mcp: stopping\n/);
      // Ctrl-C again while the orderly stop waits for the stubborn server
      process.kill(cli.child.pid!, 'SIGINT');
      expect(await cli.exited()).toBe(130);
      await waitFor(() => !isRunning(pid!));
    } finally {
      await cli.stop();
      stopLeftover(pid);
    }
  });

  it.each(['SIGHUP', 'SIGINT'] as const)('stops in order on %s and exits 0', {
    timeout: 60_000,
  }, async (signal) => {
    const dir = createTempDir();
    const cli = startCliGateway(['--upstream', writeUpstreamConfig(dir)], { cwd: dir });
    const pids: number[] = [];
    try {
      await cli.waitForStderr(/serving \d+ tool\(s\) over stdio/);
      for (const match of cli.stderr().matchAll(/ available \(.*, pid (\d+)\)\n/g))
        pids.push(Number(match[1]));
      expect(pids).toHaveLength(2);
      process.kill(cli.child.pid!, signal);
      expect(await cli.exited()).toBe(0);
      expect(cli.stderr()).toContain('toolcap mcp: stopping\n');
      await waitFor(() => pids.every((pid) => !isRunning(pid)));
    } finally {
      await cli.stop();
      for (const pid of pids) stopLeftover(pid);
    }
  });

  it('says it is stopping as soon as a signal comes during start-up, before the upstream is stopped', {
    timeout: 60_000,
  }, async () => {
    const { dir, pidFile, config } = writeHangConfig('--stubborn');
    const cli = startCliGateway(['--upstream', config], { cwd: dir });
    let pid: number | undefined;
    try {
      pid = await readPid(pidFile);
      process.kill(cli.child.pid!, 'SIGTERM');
      await cli.waitForStderr(/toolcap mcp: stopping \(during start-up\)\n/);
      // said before the upstream, which ignores SIGTERM, is killed (seconds later)
      expect(isRunning(pid)).toBe(true);
      expect(await cli.exited()).toBe(0);
      expect(cli.stderr().match(/stopping \(during start-up\)/g)).toHaveLength(1);
      await waitFor(() => !isRunning(pid!));
    } finally {
      await cli.stop();
      stopLeftover(pid);
    }
  });

  it('stops on SIGTERM during start-up, stops the upstream and exits 0', {
    timeout: 60_000,
  }, async () => {
    const { dir, pidFile, config } = writeHangConfig();
    const cli = startCliGateway(['--upstream', config], { cwd: dir });
    let pid: number | undefined;
    try {
      // the start-up wait (15 s) is still running
      pid = await readPid(pidFile);
      process.kill(cli.child.pid!, 'SIGTERM');
      expect(await cli.exited()).toBe(0);
      expect(cli.stderr()).toContain('toolcap mcp: stopping (during start-up)\n');
      expect(cli.stderr()).not.toContain('serving');
      await waitFor(() => !isRunning(pid!));
    } finally {
      await cli.stop();
      stopLeftover(pid);
    }
  });
});

describe('toolcap mcp stopped while an external tool runs', () => {
  /** A tools directory with one tool that writes its pid to `pidFile`, forks, and never ends. */
  function hangingToolsDir() {
    const dir = createTempDir();
    const pidFile = join(dir, 'tool.pid');
    const tool = join(dir, 'tools', 'stuck');
    mkdirSync(join(dir, 'tools'));
    writeFileSync(
      tool,
      `#!/bin/sh
if [ "$1" = "--schema" ]; then
  echo '{"name": "stuck", "description": "Never finishes.", "parameters": {"type": "object", "properties": {}}}'
  exit 0
fi
echo $$ > "${pidFile}"
sleep 300 &
sleep 300
`,
    );
    chmodSync(tool, 0o755);
    return { dir, pidFile };
  }

  it('cancels the call and kills its process group when a client closes its input and sends SIGTERM', {
    timeout: 60_000,
  }, async () => {
    const { dir, pidFile } = hangingToolsDir();
    const cli = startCliGateway(['--tools-dir', 'tools'], { cwd: dir });
    let pid: number | undefined;
    try {
      const session = rawSession(cli.child);
      await cli.waitForStderr(/serving 1 tool\(s\) over stdio/);
      for (const message of HANDSHAKE) session.send(message);
      await session.answer('init');
      session.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'stuck', arguments: {} },
      });
      pid = await readPid(pidFile);
      // what the MCP SDK's client does on close(): end our input, then SIGTERM by the pid
      cli.child.stdin.end();
      process.kill(cli.child.pid!, 'SIGTERM');
      // without cancelling, it would wait for the tool's 30 s time limit
      expect(await cli.exited()).toBe(0);
      await waitFor(() => !isRunning(-pid!));
    } finally {
      await cli.stop();
      if (pid !== undefined && isRunning(-pid)) process.kill(-pid, 'SIGKILL');
    }
  });
});
