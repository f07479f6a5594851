import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embedWithCache } from '../../src/embeddings/embed-with-cache.js';
import type { Embedder } from '../../src/embeddings/embedder.js';
import {
  embeddingCacheFile,
  hashText,
  MAX_CACHED_VECTORS,
} from '../../src/embeddings/embedding-cache.js';
import { createTopicEmbedder, TOPIC_DIMENSIONS } from './topic-embedder.js';

const root = mkdtempSync(join(tmpdir(), 'toolcap-embedding-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let count = 0;
const freshDir = () => join(root, `cache-${count++}`);

describe('embedWithCache', () => {
  it('embeds each distinct text once and reuses the cache file afterwards', async () => {
    const cacheDir = freshDir();
    const embedder = createTopicEmbedder();
    const first = await embedWithCache(embedder, ['pay the bill', 'rain', 'pay the bill'], {
      cacheDir,
    });
    expect(embedder.calls).toEqual([['pay the bill', 'rain']]);
    expect(first).toMatchObject({
      computed: 2,
      cached: 0,
      dimensions: TOPIC_DIMENSIONS,
      warnings: [],
    });
    expect(first.vectors[0]).toEqual(first.vectors[2]);
    expect(first.file).toBe(embeddingCacheFile(cacheDir, embedder.id));

    const again = createTopicEmbedder();
    const second = await embedWithCache(again, ['rain', 'pay the bill', 'new text'], { cacheDir });
    expect(again.calls).toEqual([['new text']]);
    expect(second).toMatchObject({ computed: 1, cached: 2 });
    expect(second.vectors[0]).toEqual(first.vectors[1]);
    // written atomically: no temporary file is left beside it
    expect(readdirSync(cacheDir)).toEqual([
      embeddingCacheFile(cacheDir, embedder.id).split('/').pop(),
    ]);
  });

  it('keys the file by the embedder id and the entries by a hash of the text', async () => {
    const cacheDir = freshDir();
    await embedWithCache(createTopicEmbedder('model-a'), ['bill'], { cacheDir });
    const other = createTopicEmbedder('model-b');
    await embedWithCache(other, ['bill'], { cacheDir });
    expect(other.calls).toEqual([['bill']]);
    expect(readdirSync(cacheDir)).toHaveLength(2);
    const file = JSON.parse(readFileSync(embeddingCacheFile(cacheDir, 'model-a'), 'utf8'));
    expect(file).toMatchObject({ embedder: 'model-a', dimensions: TOPIC_DIMENSIONS });
    expect(Object.keys(file.vectors)).toEqual([hashText('bill')]);
  });

  it('ignores a corrupt cache file with a warning, recomputes and rewrites it', async () => {
    const cacheDir = freshDir();
    const embedder = createTopicEmbedder();
    await embedWithCache(embedder, ['bill'], { cacheDir });
    const file = embeddingCacheFile(cacheDir, embedder.id);
    for (const [content, problem] of [
      ['{"format": "toolcap-embedding-cache", "vec', 'it is not valid JSON'],
      ['[]', 'it is not a toolcap embedding cache'],
      [
        JSON.stringify({
          format: 'toolcap-embedding-cache',
          version: 1,
          embedder: 'other',
          dimensions: TOPIC_DIMENSIONS,
          vectors: {},
        }),
        'it holds vectors of embedder "other", not "topic-test"',
      ],
      [
        JSON.stringify({
          format: 'toolcap-embedding-cache',
          version: 1,
          embedder: 'topic-test',
          dimensions: TOPIC_DIMENSIONS,
          vectors: { [hashText('bill')]: 'AAAA' },
        }),
        `is not ${TOPIC_DIMENSIONS} base64 float32 numbers`,
      ],
      [JSON.stringify({ format: 'toolcap-embedding-cache', version: 2 }), 'its version 2 is not 1'],
      [
        JSON.stringify({
          format: 'toolcap-embedding-cache',
          version: 1,
          embedder: 'topic-test',
          dimensions: 0,
        }),
        '"dimensions" must be a positive integer, got 0',
      ],
      [
        JSON.stringify({
          format: 'toolcap-embedding-cache',
          version: 1,
          embedder: 'topic-test',
          dimensions: 3,
          vectors: [],
        }),
        '"vectors" must be an object of base64 vectors by text hash',
      ],
    ] as const) {
      writeFileSync(file, content);
      const again = createTopicEmbedder();
      const result = await embedWithCache(again, ['bill'], { cacheDir });
      expect(result.warnings).toHaveLength(1);
      expect(result.warnings[0]).toMatchObject({ code: 'EMBEDDING_CACHE_IGNORED' });
      expect(result.warnings[0]!.message).toContain(`embedding cache ${file} is ignored`);
      expect(result.warnings[0]!.message).toContain(problem);
      expect(again.calls).toEqual([['bill']]);
      // rewritten: the next run reads it without a warning
      const third = await embedWithCache(createTopicEmbedder(), ['bill'], { cacheDir });
      expect(third).toMatchObject({ cached: 1, computed: 0, warnings: [] });
    }
  });

  it('warns, never throws, when the cache cannot be written', async () => {
    const blocker = join(root, 'a-file');
    writeFileSync(blocker, 'not a directory');
    const result = await embedWithCache(createTopicEmbedder(), ['bill'], {
      cacheDir: join(blocker, 'cache'),
    });
    expect(result.vectors).toHaveLength(1);
    expect(result.warnings).toEqual([
      expect.objectContaining({
        code: 'EMBEDDING_CACHE_NOT_SAVED',
        message: expect.stringContaining('could not be written'),
      }),
    ]);
  });

  it('ignores a cache path it cannot read as a file, and says it could not save', async () => {
    const cacheDir = freshDir();
    const embedder = createTopicEmbedder();
    mkdirSync(embeddingCacheFile(cacheDir, embedder.id), { recursive: true });
    const result = await embedWithCache(embedder, ['bill'], { cacheDir });
    expect(result.vectors).toHaveLength(1);
    expect(result.warnings.map((warning) => warning.code)).toEqual([
      'EMBEDDING_CACHE_IGNORED',
      'EMBEDDING_CACHE_NOT_SAVED',
    ]);
    expect(result.warnings[0]!.message).toContain('it cannot be read');
  });

  it('keeps vectors in memory only without a cache directory', async () => {
    const embedder = createTopicEmbedder();
    const result = await embedWithCache(embedder, ['bill'], {});
    expect(result).toMatchObject({ file: undefined, computed: 1, warnings: [] });
  });

  it('keeps older entries after those in use, up to the cap', async () => {
    const cacheDir = freshDir();
    await embedWithCache(createTopicEmbedder(), ['old one', 'old two'], { cacheDir });
    await embedWithCache(createTopicEmbedder(), ['new one'], { cacheDir });
    const file = JSON.parse(readFileSync(embeddingCacheFile(cacheDir, 'topic-test'), 'utf8'));
    expect(Object.keys(file.vectors)).toEqual(
      ['new one', 'old one', 'old two'].map((text) => hashText(text)),
    );
    expect(MAX_CACHED_VECTORS).toBe(100_000);
  });

  it('checks what the embedder returns', async () => {
    const returning = (output: unknown): Embedder => ({
      id: 'broken',
      embed: async () => output as number[][],
    });
    await expect(embedWithCache(returning([[1]]), ['a', 'b'])).rejects.toThrow(
      'embedder "broken" returned 1 vectors for 2 texts; it must return one per text',
    );
    await expect(embedWithCache(returning([[1, 2], [1]]), ['a', 'b'])).rejects.toThrow(
      'returned vectors of 2 and 1 numbers',
    );
    await expect(embedWithCache(returning([[1, Number.NaN]]), ['a'])).rejects.toThrow(
      'not a finite number',
    );
    await expect(embedWithCache(returning('nope'), ['a'])).rejects.toMatchObject({
      code: 'EMBEDDING_INVALID',
    });
    await expect(embedWithCache(returning([{}]), ['a'])).rejects.toThrow(
      'expected an array of numbers',
    );
  });
});
