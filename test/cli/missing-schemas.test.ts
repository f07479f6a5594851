import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup } from '../helpers/temp-files.js';

const ROOT = join(import.meta.dirname, '../..');
const MISSING =
  'toolcap: schema directory nowhere does not exist; check the path (--schemas PATH; default ./schemas)\n';

describe('a schema directory that does not exist', () => {
  it('is a SCHEMAS_DIR_NOT_FOUND error from loadRegistry, in terms of its options', async () => {
    const dir = createTempDir();
    const registry = await loadRegistry({ dirs: ['nowhere'], cwd: dir });
    expect(registry.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'SCHEMAS_DIR_NOT_FOUND',
        file: 'nowhere',
        pointer: '',
        message: 'schema directory nowhere does not exist; check the path',
      },
    ]);
  });

  it('fails toolcap validate with the flag named', async () => {
    const dir = createTempDir();
    const result = await runCli(['validate', '--schemas', 'nowhere'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toBe(
      'nowhere: error SCHEMAS_DIR_NOT_FOUND schema directory nowhere does not exist; check the path (--schemas PATH; default ./schemas)',
    );
  });

  it.each([
    [['list']],
    [['search', 'task']],
    [['select', 'add a task']],
    [['translate', '--provider', 'openai']],
    [['run', 'add_task', '--input', '{"title": "x"}']],
    [['migrate', 'status', '--fallback', 'fallback.mjs']],
    [['mcp']],
  ])('fails toolcap %j (exit 1) instead of serving nothing', async (args) => {
    const dir = createTempDir({ 'fallback.mjs': 'export default [];\n' });
    const result = await runCli([...args, '--schemas', 'nowhere'], { cwd: dir });
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(MISSING);
    expect(result.code).toBe(1);
  });

  it('fails when the default ./schemas is missing too', async () => {
    const dir = createTempDir();
    const result = await runCli(['list'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'toolcap: schema directory schemas does not exist; check the path (--schemas PATH; default ./schemas)\n',
    );
  });

  it('is no error for run with --tools-dir and no --schemas', async () => {
    const dir = createTempDir();
    const result = await runCli(
      [
        'run',
        '--tools-dir',
        join(ROOT, 'test/fixtures/external-tools'),
        'word_count',
        '--input',
        '{"text": "a b"}',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({ ok: true, output: { words: 2 } });
    expect(result.stderr).not.toContain('SCHEMAS_DIR_NOT_FOUND');
  });
});

describe('a schema directory without group files', () => {
  it('fails toolcap validate (exit 1): nothing was checked', async () => {
    const dir = createTempDir({ 'schemas/readme.txt': 'no groups here' });
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      'schemas: warning NO_GROUP_FILES no *_tools.json files in schemas; group files must be named <group>_tools.json\n0 group(s), 0 tool(s): 0 error(s), 1 warning(s)\n',
    );
    expect(result.stderr).toBe(
      'toolcap: no group file was found, so nothing was checked; group files are named <group>_tools.json (--schemas PATH; default ./schemas)\n',
    );
    const json = await runCli(['validate', '--json'], { cwd: dir });
    expect(json.code).toBe(1);
    expect(json.json()).toMatchObject({ groups: [], diagnostics: [{ code: 'NO_GROUP_FILES' }] });
  });

  it('does not say "no group file was found" when the only group file failed to load', async () => {
    const dir = createTempDir({ 'schemas/broken_tools.json': '{ "group": ' });
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('schemas/broken_tools.json');
    expect(result.stdout).toContain('0 group(s), 0 tool(s): 1 error(s)');
    expect(result.stderr).toBe('');
    const json = await runCli(['validate', '--json'], { cwd: dir });
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
  });

  it('checks the x-upstream field of overlay files as toolcap mcp --upstream would', async () => {
    const overlay = (extension: unknown, tools: unknown[] = []) =>
      `${JSON.stringify({ ...makeGroup('docs'), tools, 'x-upstream': extension }, null, 2)}\n`;
    const dir = createTempDir({
      'schemas/docs_tools.json': overlay({ frobnicate: true, tools: { echo: { title: 5 } } }),
    });
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('schemas/docs_tools.json:');
    expect(result.stdout).toMatch(
      /schemas\/docs_tools\.json:\d+:\d+: error INVALID_OVERLAY x-upstream\.frobnicate is not an overlay field; use hidden, pinned, tools \(at \/x-upstream\/frobnicate\)/,
    );
    expect(result.stdout).toMatch(
      /error INVALID_OVERLAY x-upstream\.tools\.echo\.title must be a non-empty string/,
    );
    expect(result.stdout).toContain('1 group(s), 0 tool(s): 2 error(s), 0 warning(s)');
    const good = createTempDir({ 'schemas/docs_tools.json': overlay({ hidden: ['drop_all'] }) });
    expect((await runCli(['validate'], { cwd: good })).code).toBe(0);
  });

  it('still passes when one of several directories has group files', async () => {
    const dir = createTempDir({
      'schemas/one_tools.json': makeGroup('one'),
      'empty/readme.txt': '',
    });
    const result = await runCli(['validate', '--schemas', 'schemas', '--schemas', 'empty'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('warning NO_GROUP_FILES');
  });
});

describe('an empty path option', () => {
  it.each([
    [
      ['list', '--schemas', ''],
      'list',
      'schemas',
      'load every *_tools.json under the working directory',
    ],
    [
      ['validate', '--schemas', 'schemas', '--schemas', ''],
      'validate',
      'schemas',
      'load every *_tools.json under the working directory',
    ],
    [
      ['mcp', '--schemas', ''],
      'mcp',
      'schemas',
      'load every *_tools.json under the working directory',
    ],
    [
      ['list', '--handlers', ''],
      'list',
      'handlers',
      'import handler modules from the working directory',
    ],
    [
      ['run', 'add_task', '--tools-dir', ''],
      'run',
      'tools-dir',
      'register the executables of the working directory',
    ],
  ])('%j is a usage error (exit 2), not a load of the working directory', async (args, command, flag, effect) => {
    const dir = createTempDir({ 'deep/stray_tools.json': makeGroup('stray') });
    const result = await runCli(args, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Run "toolcap help ${command}" for its options.`);
    expect(result.stderr).toContain(
      `toolcap: --${flag} "": the path is empty, which would ${effect}; give a directory such as --${flag} ${flag === 'tools-dir' ? 'tools' : flag} (an empty path is usually an unset environment variable)`,
    );
  });
});
