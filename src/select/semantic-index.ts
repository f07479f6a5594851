import { checkVectors } from '../embeddings/embed-with-cache.js';
import type { Embedder } from '../embeddings/embedder.js';
import { dotProduct, normalizeVector } from '../embeddings/vector-math.js';
import { ToolcapError } from '../errors/toolcap-error.js';
import type { RegisteredTool } from '../format/types.js';
import { describeValue } from '../util/check-options.js';
import { semanticScore } from './fuse-scores.js';

/**
 * Texts about things tools rarely do, across many topics. A tool's floor is its mean cosine
 * with them: what its similarity to an unrelated message looks like for this embedder. Many
 * topics, so that a tool about one of them (weather, recipes) moves its floor only a little.
 */
export const SEMANTIC_BACKGROUND: readonly string[] = Object.freeze([
  'Who painted the ceiling of the Sistine Chapel?',
  'Why do cats purr when they are happy?',
  'What caused the fall of the Roman Empire?',
  'How many moons does Jupiter have?',
  'Which river is the longest in Africa?',
  'Explain the rules of cricket in simple terms.',
  'What is the difference between a violin and a viola?',
  'How do bees make honey?',
  'Write a short poem about the autumn rain.',
  'What did Plato believe about justice?',
  'When were the first Olympic Games held?',
  'How do I grow tomatoes on a balcony?',
  'Which ingredients go into a classic lasagna?',
  'What is the plot of Pride and Prejudice?',
  'Why is the sky blue?',
  'Who was the first woman to win a Nobel Prize?',
  'How does a volcano erupt?',
  'What are the main styles of Gothic architecture?',
  'Tell me a story about a dragon and a knight.',
  'What language is spoken in Brazil?',
  'How long do elephants live?',
  'What is the meaning of the word serendipity?',
  'Which chess opening is best for beginners?',
  'How were the pyramids of Giza built?',
  'Why do leaves change color in the fall?',
  'What instruments are in a symphony orchestra?',
  'Who wrote the Odyssey?',
  'How do birds know where to migrate?',
  'What is the tallest building in the world?',
  'Describe the taste of a ripe mango.',
  'Which dinosaurs lived in the Jurassic period?',
  'How do you knit a scarf?',
]);

/** Longest text embedded for one tool (embedding APIs limit their input). */
const MAX_SEMANTIC_TEXT = 4_000;
/** Query texts whose vectors are kept, so history messages are embedded once. */
const QUERY_CACHE_LIMIT = 256;

/**
 * The text embedded for a tool: its name, title, description, tags and example requests,
 * cut at a word boundary near 4,000 characters.
 */
export function semanticText(tool: RegisteredTool): string {
  const text = [
    tool.name,
    tool.title ?? '',
    tool.description,
    (tool.tags ?? []).join(', '),
    ...(tool.example_requests ?? []),
  ]
    .filter((part) => part !== '')
    .join('. ');
  if (text.length <= MAX_SEMANTIC_TEXT) return text;
  const cut = text.lastIndexOf(' ', MAX_SEMANTIC_TEXT);
  return text.slice(0, cut > 0 ? cut : MAX_SEMANTIC_TEXT);
}

/**
 * The semantic side of one registry snapshot: each tool's unit vector and floor (see
 * `SEMANTIC_BACKGROUND`), the embedder for query texts, and a small cache of query vectors.
 * Built by `prepareSemanticIndex`; read-only afterwards except for that cache.
 */
export class SemanticIndex {
  readonly embedder: Embedder;
  readonly dimensions: number;
  readonly size: number;
  /** Unit tool vectors, tool `t` at `[t·d, (t + 1)·d)`. */
  readonly #vectors: Float32Array;
  readonly #floors: Float64Array;
  readonly #queries = new Map<string, Float32Array>();

  /**
   * From the embedder's raw vectors of every tool (catalog order) and of `SEMANTIC_BACKGROUND`.
   */
  constructor(
    embedder: Embedder,
    toolVectors: readonly ArrayLike<number>[],
    backgroundVectors: readonly ArrayLike<number>[],
  ) {
    this.embedder = embedder;
    this.size = toolVectors.length;
    this.dimensions = backgroundVectors[0]?.length ?? toolVectors[0]?.length ?? 0;
    const background = backgroundVectors.map(normalizeVector);
    this.#vectors = new Float32Array(this.size * this.dimensions);
    this.#floors = new Float64Array(this.size);
    toolVectors.forEach((raw, tool) => {
      const unit = normalizeVector(raw);
      this.#vectors.set(unit, tool * this.dimensions);
      this.#floors[tool] = meanCosine(unit, background);
    });
  }

