import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { getCompileCount } from '../../src/json-schema/compile-schema.js';
import { createTempDir } from '../helpers/temp-files.js';

const ROOT = join(import.meta.dirname, '../..');
// the shipped CLI: package.json "bin" (the esbuild bundle of src/cli, see scripts/bundle-cli.mjs)
const BIN = join(
  ROOT,
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { toolcap: string } }).bin
    .toolcap,
);
const PRELOAD = join(import.meta.dirname, 'fixtures/record-startup.cjs');

interface StartupRecord {
  /** Resolved paths of the CommonJS modules loaded. */
  cjs: string[];
  /** URLs of the ES modules loaded. */
  esm: string[];
  /** ajv `compile` calls. */
  compiles: number;
}

/** Runs the built CLI from the repository root (bundled schemas) and records what it loads. */
function recordStartup(args: readonly string[]): StartupRecord {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
  const record = join(createTempDir(), 'record.json');
  const child = spawnSync(process.execPath, ['--require', PRELOAD, BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, TOOLCAP_STARTUP_RECORD: record, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(readFileSync(record, 'utf8')) as StartupRecord;
}

function loaded(record: StartupRecord): string[] {
  return [...record.cjs, ...record.esm].map((entry) => entry.replace(/^file:\/\//, ''));
}

/**
 * What the commands that only read the registry must never load, and why (docs/guide/performance.md).
 * None of this is timed: the module graph and the compile count are what regress.
 */
const NEVER_ON_START_UP: readonly [pattern: RegExp, reason: string][] = [
  [/\/natural\/lib\/natural\/index\.js$/, "natural's index: ~300 ms, DB drivers, dotenv"],
  [/\/natural\/index\.js$/, "natural's package entry"],
  [/\/node_modules\/dotenv\//, 'dotenv prints to stdout and reads .env'],
  [
    /\/ajv\/dist\/(core|ajv|2020)\.js$/,
    'the ajv engine: loading validates with generated validators',
  ],
  [/\/@modelcontextprotocol\/sdk\//, 'the MCP SDK (~200 ms): only `toolcap mcp` needs it'],
];

describe('CLI start-up path (built CLI, bundled schemas)', () => {
  // `select`, `list` and `search` read the registry; they never compile a schema
  it.each([
    [['select', 'schedule a meeting with Dana and add a task to my to-do list']],
    [['select', '--max-tools', '3', '--json', 'write in my journal']],
    [['list']],
    [['search', 'write in my journal']],
  ])('toolcap %j loads no heavy module and compiles nothing', (args) => {
    const record = recordStartup(args);
    const modules = loaded(record);
    // the recorder works: it saw the CLI itself, and the ajv runtime helpers the generated
    // validators use
    expect(modules).toContain(BIN);
    expect(modules.some((path) => path.endsWith('/ajv/dist/runtime/equal.js'))).toBe(true);
    // the CLI is bundled: a few dozen chunks (esbuild splits shared code per set of lazily
    // loaded commands), not the ~150 modules of dist/src; start-up time itself is the bench's
    expect(new Set(record.esm.filter((url) => url.startsWith('file:'))).size).toBeLessThan(40);
    for (const [pattern, reason] of NEVER_ON_START_UP) {
      expect(
        modules.filter((path) => pattern.test(path)),
        reason,
      ).toEqual([]);
    }
    expect(record.compiles).toBe(0);
  });

  it('toolcap validate compiles only the input schemas of tools with examples', () => {
    // validate checks each example against its tool's input_schema: that needs ajv, and only
    // for those tools
    let withExamples = 0;
    for (const file of readdirSync(join(ROOT, 'schemas'))) {
      if (!file.endsWith('_tools.json')) continue;
      const group = JSON.parse(readFileSync(join(ROOT, 'schemas', file), 'utf8')) as {
        tools: { examples?: unknown[] }[];
      };
      withExamples += group.tools.filter((tool) => (tool.examples?.length ?? 0) > 0).length;
    }
    expect(withExamples).toBeGreaterThan(0);
    const record = recordStartup(['validate']);
    expect(record.compiles).toBe(withExamples);
    const modules = loaded(record);
    expect(modules.filter((path) => /natural\/(lib\/natural\/)?index\.js$/.test(path))).toEqual([]);
  });

  it('the recorder counts compiles (execute validates its input with ajv)', () => {
    const dataDir = createTempDir();
    const record = recordStartup([
      'run',
      'add_task',
      '--input',
      '{"title":"x"}',
      '--context',
      'user_id=u1',
      '--data-dir',
      dataDir,
    ]);
    expect(record.compiles).toBeGreaterThan(0);
  });
});

describe('CLI start-up path (sources, in process)', () => {
  it('select, list and search compile no schema', async () => {
    const before = getCompileCount();
    const io = {
      stdout: () => {},
      stderr: () => {},
      cwd: ROOT,
      env: {},
      isTty: false,
    };
    expect(await main(['select', 'schedule a meeting', '--max-tools', '5'], io)).toBe(0);
    expect(await main(['list'], io)).toBe(0);
    expect(await main(['search', 'journal'], io)).toBe(0);
    expect(getCompileCount()).toBe(before);
  });
});
