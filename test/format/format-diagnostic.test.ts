import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/format/format-diagnostic.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir } from '../helpers/temp-files.js';

describe('formatDiagnostic', () => {
  it('adds the pointer after the message, once', () => {
    const base = { severity: 'error', code: 'INVALID_FIELD', file: 'a_tools.json' } as const;
    expect(formatDiagnostic({ ...base, pointer: '/tools/0', line: 4, message: 'bad' })).toBe(
      'a_tools.json:4:1: error INVALID_FIELD bad (at /tools/0)',
    );
    expect(formatDiagnostic({ ...base, pointer: '', message: 'bad' })).toBe(
      'a_tools.json: error INVALID_FIELD bad',
    );
    expect(
      formatDiagnostic({ ...base, pointer: '/name', message: 'bad (at /name); skipped' }),
    ).toBe('a_tools.json: error INVALID_FIELD bad (at /name); skipped');
  });

  it("names the place of an external tool's --schema problem once", async () => {
    const dir = createTempDir({
      'tools/count-up':
        '#!/bin/sh\necho \'{"name": "count_up", "description": "Count.", "parameters": {"type": "object", "properties": {"n": {"type": "dict"}}}}\'\n',
    });
    chmodSync(join(dir, 'tools/count-up'), 0o755);
    const result = await runCli(['run', '--tools-dir', 'tools', 'count_up', '--input', '{}'], {
      cwd: dir,
    });
    expect(result.stderr).toContain(
      `${join('tools', 'count-up')}:1:101: error INVALID_PROPERTY_TYPE invalid --schema answer: property "n" has type "dict"; use one of string, integer, number, boolean, array, object (at /parameters/properties/n/type); the tool is not registered\n`,
    );
  });
});
