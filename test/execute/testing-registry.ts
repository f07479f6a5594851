import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';
import type { CreateRegistryOptions } from '../../src/toolcap/registry-options.js';

/** test/execute/fixtures/handlers */
export const FIXTURE_HANDLERS = join(
  dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'handlers',
);

/** A fresh temporary directory. */
export function makeTempDir(prefix = 'toolcap-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

type ToolSpec = {
  name: string;
  executor?: string;
  requires?: string[];
  latency?: 'fast' | 'medium' | 'slow';
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
};

const ANY_INPUT = { type: 'object', properties: {} };

function toolEntry(spec: ToolSpec): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name: spec.name,
    description: `Test tool ${spec.name}.`,
    category: 'analysis',
    input_schema: spec.input ?? ANY_INPUT,
    metadata: {
      executor: spec.executor ?? 'testing',
      requires_context: spec.requires ?? [],
      cost_estimate: 'low',
      latency_estimate: spec.latency ?? 'fast',
    },
  };
  if (spec.output !== undefined) entry.output_schema = spec.output;
  return entry;
}

/** The tools of the "testing" group; their handlers live in fixtures/handlers/testing.js. */
export const TESTING_TOOLS: ToolSpec[] = [
  {
    name: 'echo',
    requires: ['user_id', 'session'],
    input: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1 },
        count: { type: 'integer', minimum: 1 },
        when: { type: 'string', format: 'date' },
        color: { type: 'string', enum: ['red', 'green'] },
        nested: {
          type: 'object',
          properties: { flag: { type: 'boolean' } },
          required: ['flag'],
          additionalProperties: false,
        },
        nullable: { type: ['string', 'null'] },
      },
      required: ['title'],
    },
  },
  { name: 'throws' },
  { name: 'throws_tool_error' },
  { name: 'throws_old_tool_error' },
  { name: 'throws_string' },
  { name: 'rejects_with_code' },
  { name: 'hangs' },
  { name: 'waits_for_abort' },
  { name: 'returns_bigint' },
  { name: 'returns_undefined' },
  { name: 'returns_function' },
  { name: 'returns_date' },
  {
    name: 'returns_big',
    input: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] },
  },
  {
    name: 'bad_output',
    output: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
  },
  {
    name: 'good_output',
    output: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
  },
  { name: 'dispatched_tool', executor: 'dispatch' },
  { name: 'legacy_tool', executor: 'legacy' },
  {
    name: 'typed_tool',
    executor: 'typed',
    input: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] },
  },
  { name: 'unexported_tool', executor: 'empty' },
  { name: 'orphan_tool', executor: 'nowhere' },
];

/** A registry holding the "testing" group, with the fixture handlers and a temp data dir. */
export function createTestingRegistry(options: CreateRegistryOptions = {}): Registry {
  return createRegistry({ handlers: [FIXTURE_HANDLERS], ...options }).register({
    group: 'testing',
    version: '1.0.0',
    description: 'Tools that exercise registry.execute.',
    selection: { strategy: 'always' },
    tools: TESTING_TOOLS.map(toolEntry),
  });
}

/** A registry with one group built from `specs`. */
export function createRegistryWith(
  specs: ToolSpec[],
  options: CreateRegistryOptions = {},
): Registry {
  return createRegistry({ handlers: [FIXTURE_HANDLERS], ...options }).register({
    group: 'custom',
    version: '1.0.0',
    description: 'Custom test tools.',
    selection: { strategy: 'always' },
    tools: specs.map(toolEntry),
  });
}
