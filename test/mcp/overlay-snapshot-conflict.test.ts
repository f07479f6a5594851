import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/mcp/gateway/create-gateway.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { ALPHA_SERVER, BETA_SERVER, fixtureServer } from './gateway-helpers.js';

const overlay = (group: string, version = '1.0.0') => ({
  ...makeGroup(group, { version, tools: [] }),
  'x-upstream': { pinned: ['echo'] },
});
const snapshot = (group: string, version: string) =>
  makeGroup(group, {
    version,
    tools: [makeTool({ name: 'echo' }), makeTool({ name: 'add' })],
  });

describe('an overlay and a snapshot of the same upstream group', () => {
  it('toolcap import refuses to write a snapshot a schema directory would load beside the overlay', async () => {
    const dir = createTempDir({
      'schemas/alpha_one_tools.json': overlay('alpha_one'),
      'schemas/beta_tools.json': overlay('beta'),
    });
    writeFileSync(
      join(dir, 'servers.json'),
      JSON.stringify({
        mcpServers: {
          'Alpha-One': { command: process.execPath, args: [ALPHA_SERVER] },
          beta: { command: process.execPath, args: [BETA_SERVER] },
        },
      }),
    );
    const snapshotArgs = ['import', '--from-server', 'servers.json', '--server', 'Alpha-One'];
    const refused = await runCli([...snapshotArgs, '--out', 'schemas/snapshots'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'toolcap: refusing to write schemas/snapshots/alpha_one_tools.json: schemas/alpha_one_tools.json is the overlay of group "alpha_one" (it has "x-upstream"), and loading schemas (toolcap mcp --upstream --schemas schemas, toolcap validate) would read both files as versions of that group: the higher version is used, so the gateway either refuses to start or ignores the overlay. Write snapshots outside the schema directories, e.g. --out snapshots; nothing was written\n',
    );
    expect(existsSync(join(dir, 'schemas/snapshots'))).toBe(false);
    // the same file name as the overlay's: refused even with --force
    const over = await runCli([...snapshotArgs, '--out', 'schemas', '--force'], { cwd: dir });
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/^toolcap: refusing to write schemas\/alpha_one_tools\.json: /);

    const written = await runCli([...snapshotArgs, '--out', 'snapshots'], { cwd: dir });
    expect(written.code).toBe(0);
    expect(written.stdout).toMatch(/^Wrote snapshots\/alpha_one_tools\.json: group "alpha_one"/);
    const validate = await runCli(['validate'], { cwd: dir });
    expect(validate.stdout).toBe('2 group(s), 0 tool(s): 0 error(s), 0 warning(s)\n');
    expect(validate.code).toBe(0);
  });

  it('toolcap validate fails when a snapshot is loaded instead of the overlay, naming both files', async () => {
    const dir = createTempDir({
      'schemas/alpha_one_tools.json': overlay('alpha_one'),
      'schemas/snapshots/alpha_one_tools.json': snapshot('alpha_one', '1.4.0'),
      // an older snapshot beside it is reported through the loaded one only
      'schemas/snapshots/old/alpha_one_tools.json': snapshot('alpha_one', '1.3.0'),
    });
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'schemas/snapshots/alpha_one_tools.json:2:3: error INVALID_OVERLAY group "alpha_one" is defined here (version 1.4.0, 2 tool(s)) and by its overlay schemas/alpha_one_tools.json (version 1.0.0): this file is the higher version and is loaded instead of the overlay, so toolcap mcp --upstream refuses to start; keep snapshots of a server (toolcap import --from-server) outside the schema directories, e.g. toolcap import --out snapshots, or delete one of the two files (at /group)',
        '1 group(s), 2 tool(s): 1 error(s), 0 warning(s)',
        '',
      ].join('\n'),
    );
    // the gateway refuses to start on the same files, and says what the file probably is
    const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir });
    await expect(
      createGateway({
        registry,
        upstreams: [fixtureServer('Alpha-One', ALPHA_SERVER, 'alpha_one')],
        cwd: dir,
      }),
    ).rejects.toThrow(
      'schemas/snapshots/alpha_one_tools.json: group "alpha_one" overlays the upstream server of that group, so its "tools" must be [] (the server supplies them); move its 2 tool(s) to a group of another name, or, if it is a snapshot of the server (toolcap import --from-server), keep it outside the schema directories (toolcap import --out snapshots)',
    );
  });

  it('toolcap validate warns while the overlay is the higher version', async () => {
    const dir = createTempDir({
      'schemas/alpha_one_tools.json': overlay('alpha_one', '2.0.0'),
      'schemas/snapshots/alpha_one_tools.json': snapshot('alpha_one', '1.4.0'),
    });
    const result = await runCli(['validate', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({
      groups: [
        { group: 'alpha_one', version: '2.0.0', file: 'schemas/alpha_one_tools.json', tools: 0 },
      ],
      diagnostics: [
        {
          severity: 'warning',
          code: 'INVALID_OVERLAY',
          file: 'schemas/snapshots/alpha_one_tools.json',
          pointer: '/group',
          line: 2,
          column: 3,
          message:
            "group \"alpha_one\" is defined here (version 1.4.0, 2 tool(s)) and by its overlay schemas/alpha_one_tools.json (version 2.0.0): the overlay is the higher version and is loaded, but once this file's version is higher (a snapshot's follows the server's) it is loaded instead, and toolcap mcp --upstream refuses to start; keep snapshots of a server (toolcap import --from-server) outside the schema directories, e.g. toolcap import --out snapshots, or delete one of the two files",
        },
      ],
    });
    expect((await runCli(['validate', '--strict'], { cwd: dir })).code).toBe(1);
    // snapshots kept apart are no conflict
    expect((await runCli(['validate', '--schemas', 'schemas/snapshots'], { cwd: dir })).code).toBe(
      0,
    );
  });
});
