import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import { TOOL_NAME_PATTERN } from '../../src/format/names.js';
import type { JsonValue, RegisteredTool } from '../../src/format/types.js';
import { PROVIDER_IDS, type ProviderId } from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';
import { loadBundledRegistry } from '../handlers/bundled-registry.js';
import { checkPayload } from '../providers/conformance/check-payload.js';
import { assertProperty } from './fuzz-settings.js';
import { DANGEROUS_NAMES, ODD_STRINGS } from './group-file-arbitraries.js';
import { diffPrototypes, snapshotPrototypes } from './prototype-guard.js';

type Schema = Record<string, JsonValue>;

const propertyName = fc.oneof(
  {
    arbitrary: fc.constantFrom('title', 'count', 'when', 'tags', 'owner', 'kind', 'note'),
    weight: 6,
  },
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/), weight: 3 },
  {
    arbitrary: fc.constantFrom('constructor', 'prototype', 'toString', 'x-y', 'dotted.name'),
    weight: 1,
  },
);
const description = fc.option(
  fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...ODD_STRINGS)),
  {
    nil: undefined,
  },
);

/** Leaf schemas of every JSON type, with the keywords tool schemas commonly use. */
const leafSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      description,
      enum: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), {
        minLength: 1,
        maxLength: 4,
      }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('string'),
      format: fc.constantFrom('date', 'date-time', 'email', 'uri', 'uuid'),
      minLength: fc.nat(5),
      maxLength: fc.integer({ min: 5, max: 200 }),
      pattern: fc.constantFrom('^[a-z]+(-[a-z]+)*$', '^\\d{4}-\\d{2}-\\d{2}$', '\\S'),
      default: fc.string({ maxLength: 5 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constantFrom('integer', 'number'),
      minimum: fc.integer(),
      maximum: fc.integer(),
      description,
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('boolean'), description }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('string'), const: fc.string({ maxLength: 5 }) }),
) as fc.Arbitrary<Schema>;

/** Supported JSON Schemas: nested objects, arrays, enums, anyOf, nullable types. */
const { schema: anySchema } = fc.letrec<{ schema: Schema; object: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafSchema,
    tie('object'),
    fc.record(
      { type: fc.constant('array'), items: tie('schema'), minItems: fc.nat(2) },
      { requiredKeys: ['type', 'items'] },
    ) as fc.Arbitrary<Schema>,
    fc.record(
      { anyOf: fc.array(tie('schema'), { minLength: 2, maxLength: 3 }), description },
      { requiredKeys: ['anyOf'] },
    ) as fc.Arbitrary<Schema>,
    // nullable, both ways
    fc.tuple(leafSchema, fc.boolean()).map(([leaf, admitNull]) => nullableLeaf(leaf, admitNull)),
    tie('schema').map((inner) => ({ anyOf: [inner, { type: 'null' }] }) as Schema),
  ),
  object: objectSchema(tie('schema')),
}));

/**
 * `type: [T, "null"]`. An enum or const admits null too when `admitNull`; otherwise it excludes
 * null despite the type (valid JSON Schema that OpenAI strict mode rejects unless translated).
 */
function nullableLeaf(leaf: Schema, admitNull: boolean): Schema {
  const nullable: Schema = { ...leaf, type: [leaf.type ?? 'string', 'null'] };
  if (!admitNull) return nullable;
  const { const: constant, ...rest } = nullable;
  if (Array.isArray(rest.enum)) rest.enum = [...rest.enum, null];
  if (constant !== undefined) rest.enum = [constant, null];
  return rest;
}

function objectSchema(child: fc.Arbitrary<Schema>): fc.Arbitrary<Schema> {
  return fc
    .record({
      properties: fc.dictionary(propertyName, child, { maxKeys: 4 }),
      requiredMask: fc.array(fc.boolean(), { maxLength: 4 }),
      closed: fc.boolean(),
      description,
    })
    .map(({ properties, requiredMask, closed, description: text }) => {
      const names = Object.keys(properties);
      const schema: Schema = { type: 'object', properties: properties as JsonValue };
      const required = names.filter((_, index) => requiredMask[index] === true);
      if (required.length > 0) schema.required = required;
      if (closed) schema.additionalProperties = false;
      if (text !== undefined) schema.description = text;
      return schema;
    });
}

