import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGateway, type GatewayEvent } from '../../src/mcp/gateway/create-gateway.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir } from '../helpers/temp-files.js';
import { startCliGateway } from './cli-gateway-process.js';
import { fixtureServer, REPO_ROOT } from './gateway-helpers.js';

/** The listing fixture: its tools and capabilities come from its environment. */
const LISTING_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'mcp-upstreams', 'listing-server.mjs');
/** A server of resources only (no tools capability), and an McpServer with no tool registered. */
const NO_TOOLS_ENV = {
  resonly: { LISTING_CAPABILITIES: JSON.stringify({ resources: {} }) },
  bare: { LISTING_SDK: 'mcp-server' },
};

describe('an upstream without the tools capability', () => {
  it('is available with 0 tools and is not restarted', async () => {
    const events: GatewayEvent[] = [];
    const gateway = await createGateway({
      upstreams: Object.entries(NO_TOOLS_ENV).map(([name, env]) => ({
        ...fixtureServer(name, LISTING_SERVER),
        env,
      })),
      onEvent: (event) => events.push(event),
    });
    try {
      expect(gateway.status().servers).toMatchObject([
        { name: 'resonly', state: 'available', tools: 0, offersTools: false, restarts: 0 },
        { name: 'bare', state: 'available', tools: 0, offersTools: false, restarts: 0 },
      ]);
      const states = events.flatMap((event) =>
        event.type === 'upstream' ? [event.status.state] : [],
      );
      expect(states).not.toContain('unavailable');
      expect(gateway.listing().tools).toEqual([]);
    } finally {
      await gateway.close();
    }
  });

  it('toolcap mcp notes it on stderr', { timeout: 60_000 }, async () => {
    const dir = createTempDir();
    const config = join(dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          resonly: { command: process.execPath, args: [LISTING_SERVER], env: NO_TOOLS_ENV.resonly },
        },
      }),
    );
    const cli = startCliGateway(['--upstream', config], { cwd: dir });
    try {
      await cli.waitForStderr(/serving 0 tool\(s\) over stdio/);
      expect(cli.stderr()).toContain(
        'toolcap mcp: upstream "resonly" offers no tools (its initialize result has no "tools" capability); it stays connected with 0 tools\n',
      );
      expect(cli.stderr()).not.toContain('Method not found');
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });

  it('toolcap import --from-server says the server offers no tools', async () => {
    const dir = createTempDir();
    writeFileSync(
      join(dir, 'servers.json'),
      JSON.stringify({
        mcpServers: {
          bare: { command: process.execPath, args: [LISTING_SERVER], env: NO_TOOLS_ENV.bare },
        },
      }),
    );
    const result = await runCli(['import', '--from-server', 'servers.json', '--server', 'bare'], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'toolcap: the server "bare" of servers.json offers no tools (its initialize result has no "tools" capability: it serves resources or prompts only); there is nothing to import\n',
    );
  });
});
