import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const SELF = { type: 'object', properties: { x: { $ref: '#/properties/x' } } };
const PAIR = {
  type: 'object',
  $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
  properties: { x: { $ref: '#/$defs/a' } },
};
const TREE = {
  type: 'object',
  $defs: {
    node: {
      type: 'object',
      properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } },
    },
  },
  properties: { root: { $ref: '#/$defs/node' } },
};

function project(): string {
  return createTempDir({
    'schemas/shapes_tools.json': makeGroup('shapes', {
      tools: [
        makeTool({ name: 'self_loop', input_schema: SELF }),
        makeTool({ name: 'pair_loop', input_schema: PAIR }),
        makeTool({ name: 'tree', input_schema: TREE, metadata: { executor: 'shapes' } }),
      ],
    }),
  });
}

describe('$ref cycles that never reach a schema', () => {
  it('skip their tool at load with REF_CYCLE; the rest of the file loads', async () => {
    const dir = project();
    const registry = await loadRegistry({ cwd: dir });
    expect(registry.list().map((tool) => tool.name)).toEqual(['tree']);
    expect(
      registry.diagnostics.map(({ severity, code, pointer, message }) => [
        severity,
        code,
        pointer,
        message,
      ]),
    ).toEqual([
      [
        'error',
        'REF_CYCLE',
        '/tools/0/input_schema/properties/x/$ref',
        'tool "self_loop": input_schema/properties/x/$ref: $ref "#/properties/x" refers to the schema that holds it, so checking any value would follow it forever; point it at a schema that describes the value (such as {"type": "string"} under "$defs"), or let the recursion go through "properties" or "items"',
      ],
      [
        'error',
        'REF_CYCLE',
        '/tools/1/input_schema/$defs/a/$ref',
        'tool "pair_loop": input_schema/$defs/a/$ref: $ref "#/$defs/b" loops back without reaching a schema of its own (#/$defs/a → #/$defs/b → #/$defs/a), so checking any value would follow it forever; point it at a schema that describes the value (such as {"type": "string"} under "$defs"), or let the recursion go through "properties" or "items"',
      ],
    ]);
  });

  it('fail toolcap validate, and a recursive schema that reaches a schema still runs', async () => {
    const dir = project();
    const validate = await runCli(['validate'], { cwd: dir });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(
      'schemas/shapes_tools.json:17:13: error REF_CYCLE tool "self_loop": input_schema/properties/x/$ref: $ref "#/properties/x" refers to the schema that holds it',
    );
    expect(validate.stdout).not.toContain('Maximum call stack');

    writeFileSync(
      join(dir, 'schemas/shapes_tools.json'),
      JSON.stringify(
        makeGroup('shapes', { tools: [makeTool({ name: 'tree', input_schema: TREE })] }),
      ),
    );
    expect((await runCli(['validate', '--strict'], { cwd: dir })).code).toBe(0);
    const run = await runCli(['run', 'tree', '--input', '{"root": {"kids": [{"kids": 5}]}}'], {
      cwd: dir,
    });
    expect(`${run.stdout}${run.stderr}`).toContain('/root/kids/0/kids must be array');
    expect(`${run.stdout}${run.stderr}`).not.toContain('Maximum call stack');
  });
});
