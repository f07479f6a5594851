import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS, type LoadLimits } from '../../src/format/limits.js';
import type { JsonValue } from '../../src/format/types.js';
import { RegistryLoadError } from '../../src/load/registry-load-error.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { assertProperty } from './fuzz-settings.js';
import {
  DANGEROUS_NAMES,
  describedFile,
  type GeneratedFile,
  groupShapedFile,
  mutatedGroupFile,
  randomJsonFile,
  SEED_FILES,
} from './group-file-arbitraries.js';
import { diffPrototypes, snapshotPrototypes } from './prototype-guard.js';
import { diagnosticProblems, registryProblems } from './registry-invariants.js';

/** A run that takes longer than this is treated as a hang (typical runs take a few ms). */
const MAX_RUN_MS = 10_000;

let base: string;
let runNumber = 0;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'toolcap-fuzz-'));
});
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

/** Writes each file into its own subdirectory of a fresh directory (names may repeat). */
function writeFiles(files: readonly GeneratedFile[]): string {
  const dir = join(base, String(runNumber++));
  files.forEach((file, index) => {
    mkdirSync(join(dir, String(index)), { recursive: true });
    writeFileSync(join(dir, String(index), file.fileName), file.content);
  });
  return dir;
}

/** Loads `files` and checks the outcome: never a throw, a well-formed registry, no pollution. */
async function expectCleanLoad(
  files: readonly GeneratedFile[],
  options: { limits?: Partial<LoadLimits>; pins?: Record<string, string>; strict?: boolean } = {},
): Promise<void> {
  const dir = writeFiles(files);
  const prototypes = snapshotPrototypes();
  const started = performance.now();
  try {
    const registry = await loadRegistry({ dirs: [dir], cwd: dir, ...options }).catch(
      (error: unknown) => {
        // strict mode is the one documented way to fail, and only with a RegistryLoadError
        if (options.strict === true && error instanceof RegistryLoadError) {
          expect(error.diagnostics.flatMap(diagnosticProblems)).toEqual([]);
          expect(error.diagnostics.some((diagnostic) => diagnostic.severity === 'error')).toBe(
            true,
          );
          return undefined;
        }
        throw error;
      },
    );
    if (registry !== undefined) expect(registryProblems(registry)).toEqual([]);
    expect(diffPrototypes(prototypes)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(MAX_RUN_MS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const seedFile = fc
  .constantFrom(...SEED_FILES)
  .map((seed) => describedFile(seed.fileName, Buffer.from(JSON.stringify(seed.value))));

describe('loader fuzzing: never a throw, a hang or a malformed diagnostic', () => {
  it('the seed files load cleanly (the mutations start from valid files)', async () => {
    for (const seed of SEED_FILES) {
      const dir = writeFiles([
        { fileName: seed.fileName, content: Buffer.from(JSON.stringify(seed.value)) },
      ]);
      const registry = await loadRegistry({ dirs: [dir], cwd: dir });
      expect(registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error')).toEqual(
        [],
      );
      expect(registry.size).toBeGreaterThan(0);
    }
  });

  it('mutated group files (deleted, replaced, retyped fields; deep nesting; huge and odd strings; BOMs; truncation)', async () => {
    await assertProperty(
      'load: mutated group files',
      fc.asyncProperty(
        fc.array(fc.oneof({ arbitrary: mutatedGroupFile, weight: 4 }, seedFile), {
          minLength: 1,
          maxLength: 3,
        }),
        (files) => expectCleanLoad(files),
      ),
      150,
    );
  });

  it('group-shaped documents built from random values', async () => {
    await assertProperty(
      'load: group-shaped documents',
      fc.asyncProperty(fc.array(groupShapedFile, { minLength: 1, maxLength: 3 }), (files) =>
        expectCleanLoad(files),
      ),
      150,
    );
  });

  it('random JSON values and almost-JSON text', async () => {
    await assertProperty(
      'load: random JSON',
      fc.asyncProperty(fc.array(randomJsonFile, { minLength: 1, maxLength: 2 }), (files) =>
        expectCleanLoad(files),
      ),
      100,
    );
  });

  it('random limits, pins (including dangerous group names) and strict mode', async () => {
    const limits = fc.record(
      {
        maxFileBytes: fc.integer({ min: 0, max: DEFAULT_LOAD_LIMITS.maxFileBytes }),
        maxToolsPerGroup: fc.integer({ min: 0, max: 10 }),
        maxTools: fc.integer({ min: 0, max: 20 }),
        maxSchemaDepth: fc.integer({ min: 0, max: 10 }),
        maxSchemaNodes: fc.integer({ min: 0, max: 200 }),
        maxKeywords: fc.integer({ min: 0, max: 10 }),
        maxKeywordLength: fc.integer({ min: 0, max: 20 }),
        maxDescriptionLength: fc.integer({ min: 0, max: 200 }),
        maxPatternLength: fc.integer({ min: 0, max: 50 }),
      },
      { requiredKeys: [] },
    );
    const pins = fc
      .array(
        fc.tuple(
          fc.constantFrom(...DANGEROUS_NAMES, 'calendar', 'journal', 'toString'),
          fc.constantFrom('^1.0.0', '2.x', 'not a range', '>=0.0.0', '__proto__'),
        ),
        { maxLength: 3 },
      )
      // JSON.parse makes own keys, as a pins file read from disk would
      .map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries))) as JsonValue);
    await assertProperty(
      'load: random limits, pins and strict mode',
      fc.asyncProperty(
        fc.array(fc.oneof(mutatedGroupFile, seedFile), { minLength: 1, maxLength: 3 }),
        limits,
        pins,
        fc.boolean(),
        (files, chosenLimits, chosenPins, strict) =>
          expectCleanLoad(files, {
            limits: chosenLimits,
            pins: chosenPins as Record<string, string>,
            strict,
          }),
      ),
      100,
    );
  });

  it('register() with random values returns a registry or throws a RegistryLoadError', async () => {
    const empty = createRegistry();
    // the parsed value rides in a described file, so a deep counterexample prints briefly
    const candidate = fc.oneof(
      mutatedGroupFile,
      fc
        .jsonValue({ maxDepth: 3 })
        .map((value) => describedFile('value', Buffer.from(JSON.stringify(value) ?? 'null'))),
    );
    await assertProperty(
      'register: random values',
      fc.property(candidate, (file) => {
        const value = parseLeniently(file.content.toString('utf8'));
        const prototypes = snapshotPrototypes();
        try {
          expect(registryProblems(empty.register(value))).toEqual([]);
        } catch (error) {
          if (!(error instanceof RegistryLoadError)) throw error;
          expect(error.diagnostics.flatMap(diagnosticProblems)).toEqual([]);
        }
        expect(diffPrototypes(prototypes)).toEqual([]);
      }),
      200,
    );
  });
});

/** The JSON value of `text` (without BOMs), or the text itself when it is not JSON. */
function parseLeniently(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF+/, '')) as unknown;
  } catch {
    return text;
  }
}
