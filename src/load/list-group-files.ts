import fastGlob from 'fast-glob';

/** The glob every schema directory is searched with. */
export const GROUP_FILE_GLOB = '**/*_tools.json';

/**
 * Absolute paths of the group files (`*_tools.json`) under `directory` and its subdirectories,
 * sorted by code unit so loading order (and catalog order) is deterministic. Dot entries are
 * skipped and symbolic links are neither followed nor returned.
 */
export async function listGroupFiles(directory: string): Promise<string[]> {
  const files = await fastGlob(GROUP_FILE_GLOB, {
    cwd: directory,
    absolute: true,
    onlyFiles: true,
    dot: false,
    followSymbolicLinks: false,
    suppressErrors: true,
  });
  return files.sort(compareCodeUnits);
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
