import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir } from '../helpers/temp-files.js';
import { REPO_ROOT, waitFor } from './gateway-helpers.js';

describe('toolcap mcp options', () => {
  it.each([
    [['--expose', 'some'], 'unknown --expose "some"; use all, selected, search'],
    [['--http', 'localhost'], '--http "localhost" is not HOST:PORT; e.g. --http 127.0.0.1:8080'],
    [['--http', '127.0.0.1:70000'], '--http "127.0.0.1:70000": port 70000 is out of range'],
    [
      ['--call-timeout', '5000'],
      "--call-timeout limits calls forwarded to upstream MCP servers: it only applies with --upstream FILE (a local tool's limit comes from its latency_estimate)",
    ],
    [['--stateless'], '--stateless only applies with --http HOST:PORT'],
    [['--allow-origin', 'https://a.example'], '--allow-origin only applies with --http HOST:PORT'],
    [['--call-timeout', 'soon'], '--call-timeout must be a positive integer, got "soon"'],
    [
      ['--http', '[::]:8080'],
      '--http [::]:8080 listens beyond this machine: set TOOLCAP_MCP_TOKEN (clients send "Authorization: Bearer <token>"), or listen on 127.0.0.1',
    ],
  ])('rejects %j with a usage error', async (args, message) => {
    const result = await runCli(['mcp', ...args], { cwd: REPO_ROOT });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`toolcap: ${message}`);
  });

  it('stops with the configuration problem when the upstream file is wrong', async () => {
    const dir = createTempDir({ 'servers.json': { mcpServers: { a: { url: 'ftp://x' } } } });
    const result = await runCli(['mcp', '--upstream', 'servers.json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'toolcap: servers.json:4:7: mcpServers.a.url must be an http:// or https:// URL, got ftp:\n',
    );
  });

  it('serves HTTP until SIGINT, then stops', async () => {
    let stderr = '';
    const exit = main(
      [
        'mcp',
        '--http',
        '127.0.0.1:0',
        '--stateless',
        '--tools-dir',
        'test/fixtures/external-tools',
      ],
      {
        stdout: () => {},
        stderr: (text) => {
          stderr += text;
        },
        cwd: REPO_ROOT,
        env: {},
        isTty: false,
      },
    );
    await waitFor(() =>
      /serving \d+ tool\(s\) at http:\/\/127\.0\.0\.1:\d+\/mcp \(stateless\)/.test(stderr),
    );
    const url = /at (http:\S+)/.exec(stderr)![1]!;
    const health = await fetch(url.replace(/\/mcp$/, '/healthz'));
    expect(health.status).toBe(200);
    process.emit('SIGINT');
    expect(await exit).toBe(0);
    expect(stderr).toContain('toolcap mcp: stopping\n');
  });
});
