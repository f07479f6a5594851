import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTempDir } from '../helpers/temp-files.js';

const ROOT = join(import.meta.dirname, '../..');

describe('scripts/prove-import.mjs', () => {
  it('says which data is missing and exits 1 instead of dying with ENOENT', () => {
    const data = createTempDir({ 'bfcl/readme.txt': 'no question files here' });
    const child = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts/prove-import.mjs'), '--data', data],
      { cwd: ROOT, encoding: 'utf8', timeout: 20_000 },
    );
    expect(child.status).toBe(1);
    expect(child.stdout).toBe('');
    expect(child.stderr).not.toContain('ENOENT');
    expect(child.stderr).toBe(
      `prove-import: the data sets are missing from ${data}: ${join(data, 'bfcl')} holds no BFCL_*.json question files; ${join(data, 'livemcpbench', 'tools.json')} does not exist. Put the BFCL question files in bfcl/ and LiveMCPBench's tools.json in livemcpbench/, or pass --data DIR.\n`,
    );
  });
});
