import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { waitFor } from './gateway-helpers.js';

const UNKNOWN_FIELD =
  'schemas/alpha_tools.json:4:3: warning UNKNOWN_FIELD unknown field "bogus" is ignored; known fields here: $schema, group, version, description, selection, tools (prefix extensions with "x-") (at /bogus)\n';

function groupText(extra: Record<string, unknown> = {}): string {
  const { tools, ...header } = makeGroup('alpha', {
    tools: [makeTool({ name: 'alpha_tool', metadata: { executor: 'echo' } })],
  });
  // "bogus" on line 4, after group, version
  return `${JSON.stringify({ group: header.group, version: header.version, ...extra, ...header, tools }, null, 2)}\n`;
}

describe('toolcap mcp --watch diagnostics', () => {
  it('prints the warnings of a reload as start-up does, and the errors of a rejected one', async () => {
    const dir = createTempDir({
      'schemas/alpha_tools.json': groupText(),
      'handlers/echo.js': 'export function execute(name, input) { return { name, input }; }\n',
    });
    const stdin = new PassThrough();
    let stderr = '';
    const exit = main(['mcp', '--watch', '--data-dir', join(dir, 'data')], {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
      cwd: dir,
      env: {},
      isTty: false,
      stdin,
    });
    try {
      await waitFor(() => stderr.includes('serving 1 tool(s) over stdio'));
      expect(stderr).not.toContain('UNKNOWN_FIELD');

      writeFileSync(join(dir, 'schemas', 'alpha_tools.json'), groupText({ bogus: 1 }));
      await waitFor(() => stderr.includes('reloaded the tools'));
      expect(stderr).toContain(`toolcap mcp: reloaded the tools (1 loaded)\n${UNKNOWN_FIELD}`);

      // a broken edit still reports its errors
      writeFileSync(join(dir, 'schemas', 'alpha_tools.json'), '{"group": "alpha",');
      await waitFor(() => stderr.includes('still serving the previous tools'));
      expect(stderr).toMatch(
        /toolcap mcp: an edit has errors; still serving the previous tools\nschemas\/alpha_tools\.json:1:\d+: error JSON_SYNTAX /,
      );
    } finally {
      stdin.end();
    }
    expect(await exit).toBe(0);
  });
});
