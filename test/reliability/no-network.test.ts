import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import { validateToolInput } from '../../src/execute/validate-tool-input.js';
import type { RegisteredTool, ToolDefinition } from '../../src/format/types.js';
import { compileSchema } from '../../src/json-schema/compile-schema.js';
import { PROVIDER_IDS } from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { loadBundledRegistry } from '../handlers/bundled-registry.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { guardNetwork } from './network-guard.js';

/** Refs that a resolver could try to fetch or read; none may ever be resolved. */
const REMOTE_REFS = [
  'http://127.0.0.1:9/schema.json',
  'https://example.com/schemas/event.json#/$defs/when',
  'file:///etc/passwd',
  './other_tools.json#/tools/0',
  '../shared/types.json',
  '//example.com/x.json',
  'urn:example:thing',
];

function schemaWithRef(ref: string, keyword = '$ref'): Record<string, unknown> {
  return { type: 'object', properties: { when: { [keyword]: ref } } };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('no network, ever', () => {
  it('the guard itself catches fetch, http, https, net, tls and dns', async () => {
    const attempts = guardNetwork();
    expect(() => fetch('http://127.0.0.1:9/')).toThrow(/network access attempted/);
    const { request } = await import('node:http');
    expect(() => request('http://127.0.0.1:9/')).toThrow(/network access attempted/);
    const net = await import('node:net');
    expect(() => new net.Socket().connect(9, '127.0.0.1')).toThrow(/network access attempted/);
    expect(attempts).toHaveLength(3);
  });

  it('loading schemas with remote, file and relative refs reports EXTERNAL_REF and fetches nothing', async () => {
    const tools = [
      ...REMOTE_REFS.map((ref, index) =>
        makeTool({ name: `ref_${index}`, input_schema: schemaWithRef(ref) }),
      ),
      makeTool({
        name: 'dynamic_ref',
        input_schema: schemaWithRef('https://example.com/meta#items', '$dynamicRef'),
      }),
      makeTool({
        name: 'remote_dialect',
        input_schema: { $schema: 'https://example.com/my-dialect', ...schemaWithRef('#') },
      }),
      makeTool({
        name: 'remote_id',
        input_schema: { $id: 'https://example.com/root.json', ...schemaWithRef('other.json') },
      }),
      makeTool({ name: 'local_only', input_schema: schemaWithRef('#/$defs/when') }),
    ];
    (tools.at(-1)!.input_schema as Record<string, unknown>).$defs = { when: { type: 'string' } };
    const dir = createTempDir({ 'refs_tools.json': makeGroup('refs', { tools }) });
    const attempts = guardNetwork();
    const registry = await loadRegistry({ dirs: [dir], cwd: dir, checkExamples: true });
    expect(attempts).toEqual([]);
    expect(registry.list().map((tool) => tool.name)).toEqual(['local_only']);
    expect(registry.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      ...REMOTE_REFS.map(() => 'EXTERNAL_REF'),
      'PROPERTY_TYPE_MISSING',
      'EXTERNAL_REF',
      'INVALID_SCHEMA',
      'EXTERNAL_REF',
    ]);
    expect(registry.diagnostics[0]?.message).toContain('nothing is ever fetched');
    expect(registry.diagnostics[8]?.message).toContain('$dynamicRef');
  });

  it('compiling and validating such schemas directly fails cleanly without a connection', () => {
    const attempts = guardNetwork();
    for (const ref of REMOTE_REFS) {
      expect(() => compileSchema(schemaWithRef(ref))).toThrow();
      const tool = {
        ...makeTool({ name: 'remote', input_schema: schemaWithRef(ref) }),
        group: 'refs',
        version: '1.0.0',
        source: 'registered',
        index: 0,
      } as unknown as RegisteredTool;
      expect(validateToolInput(tool, { when: 'now' })).toMatchObject({
        ok: false,
        error: { code: 'SCHEMA_COMPILE_FAILED' },
      });
    }
    expect(attempts).toEqual([]);
  });

  it.each(PROVIDER_IDS)('translating such schemas for %s never fetches', (provider) => {
    const attempts = guardNetwork();
    for (const ref of REMOTE_REFS) {
      const tool = makeTool({ name: 'remote', input_schema: schemaWithRef(ref) });
      try {
        translate([tool as unknown as ToolDefinition], provider);
      } catch (error) {
        expect(error).toBeInstanceOf(TranslationError);
      }
    }
    expect(attempts).toEqual([]);
  });

  it('executing every bundled tool opens no connection', async () => {
    const { registry, dataDir } = await loadBundledRegistry();
    const workspace = createTempDir({ 'notes.txt': 'hello\n' });
    const context = { user_id: 'u1', project_id: 'p1', workspace_root: workspace };
    const attempts = guardNetwork();
    try {
      for (const tool of registry.list()) {
        for (const input of [{}, ...(tool.examples ?? [])]) {
          const result = await registry.execute(tool.name, input, context);
          expect(typeof result.ok).toBe('boolean');
        }
      }
      const read = await registry.execute('file_read', { file_path: 'notes.txt' }, context);
      expect(read.ok).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    expect(attempts).toEqual([]);
  });
});