/** A tool input schema: an object, sometimes with $defs used through $ref (recursion too). */
const inputSchema: fc.Arbitrary<Schema> = fc
  .record({
    root: objectSchema(anySchema),
    definition: anySchema,
    useRef: fc.boolean(),
    recursive: fc.boolean(),
    dialect: fc.constantFrom(undefined, 'http://json-schema.org/draft-07/schema#'),
  })
  .map(({ root, definition, useRef, recursive, dialect }) => {
    const schema: Schema = { ...root, properties: { ...(root.properties as Schema) } };
    const defsKey = dialect === undefined ? '$defs' : 'definitions';
    if (useRef) {
      (schema.properties as Schema).shared = { $ref: `#/${defsKey}/shared` };
      schema[defsKey] = { shared: definition };
    }
    if (recursive) {
      (schema.properties as Schema).tree = { $ref: `#/${defsKey}/node` };
      schema[defsKey] = {
        ...((schema[defsKey] as Schema | undefined) ?? {}),
        node: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: `#/${defsKey}/node` } },
          },
        },
      };
    }
    if (dialect !== undefined) schema.$schema = dialect;
    return schema;
  });

/** Registers one tool with `schema`; the loader's rules apply, as for a group file. */
function registerTool(schema: Schema): RegisteredTool {
  const registry = createRegistry().register({
    group: 'fuzz',
    version: '1.0.0',
    description: 'Fuzzed tool.',
    selection: { strategy: 'always' },
    tools: [
      {
        name: 'fuzz_tool',
        description: 'A tool with a generated schema.',
        category: 'analysis',
        input_schema: schema,
        metadata: { executor: 'none' },
      },
    ],
  });
  return registry.get('fuzz_tool')!;
}

const TRANSLATIONS: readonly { provider: ProviderId; options: Record<string, unknown> }[] = [
  ...PROVIDER_IDS.map((provider) => ({ provider, options: {} })),
  { provider: 'openai', options: { strict: false } },
  { provider: 'openai-responses', options: { strict: false } },
];

describe('translate fuzzing: every provider accepts what it gets, or a specific error', () => {
  it('a required nullable enum without null translates for OpenAI strict (found by fuzzing)', () => {
    const tool = registerTool({
      type: 'object',
      properties: { title: { type: ['string', 'null'], enum: ['a'] } },
      required: ['title'],
    });
    for (const provider of ['openai', 'openai-responses'] as const) {
      expect(checkPayload(provider, translate([tool], provider).payload)).toEqual([]);
    }
  });

  it('random supported schemas translate to conforming payloads for every provider', async () => {
    const rejected = new Map<string, number>();
    await assertProperty(
      'translate: random supported schemas x 9 provider settings',
      fc.property(inputSchema, (schema) => {
        const tool = registerTool(schema);
        const prototypes = snapshotPrototypes();
        for (const { provider, options } of TRANSLATIONS) {
          let payload: unknown;
          try {
            payload = translate([tool], provider, options).payload;
          } catch (error) {
            expect(error).toBeInstanceOf(TranslationError);
            const key = `${provider}:${(error as TranslationError).code}`;
            rejected.set(key, (rejected.get(key) ?? 0) + 1);
            continue;
          }
          expect(checkPayload(provider, payload), provider).toEqual([]);
        }
        expect(diffPrototypes(prototypes)).toEqual([]);
      }),
      60,
    );
    // the supported set translates: specific errors are the exception, not the rule
    expect([...rejected.values()].reduce((sum, count) => sum + count, 0)).toBe(0);
  });
});

