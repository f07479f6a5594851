import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

// These tests run the built CLI (`npm test` builds first; during development run `npm run build`).
const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'dist/cli/toolcap.mjs');
const LIMIT_MS = 20_000;

interface ClosedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Runs the built CLI with a stdout pipe whose reading end is closed before the child writes
 * anything (what `toolcap ... | head -1` does once head has its line), and collects stderr.
 * The child is killed by its pid if it outlives LIMIT_MS.
 */
function runWithClosedStdout(args: readonly string[], cwd: string): Promise<ClosedRun> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    }, LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

function project(): string {
  const group = makeGroup('things', {
    tools: [makeTool(), makeTool({ name: 'other_thing', description: 'Does another thing.' })],
  });
  return createTempDir({
    'schemas/things_tools.json': group,
    'next/things_tools.json': { ...group, version: '1.0.1', tools: [makeTool()] },
    'anthropic.json': readFileSync(
      join(ROOT, 'test/migrate/fixtures/providers/anthropic.json'),
      'utf8',
    ),
  });
}

describe('a closed stdout (toolcap ... | head -1)', () => {
  it.each([
    { args: ['validate', '--schemas', 'schemas'], code: 0 },
    { args: ['list'], code: 0 },
    { args: ['translate', '--provider', 'openai'], code: 0 },
    { args: ['search', 'thing'], code: 0 },
    { args: ['select', 'do a thing'], code: 0 },
    { args: ['diff', 'schemas/things_tools.json', 'next/things_tools.json'], code: 1 },
    {
      args: ['import', '--from', 'anthropic', 'anthropic.json', '--group', 'stocks', '--out', 'x'],
      code: 0,
    },
    { args: ['help'], code: 0 },
    { args: ['--version'], code: 0 },
  ])('toolcap $args.0 exits quietly with its own exit code', async ({ args, code }) => {
    const dir = project();
    const result = await runWithClosedStdout(args, dir);
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.mjs/);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(code);
    if (args[0] === 'import') expect(existsSync(join(dir, 'x/stocks_tools.json'))).toBe(true);
  });
});
