import { describe, expect, it } from 'vitest';
import { parseJsonDocument } from '../../src/load/parse-json-document.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { listNames, quoteValue } from '../../src/util/quote-value.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { registryProblems } from './registry-invariants.js';

/** Regression tests for what the loader fuzzing found. */
describe('loader hardening', () => {
  it('locates thousands of diagnostics in one large file in about one pass (was quadratic)', async () => {
    // 1,000 broken tools, 5 problems each, in a 1.3 MB file: locating each diagnostic used to
    // rescan the whole text (31 s); each object is now indexed once (well under a second)
    const tools = Array.from({ length: 1_000 }, (_, index) =>
      makeTool({
        name: `tool_${index}`,
        description: 'x'.repeat(500),
        category: 'nope',
        input_schema: {
          type: 'object',
          properties: { a: { type: 'dict' }, b: { type: 'array' } },
          required: ['zz'],
        },
        metadata: { executor: 'x', cost_estimate: 'huge' },
      }),
    );
    const dir = createTempDir({ 'many_tools.json': makeGroup('many', { tools }) });
    const started = performance.now();
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    const elapsed = performance.now() - started;
    expect(registry.diagnostics).toHaveLength(5_000);
    expect(registry.diagnostics.every((diagnostic) => diagnostic.line !== undefined)).toBe(true);
    const last = registry.diagnostics.at(-1)!;
    expect(last.pointer).toMatch(/^\/tools\/999\//);
    expect(last.line).toBeGreaterThan(20_000);
    // generous: a regression to one pass per diagnostic takes tens of seconds
    expect(elapsed).toBeLessThan(10_000);
  });

  it('locates the last value of a duplicated key, as JSON.parse keeps it', () => {
    const result = parseJsonDocument('{"a": 1,\n "a": {"b": 2}}');
    if (!result.ok) throw new Error('expected ok');
    expect(result.document.locate('/a/b')).toEqual({ line: 2, column: 8 });
  });

  it('quotes 10,000-deep values and huge strings briefly instead of overflowing the stack', async () => {
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const huge = 'x'.repeat(300_000);
    const text = JSON.stringify(
      makeGroup('deep', {
        version: huge,
        selection: { strategy: 'DEEP' },
        tools: [
          makeTool({ name: huge, category: 'DEEP' }),
          makeTool({ name: 'ok_tool', metadata: { executor: 'DEEP' } }),
        ],
      }),
    ).replaceAll('"DEEP"', deep);
    const dir = createTempDir({ 'deep_tools.json': text });
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    expect(registryProblems(registry)).toEqual([]);
    expect(registry.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(
      expect.arrayContaining([
        'INVALID_VERSION',
        'UNKNOWN_STRATEGY',
        'INVALID_TOOL_NAME',
        'INVALID_CATEGORY',
        'INVALID_EXECUTOR',
      ]),
    );
    for (const diagnostic of registry.diagnostics) {
      expect(diagnostic.message.length).toBeLessThan(1_000);
    }
    const strategy = registry.diagnostics.find((d) => d.code === 'UNKNOWN_STRATEGY');
    expect(strategy?.message).toContain('unknown selection strategy {"a": {"a": {…}}}');
  });

  it('bounds the list of defined properties in REQUIRED_NOT_DEFINED (was quadratic in size)', async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 3_000 }, (_, index) => [`p${index}`, { type: 'string' }]),
    );
    const required = Array.from({ length: 3_000 }, (_, index) => `missing_${index}`);
    const dir = createTempDir({
      'wide_tools.json': makeGroup('wide', {
        tools: [makeTool({ input_schema: { type: 'object', properties, required } })],
      }),
    });
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    expect(registry.diagnostics).toHaveLength(3_000);
    expect(registry.diagnostics[0]?.message).toContain(
      'p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19 … (2980 more)',
    );
    expect(registry.diagnostics.every((d) => d.message.length < 600)).toBe(true);
  });

  it('quoteValue and listNames stay short for any value', () => {
    expect(quoteValue('calendar')).toBe('"calendar"');
    expect(quoteValue(42)).toBe('42');
    expect(quoteValue(null)).toBe('null');
    expect(quoteValue([1, [2, [3, [4]]]])).toBe('[1, [2, […]]]');
    expect(quoteValue({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 })).toBe(
      '{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, …}',
    );
    expect(quoteValue('y'.repeat(1_000))).toHaveLength(81);
    expect(listNames(['a', 'b', 'c'], 2)).toBe('a, b … (1 more)');
  });
});
