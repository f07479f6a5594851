import fastGlob from 'fast-glob';
import { isNearGroupFileName } from './check-misnamed-group-file.js';

/** The glob every schema directory is searched with. */
export const GROUP_FILE_GLOB = '**/*_tools.json';

/** How schema directories are walked: no dot entries, symbolic links neither followed nor returned. */
const GLOB_OPTIONS = {
  absolute: true,
  onlyFiles: true,
  dot: false,
  followSymbolicLinks: false,
  suppressErrors: true,
} as const;

/**
 * Absolute paths of the group files (`*_tools.json`) under `directory` and its subdirectories,
 * sorted by code unit so loading order (and catalog order) is deterministic. Dot entries are
 * skipped and symbolic links are neither followed nor returned.
 */
export async function listGroupFiles(directory: string): Promise<string[]> {
  const files = await fastGlob(GROUP_FILE_GLOB, { ...GLOB_OPTIONS, cwd: directory });
  return files.sort(compareCodeUnits);
}

/** The JSON files of a schema directory: its group files, and other names close to them. */
export interface SchemaDirectoryListing {
  /** `*_tools.json` files, as `listGroupFiles` returns them. */
  groupFiles: string[];
  /** Other `.json` files (any case) whose names are close to `<group>_tools.json`, sorted. */
  nearMisses: string[] /** Every other `.json` file (any case), sorted. */;
  otherJson: string[];
}

/**
 * `listGroupFiles`, plus the `.json` files (any case) whose names are close to
 * `<group>_tools.json` (`isNearGroupFileName`), in one walk of the directory, by the same
 * rules (sorted, no dot entries, no symbolic links).
 */
export async function listSchemaDirectory(directory: string): Promise<SchemaDirectoryListing> {
  const files = await fastGlob('**/*.json', {
    ...GLOB_OPTIONS,
    cwd: directory,
    caseSensitiveMatch: false,
  });
  const groupFiles: string[] = [];
  const nearMisses: string[] = [];
  const otherJson: string[] = [];
  for (const file of files.sort(compareCodeUnits)) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    if (GROUP_FILE_NAME.test(name)) groupFiles.push(file);
    else if (isNearGroupFileName(name)) nearMisses.push(file);
    else otherJson.push(file);
  }
  return { groupFiles, nearMisses, otherJson };
}

/** A group file's name, case included (fast-glob's own test of GROUP_FILE_GLOB). */
const GROUP_FILE_NAME = /_tools\.json$/;

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
