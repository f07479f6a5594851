import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir } from '../helpers/temp-files.js';
import { ALPHA_SERVER, BETA_SERVER, REPO_ROOT } from './gateway-helpers.js';

function writeServers(dir: string, alphaEnv: Record<string, string> = {}): void {
  writeFileSync(
    join(dir, 'servers.json'),
    JSON.stringify({
      mcpServers: {
        alpha: { command: process.execPath, args: [ALPHA_SERVER], env: alphaEnv },
        beta: { command: process.execPath, args: [BETA_SERVER] },
      },
    }),
  );
}

describe('toolcap import --from-server', () => {
  it("writes a live server's tools as a group file that loads", async () => {
    const dir = createTempDir();
    writeServers(dir);
    const result = await runCli(['import', '--from-server', 'servers.json', '--server', 'beta'], {
      cwd: dir,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Wrote schemas\/beta_tools\.json: group "beta" 0\.0\.0, 3 tool\(s\), strategy always\nRenamed \(1\):\n {2}search-docs -> search_docs\n/,
    );
    const file = JSON.parse(readFileSync(join(dir, 'schemas', 'beta_tools.json'), 'utf8'));
    expect(file).toMatchObject({
      group: 'beta',
      version: '0.0.0',
      description: 'Tools imported from servers.json (server beta) (mcp).',
      tools: [
        { name: 'echo' },
        { name: 'search_docs', 'x-original-name': 'search-docs' },
        { name: 'multiply' },
      ],
    });
    expect((await runCli(['validate'], { cwd: dir })).code).toBe(0);
  });

  it('lets toolcap diff tell that the server changed in a breaking way', async () => {
    const dir = createTempDir();
    writeServers(dir);
    const before = await runCli(
      ['import', '--from-server', 'servers.json', '--server', 'alpha', '--out', 'old'],
      { cwd: dir },
    );
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('group "alpha" 1.4.0, 8 tool(s)');
    // the next release of the server drops a tool but only bumps the minor version
    writeServers(dir, { ALPHA_DROP: 'crash', ALPHA_VERSION: '1.5.0' });
    const after = await runCli(
      ['import', '--from-server', 'servers.json', '--server', 'alpha', '--out', 'new'],
      { cwd: dir },
    );
    expect(after.stdout).toContain('group "alpha" 1.5.0, 7 tool(s)');
    const diff = await runCli(['diff', 'old/alpha_tools.json', 'new/alpha_tools.json', '--json'], {
      cwd: dir,
    });
    expect(diff.code).toBe(1);
    expect(diff.json()).toMatchObject({
      required_bump: 'major',
      ok: false,
      changes: [expect.objectContaining({ kind: 'tool_removed', tool: 'crash' })],
    });
  });

  it.each([
    [['--from-server', 'servers.json'], '--from-server CONFIG needs --server NAME'],
    [
      ['--server', 'beta', 'x.json', '--from', 'mcp', '--group', 'g'],
      '--server NAME needs --from-server CONFIG',
    ],
    [
      ['--from-server', 'servers.json', '--server', 'beta', 'x.json'],
      '--from-server replaces FILE and --from; give one source',
    ],
  ])('rejects %j as a usage error', async (args, message) => {
    const dir = createTempDir();
    writeServers(dir);
    const result = await runCli(['import', ...args], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('names the servers a config has when --server names none, and a server that cannot start', async () => {
    const dir = createTempDir({
      'broken.json': { mcpServers: { ghost: { command: join('/nonexistent', 'server-binary') } } },
    });
    writeServers(dir);
    const unknown = await runCli(['import', '--from-server', 'servers.json', '--server', 'gamma'], {
      cwd: dir,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'toolcap: servers.json has no enabled server "gamma"; its servers: alpha, beta\n',
    );
    const ghost = await runCli(['import', '--from-server', 'broken.json', '--server', 'ghost'], {
      cwd: dir,
    });
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toMatch(
      /^toolcap: could not list the tools of server "ghost" \(\/nonexistent\/server-binary\): .*ENOENT/,
    );
  });
});

/** The listing fixture: its tools and capabilities come from its environment. */
const LISTING_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'listing-server.mjs');

function writeListingServer(dir: string, file: string, name: string, env: Record<string, string>) {
  writeFileSync(
    join(dir, file),
    JSON.stringify({
      mcpServers: { [name]: { command: process.execPath, args: [LISTING_SERVER], env } },
    }),
  );
}

describe('toolcap import --from-server, servers with odd lists', () => {
  const tool = (name: string) => ({
    name,
    description: `The ${name} tool of the listing server.`,
    inputSchema: { type: 'object' },
  });

  it('reports a name the server lists twice as a duplicate', async () => {
    const dir = createTempDir();
    writeListingServer(dir, 'servers.json', 'dups', {
      LISTING_TOOLS: JSON.stringify([tool('dup'), tool('dup')]),
    });
    const json = await runCli(
      ['import', '--from-server', 'servers.json', '--server', 'dups', '--json', '--out', 'a'],
      { cwd: dir },
    );
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({
      renamed: [{ from: 'dup', to: 'dup_2', reason: 'duplicate' }],
    });
    const text = await runCli(
      ['import', '--from-server', 'servers.json', '--server', 'dups', '--out', 'b'],
      { cwd: dir },
    );
    expect(text.stdout).toContain(
      'Renamed (1):\n  dup -> dup_2 (another tool of the list has the name)\n',
    );
  });

  it('says the server lists no tools, without speaking of --from', async () => {
    const dir = createTempDir();
    writeListingServer(dir, 's-empty.json', 'empty', {});
    const result = await runCli(['import', '--from-server', 's-empty.json', '--server', 'empty'], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'toolcap: the server "empty" of s-empty.json lists no tools (its tools/list is empty). Nothing was written\n',
    );
  });
});
