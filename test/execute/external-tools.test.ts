import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXECUTION_LIMITS } from '../../src/execute/execution-limits.js';
import { checkExternalToolSchema } from '../../src/execute/external/check-external-schema.js';
import { discoverExternalTools } from '../../src/execute/external/discover-external-tools.js';
import {
  externalEnvironment,
  isEnvironmentPattern,
} from '../../src/execute/external/external-environment.js';
import {
  binaryNameFromTool,
  toolNameFromBinary,
} from '../../src/execute/external/external-tool-names.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadExternalTools } from '../../src/toolcap/load-external-tools.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { withExecutionSettings } from '../../src/toolcap/with-execution-settings.js';
import { makeTempDir } from './testing-registry.js';

const TOOLS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'external-tools');
const SLOW_DIR = join(TOOLS_DIR, 'slow-schema');
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('external tool names', () => {
  it('maps kebab-case binaries to snake_case tools and back', () => {
    expect(toolNameFromBinary('file-edit')).toBe('file_edit');
    expect(toolNameFromBinary('file-edit.sh')).toBe('file_edit');
    expect(toolNameFromBinary('.hidden')).toBe('.hidden');
    expect(binaryNameFromTool('file_edit')).toBe('file-edit');
  });
});

describe('checkExternalToolSchema (the external tool --schema rules)', () => {
  const valid = {
    name: 'file_edit',
    description: 'Edit a file.',
    parameters: {
      type: 'object',
      properties: {
        file_path: { type: 'string' },
        paths: { type: 'array', items: { type: 'string' } },
        filter: {
          type: 'object',
          properties: { include: { type: 'string' } },
          required: ['include'],
        },
      },
      required: ['file_path'],
    },
  };

  it('accepts a well-formed answer', () => {
    expect(checkExternalToolSchema(valid)).toEqual({ ok: true, schema: valid });
  });

  it.each([
    ['not an object', [], 'ROOT_NOT_OBJECT'],
    ['rule 2: missing description', { name: 'x', parameters: valid.parameters }, 'MISSING_FIELD'],
    ['rule 2: empty description', { ...valid, description: ' ' }, 'INVALID_FIELD'],
    ['rule 3: name with a dash', { ...valid, name: 'file-edit' }, 'INVALID_TOOL_NAME'],
    [
      'rule 4: parameters not an object schema',
      { ...valid, parameters: { type: 'array' } },
      'ROOT_SCHEMA_NOT_OBJECT',
    ],
    [
      'rule 5: property without type',
      { ...valid, parameters: { type: 'object', properties: { a: { description: 'x' } } } },
      'PROPERTY_TYPE_MISSING',
    ],
    [
      'rule 5: property of type dict',
      { ...valid, parameters: { type: 'object', properties: { a: { type: 'dict' } } } },
      'INVALID_PROPERTY_TYPE',
    ],
    [
      'rule 5: nested item type',
      {
        ...valid,
        parameters: {
          type: 'object',
          properties: { a: { type: 'array', items: { type: 'float' } } },
        },
      },
      'INVALID_PROPERTY_TYPE',
    ],
    [
      'arrays need items',
      { ...valid, parameters: { type: 'object', properties: { a: { type: 'array' } } } },
      'ARRAY_ITEMS_MISSING',
    ],
    [
      'rule 5: property that is not a schema',
      { ...valid, parameters: { type: 'object', properties: { a: 'string' } } },
      'PROPERTY_TYPE_MISSING',
    ],
    [
      'rule 6: required names an undefined property',
      { ...valid, parameters: { type: 'object', properties: {}, required: ['ghost'] } },
      'REQUIRED_NOT_DEFINED',
    ],
    [
      'rule 6: nested required',
      {
        ...valid,
        parameters: {
          type: 'object',
          properties: { o: { type: 'object', properties: {}, required: ['ghost'] } },
        },
      },
      'REQUIRED_NOT_DEFINED',
    ],
    [
      'required that is not an array',
      { ...valid, parameters: { type: 'object', properties: {}, required: 'a' } },
      'INVALID_FIELD',
    ],
  ])('rejects %s', (_label, value, code) => {
    const result = checkExternalToolSchema(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((problem) => problem.code)).toContain(code);
  });

  it('names the missing field, the rule and the fix', () => {
    expect(checkExternalToolSchema({ name: 'x', parameters: valid.parameters })).toEqual({
      ok: false,
      problems: [
        {
          code: 'MISSING_FIELD',
          pointer: '',
          message:
            'the --schema answer has no "description"; an external tool\'s --schema answer must have name, description and parameters: add "description"',
        },
      ],
    });
  });
});

