import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, shared with `npm run docs`
import { cataloguePages } from '../../scripts/render-catalogue.mjs';
import { EXECUTE_ERROR_CODES } from '../../src/execute/execute-error-codes.js';
import { DIAGNOSTIC_CODES } from '../../src/format/diagnostic-codes.js';

const ROOT = join(import.meta.dirname, '../..');

describe('docs/reference code catalogues', () => {
  const pages = cataloguePages({ DIAGNOSTIC_CODES, EXECUTE_ERROR_CODES }) as Record<string, string>;

  it.each(Object.keys(pages))('%s is generated from the current codes (npm run docs)', (file) => {
    const text = readFileSync(join(ROOT, 'docs/reference', file), 'utf8');
    expect(text).toBe(pages[file]);
  });

  it('lists every code, so a new code fails until the page is regenerated', () => {
    for (const code of Object.keys(DIAGNOSTIC_CODES)) {
      expect(pages['diagnostics.md']).toContain(`| \`${code}\` |`);
    }
    expect(pages['diagnostics.md']).not.toContain('`NOT_A_CODE`');
  });
});

describe('docs/reference/api.md error codes', () => {
  /** Every code a ToolcapError (or subclass) is built with in src/, as a string literal. */
  function thrownCodes(): Set<string> {
    const codes = new Set<string>();
    const thrown =
      /new (?:ToolcapError|TranslationError|ProviderResponseError)\(\s*'([A-Z][A-Z0-9_]+)'|super\(\s*'([A-Z][A-Z0-9_]+)'/g;
    for (const file of fg.sync('src/**/*.ts', { cwd: ROOT })) {
      for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(thrown)) {
        codes.add((match[1] ?? match[2])!);
      }
    }
    return codes;
  }

  it('names every code thrown in src/', () => {
    const text = readFileSync(join(ROOT, 'docs/reference/api.md'), 'utf8');
    const section = text.slice(text.indexOf('### Error codes'));
    const codes = thrownCodes();
    // the scan finds codes of every kind of construction (a broken pattern would find none)
    for (const code of ['GATEWAY_INVALID_OVERLAY', 'REGISTRY_LOAD_FAILED', 'CLI_USAGE']) {
      expect(codes.has(code)).toBe(true);
    }
    const missing = [...codes].filter((code) => !section.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });

  it('documents the codes toolcap diff --json prints', () => {
    const diff = readFileSync(join(ROOT, 'src/cli/commands/diff.ts'), 'utf8');
    const text = readFileSync(join(ROOT, 'docs/reference/api.md'), 'utf8');
    for (const [, code] of diff.matchAll(/error: '([A-Z_]+)'/g)) {
      expect(text).toContain(`\`${code}\``);
    }
  });
});
