import { ToolcapError } from '../errors/toolcap-error.js';
import {
  errorExcerpt,
  postOpenAICompatible,
  resolveOpenAICompatibleEndpoint,
} from '../util/openai-compatible-request.js';
import type { Embedder } from './embedder.js';

/** Options of `createOpenAICompatibleEmbedder`. */
export interface OpenAICompatibleEmbedderOptions {
  /**
   * The API base, up to `/v1`: `https://api.openai.com/v1` (default), Ollama
   * `http://localhost:11434/v1`, LM Studio `http://localhost:1234/v1`, vLLM or llama.cpp's
   * server `http://localhost:8000/v1`. Requests go to `<baseURL>/embeddings`.
   */
  baseURL?: string;
  /** The embedding model, such as `text-embedding-3-small` or `nomic-embed-text`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never part of the id, an error or a message. */
  apiKey?: string;
  /** Asks for vectors of this length (OpenAI `text-embedding-3-*`; other servers may reject it). */
  dimensions?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Milliseconds each request may take. Default 30,000. */
  timeoutMs?: number;
  /** Extra request headers (for a gateway); not part of the id. */
  headers?: Readonly<Record<string, string>>;
  /** Replaces the embedder id (the cache key). Default: endpoint, model and dimensions. */
  id?: string;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_BATCH_SIZE = 64;
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * An embedder for any server that speaks OpenAI's `POST /v1/embeddings` (OpenAI, Ollama, vLLM,
 * llama.cpp, LM Studio, most gateways): texts are sent in batches of `batchSize` with
 * `encoding_format: "float"`, one request at a time, each bounded by `timeoutMs` and by the
 * caller's signal. Failures throw `EMBEDDING_REQUEST_FAILED` naming the endpoint (without
 * credentials or query) and the HTTP status or network error; an abort rejects with the
 * signal's reason. Uses the global `fetch`; no library needed.
 */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): Embedder {
  const invalid = (problem: string) =>
    new ToolcapError('INVALID_OPTION', `createOpenAICompatibleEmbedder: ${problem}`);
  if (options === null || typeof options !== 'object') {
    throw invalid('options must be an object such as { baseURL, model, apiKey }');
  }
  if (typeof options.model !== 'string' || options.model === '') {
    throw invalid('"model" must name the embedding model, such as "text-embedding-3-small"');
  }
  const resolved = resolveOpenAICompatibleEndpoint(
    options.baseURL ?? DEFAULT_BASE_URL,
    'embeddings',
  );
  if ('problem' in resolved) throw invalid(resolved.problem);
  const { url, shown: endpoint } = resolved;
  const positive = (name: string, value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 1) {
      throw invalid(`"${name}" must be a positive integer, got ${JSON.stringify(value)}`);
    }
    return value;
  };
  const batchSize = positive('batchSize', options.batchSize, DEFAULT_BATCH_SIZE);
  const timeoutMs = positive('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const dimensions =
    options.dimensions === undefined ? undefined : positive('dimensions', options.dimensions, 0);
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string') {
    throw invalid('"apiKey" must be a string');
  }
  const id =
    options.id ??
    `openai-compatible:${endpoint}:${options.model}${dimensions === undefined ? '' : `:${dimensions}`}`;

  // a server may echo the key in its error text
  const redact = (text: string) =>
    options.apiKey === undefined || options.apiKey === ''
      ? text
      : text.replaceAll(options.apiKey, '<apiKey>');

  const request = async (input: readonly string[], signal: AbortSignal | undefined) => {
    const failed = (problem: string, cause?: unknown) =>
      new ToolcapError(
        'EMBEDDING_REQUEST_FAILED',
        `POST ${endpoint} (model ${options.model}) failed: ${redact(problem)}`,
        cause === undefined ? undefined : { cause },
      );
    const text = await postOpenAICompatible({
      url,
      body: {
        model: options.model,
        input,
        encoding_format: 'float',
        ...(dimensions === undefined ? {} : { dimensions }),
      },
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      timeoutMs,
      ...(signal === undefined ? {} : { signal }),
      failed,
    });
    return readEmbeddings(text, input.length, failed);
  };

  return {
    id,
    async embed(texts, embedOptions = {}) {
      const { signal } = embedOptions;
      signal?.throwIfAborted();
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        vectors.push(...(await request(texts.slice(start, start + batchSize), signal)));
      }
      return vectors;
    },
  };
}

/** The `data[].embedding` arrays of a response, in input order (by `index` when given). */
function readEmbeddings(
  text: string,
  count: number,
  failed: (problem: string) => ToolcapError,
): number[][] {
  const shape = `expected JSON { "data": [{ "index", "embedding": [numbers] }] } with ${count} embeddings`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw failed(`the response is not JSON (${errorExcerpt(text)}); ${shape}`);
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== count) {
    throw failed(
      `the response has ${Array.isArray(data) ? `${data.length} embeddings` : 'no "data" array'}; ${shape}`,
    );
  }
  const vectors: number[][] = new Array(count);
  data.forEach((entry: unknown, position) => {
    const { index, embedding } = (entry ?? {}) as { index?: unknown; embedding?: unknown };
    const slot = typeof index === 'number' ? index : position;
    if (
      !Number.isInteger(slot) ||
      slot < 0 ||
      slot >= count ||
      vectors[slot] !== undefined ||
      !Array.isArray(embedding) ||
      !embedding.every((value) => typeof value === 'number')
    ) {
      throw failed(`embedding ${position} of the response is malformed; ${shape}`);
    }
    vectors[slot] = embedding as number[];
  });
  return vectors;
}