describe('discoverExternalTools', () => {
  it('registers the good executables and explains every skipped one', async () => {
    const { tools, diagnostics } = await discoverExternalTools({
      dirs: [TOOLS_DIR],
      cwd: REPO_ROOT,
    });
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'fails',
      'hangs',
      'huge_output',
      'prints_garbage',
      'word_count',
    ]);
    expect(tools.find((tool) => tool.name === 'word_count')?.command).toBe(
      join(TOOLS_DIR, 'word-count'),
    );
    const byFile = Object.fromEntries(
      diagnostics.map((diagnostic) => [diagnostic.file.split('/').pop(), diagnostic]),
    );
    expect(Object.keys(byFile).sort()).toEqual([
      'README.md',
      'garbage-schema',
      'invalid-schema',
      'no-description',
      'wrong-name',
    ]);
    expect(byFile['README.md']).toEqual({
      severity: 'warning',
      code: 'EXTERNAL_NOT_EXECUTABLE',
      file: join('test', 'fixtures', 'external-tools', 'README.md'),
      pointer: '',
      message: `${join('test', 'fixtures', 'external-tools', 'README.md')} is not executable, so it is not registered as a tool; make it executable (chmod +x) if it is one, or move it out of the tools directory`,
    });
    expect(byFile['garbage-schema']).toMatchObject({
      severity: 'error',
      code: 'JSON_SYNTAX',
      file: join('test', 'fixtures', 'external-tools', 'garbage-schema'),
      line: 1,
    });
    expect(byFile['invalid-schema']?.code).toBe('INVALID_PROPERTY_TYPE');
    expect(byFile['invalid-schema']?.message).toMatch(/"dict".*"missing"/);
    expect(byFile['no-description']?.code).toBe('MISSING_FIELD');
    expect(byFile['wrong-name']).toMatchObject({
      code: 'EXTERNAL_NAME_MISMATCH',
      pointer: '/name',
    });
    for (const diagnostic of diagnostics) expect(diagnostic.message).toContain('not registered');
  });

  it('times out an executable that never answers and keeps the others', async () => {
    const started = Date.now();
    const { tools, diagnostics } = await discoverExternalTools({
      dirs: [SLOW_DIR],
      timeoutMs: 1500,
    });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(tools.map((tool) => tool.name)).toEqual(['echo_json']);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'EXTERNAL_SCHEMA_FAILED',
        message: expect.stringContaining('did not answer within 1500 ms'),
      }),
    ]);
  });

  it('waits for answers when the discovery time limit is too long for a timer', async () => {
    // a Node timer given more than 2^31 - 1 ms fires after 1 ms: every tool timed out
    const dir = await makeTempDir();
    await copyFile(join(SLOW_DIR, 'echo-json'), join(dir, 'echo-json'));
    const { tools, diagnostics } = await discoverExternalTools({
      dirs: [dir],
      timeoutMs: 3_000_000_000,
    });
    expect(diagnostics).toEqual([]);
    expect(tools.map((tool) => tool.name)).toEqual(['echo_json']);
  });

  it('reports a missing dir, a failing executable, an oversized answer and a bad binary name', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'exits'), '#!/bin/sh\necho "no schema here" >&2\nexit 4\n', {
      mode: 0o755,
    });
    await writeFile(join(dir, 'chatty'), `#!/bin/sh\nhead -c 5000 /dev/zero | tr '\\0' x\n`, {
      mode: 0o755,
    });
    await writeFile(join(dir, 'Bad Name!'), '#!/bin/sh\n', { mode: 0o755 });
    await writeFile(join(dir, 'silent'), '#!/bin/sh\n', { mode: 0o755 });
    await writeFile(join(dir, 'not-executable'), '#!/bin/sh\n', { mode: 0o644 });
    await mkdir(join(dir, 'subdir'));
    await writeFile(join(dir, 'broken-interpreter'), '#!/nonexistent/interpreter\n', {
      mode: 0o755,
    });
    const { tools, diagnostics } = await discoverExternalTools({
      dirs: [dir, join(dir, 'missing')],
      maxSchemaBytes: 1000,
    });
    expect(tools).toEqual([]);
    const messages = diagnostics.map((diagnostic) => `${diagnostic.code} ${diagnostic.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^EXTERNAL_SCHEMA_FAILED .*exits --schema" exited with status 4 \(no schema here\)/,
        ),
        expect.stringMatching(/^EXTERNAL_SCHEMA_FAILED .*more than 1000 bytes/),
        expect.stringMatching(/^INVALID_TOOL_NAME /),
        expect.stringMatching(/^JSON_SYNTAX .*printed nothing/),
        expect.stringMatching(
          /^EXTERNAL_SCHEMA_FAILED .*broken-interpreter --schema" could not be run/,
        ),
        expect.stringMatching(
          /^TOOLS_DIR_NOT_FOUND tools directory .*missing does not exist; check the path \(--tools-dir DIR\)$/,
        ),
      ]),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/^EXTERNAL_NOT_EXECUTABLE .*not-executable is not executable/),
    );
    // a directory is not a tool and not a mistake: no diagnostic
    expect(
      messages.filter((message) => message.startsWith('EXTERNAL_NOT_EXECUTABLE')),
    ).toHaveLength(1);
  });
});

describe('loadExternalTools and calling external tools', () => {
  it('registers discovered tools as an "external" group and runs them', async () => {
    const registry = await loadExternalTools(createRegistry(), { dirs: [TOOLS_DIR] });
    const tool = registry.get('word_count');
    expect(tool).toMatchObject({
      group: 'external',
      source: 'external',
      command: join(TOOLS_DIR, 'word-count'),
      metadata: { executor: 'external', requires_context: [], latency_estimate: 'medium' },
    });
    expect(registry.group('external')).toMatchObject({ source: 'external' });
    expect(registry.diagnostics.map((diagnostic) => diagnostic.code).sort()).toEqual([
      'EXTERNAL_NAME_MISMATCH',
      'EXTERNAL_NOT_EXECUTABLE',
      'INVALID_PROPERTY_TYPE',
      'JSON_SYNTAX',
      'MISSING_FIELD',
    ]);
    expect(await registry.execute('word_count', { text: 'one two  three' })).toEqual({
      ok: true,
      output: { words: 3 },
    });
    expect(await registry.execute('word_count', { text: 'hello', count_characters: true })).toEqual(
      { ok: true, output: { words: 1, characters: 5 } },
    );
    expect(await registry.execute('word_count', { text: 5 })).toMatchObject({
      error: { code: 'INVALID_INPUT', details: [{ pointer: '/text' }] },
    });
  });

  it('turns garbage output, failure, hanging and oversized output into tool errors', async () => {
    const registry = await loadExternalTools(createRegistry(), {
      dirs: [TOOLS_DIR],
      group: 'shell',
    });
    expect(registry.get('prints_garbage')?.group).toBe('shell');
    const garbage = await registry.execute('prints_garbage', {});
    expect(garbage).toMatchObject({
      ok: false,
      error: { code: 'INVALID_OUTPUT', message: expect.stringContaining('not JSON') },
    });
    // the documented { reason, preview }: nothing else, and no absolute path
    expect(garbage.ok ? undefined : garbage.error.details).toEqual({
      reason: expect.stringContaining('not valid JSON'),
      preview: 'Segmentation fault? <<<not json>>>',
    });
    expect(await registry.execute('fails', { path: '/tmp/x' })).toEqual({
      ok: false,
      error: {
        code: 'EXTERNAL_TOOL_FAILED',
        message: 'External tool "fails" exited with status 3: fails: disk full',
        details: { command: 'fails', exit_code: 3, signal: null, stderr: 'fails: disk full' },
      },
    });
    const started = Date.now();
    expect(await registry.execute('hangs', {}, {}, { timeoutMs: 300 })).toMatchObject({
      error: { code: 'TIMEOUT' },
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await registry.execute('huge_output', {})).toEqual({
      ok: false,
      error: {
        code: 'OUTPUT_TOO_LARGE',
        message: `External tool "huge_output" printed more than ${1024 * 1024} bytes (maxOutputBytes) and was stopped. Ask for less data.`,
        details: { limit: 1024 * 1024 },
      },
    });
  });

  it('reports a tool that prints nothing, or is killed by a signal, or vanished', async () => {
    const dir = await makeTempDir();
    const script = (body: string) =>
      `#!/bin/sh\nif [ "$1" = "--schema" ]; then\n  echo '{"name": "NAME", "description": "d", "parameters": {"type": "object", "properties": {}}}'\n  exit 0\nfi\n${body}\n`;
    await writeFile(join(dir, 'quiet'), script('cat > /dev/null').replace('NAME', 'quiet'), {
      mode: 0o755,
    });
    await writeFile(join(dir, 'killed'), script('kill -9 $$').replace('NAME', 'killed'), {
      mode: 0o755,
    });
    await writeFile(join(dir, 'vanishing'), script('exit 0').replace('NAME', 'vanishing'), {
      mode: 0o755,
    });
    await writeFile(
      join(dir, 'grumbles'),
      script('echo "$0: no answer today" >&2').replace('NAME', 'grumbles'),
      { mode: 0o755 },
    );
    const registry = await loadExternalTools(createRegistry(), { dirs: [dir] });
    expect(await registry.execute('quiet', {})).toEqual({
      ok: false,
      error: {
        code: 'INVALID_OUTPUT',
        message:
          'External tool "quiet" exited successfully but printed nothing; it must print one JSON value on stdout.',
        details: { reason: 'stdout is empty' },
      },
    });
    // a shell names the script by its absolute path: the model reads only its file name
    expect(await registry.execute('grumbles', {})).toEqual({
      ok: false,
      error: {
        code: 'INVALID_OUTPUT',
        message:
          'External tool "grumbles" exited successfully but printed nothing; it must print one JSON value on stdout. Its stderr ends with: grumbles: no answer today',
        details: { reason: 'stdout is empty' },
      },
    });
    expect(await registry.execute('killed', {})).toEqual({
      ok: false,
      error: {
        code: 'EXTERNAL_TOOL_FAILED',
        message: 'External tool "killed" was killed by SIGKILL',
        details: { command: 'killed', exit_code: null, signal: 'SIGKILL', stderr: '' },
      },
    });
    const { rm } = await import('node:fs/promises');
    await rm(join(dir, 'vanishing'));
    const vanished = await registry.execute('vanishing', {});
    expect(vanished).toEqual({
      ok: false,
      error: {
        code: 'EXTERNAL_TOOL_FAILED',
        message:
          'External tool "vanishing" (vanishing) could not be started: spawn vanishing ENOENT',
        details: { command: 'vanishing', error_code: 'ENOENT' },
      },
    });
    expect(JSON.stringify(vanished)).not.toContain(dir);
  });

  it('skips names that are already taken, and a taken group name', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'a'));
    await mkdir(join(dir, 'b'));
    await copyFile(join(TOOLS_DIR, 'word-count'), join(dir, 'a', 'word-count'));
    await copyFile(join(TOOLS_DIR, 'word-count'), join(dir, 'b', 'word-count'));
    const { chmod } = await import('node:fs/promises');
    await chmod(join(dir, 'a', 'word-count'), 0o755);
    await chmod(join(dir, 'b', 'word-count'), 0o755);
    const twice = await loadExternalTools(createRegistry(), {
      dirs: [join(dir, 'a'), join(dir, 'b')],
    });
    expect(twice.list().map((tool) => tool.name)).toEqual(['word_count']);
    expect(twice.diagnostics).toEqual([
      expect.objectContaining({
        code: 'DUPLICATE_TOOL',
        message: expect.stringContaining('already defined by'),
      }),
    ]);
    const again = await loadExternalTools(twice, { dirs: [join(dir, 'a')], group: 'other' });
    expect(again.diagnostics.at(-1)).toMatchObject({ code: 'DUPLICATE_TOOL' });
    const clash = await loadExternalTools(
      createRegistry().register({
        group: 'external',
        version: '1.0.0',
        description: 'Taken.',
        selection: { strategy: 'always' },
        tools: [
          {
            name: 'other_tool',
            description: 'x',
            category: 'analysis',
            input_schema: { type: 'object', properties: {} },
            metadata: { executor: 'x' },
          },
        ],
      }),
      { dirs: [join(dir, 'a')] },
    );
    expect(clash.has('word_count')).toBe(false);
    expect(clash.diagnostics.at(-1)).toMatchObject({ code: 'DUPLICATE_GROUP', file: '<external>' });
  });

  it('applies group-file rules too (limits), and loadRegistry({ toolsDirs }) wires it in', async () => {
    const limited = await loadExternalTools(
      createRegistry({ limits: { maxDescriptionLength: 10 } }),
      {
        dirs: [TOOLS_DIR],
      },
    );
    expect(limited.has('word_count')).toBe(false);
    expect(
      limited.diagnostics.some((diagnostic) => diagnostic.code === 'DESCRIPTION_TOO_LONG'),
    ).toBe(true);

    const registry = await loadRegistry({
      cwd: REPO_ROOT,
      dirs: ['schemas'],
      toolsDirs: [join('test', 'fixtures', 'external-tools', 'slow-schema')],
      externalGroup: 'mine',
      executionLimits: { discoveryTimeoutMs: 1500 },
    });
    expect(registry.get('echo_json')).toMatchObject({ group: 'mine', source: 'external' });
    expect(registry.has('add_task')).toBe(true);
    expect(registry.diagnostics.map((diagnostic) => diagnostic.code)).toContain(
      'EXTERNAL_SCHEMA_FAILED',
    );
    expect(await registry.execute('echo_json', { value: 'hi' })).toEqual({
      ok: true,
      output: { value: 'hi' },
    });
  });
});

