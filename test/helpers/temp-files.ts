import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Creates a temporary directory holding `files` (path → text, or a value written as JSON) and
 * removes it after the current test.
 */
export function createTempDir(files: Readonly<Record<string, unknown>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolcap-test-'));
  created.push(dir);
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(
      target,
      typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`,
    );
  }
  return dir;
}

/** A valid tool entry for group files, with overrides. */
export function makeTool(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'do_thing',
    description: 'Does a thing.',
    category: 'retrieval',
    input_schema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for' } },
      required: ['query'],
    },
    metadata: {
      executor: 'things',
      requires_context: [],
      cost_estimate: 'low',
      latency_estimate: 'fast',
    },
    ...overrides,
  };
}

/** A valid group document, with overrides. */
export function makeGroup(
  group: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    group,
    version: '1.0.0',
    description: 'A test group.',
    selection: { strategy: 'always' },
    tools: [makeTool()],
    ...overrides,
  };
}
