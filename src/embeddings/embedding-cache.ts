import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Warning } from '../format/types.js';
import { errorMessage } from '../util/error-message.js';

const FORMAT = 'toolcap-embedding-cache';
const VERSION = 1;
/** Most vectors one cache file keeps: those in use first, then the most recently added. */
export const MAX_CACHED_VECTORS = 100_000;

/** The vectors of one embedder's cache file, by text hash, in the order they were added. */
export interface EmbeddingCacheContent {
  dimensions: number;
  vectors: Map<string, Float32Array>;
}

/** The content hash a text's vector is cached under (SHA-256, hex). */
export function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The cache file of `embedderId` in `directory`: a readable slug of the id plus a hash of the
 * whole id, so two ids never share a file.
 */
export function embeddingCacheFile(directory: string, embedderId: string): string {
  const slug = embedderId
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return join(directory, `${slug || 'embedder'}-${hashText(embedderId).slice(0, 12)}.json`);
}

/**
 * Reads the cache file of `embedderId`. A missing file is an empty cache; a file that cannot
 * be read or parsed, or that belongs to another embedder, is ignored with a warning (the
 * vectors are then computed again and the file rewritten), never an error.
 */
export async function readEmbeddingCache(
  file: string,
  embedderId: string,
): Promise<{ content: EmbeddingCacheContent | undefined; warning: Warning | undefined }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // no file yet (or no directory): an empty cache; a failed write will say why
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { content: undefined, warning: undefined };
    }
    return {
      content: undefined,
      warning: ignored(file, `it cannot be read (${errorMessage(error)})`),
    };
  }
  try {
    return { content: parseCache(text, embedderId), warning: undefined };
  } catch (error) {
    return { content: undefined, warning: ignored(file, errorMessage(error)) };
  }
}

/**
 * Writes the cache file so that readers see the old file or the new one, never a mix: the
 * text goes to a temporary file beside it, which is then renamed over it.
 */
export async function writeEmbeddingCache(
  file: string,
  embedderId: string,
  content: EmbeddingCacheContent,
): Promise<void> {
  const vectors: Record<string, string> = {};
  for (const [hash, vector] of content.vectors) vectors[hash] = encodeVector(vector);
  const text = `${JSON.stringify({
    format: FORMAT,
    version: VERSION,
    embedder: embedderId,
    dimensions: content.dimensions,
    vectors,
  })}\n`;
  await mkdir(dirname(file), { recursive: true });
  const temporary = join(
    dirname(file),
    `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

function ignored(file: string, problem: string): Warning {
  return {
    code: 'EMBEDDING_CACHE_IGNORED',
    message: `embedding cache ${file} is ignored: ${problem}. Its vectors are computed again and the file is rewritten`,
  };
}

function parseCache(text: string, embedderId: string): EmbeddingCacheContent {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error('it is not valid JSON');
  }
  const cache = data as Record<string, unknown> | null;
  if (cache === null || typeof cache !== 'object' || cache.format !== FORMAT) {
    throw new Error(`it is not a toolcap embedding cache (no "format": "${FORMAT}")`);
  }
  if (cache.version !== VERSION) {
    throw new Error(`its version ${JSON.stringify(cache.version)} is not ${VERSION}`);
  }
  if (cache.embedder !== embedderId) {
    throw new Error(
      `it holds vectors of embedder ${JSON.stringify(cache.embedder)}, not ${JSON.stringify(embedderId)}`,
    );
  }
  const { dimensions } = cache;
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1) {
    throw new Error(`"dimensions" must be a positive integer, got ${JSON.stringify(dimensions)}`);
  }
  const entries = cache.vectors;
  if (entries === null || typeof entries !== 'object' || Array.isArray(entries)) {
    throw new Error('"vectors" must be an object of base64 vectors by text hash');
  }
  const vectors = new Map<string, Float32Array>();
  for (const [hash, encoded] of Object.entries(entries)) {
    const vector = typeof encoded === 'string' ? decodeVector(encoded, dimensions) : undefined;
    if (vector === undefined) {
      throw new Error(`vector "${hash.slice(0, 16)}" is not ${dimensions} base64 float32 numbers`);
    }
    vectors.set(hash, vector);
  }
  return { dimensions, vectors };
}

/** Little-endian float32, base64: about a third of the JSON numbers' size, and exact. */
function encodeVector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let index = 0; index < vector.length; index++) bytes.writeFloatLE(vector[index]!, index * 4);
  return bytes.toString('base64');
}

function decodeVector(encoded: string, dimensions: number): Float32Array | undefined {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length !== dimensions * 4) return undefined;
  const vector = new Float32Array(dimensions);
  for (let index = 0; index < dimensions; index++) {
    const value = bytes.readFloatLE(index * 4);
    if (!Number.isFinite(value)) return undefined;
    vector[index] = value;
  }
  return vector;
}
