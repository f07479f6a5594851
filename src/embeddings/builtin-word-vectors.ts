import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolcapError } from '../errors/toolcap-error.js';

/** The built-in vectors' file name (see src/embeddings/builtin/SOURCE.md). */
export const BUILTIN_WORD_VECTORS_FILE = 'glove-20k.bin';

/**
 * The path of the built-in word vectors: beside this module (src/embeddings/builtin/, or
 * dist/src/embeddings/builtin/ where the build copies them), or, from the bundled CLI, the
 * package's dist/src copy found by walking up to the package root.
 */
export function builtinWordVectorsPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const beside = join(here, 'builtin', BUILTIN_WORD_VECTORS_FILE);
  if (existsSync(beside)) return beside;
  for (let directory = here, depth = 0; depth < 6; depth++, directory = dirname(directory)) {
    const candidate = join(
      directory,
      'dist',
      'src',
      'embeddings',
      'builtin',
      BUILTIN_WORD_VECTORS_FILE,
    );
    if (existsSync(candidate)) return candidate;
  }
  throw new ToolcapError(
    'WORD_VECTORS_INVALID',
    `the built-in word vectors (${BUILTIN_WORD_VECTORS_FILE}) are missing from this installation; reinstall tool-capabilities, or pass { file } or { package } instead`,
  );
}
