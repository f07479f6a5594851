import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXECUTE_ERROR_CODES } from '../../src/execute/execute-error-codes.js';

const DOC = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'docs',
  'guide',
  'execution.md',
);

describe('execute error codes', () => {
  it('are all documented in docs/guide/execution.md, and nothing else is', async () => {
    const text = await readFile(DOC, 'utf8');
    const section = text.slice(
      text.indexOf('### Error codes'),
      text.indexOf('Handlers may report'),
    );
    const documented = [...section.matchAll(/^\|\s*`([A-Z_]+)`\s*\|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(Object.keys(EXECUTE_ERROR_CODES).sort());
  });
});
