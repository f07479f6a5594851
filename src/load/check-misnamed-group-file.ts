import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { LoadLimits } from '../format/limits.js';
import { GROUP_FILE_SUFFIX, isValidGroupName } from '../format/names.js';
import type { Diagnostic } from '../format/types.js';
import { boundedEditDistance } from '../util/suggest-similar.js';
import { readGroupFileText } from './read-group-file.js';

/**
 * Whether a `.json` file name (any case) is close to `<group>_tools.json` without being one:
 * it contains "tool" (`billing_tool.json`, `billing-tools.json`, `billing_tools.JSON`) or ends
 * within two edits of `_tools.json` (`billing_tols.json`). Only such files are read, so a
 * schema directory full of other JSON (a package.json, fixtures) costs nothing more.
 */
export function isNearGroupFileName(fileName: string): boolean {
  if (fileName.endsWith(GROUP_FILE_SUFFIX)) return false;
  const lower = fileName.toLowerCase();
  if (!lower.endsWith('.json')) return false;
  if (lower.includes('tool')) return true;
  const suffix = lower.slice(-GROUP_FILE_SUFFIX.length);
  return boundedEditDistance(suffix, GROUP_FILE_SUFFIX, 2) <= 2;
}

/**
 * A `MISNAMED_GROUP_FILE` warning when `file` (a name close to `<group>_tools.json`, see
 * `isNearGroupFileName`) holds a JSON object with `group` and `tools`: it looks like a group
 * file, but only `*_tools.json` files are loaded. Files over `limits.maxFileBytes` and texts
 * without both keys are never parsed. `label` is the path shown.
 */
export function checkMisnamedGroupFile(
  file: string,
  limits: LoadLimits,
  label: string,
): Diagnostic | undefined {
  const read = readGroupFileText(file, limits, label);
  if ('diagnostic' in read) return undefined;
  const { text } = read;
  // most JSON files (package.json, tsconfig.json, data) lack one of the keys: skip the parse
  if (!text.includes('"group"') || !text.includes('"tools"')) return undefined;
  let root: unknown;
  try {
    root = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return undefined;
  if (!Object.hasOwn(root, 'group') || !Object.hasOwn(root, 'tools')) return undefined;
  const group = (root as Record<string, unknown>).group;
  const valid = typeof group === 'string' && isValidGroupName(group);
  const expected = valid ? `${group}${GROUP_FILE_SUFFIX}` : undefined;
  const taken = expected !== undefined && existsSync(join(dirname(file), expected));
  const fix =
    expected === undefined
      ? `rename it to <group>${GROUP_FILE_SUFFIX}, with "group" a snake_case name such as "billing"`
      : taken
        ? `a file named ${expected} exists beside it already: merge the two or remove this one`
        : `rename it to ${expected}`;
  return {
    severity: 'warning',
    code: 'MISNAMED_GROUP_FILE',
    file: label,
    pointer: '',
    message: `${basename(file)} looks like a group file (a JSON object with "group" and "tools") but is not loaded: only files named <group>${GROUP_FILE_SUFFIX} are; ${fix}`,
  };
}
