import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// provider translation and the JSON Schema transforms it runs
const SOURCE_DIRS = ['src/providers', 'src/json-schema'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/guide/providers.md', () => {
  it('documents every warning and error code the providers module emits', () => {
    const codes = new Set<string>();
    // check-schema.ts reports load diagnostics (DIAGNOSTIC_CODES), not translation warnings
    for (const file of SOURCE_DIRS.flatMap(sourceFiles).filter(
      (file) => !file.endsWith('check-schema.ts'),
    )) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /(?:code: |sink\.add\(\s*|new TranslationError\(\s*|\| )'([A-Z][A-Z_]+)'/g,
      )) {
        codes.add(match[1]!);
      }
    }
    expect(codes.size).toBeGreaterThan(30);
    const docs = readFileSync('docs/guide/providers.md', 'utf8');
    const missing = [...codes].filter((code) => !docs.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});
