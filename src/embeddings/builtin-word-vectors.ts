import { ToolcapError } from '../errors/toolcap-error.js';
import { locateShippedFile } from '../util/locate-shipped-file.js';

/** The built-in vectors' file name (see src/embeddings/builtin/SOURCE.md). */
export const BUILTIN_WORD_VECTORS_FILE = 'glove-20k.bin';

/**
 * The path of the built-in word vectors: beside this module (src/embeddings/builtin/, or
 * dist/src/embeddings/builtin/ where the build copies them), or, from the bundled CLI, the
 * package's dist/src copy found by walking up to the package root.
 */
export function builtinWordVectorsPath(): string {
  const found = locateShippedFile(
    import.meta.url,
    'embeddings',
    'builtin',
    BUILTIN_WORD_VECTORS_FILE,
  );
  if (found !== undefined) return found;
  throw new ToolcapError(
    'WORD_VECTORS_INVALID',
    `the built-in word vectors (${BUILTIN_WORD_VECTORS_FILE}) are missing from this installation; reinstall tool-capabilities, or pass { file } or { package } instead`,
  );
}
