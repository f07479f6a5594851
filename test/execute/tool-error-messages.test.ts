import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearHandlerCache } from '../../src/execute/load-handler.js';
import type { ExecuteResult } from '../../src/execute/types.js';
import { validateToolInput } from '../../src/execute/validate-tool-input.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { createRegistryWith, createTestingRegistry } from './testing-registry.js';

/** Every string in a tool error: what reaches the model (message and details alike). */
function modelVisibleText(result: ExecuteResult): string {
  if (result.ok) throw new Error('expected a failed call');
  return JSON.stringify(result.error);
}

describe('tool errors the model reads', () => {
  it('INVALID_OUTPUT calls the output the output', async () => {
    const dir = createTempDir();
    await writeFile(join(dir, 'testing.js'), 'export function says_text() { return "hi"; }\n');
    const layered = createRegistryWith(
      [{ name: 'says_text', output: { type: 'object', properties: {} } }],
      { handlers: [dir] },
    );
    const result = await layered.execute('says_text', {});
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'INVALID_OUTPUT',
        message:
          'Tool "says_text" returned output that does not match its output_schema: output must be object. This is a bug in the tool\'s handler, not in the call.',
        details: [{ pointer: '', keyword: 'type', message: 'output must be object' }],
      },
    });
  });

  it('INVALID_OUTPUT names nested fields once', async () => {
    const result = await createTestingRegistry().execute('bad_output', {});
    expect(result).toMatchObject({
      error: {
        message:
          'Tool "bad_output" returned output that does not match its output_schema: /count must be integer. This is a bug in the tool\'s handler, not in the call.',
      },
    });
  });

  it('MISSING_CONTEXT speaks of the call context, not of a CLI flag', async () => {
    const result = await createTestingRegistry().execute('echo', { title: 'x' }, { user_id: 'u' });
    expect(result).toMatchObject({
      error: {
        code: 'MISSING_CONTEXT',
        message:
          'Tool "echo" needs the context key "session", which the host did not provide. This is a setup problem, not a problem with the arguments: the host must pass session in the call context.',
      },
    });
  });

  it('HANDLER_LOAD_FAILED for TypeScript gives advice a consumer can follow, without server paths', async () => {
    clearHandlerCache();
    const root = createTempDir();
    await mkdir(join(root, 'handlers'));
    // stands in for TypeScript this runtime cannot import
    await writeFile(join(root, 'handlers', 'github.ts'), 'export function list_repos( {\n');
    const registry = createRegistryWith([{ name: 'list_repos', executor: 'github' }], {
      handlers: [join(root, 'handlers')],
    });
    const result = await registry.execute('list_repos', {});
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'HANDLER_LOAD_FAILED',
        message: expect.stringContaining(
          'handlers/github.ts is TypeScript, which this Node.js process cannot import: compile it to JavaScript (for example with tsc) and put the .js file in a handler directory, or run Node.js with a TypeScript loader (node --import tsx, or --experimental-strip-types on Node.js 22.6 and later).',
        ),
        details: { executor: 'github', file: 'handlers/github.ts' },
      },
    });
    const text = modelVisibleText(result);
    expect(text).not.toContain(root);
    expect(text).not.toContain('npm run build');
    expect(text).not.toContain('dist/handlers');
  });

  it('HANDLER_NOT_FOUND lists handler directories by name only and speaks of options', async () => {
    const root = createTempDir();
    await mkdir(join(root, 'handlers'));
    const registry = createRegistryWith([{ name: 'orphan', executor: 'nowhere' }], {
      handlers: [join(root, 'handlers')],
    });
    const result = await registry.execute('orphan', {});
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'HANDLER_NOT_FOUND',
        message:
          'No handler module for executor "nowhere": looked for nowhere.js/.mjs/.cjs/.ts/.mts in handlers. Add nowhere.js to a handler directory, or add the directory that holds it to the handlers option.',
        details: { executor: 'nowhere', searched: ['handlers'] },
      },
    });
  });

  it('HANDLER_NOT_FOUND for a module without the function names the file relatively', async () => {
    const root = createTempDir();
    await mkdir(join(root, 'tools'));
    await writeFile(join(root, 'tools', 'things.js'), 'export function other() {}\n');
    const registry = createRegistryWith([{ name: 'missing_fn', executor: 'things' }], {
      handlers: [join(root, 'tools')],
    });
    const result = await registry.execute('missing_fn', {});
    expect(modelVisibleText(result)).not.toContain(root);
    expect(result).toMatchObject({
      error: {
        code: 'HANDLER_NOT_FOUND',
        message: expect.stringMatching(/^Handler module tools\/things\.js exports no function/),
        details: { file: 'tools/things.js' },
      },
    });
  });
});

describe('SCHEMA_COMPILE_FAILED', () => {
  it('names the group file without its directory', () => {
    const tool = {
      ...createTestingRegistry().get('echo')!,
      file: '/srv/app/schemas/testing_tools.json',
      input_schema: { type: 'object', properties: {}, $ref: '#/$defs/missing' },
    };
    const result = validateToolInput(tool, {});
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'SCHEMA_COMPILE_FAILED',
        message: expect.stringMatching(/; fix the group file testing_tools\.json\.$/),
      },
    });
    expect(JSON.stringify(result)).not.toContain('/srv/app');
  });
});

describe('toolcap run with a missing context key', () => {
  it('names the --context flag on stderr, beside the result', async () => {
    const tool = makeTool({
      name: 'who_am_i',
      metadata: {
        executor: 'things',
        requires_context: ['user_id'],
        cost_estimate: 'low',
        latency_estimate: 'fast',
      },
    });
    const dir = createTempDir({
      'schemas/things_tools.json': makeGroup('things', { tools: [tool] }),
      'handlers/things.mjs': 'export function who_am_i(_input, context) { return context; }\n',
    });
    const result = await runCli(['run', 'who_am_i', '--input', '{"query": "x"}'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.json()).toMatchObject({ error: { code: 'MISSING_CONTEXT' } });
    expect(result.stderr).toBe('toolcap: give the missing context with --context user_id=VALUE\n');
  });
});
