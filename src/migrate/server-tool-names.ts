import { toCanonicalToolName } from '../providers/import/to-canonical-tool-name.js';

/**
 * The names a tool that `toolcap mcp --upstream` lists as `name` in `group` may have on its
 * server, the likeliest first: the name itself (the gateway keeps a server's valid names and
 * converts the others, `search-docs` → `search_docs`), then, for a name that begins with
 * `<group>_`, the rest (the gateway prefixes the group to a name another group already uses:
 * `echo` of `beta` becomes `beta_echo`).
 */
export function serverToolNameCandidates(name: string, group: string): string[] {
  const prefix = `${group}_`;
  return name.startsWith(prefix) && name.length > prefix.length
    ? [name, name.slice(prefix.length)]
    : [name];
}

/**
 * Whether `name` in `group` may be a name the gateway gave a renamed tool, which only the server's
 * own name (a pair's `server_tool`) identifies.
 */
export function mayBeRenamedTool(name: string, group: string): boolean {
  return serverToolNameCandidates(name, group).length > 1;
}

/**
 * Among `keys` (a server's tool names as an overlay writes them: the server's own, or converted),
 * the one the gateway lists as `name` in `group`: a key equal to a candidate
 * (`serverToolNameCandidates`), else a key whose converted form is. Undefined when none is.
 */
export function findServerToolKey(
  name: string,
  group: string,
  keys: Iterable<string>,
): string | undefined {
  const list = [...keys];
  for (const candidate of serverToolNameCandidates(name, group)) {
    const found =
      list.find((key) => key === candidate) ??
      list.find((key) => toCanonicalToolName(key) === candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}
