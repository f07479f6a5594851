import { embedWithCache } from '../embeddings/embed-with-cache.js';
import type { Embedder } from '../embeddings/embedder.js';
import type { RegisteredTool, Warning } from '../format/types.js';
import { SEMANTIC_BACKGROUND, SemanticIndex, semanticText } from './semantic-index.js';

/** What preparing the semantic scorer did. */
export interface SemanticReport {
  /** The embedder's id. */
  embedder: string;
  /** Tools of the snapshot. */
  tools: number;
  /** Vector length. */
  dimensions: number;
  /** Distinct texts embedded now (tools and the background texts). */
  computed: number;
  /** Distinct texts whose vectors came from the cache file. */
  cached: number;
  /** The cache file; undefined when the disk cache is off. */
  cacheFile: string | undefined;
  /** Cache problems (an unreadable file is ignored, a failed write skipped), never thrown. */
  warnings: Warning[];
}

/**
 * The semantic index of `tools`: every tool's text (see `semanticText`) and the background
 * texts embedded in one pass, through the disk cache in `cacheDir` when given.
 */
export async function prepareSemanticIndex(
  tools: readonly RegisteredTool[],
  embedder: Embedder,
  options: { cacheDir: string | undefined; signal?: AbortSignal | undefined },
): Promise<{ index: SemanticIndex; report: SemanticReport }> {
  const texts = [...tools.map(semanticText), ...SEMANTIC_BACKGROUND];
  const embedded = await embedWithCache(embedder, texts, options);
  const index = new SemanticIndex(
    embedder,
    embedded.vectors.slice(0, tools.length),
    embedded.vectors.slice(tools.length),
  );
  return {
    index,
    report: {
      embedder: embedder.id,
      tools: tools.length,
      dimensions: embedded.dimensions,
      computed: embedded.computed,
      cached: embedded.cached,
      cacheFile: embedded.file,
      warnings: embedded.warnings,
    },
  };
}
