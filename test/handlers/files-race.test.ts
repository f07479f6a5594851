import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBundledRegistry } from './bundled-registry.js';

/**
 * Swaps `sub` between the real directory and a symlink to `outside`, staying up to half a
 * millisecond in each state so that calls meet both.
 */
const FLIPPER = `
  const { renameSync, symlinkSync, unlinkSync } = require('node:fs');
  const [sub, parked, outside] = process.argv.slice(1);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const rest = () => Atomics.wait(pause, 0, 0, Math.random() * 0.5);
  process.stdout.write('flipping\\n');
  for (;;) {
    try {
      renameSync(sub, parked); symlinkSync(outside, sub); rest();
      unlinkSync(sub); renameSync(parked, sub); rest();
    } catch {}
  }
`;

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('files handler against a directory swapped for a symlink to outside', () => {
  it('never returns outside content nor touches the outside file, over 1,000 calls', async () => {
    const base = mkdtempSync(join(tmpdir(), 'toolcap-race-'));
    dirs.push(base);
    const workspace = join(base, 'workspace');
    const outside = join(base, 'outside');
    mkdirSync(join(workspace, 'sub'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(workspace, 'sub', 'notes.txt'), 'inside A\n');
    writeFileSync(join(outside, 'notes.txt'), 'OUTSIDE A\n');
    const { registry } = await loadBundledRegistry();
    const context = { workspace_root: workspace };

    const flipper = spawn(
      process.execPath,
      ['-e', FLIPPER, join(workspace, 'sub'), join(workspace, 'parked'), outside],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    children.push(flipper);
    await new Promise((resolve) => flipper.stdout?.once('data', resolve));

    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    const leaks: string[] = [];
    const deadline = Date.now() + 8_000;
    for (let call = 0; call < 500 && Date.now() < deadline; call++) {
      const read = await registry.execute('file_read', { file_path: 'sub/notes.txt' }, context);
      if (read.ok) {
        const content = (read.output as { content: string }).content;
        if (content.includes('OUTSIDE')) leaks.push(content);
        count('read ok');
      } else count(`read ${read.error.code}`);
      const [from, to] = call % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      const edit = await registry.execute(
        'file_edit',
        { file_path: 'sub/notes.txt', old_string: from, new_string: to },
        context,
      );
      count(edit.ok ? 'edit ok' : `edit ${edit.error.code}`);
    }
    flipper.kill('SIGKILL');

    expect(leaks).toEqual([]);
    expect(readFileSync(join(outside, 'notes.txt'), 'utf8')).toBe('OUTSIDE A\n');
    expect(readdirSync(outside)).toEqual(['notes.txt']);
    // the race was real: some calls met the symlink and were refused, some went through
    expect(outcomes.get('read ok') ?? 0).toBeGreaterThan(0);
    expect([...outcomes.keys()].some((key) => key.endsWith('PATH_OUTSIDE_WORKSPACE'))).toBe(true);
  }, 30_000);

  it('reads where /proc/self/fd is missing too, by comparing the opened file with its path', async () => {
    const base = mkdtempSync(join(tmpdir(), 'toolcap-race-'));
    dirs.push(base);
    mkdirSync(join(base, 'workspace', 'sub'), { recursive: true });
    writeFileSync(join(base, 'workspace', 'sub', 'notes.txt'), 'inside A\n');
    const { registry } = await loadBundledRegistry();
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { ...platform, value: 'darwin' });
    try {
      const context = { workspace_root: join(base, 'workspace') };
      expect(
        await registry.execute('file_read', { file_path: 'sub/notes.txt' }, context),
      ).toMatchObject({
        ok: true,
        output: { content: '     1\tinside A' },
      });
      expect(
        await registry.execute(
          'file_edit',
          { file_path: 'sub/notes.txt', old_string: 'A', new_string: 'B' },
          context,
        ),
      ).toMatchObject({ ok: true });
      expect(readFileSync(join(base, 'workspace', 'sub', 'notes.txt'), 'utf8')).toBe('inside B\n');
      expect(readdirSync(join(base, 'workspace', 'sub'))).toEqual(['notes.txt']);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });
});
