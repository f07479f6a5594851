import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/format/format-diagnostic.js';
import { abbreviatePointer } from '../../src/format/json-pointer.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

/** An object schema nesting `depth` levels of property `a`, with `leaf` innermost. */
function nested(depth: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let schema = leaf;
  for (let level = 0; level < depth; level++) {
    schema = { type: 'object', properties: { a: schema } };
  }
  return schema;
}

describe('formatDiagnostic', () => {
  it('adds the pointer after the message, once', () => {
    const base = { severity: 'error', code: 'INVALID_FIELD', file: 'a_tools.json' } as const;
    expect(formatDiagnostic({ ...base, pointer: '/tools/0', line: 4, message: 'bad' })).toBe(
      'a_tools.json:4:1: error INVALID_FIELD bad (at /tools/0)',
    );
    expect(formatDiagnostic({ ...base, pointer: '', message: 'bad' })).toBe(
      'a_tools.json: error INVALID_FIELD bad',
    );
    expect(
      formatDiagnostic({ ...base, pointer: '/name', message: 'bad (at /name); skipped' }),
    ).toBe('a_tools.json: error INVALID_FIELD bad (at /name); skipped');
  });

  it("names the place of an external tool's --schema problem once", async () => {
    const dir = createTempDir({
      'tools/count-up':
        '#!/bin/sh\necho \'{"name": "count_up", "description": "Count.", "parameters": {"type": "object", "properties": {"n": {"type": "dict"}}}}\'\n',
    });
    chmodSync(join(dir, 'tools/count-up'), 0o755);
    const result = await runCli(['run', '--tools-dir', 'tools', 'count_up', '--input', '{}'], {
      cwd: dir,
    });
    expect(result.stderr).toContain(
      `${join('tools', 'count-up')}:1:101: error INVALID_PROPERTY_TYPE invalid --schema answer: property "n" has type "dict"; use one of string, integer, number, boolean, array, object (at /parameters/properties/n/type); the tool is not registered\n`,
    );
  });

  it('shortens a long pointer in the text and keeps it exact in the diagnostic', async () => {
    const dir = createTempDir({
      'deep_tools.json': makeGroup('deep', {
        tools: [makeTool({ name: 'too_deep', input_schema: nested(100, { type: 'string' }) })],
      }),
    });
    const text = await runCli(['validate', '--schemas', '.'], { cwd: dir });
    const line = text.stdout.split('\n').find((entry) => entry.includes('SCHEMA_TOO_DEEP')) ?? '';
    expect(line).toBe(
      'deep_tools.json:109:135: error SCHEMA_TOO_DEEP input_schema: schema nests deeper than 64 levels (limits.maxSchemaDepth); flatten it or use $defs with $ref (at /tools/0/input_schema/properties/a/properties/a/properties/a/…49 more…/a/properties/a/properties/a/properties/a/properties/a)',
    );
    const json = await runCli(['validate', '--schemas', '.', '--json'], { cwd: dir });
    const { diagnostics } = json.json() as { diagnostics: { code: string; pointer: string }[] };
    const deep = diagnostics.find((diagnostic) => diagnostic.code === 'SCHEMA_TOO_DEEP');
    expect(deep?.pointer).toBe(`/tools/0/input_schema${'/properties/a'.repeat(32)}`);
  });

  it('names a problem deep in a schema by a shortened path in its message', async () => {
    const dir = createTempDir({
      'deep_tools.json': makeGroup('deep', {
        tools: [makeTool({ name: 'untyped', input_schema: nested(30, { description: 'x' }) })],
      }),
    });
    const result = await runCli(['validate', '--schemas', '.', '--json'], { cwd: dir });
    const { diagnostics } = result.json() as {
      diagnostics: { code: string; pointer: string; message: string }[];
    };
    const untyped = diagnostics.find((diagnostic) => diagnostic.code === 'PROPERTY_TYPE_MISSING');
    expect(untyped?.pointer).toBe(`/tools/0/input_schema${'/properties/a'.repeat(30)}`);
    expect(untyped?.message).toBe(
      'tool "untyped": input_schema/properties/a/properties/a/properties/a/properties/a/…43 more…/a/properties/a/properties/a/properties/a/properties/a: property "a" has no "type"; add "type": "string" (or anyOf/oneOf/allOf/$ref for unions)',
    );
  });

  it('abbreviatePointer leaves short pointers alone and cuts long tokens', () => {
    expect(abbreviatePointer('/tools/0/input_schema/properties/a')).toBe(
      '/tools/0/input_schema/properties/a',
    );
    const long = `/tools/0/input_schema/properties/${'x'.repeat(300)}/type`;
    expect(abbreviatePointer(long)).toBe(
      `/tools/0/input_schema/properties/${'x'.repeat(39)}…/type`,
    );
  });
});