  /**
   * The semantic scores of one turn whose query vector is `queryVector` (any length-`d` list
   * of finite numbers; normalized here). Throws `INVALID_SELECT_OPTION` (or `code`) when its
   * length is not the embedder's.
   */
  turn(queryVector: unknown, weight: number, code = 'INVALID_SELECT_OPTION'): SemanticTurn {
    const length = (queryVector as { length?: unknown } | null)?.length;
    let got: string | undefined;
    if (queryVector === null || typeof queryVector !== 'object' || length !== this.dimensions) {
      got = `${describeValue(queryVector)}${typeof length === 'number' && !Array.isArray(queryVector) ? ` of ${length}` : ''}`;
    } else {
      const values = Array.from(queryVector as ArrayLike<unknown>);
      const bad = values.findIndex((value) => typeof value !== 'number' || !Number.isFinite(value));
      if (bad >= 0) got = `${String(values[bad])} at index ${bad}`;
    }
    if (got !== undefined) {
      throw new ToolcapError(
        code,
        `${code === 'INVALID_SEARCH_OPTION' ? 'search' : 'select'}: queryVector must be ${this.dimensions} finite numbers (a vector of embedder "${this.embedder.id}"), got ${got}; embed the message with the registry's embedder`,
      );
    }
    return new SemanticTurn(this, normalizeVector(queryVector as ArrayLike<number>), weight);
  }

  /** The cosine of unit vector `query` with tool `tool`'s. */
  cosine(query: Float32Array, tool: number): number {
    return dotProduct(query, this.#vectors, tool * this.dimensions);
  }

  /** Tool `tool`'s floor. */
  floor(tool: number): number {
    return this.#floors[tool]!;
  }

  /**
   * Raw vectors of query texts (an empty text gets a zero vector without a call), through a
   * cache of the last 256 texts: a conversation's history is embedded once.
   */
  async embedQueries(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const missing = [
      ...new Set(texts.filter((text) => text.trim() !== '' && !this.#queries.has(text))),
    ];
    if (missing.length > 0) {
      const output = await this.embedder.embed(missing, signal === undefined ? {} : { signal });
      const { vectors, dimensions } = checkVectors(this.embedder.id, missing.length, output);
      if (dimensions !== this.dimensions) {
        throw new ToolcapError(
          'EMBEDDING_INVALID',
          `embedder "${this.embedder.id}" made a ${dimensions}-dimensional query vector, but its tool vectors have ${this.dimensions}; give the embedder a new id when its vectors change`,
        );
      }
      missing.forEach((text, position) => {
        if (this.#queries.size >= QUERY_CACHE_LIMIT) {
          this.#queries.delete(this.#queries.keys().next().value!);
        }
        this.#queries.set(text, vectors[position]!);
      });
    }
    return texts.map((text) => {
      const vector = this.#queries.get(text);
      if (vector === undefined) return new Float32Array(this.dimensions);
      // most recently used last, so the oldest is dropped first
      this.#queries.delete(text);
      this.#queries.set(text, vector);
      return vector;
    });
  }
}

/**
 * The semantic scores of one turn: each tool's `semanticScore`, computed when first asked
 * (a turn without fallback asks only for its candidates).
 */
export class SemanticTurn {
  readonly weight: number;
  readonly #index: SemanticIndex;
  readonly #query: Float32Array;
  readonly #scores: Float64Array;
  readonly #zero: boolean;

  constructor(index: SemanticIndex, query: Float32Array, weight: number) {
    this.#index = index;
    this.#query = query;
    this.weight = weight;
    this.#scores = new Float64Array(index.size).fill(Number.NaN);
    this.#zero = query.every((value) => value === 0);
  }

  /** Tool `tool`'s semantic score, 0-1. */
  score(tool: number): number {
    if (this.#zero) return 0;
    let score = this.#scores[tool]!;
    if (Number.isNaN(score)) {
      score = semanticScore(this.#index.cosine(this.#query, tool), this.#index.floor(tool));
      this.#scores[tool] = score;
    }
    return score;
  }
}

/** The mean cosine of unit vector `unit` with each of the unit vectors `others`, in order. */
export function meanCosine(unit: Float32Array, others: readonly Float32Array[]): number {
  if (others.length === 0) return 0;
  let sum = 0;
  for (const other of others) sum += dotProduct(unit, other);
  return sum / others.length;
}