describe('the environment external tools see', () => {
  it('is the whole host environment by default, and the basics plus the allow-list with externalEnv', async () => {
    const dir = await makeTempDir();
    await writeFile(
      join(dir, 'env-probe'),
      `#!/bin/sh
if [ "$1" = "--schema" ]; then
  echo '{"name": "env_probe", "description": "Secret at discovery: '"\${TOOLCAP_TEST_SECRET:-absent}"'.", "parameters": {"type": "object", "properties": {}}}'
  exit 0
fi
cat > /dev/null
printf '{"secret": "%s", "kept": "%s", "home": "%s"}' "\${TOOLCAP_TEST_SECRET:-absent}" "\${TOOLCAP_TEST_KEPT:-absent}" "\${HOME:-absent}"
`,
      { mode: 0o755 },
    );
    process.env.TOOLCAP_TEST_SECRET = 'hunter2';
    process.env.TOOLCAP_TEST_KEPT = 'kept';
    try {
      const open = await loadExternalTools(createRegistry(), { dirs: [dir] });
      expect(open.get('env_probe')?.description).toBe('Secret at discovery: hunter2.');
      expect(await open.execute('env_probe', {})).toEqual({
        ok: true,
        output: { secret: 'hunter2', kept: 'kept', home: process.env.HOME ?? 'absent' },
      });
      // calls follow executionLimits.externalEnv; discovery follows the option of the same name
      const externalEnv = { allow: ['TOOLCAP_TEST_K*'] };
      const limited = withExecutionSettings(createRegistry(), {
        executionLimits: { ...DEFAULT_EXECUTION_LIMITS, externalEnv },
      });
      const closed = await loadExternalTools(limited, { dirs: [dir], externalEnv });
      expect(closed.get('env_probe')?.description).toBe('Secret at discovery: absent.');
      expect(await closed.execute('env_probe', {})).toEqual({
        ok: true,
        output: { secret: 'absent', kept: 'kept', home: process.env.HOME ?? 'absent' },
      });
    } finally {
      delete process.env.TOOLCAP_TEST_SECRET;
      delete process.env.TOOLCAP_TEST_KEPT;
    }
  });

  it('externalEnvironment keeps the basics and allowed names, case-sensitively off Windows', () => {
    const host = { PATH: '/bin', LC_ALL: 'C', API_TOKEN: 's3cret', MY_TOOL_X: '1', my_tool_y: '2' };
    expect(externalEnvironment(undefined, host)).toBe(host);
    expect(externalEnvironment({ allow: ['MY_TOOL_*'] }, host)).toEqual({
      PATH: '/bin',
      LC_ALL: 'C',
      MY_TOOL_X: '1',
    });
    expect(externalEnvironment({ allow: [] }, host)).toEqual({ PATH: '/bin', LC_ALL: 'C' });
    expect(isEnvironmentPattern('MY_TOOL_*')).toBe(true);
    expect(isEnvironmentPattern('A=B')).toBe(false);
    expect(isEnvironmentPattern('*')).toBe(false);
  });
});
