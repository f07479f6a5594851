import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A data file the build copies beside a module: `<module dir>/<folder>/<file>` (src/ or
 * dist/src/), or, from the bundled CLI (whose modules sit in dist/cli/), the package's
 * `dist/src/<sourceDir>/<folder>/<file>` found by walking up to the package root. `moduleUrl` is
 * the asking module's `import.meta.url`, `sourceDir` its folder under src/ (`text`).
 * Undefined when neither exists.
 */
export function locateShippedFile(
  moduleUrl: string,
  sourceDir: string,
  folder: string,
  file: string,
): string | undefined {
  const here = dirname(fileURLToPath(moduleUrl));
  const beside = join(here, folder, file);
  if (existsSync(beside)) return beside;
  for (let directory = here, depth = 0; depth < 6; depth++, directory = dirname(directory)) {
    const candidate = join(directory, 'dist', 'src', sourceDir, folder, file);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
