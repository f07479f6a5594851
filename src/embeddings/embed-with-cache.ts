import { ToolcapError } from '../errors/toolcap-error.js';
import type { Warning } from '../format/types.js';
import { describeValue } from '../util/check-options.js';
import { errorMessage } from '../util/error-message.js';
import type { Embedder } from './embedder.js';
import {
  type EmbeddingCacheContent,
  embeddingCacheFile,
  hashText,
  MAX_CACHED_VECTORS,
  readEmbeddingCache,
  writeEmbeddingCache,
} from './embedding-cache.js';

/** Options of `embedWithCache`. */
export interface EmbedWithCacheOptions {
  /** Directory of the cache files (one per embedder); undefined: no disk cache. */
  cacheDir?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** Vectors of texts, and where they came from. */
export interface CachedEmbeddings {
  /** One vector per text, in order, as the embedder made it (not normalized). */
  vectors: Float32Array[];
  dimensions: number;
  /** Distinct texts embedded by this call. */
  computed: number;
  /** Distinct texts whose vectors came from the cache file. */
  cached: number;
  /** The cache file, when there is a cache directory. */
  file: string | undefined;
  /** Cache problems (unreadable or foreign file, failed write); never thrown. */
  warnings: Warning[];
}

/**
 * Vectors of `texts` by `embedder`, reusing those cached on disk under the content hash of each
 * text: only texts the cache lacks are embedded (in one `embed` call; the embedder batches).
 * The file then holds the vectors in use first and earlier ones after, up to
 * `MAX_CACHED_VECTORS`. The embedder's output is checked: one vector per text, finite numbers,
 * one length.
 */
export async function embedWithCache(
  embedder: Embedder,
  texts: readonly string[],
  options: EmbedWithCacheOptions = {},
): Promise<CachedEmbeddings> {
  const warnings: Warning[] = [];
  const file =
    options.cacheDir === undefined ? undefined : embeddingCacheFile(options.cacheDir, embedder.id);
  let stored: EmbeddingCacheContent | undefined;
  if (file !== undefined) {
    const read = await readEmbeddingCache(file, embedder.id);
    stored = read.content;
    if (read.warning !== undefined) warnings.push(read.warning);
  }
  const hashes = texts.map(hashText);
  const found = new Map<string, Float32Array>();
  const missing: string[] = [];
  const missingHashes: string[] = [];
  const seen = new Set<string>();
  hashes.forEach((hash, position) => {
    if (seen.has(hash)) return;
    seen.add(hash);
    const vector = stored?.vectors.get(hash);
    if (vector !== undefined) found.set(hash, vector);
    else {
      missing.push(texts[position]!);
      missingHashes.push(hash);
    }
  });
  const cached = found.size;
  let dimensions = stored !== undefined && found.size > 0 ? stored.dimensions : 0;
  if (missing.length > 0) {
    options.signal?.throwIfAborted();
    const made = checkVectors(
      embedder.id,
      missing.length,
      await embedder.embed(missing, options.signal === undefined ? {} : { signal: options.signal }),
    );
    if (dimensions !== 0 && made.dimensions !== dimensions) {
      throw new ToolcapError(
        'EMBEDDING_INVALID',
        `embedder "${embedder.id}" made ${made.dimensions}-dimensional vectors, but its cached ones in ${file} have ${dimensions}; give the embedder a new id when its vectors change`,
      );
    }
    dimensions = made.dimensions;
    made.vectors.forEach((vector, position) => {
      found.set(missingHashes[position]!, vector);
    });
  }
  if (file !== undefined && (missing.length > 0 || warnings.length > 0) && dimensions > 0) {
    try {
      await writeEmbeddingCache(file, embedder.id, mergeCache(stored, found, dimensions));
    } catch (error) {
      warnings.push({
        code: 'EMBEDDING_CACHE_NOT_SAVED',
        message: `embedding cache ${file} could not be written (${errorMessage(error)}); the vectors are used but will be computed again next time. Set semantic.cacheDir to a writable directory, or false`,
      });
    }
  }
  return {
    vectors: hashes.map((hash) => found.get(hash)!),
    dimensions,
    computed: missing.length,
    cached,
    file,
    warnings,
  };
}

/** The vectors in use, then earlier cached ones (most recently added first kept), capped. */
function mergeCache(
  stored: EmbeddingCacheContent | undefined,
  used: ReadonlyMap<string, Float32Array>,
  dimensions: number,
): EmbeddingCacheContent {
  const vectors = new Map(used);
  if (stored !== undefined && stored.dimensions === dimensions) {
    const earlier = [...stored.vectors].filter(([hash]) => !used.has(hash));
    const room = Math.max(0, MAX_CACHED_VECTORS - vectors.size);
    for (const [hash, vector] of earlier.slice(Math.max(0, earlier.length - room))) {
      vectors.set(hash, vector);
    }
  }
  return { dimensions, vectors };
}

/**
 * The embedder's output as float32 vectors, checked: `count` vectors of one length, each a
 * list of finite numbers. Throws `EMBEDDING_INVALID` naming the embedder and the problem.
 */
export function checkVectors(
  embedderId: string,
  count: number,
  output: unknown,
): { vectors: Float32Array[]; dimensions: number } {
  const invalid = (problem: string) =>
    new ToolcapError('EMBEDDING_INVALID', `embedder "${embedderId}" ${problem}`);
  if (!Array.isArray(output)) {
    throw invalid(`returned ${describeValue(output)} instead of an array of vectors`);
  }
  if (output.length !== count) {
    throw invalid(
      `returned ${output.length} vectors for ${count} texts; it must return one per text`,
    );
  }
  let dimensions = 0;
  const vectors = output.map((vector: unknown, position) => {
    const length = (vector as { length?: unknown } | null)?.length;
    if (vector === null || typeof vector !== 'object' || typeof length !== 'number' || length < 1) {
      throw invalid(
        `returned ${describeValue(vector)} as vector ${position}; expected an array of numbers`,
      );
    }
    if (dimensions === 0) dimensions = length;
    else if (length !== dimensions) {
      throw invalid(
        `returned vectors of ${dimensions} and ${length} numbers; they must all have one length`,
      );
    }
    const values = Float32Array.from(vector as ArrayLike<number>);
    if (!values.every(Number.isFinite)) {
      throw invalid(`returned a vector (${position}) holding a value that is not a finite number`);
    }
    return values;
  });
  return { vectors, dimensions };
}
