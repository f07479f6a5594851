import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXECUTE_ERROR_CODES } from '../../src/execute/execute-error-codes.js';
import { loadBundledRegistry } from '../handlers/bundled-registry.js';
import { assertProperty, fuzzRuns } from '../reliability/fuzz-settings.js';
import { makeTempDir } from './testing-registry.js';

const CI_RUNS = 150;

describe('execute never crashes on model input (property-based)', () => {
  it('returns ok or a tool error for random arguments to every bundled tool', async () => {
    const { registry } = await loadBundledRegistry();
    const workspace = await makeTempDir('toolcap-fuzz-');
    await mkdir(join(workspace, 'src'));
    const context = { user_id: 'fuzz', project_id: 'fuzz', workspace_root: workspace };
    const names = registry.list().map((tool) => tool.name);
    const knownKeys = [
      ...new Set(
        registry
          .list()
          .flatMap((tool) => Object.keys((tool.input_schema.properties ?? {}) as object)),
      ),
    ];
    const looseValue = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(
        '../../etc/passwd',
        '/etc/passwd',
        'src',
        '2026-11-27',
        '2026-11-27T10:00:00Z',
      ),
    );
    const input = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(fc.constantFrom(...knownKeys, '__proto__', 'constructor'), looseValue, {
        maxKeys: 6,
      }),
    );
    let ok = 0;
    let failed = 0;
    await assertProperty(
      'execute: random arguments to bundled tools',
      fc.asyncProperty(fc.constantFrom(...names), input, async (name, args) => {
        const result = await registry.execute(name, args, context, { timeoutMs: 5_000 });
        if (result.ok) {
          ok++;
          expect(JSON.parse(JSON.stringify(result.output))).toEqual(result.output);
        } else {
          failed++;
          expect(result.error.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
          expect(typeof result.error.message).toBe('string');
          if (Object.hasOwn(EXECUTE_ERROR_CODES, result.error.code)) {
            expect(result.error.message.length).toBeGreaterThan(0);
          }
        }
      }),
      CI_RUNS,
    );
    expect(ok + failed).toBe(fuzzRuns(CI_RUNS));
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
