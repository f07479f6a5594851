import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
