import { isAbsolute, relative } from 'node:path';

/** Path relative to `cwd` when the file is inside it; absolute otherwise. */
export function displayPath(file: string, cwd: string): string {
  const relativePath = relative(cwd, file);
  return relativePath !== '' && !relativePath.startsWith('..') && !isAbsolute(relativePath)
    ? relativePath
    : file;
}
