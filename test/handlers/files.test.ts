import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Registry } from '../../src/toolcap/registry.js';
import { makeTempDir } from '../execute/testing-registry.js';
import { loadBundledRegistry, outputOf } from './bundled-registry.js';

let registry: Registry;
let root: string;
let workspace: string;
let context: { workspace_root: string };

beforeEach(async () => {
  ({ registry } = await loadBundledRegistry());
  root = await makeTempDir('toolcap-files-');
  workspace = join(root, 'workspace');
  await mkdir(join(workspace, 'src'), { recursive: true });
  await writeFile(join(root, 'secret.txt'), 'outside the workspace\n');
  await writeFile(join(workspace, 'src', 'app.ts'), 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
  context = { workspace_root: workspace };
});

describe('file_read', () => {
  it('returns numbered lines with offset and limit', async () => {
    const all = outputOf(await registry.execute('file_read', { file_path: 'src/app.ts' }, context));
    expect(all).toEqual({
      file_path: join('src', 'app.ts'),
      content: '     1\tconst a = 1;\n     2\tconst b = 2;\n     3\tconst a2 = 1;',
      start_line: 1,
      end_line: 3,
      total_lines: 3,
      truncated: false,
    });
    const middle = outputOf(
      await registry.execute(
        'file_read',
        { file_path: join(workspace, 'src', 'app.ts'), offset: 2, limit: 1 },
        context,
      ),
    );
    expect(middle).toMatchObject({
      content: '     2\tconst b = 2;',
      start_line: 2,
      end_line: 2,
      truncated: true,
    });
  });

  it('handles empty files, CRLF, long lines and offsets past the end', async () => {
    await writeFile(join(workspace, 'empty.txt'), '');
    expect(
      outputOf(await registry.execute('file_read', { file_path: 'empty.txt' }, context)),
    ).toMatchObject({ content: '', total_lines: 0, start_line: 0, end_line: 0, truncated: false });
    await writeFile(join(workspace, 'dos.txt'), 'one\r\ntwo\r\n');
    expect(
      outputOf(await registry.execute('file_read', { file_path: 'dos.txt' }, context)),
    ).toMatchObject({ content: '     1\tone\n     2\ttwo' });
    await writeFile(join(workspace, 'long.txt'), 'y'.repeat(3000));
    const long = outputOf<{ content: string }>(
      await registry.execute('file_read', { file_path: 'long.txt' }, context),
    );
    expect(long.content).toContain('[line cut]');
    expect(long.content.length).toBeLessThan(2100);
    expect(
      await registry.execute('file_read', { file_path: 'src/app.ts', offset: 9 }, context),
    ).toMatchObject({ error: { code: 'OFFSET_OUT_OF_RANGE' } });
  });

  it('refuses binary files, directories and missing files', async () => {
    await writeFile(join(workspace, 'image.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    expect(await registry.execute('file_read', { file_path: 'image.png' }, context)).toMatchObject({
      error: { code: 'BINARY_FILE' },
    });
    expect(await registry.execute('file_read', { file_path: 'src' }, context)).toMatchObject({
      error: { code: 'NOT_A_FILE' },
    });
    expect(await registry.execute('file_read', { file_path: 'nope.txt' }, context)).toMatchObject({
      error: { code: 'FILE_NOT_FOUND' },
    });
  });

  it('needs an existing workspace_root', async () => {
    expect(await registry.execute('file_read', { file_path: 'a' })).toMatchObject({
      error: { code: 'MISSING_CONTEXT' },
    });
    expect(
      await registry.execute(
        'file_read',
        { file_path: 'a' },
        { workspace_root: join(root, 'gone') },
      ),
    ).toMatchObject({ error: { code: 'WORKSPACE_NOT_FOUND' } });
  });
});

describe('file paths are confined to the workspace root', () => {
  it.each([
    ['a parent-relative path', '../secret.txt'],
    ['a deep parent-relative path', 'src/../../secret.txt'],
    ['an absolute path outside', '/etc/passwd'],
    ['a missing file outside', '../does-not-exist.txt'],
  ])('rejects %s', async (_label, filePath) => {
    for (const tool of ['file_read', 'file_edit']) {
      const input =
        tool === 'file_read'
          ? { file_path: filePath }
          : { file_path: filePath, old_string: 'outside', new_string: 'pwned' };
      expect(await registry.execute(tool, input, context)).toMatchObject({
        ok: false,
        error: { code: 'PATH_OUTSIDE_WORKSPACE' },
      });
    }
    expect(await readFile(join(root, 'secret.txt'), 'utf8')).toBe('outside the workspace\n');
  });

  it('rejects a symlink inside the workspace that points outside', async () => {
    await symlink(join(root, 'secret.txt'), join(workspace, 'link.txt'));
    await symlink(root, join(workspace, 'escape'));
    for (const filePath of ['link.txt', 'escape/secret.txt']) {
      expect(await registry.execute('file_read', { file_path: filePath }, context)).toMatchObject({
        error: {
          code: 'PATH_OUTSIDE_WORKSPACE',
          message: expect.stringContaining('symbolic link'),
        },
      });
      expect(
        await registry.execute(
          'file_edit',
          { file_path: filePath, old_string: 'outside', new_string: 'pwned' },
          context,
        ),
      ).toMatchObject({ error: { code: 'PATH_OUTSIDE_WORKSPACE' } });
    }
    expect(await readFile(join(root, 'secret.txt'), 'utf8')).toBe('outside the workspace\n');
  });

  it('follows a symlink that stays inside, and a workspace_root that is itself a symlink', async () => {
    await symlink(join(workspace, 'src', 'app.ts'), join(workspace, 'alias.ts'));
    expect(
      outputOf(await registry.execute('file_read', { file_path: 'alias.ts' }, context)),
    ).toMatchObject({
      file_path: join('src', 'app.ts'),
    });
    await symlink(workspace, join(root, 'ws-link'));
    const viaLink = { workspace_root: join(root, 'ws-link') };
    expect(
      outputOf(
        await registry.execute(
          'file_read',
          { file_path: join(root, 'ws-link', 'src', 'app.ts') },
          viaLink,
        ),
      ),
    ).toMatchObject({ total_lines: 3 });
  });

  it('rejects a NUL byte in the path', async () => {
    expect(
      await registry.execute('file_read', { file_path: 'src/app.ts\u0000.png' }, context),
    ).toMatchObject({ error: { code: 'INVALID_PATH' } });
  });
});

describe('file_edit', () => {
  const file = () => join(workspace, 'src', 'app.ts');

  it('replaces a unique exact match', async () => {
    expect(
      outputOf(
        await registry.execute(
          'file_edit',
          { file_path: 'src/app.ts', old_string: 'const b = 2;', new_string: 'const b = $&3;' },
          context,
        ),
      ),
    ).toEqual({ file_path: join('src', 'app.ts'), replacements: 1 });
    expect(await readFile(file(), 'utf8')).toBe('const a = 1;\nconst b = $&3;\nconst a2 = 1;\n');
  });

  it('fails when old_string is not unique, unless replace_all', async () => {
    const ambiguous = await registry.execute(
      'file_edit',
      { file_path: 'src/app.ts', old_string: ' = 1;', new_string: ' = 10;' },
      context,
    );
    expect(ambiguous).toMatchObject({
      ok: false,
      error: { code: 'OLD_STRING_NOT_UNIQUE', details: { occurrences: 2 } },
    });
    expect(await readFile(file(), 'utf8')).toBe('const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
    expect(
      outputOf(
        await registry.execute(
          'file_edit',
          { file_path: 'src/app.ts', old_string: ' = 1;', new_string: ' = 10;', replace_all: true },
          context,
        ),
      ),
    ).toMatchObject({ replacements: 2 });
    expect(await readFile(file(), 'utf8')).toBe('const a = 10;\nconst b = 2;\nconst a2 = 10;\n');
  });

  it('fails when old_string is not found (exact match: whitespace counts)', async () => {
    expect(
      await registry.execute(
        'file_edit',
        { file_path: 'src/app.ts', old_string: 'const  b = 2;', new_string: 'x' },
        context,
      ),
    ).toMatchObject({ error: { code: 'OLD_STRING_NOT_FOUND' } });
  });

  it('rejects an empty old_string, a no-op edit, and missing required fields', async () => {
    expect(
      await registry.execute(
        'file_edit',
        { file_path: 'src/app.ts', old_string: '', new_string: 'x' },
        context,
      ),
    ).toMatchObject({ error: { code: 'EMPTY_OLD_STRING' } });
    expect(
      await registry.execute(
        'file_edit',
        { file_path: 'src/app.ts', old_string: 'a', new_string: 'a' },
        context,
      ),
    ).toMatchObject({ error: { code: 'NO_CHANGE' } });
    const missing = await registry.execute('file_edit', { file_path: 'src/app.ts' }, context);
    expect(missing).toMatchObject({
      error: {
        code: 'INVALID_INPUT',
        details: [{ pointer: '/old_string' }, { pointer: '/new_string' }],
      },
    });
  });

  it('writes atomically: same mode, no temporary files left, and concurrent edits all land', async () => {
    await chmod(file(), 0o640);
    await writeFile(file(), Array.from({ length: 50 }, (_, index) => `line ${index};`).join('\n'));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        registry.execute(
          'file_edit',
          { file_path: 'src/app.ts', old_string: `line ${index};`, new_string: `edited ${index};` },
          context,
        ),
      ),
    );
    expect(results.filter((result) => !result.ok)).toEqual([]);
    const text = await readFile(file(), 'utf8');
    expect(text.match(/edited/g)).toHaveLength(50);
    expect((await stat(file())).mode & 0o777).toBe(0o640);
    expect(await readdir(join(workspace, 'src'))).toEqual(['app.ts']);
  });

  it('removes the temporary file a killed edit left behind on the next edit of that file', async () => {
    const { spawnSync } = await import('node:child_process');
    const { utimes } = await import('node:fs/promises');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid ?? 999_999;
    const leftover = join(workspace, 'src', `.app.ts.${dead}.0a1b2c3d4e5f.tmp`);
    await writeFile(leftover, 'const a = 1;\nconst b = 2');
    const old = new Date(Date.now() - 60_000);
    await utimes(leftover, old, old);
    expect(
      await registry.execute(
        'file_edit',
        { file_path: 'src/app.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' },
        context,
      ),
    ).toMatchObject({ ok: true });
    expect(await readdir(join(workspace, 'src'))).toEqual(['app.ts']);
  });

  it('is not written once the call has timed out (the signal is checked before the rename)', async () => {
    const { file_edit } = await import('../../handlers/files.js');
    await expect(
      file_edit(
        { file_path: 'src/app.ts', old_string: 'const b = 2;', new_string: 'const b = 9;' },
        context,
        {
          signal: AbortSignal.abort(new Error('timed out')),
          toolName: 'file_edit',
          dataDir: root,
          services: {},
        },
      ),
    ).rejects.toThrow('timed out');
    expect(await readFile(file(), 'utf8')).toContain('const b = 2;');
    expect(await readdir(join(workspace, 'src'))).toEqual(['app.ts']);
  });
});
