/**
 * The load baseline of the bench: what any loader of the group files must do at least. Lists
 * them with fast-glob, reads and parses each, and returns the parsed documents (kept, as a
 * registry keeps its tools). Used for the load ratio and the bare memory row.
 */
import { readFile } from 'node:fs/promises';
import fastGlob from 'fast-glob';

export async function bareLoad(dir) {
  const files = await fastGlob('**/*_tools.json', { cwd: dir, absolute: true });
  return Promise.all(files.map(async (file) => JSON.parse(await readFile(file, 'utf8'))));
}