describe('execute fuzzing: ok or a tool error, never a throw or a crash', () => {
  let registry: Registry;
  let dataDir: string;
  let workspace: string;
  let outside: string;
  const SECRET = 'outside-the-workspace secret';

  beforeAll(async () => {
    ({ registry, dataDir } = await loadBundledRegistry());
    workspace = await mkdtemp(join(tmpdir(), 'toolcap-workspace-'));
    outside = await mkdtemp(join(tmpdir(), 'toolcap-outside-'));
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    writeFileSync(join(workspace, 'notes.txt'), 'alpha\nbeta\n');
    mkdirSync(join(workspace, 'docs'));
    writeFileSync(join(workspace, 'docs', 'plan.md'), '# Plan\n');
    // a way out of the workspace that the files handler must refuse
    symlinkSync(outside, join(workspace, 'escape'));
  });

  afterAll(() => {
    for (const dir of [dataDir, workspace, outside]) rmSync(dir, { recursive: true, force: true });
  });

  it('random inputs, contexts and names on the bundled tools', async () => {
    const toolNames = registry.list().map((tool) => tool.name);
    const oddValue = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom(...ODD_STRINGS),
      fc.constantFrom('x'.repeat(100_000), -1, 0, 1e308, Number.MAX_SAFE_INTEGER, '2024-02-30'),
    );
    const path = fc.oneof(
      fc.constantFrom(
        'notes.txt',
        'docs/plan.md',
        '../secret.txt',
        'escape/secret.txt',
        '/etc/passwd',
        'docs/../../secret.txt',
        'notes.txt\u0000.md',
        '',
        '.',
        'docs',
      ),
      fc.string({ maxLength: 20 }),
    );
    /** Inputs shaped like each tool's parameters, with random and hostile values. */
    const input = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(
        fc.oneof(
          fc.constantFrom(
            'title',
            'text',
            'date',
            'query',
            'limit',
            'offset',
            'event_id',
            'task_id',
            'doc_id',
            'content',
            'start',
            'end',
            'priority',
            'status',
            'old_string',
            'new_string',
            'replace_all',
            ...DANGEROUS_NAMES,
          ),
          fc.string({ maxLength: 8 }),
        ),
        oddValue,
        { maxKeys: 5 },
      ),
      fc.record({
        file_path: path,
        old_string: fc.constantFrom('alpha', SECRET, ''),
        new_string: fc.string({ maxLength: 10 }),
        offset: fc.oneof(fc.integer(), oddValue),
        limit: fc.oneof(fc.integer(), oddValue),
      }),
    );
    const context = fc.record(
      {
        user_id: fc.oneof(fc.constantFrom('u1', 'u2'), oddValue),
        project_id: fc.oneof(fc.constant('p1'), oddValue),
        workspace_root: fc.constant('WORKSPACE'),
      },
      { requiredKeys: [] },
    );
    const name = fc.oneof(
      { arbitrary: fc.constantFrom(...toolNames), weight: 8 },
      {
        arbitrary: fc.oneof(fc.constantFrom(...DANGEROUS_NAMES, 'toString'), fc.string()),
        weight: 1,
      },
    );

    const outcomes = new Map<string, number>();
    const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    await assertProperty(
      'execute: random inputs on the bundled tools',
      fc.asyncProperty(name, input, context, async (toolName, toolInput, toolContext) => {
        const prototypes = snapshotPrototypes();
        // JSON round trip: what a model can send ("__proto__" stays an own key)
        const callInput = JSON.parse(JSON.stringify(toolInput) ?? 'null') as unknown;
        const callContext = JSON.parse(
          JSON.stringify(toolContext).replaceAll('"WORKSPACE"', JSON.stringify(workspace)),
        ) as Record<string, unknown>;
        const result = await registry.execute(toolName, callInput, callContext, {
          timeoutMs: 5_000,
        });
        if (!result.ok && result.error.code === 'TOOL_NOT_FOUND') {
          // a name that is not a tool is a tool error too, never a rejection
          expect(registry.has(toolName)).toBe(false);
          count('TOOL_NOT_FOUND');
          return;
        }
        expect(registry.has(toolName)).toBe(true);
        count(result.ok ? 'ok' : result.error.code);
        if (result.ok) {
          expect(JSON.stringify(result.output)).not.toContain(SECRET);
        } else {
          expect(result.error.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
          expect(result.error.message.length).toBeGreaterThan(0);
          expect(result.error.code).not.toBe('HANDLER_ERROR');
        }
        expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
        expect(diffPrototypes(prototypes)).toEqual([]);
      }),
      300,
    );
    // the runs reach the handlers, not only input validation
    if (process.env.TOOLCAP_FUZZ_REPORT !== undefined) console.log(Object.fromEntries(outcomes));
    expect(outcomes.get('ok') ?? 0).toBeGreaterThan(0);
    expect(TOOL_NAME_PATTERN.test(toolNames[0]!)).toBe(true);
  });
});
