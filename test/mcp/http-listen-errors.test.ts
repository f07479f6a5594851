import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup } from '../helpers/temp-files.js';

describe('toolcap mcp --http: where it cannot listen', () => {
  // a port this test holds, closed after the tests
  let holder: Server;
  let port = 0;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
  });

  it('says the port is in use instead of an unexpected error', async () => {
    const dir = createTempDir({ 'schemas/notes_tools.json': makeGroup('notes') });
    const result = await runCli(['mcp', '--http', `127.0.0.1:${port}`], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `toolcap: --http 127.0.0.1:${port}: the port is in use by another process; stop it, or choose another port\n`,
    );
    expect(result.stderr).not.toContain('unexpected error');
  });

  it('says a port out of range is out of range', async () => {
    const result = await runCli(['mcp', '--http', '127.0.0.1:99999'], { cwd: createTempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'toolcap: --http "127.0.0.1:99999": port 99999 is out of range (0 to 65535; 0 picks a free port)',
    );
  });
});

describe('a --tools-dir that does not exist', () => {
  it('stops toolcap mcp and toolcap run as a missing --schemas path does', async () => {
    const dir = createTempDir();
    for (const args of [
      ['mcp', '--tools-dir', 'nope'],
      ['run', '--tools-dir', 'nope', 'word_count'],
    ]) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'toolcap: tools directory nope does not exist; check the path (--tools-dir DIR)\n',
      );
    }
  });
});
