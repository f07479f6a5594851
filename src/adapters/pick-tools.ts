import { ToolcapError } from '../errors/toolcap-error.js';
import type { RegisteredTool } from '../format/types.js';
import type { Registry } from '../toolcap/registry.js';
import { suggestSimilar } from '../util/suggest-similar.js';

/**
 * The registry tools an adapter exposes: all of them in catalog order, or the named ones in
 * the order given. Throws a ToolcapError (`INVALID_OPTION`) naming an unknown tool.
 */
export function pickTools(
  registry: Registry,
  names: readonly string[] | undefined,
  caller: string,
): readonly RegisteredTool[] {
  if (names === undefined) return registry.list();
  return names.map((name) => {
    const tool = registry.get(name);
    if (tool === undefined) {
      const similar = suggestSimilar(
        name,
        registry.list().map((candidate) => candidate.name),
      );
      throw new ToolcapError(
        'INVALID_OPTION',
        `${caller}: option "tools" names ${JSON.stringify(name)}, which is not a tool of the registry${similar.length > 0 ? `; did you mean ${similar.map((candidate) => `"${candidate}"`).join(' or ')}?` : ''}`,
      );
    }
    return tool;
  });
}
