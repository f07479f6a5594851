import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  validateGroupHeader,
  validateTool,
  validateToolFast,
} from '../../src/format/generated/group-validators.js';
import { DEFAULT_LOAD_LIMITS } from '../../src/format/limits.js';
import { measureAndFreeze } from '../../src/json-schema/check-schema.js';
import { assertProperty } from '../reliability/fuzz-settings.js';
import {
  type GeneratedFile,
  groupShapedFile,
  mutatedGroupFile,
} from '../reliability/group-file-arbitraries.js';

// The committed validators are compiled with ajv's draft-07 class (scripts/generate-validators.mjs
// says why). These tests hold them to what the file declares: a 2020-12 schema, compiled here
// with Ajv2020 and the same options, must accept and reject the same documents with the same
// errors.

const ROOT = join(import.meta.dirname, '../..');
const groupSchema = JSON.parse(
  readFileSync(join(ROOT, 'schemas/tool-group.schema.json'), 'utf8'),
) as { $id: string; $schema: string };

const reference = new Ajv2020({
  allErrors: true,
  strict: true,
  strictTypes: false,
  allowUnionTypes: true,
});
reference.addSchema(groupSchema);
const referenceHeader = reference.getSchema(`${groupSchema.$id}#/$defs/groupHeader`)!;
const referenceTool = reference.getSchema(`${groupSchema.$id}#/$defs/tool`)!;

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Whether `validate` accepts `data`, and its errors in a comparable form. */
function outcome(validate: Validate | ValidateFunction, data: unknown) {
  const valid = validate(data);
  const errors = (validate.errors ?? [])
    .map((error) => `${error.instancePath} ${error.keyword} ${JSON.stringify(error.params)}`)
    .sort();
  return { valid, errors };
}

/**
 * Whether the loader would hand `tool` to the validator: it measures a tool's schemas and
 * examples first (validate-group-file.ts), so neither validator ever sees one nested deeper than
 * maxSchemaDepth. Both recurse per level and may overflow the stack past that, at different
 * depths.
 */
function reachesValidator(tool: unknown): boolean {
  if (tool === null || typeof tool !== 'object') return true;
  return ['input_schema', 'output_schema', 'examples'].every(
    (field) =>
      !Object.hasOwn(tool, field) ||
      measureAndFreeze((tool as Record<string, unknown>)[field], DEFAULT_LOAD_LIMITS) === undefined,
  );
}

/** Compares both validators on a parsed group document: its header and each tool entry. */
function expectSameOutcomes(document: unknown): number {
  expect(outcome(validateGroupHeader as Validate, document)).toEqual(
    outcome(referenceHeader, document),
  );
  const tools =
    document !== null && typeof document === 'object' && 'tools' in document
      ? (document as { tools: unknown }).tools
      : undefined;
  if (!Array.isArray(tools)) return 0;
  let compared = 0;
  for (const tool of tools) {
    if (!reachesValidator(tool)) continue;
    const reference = outcome(referenceTool, tool);
    expect(outcome(validateTool as Validate, tool)).toEqual(reference);
    // the loader skips the full validator when the fast one accepts: it must never accept more
    if (validateToolFast(tool)) expect(reference).toEqual({ valid: true, errors: [] });
    compared++;
  }
  return compared;
}

function parse(file: GeneratedFile): unknown {
  try {
    return JSON.parse(file.content.toString('utf8'));
  } catch {
    return undefined;
  }
}

describe('generated group validators', () => {
  it('declare 2020-12 in the published schema', () => {
    expect(groupSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('give the same verdicts and errors as Ajv2020 on every bundled and fixture group file', () => {
    const dirs = ['schemas', 'test/fixtures/groups/valid', 'test/fixtures/groups/invalid'];
    let compared = 0;
    for (const dir of dirs) {
      for (const name of readdirSync(join(ROOT, dir)).filter((file) => file.endsWith('.json'))) {
        if (name === 'tool-group.schema.json') continue;
        let document: unknown;
        try {
          document = JSON.parse(readFileSync(join(ROOT, dir, name), 'utf8').replace(/^\uFEFF/, ''));
        } catch {
          continue;
        }
        expectSameOutcomes(document);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('take the fast path for every bundled tool and leave rarer keywords to the full validator', () => {
    for (const name of readdirSync(join(ROOT, 'schemas')).filter((file) =>
      file.endsWith('_tools.json'),
    )) {
      const document = JSON.parse(readFileSync(join(ROOT, 'schemas', name), 'utf8')) as {
        tools: unknown[];
      };
      for (const tool of document.tools) expect(validateToolFast(tool)).toBe(true);
    }
    const plain = {
      name: 'upload',
      description: 'Uploads a file.',
      category: 'creation',
      input_schema: { type: 'object', properties: { file: { type: 'string' } } },
      metadata: { executor: 'upload' },
    };
    expect(validateToolFast(plain)).toBe(true);
    // shared definitions, in both dialects
    for (const input_schema of [
      {
        type: 'object',
        properties: { when: { $ref: '#/$defs/date' } },
        $defs: { date: { type: 'string', format: 'date' } },
      },
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { when: { $ref: '#/definitions/date' } },
        definitions: { date: { type: 'string', format: 'date' } },
      },
    ]) {
      expect(validateToolFast({ ...plain, input_schema })).toBe(true);
    }
    const tool = {
      ...plain,
      input_schema: {
        type: 'object',
        properties: { file: { type: 'string', contentMediaType: 'image/png' } },
        dependentRequired: { file: [] },
      },
    };
    expect(validateToolFast(tool)).toBe(false);
    expect(outcome(validateTool as Validate, tool)).toEqual({ valid: true, errors: [] });
    expect(outcome(referenceTool, tool).valid).toBe(true);
  });

  it('reject what Ajv2020 rejects in a schema the meta-schema forbids', () => {
    const tool = {
      name: 'bad',
      description: 'A tool whose schema breaks the meta-schema.',
      input_schema: {
        type: 'object',
        properties: { count: { type: 'integer', minimum: 'zero', items: { type: 7 } } },
        required: ['count', 'count'],
      },
      metadata: { executor: 'bad' },
    };
    const ours = outcome(validateTool as Validate, tool);
    expect(ours.valid).toBe(false);
    expect(ours).toEqual(outcome(referenceTool, tool));
    expect(ours.errors.join('\n')).toContain('/input_schema/properties/count/minimum type');
  });

  it("agree on a schema nested to the loader's depth limit without overflowing", () => {
    let schema: Record<string, unknown> = { type: 'string', minLength: 'one' };
    // the root is depth 0 and each wrapper adds two levels (properties, then the property)
    for (let depth = 2; depth < DEFAULT_LOAD_LIMITS.maxSchemaDepth; depth += 2) {
      schema = { type: 'object', properties: { inner: schema } };
    }
    const tool = {
      name: 'deep',
      description: 'A tool whose input schema nests as deep as the loader allows.',
      input_schema: schema,
      metadata: { executor: 'deep' },
    };
    expect(reachesValidator(tool)).toBe(true);
    const ours = outcome(validateTool as Validate, tool);
    expect(ours.valid).toBe(false);
    expect(ours).toEqual(outcome(referenceTool, tool));
    expect(ours.errors.join('\n')).toMatch(/\/inner\/minLength type/);
  });

  it('give the same verdicts and errors as Ajv2020 on mutated and group-shaped files', async () => {
    await assertProperty(
      'generated validators match Ajv2020',
      fc.property(fc.oneof(mutatedGroupFile, groupShapedFile), (file) => {
        expectSameOutcomes(parse(file));
      }),
      150,
    );
  });
});
