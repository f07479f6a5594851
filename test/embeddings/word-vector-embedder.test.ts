import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dotProduct, normalizeVector } from '../../src/embeddings/vector-math.js';
import { createWordVectorEmbedder } from '../../src/embeddings/word-vector-embedder.js';
import { commonness } from '../../src/text/lexicon.js';
import { getDefaultTextAnalyzer } from '../../src/text/text-analyzer.js';

const dir = mkdtempSync(join(tmpdir(), 'toolcap-word-embedder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// a small vectors file: money words on axis 0, weather on axis 1, "get" and "the" elsewhere
const VECTORS = [
  'the 0 0 1',
  'get 0 0 1',
  'invoice 1 0 0',
  'bill 0.9 0.1 0',
  'weather 0 1 0',
  'agenda 0 0.5 0.5',
].join('\n');
const file = join(dir, 'small.txt');
writeFileSync(file, `${VECTORS}\n`);

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  dotProduct(normalizeVector(a), normalizeVector(b));

describe('createWordVectorEmbedder', () => {
  it('embeds a text as the weighted sum of its words, stopwords left out', async () => {
    const embedder = createWordVectorEmbedder({ file });
    const [invoice, bill, weather, withStopwords] = await embedder.embed([
      'invoice',
      'pay my bill',
      'weather',
      'the invoice',
    ]);
    expect(cosine(invoice!, bill!)).toBeGreaterThan(0.9);
    expect(cosine(invoice!, weather!)).toBe(0);
    // "the" is a stopword: it adds nothing
    expect(Array.from(withStopwords!)).toEqual(Array.from(invoice!));
  });

  it('weighs a common word down by its commonness in English', async () => {
    const embedder = createWordVectorEmbedder({ file });
    const [mixed] = await embedder.embed(['get invoice']);
    const getWeight = 1 - 0.6 * commonness(getDefaultTextAnalyzer().stem('get'));
    expect(getWeight).toBeLessThan(0.8);
    expect(mixed![0]).toBeCloseTo(1, 6);
    expect(mixed![2]).toBeCloseTo(getWeight, 6);
  });

  it('finds a compound through its parts, and gives unknown text a zero vector', async () => {
    const embedder = createWordVectorEmbedder({ file });
    const [compound, unknown, empty] = await embedder.embed(['getAgenda', 'zzqx', '']);
    expect(compound![1]).toBeGreaterThan(0);
    expect(Array.from(unknown!)).toEqual([0, 0, 0]);
    expect(Array.from(empty!)).toEqual([0, 0, 0]);
  });

  it('names the file, its size and the weighting in its id', () => {
    expect(createWordVectorEmbedder({ file }).id).toBe(
      `word-vectors:small.txt:${VECTORS.length + 1}:commonness-0.6`,
    );
    expect(createWordVectorEmbedder({ file, id: 'mine' }).id).toBe('mine');
  });

  it('loads the main file of an installed package', async () => {
    const project = join(dir, 'project');
    const packageDir = join(project, 'node_modules', 'fake-vectors');
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(join(packageDir, 'package.json'), '{"name":"fake-vectors","main":"v.json"}');
    writeFileSync(join(packageDir, 'v.json'), '{"dimensions":2,"vectors":{"invoice":[1,0,7]}}');
    const embedder = createWordVectorEmbedder({ package: 'fake-vectors', cwd: project });
    expect(embedder.id).toMatch(/^word-vectors:v\.json:/);
    const [vector] = await embedder.embed(['invoice']);
    expect(Array.from(vector!)).toEqual([1, 0]);
  });

  it('explains a missing package, file or option', () => {
    expect(() => createWordVectorEmbedder({ package: 'no-such-vectors', cwd: dir })).toThrow(
      'package "no-such-vectors" is not installed',
    );
    expect(() => createWordVectorEmbedder({ file: join(dir, 'nope.txt') })).toThrow(
      'cannot be read',
    );
    expect(() => createWordVectorEmbedder({ file: dir })).toThrow(
      `word-vector file ${dir} cannot be read (it is not a file)`,
    );
    expect(() => createWordVectorEmbedder({})).toThrow(
      'pass exactly one of { builtin: true }, { file',
    );
    expect(() => createWordVectorEmbedder({ file, package: 'x' })).toThrow('exactly one of');
  });

  it('rejects a bad file on embed, and tries again on the next call', async () => {
    const broken = join(dir, 'broken.txt');
    writeFileSync(broken, 'alpha 1 2\nbeta x 2\n');
    const embedder = createWordVectorEmbedder({ file: broken, id: 'broken' });
    await expect(embedder.embed(['alpha'])).rejects.toThrow('line 2');
    writeFileSync(broken, 'alpha 1 2\nbeta 3 2\n');
    const [vector] = await embedder.embed(['alpha']);
    expect(vector![1]! / vector![0]!).toBeCloseTo(2, 6);
  });

  it('rejects with the reason of an aborted signal', async () => {
    const embedder = createWordVectorEmbedder({ file });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(embedder.embed(['invoice'], { signal: controller.signal })).rejects.toThrow(
      'stop',
    );
  });
});
