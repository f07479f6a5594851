import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fastGlob from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { listGroupFiles } from '../../src/load/list-group-files.js';
import { createTempDir } from '../helpers/temp-files.js';

// the loader's directory walk replaced fast-glob on the start-up path; it must find exactly the
// files fast-glob found with the loader's former options
function globGroupFiles(cwd: string): Promise<string[]> {
  return fastGlob('**/*_tools.json', {
    cwd,
    absolute: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    dot: false,
  }).then((files) => files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
}

describe('listGroupFiles', () => {
  it('finds what the glob **/*_tools.json found: no dot entries, no symlinks', async () => {
    const dir = createTempDir({
      '_tools.json': '{}',
      'a_tools.json': '{}',
      'B_TOOLS.JSON': '{}',
      'notes.json': '{}',
      '.hidden_tools.json': '{}',
      '.cache/x_tools.json': '{}',
      'nested/deeper/z_tools.json': '{}',
      'nested/Ünïcode grüppe_tools.json': '{}',
      'dir_tools.json/inner_tools.json': '{}',
      'target/t_tools.json': '{}',
    });
    symlinkSync(join(dir, 'target'), join(dir, 'linked_dir'));
    symlinkSync(join(dir, 'a_tools.json'), join(dir, 'link_tools.json'));
    symlinkSync(join(dir, 'missing'), join(dir, 'dangling_tools.json'));
    mkdirSync(join(dir, 'empty'));
    const found = await listGroupFiles(dir);
    expect(found).toEqual(await globGroupFiles(dir));
    expect(found.map((file) => file.slice(dir.length + 1))).toEqual([
      '_tools.json',
      'a_tools.json',
      'dir_tools.json/inner_tools.json',
      'nested/deeper/z_tools.json',
      'nested/Ünïcode grüppe_tools.json',
      'target/t_tools.json',
    ]);
  });

  it('treats a directory that does not exist as empty, and rejects other read errors', async () => {
    const dir = createTempDir();
    expect(await listGroupFiles(join(dir, 'vanished'))).toEqual([]);
    writeFileSync(join(dir, 'file_tools.json'), '{}');
    await expect(listGroupFiles(join(dir, 'file_tools.json'))).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
  });
});
