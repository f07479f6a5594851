import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/embeddings/embedder.js';
import { combineTurnVectors } from '../../src/select/select-semantic.js';
import { SEMANTIC_BACKGROUND } from '../../src/select/semantic-index.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';
import type { SemanticOptions } from '../../src/toolcap/registry-options.js';
import { createTopicEmbedder, TOPIC_DIMENSIONS } from '../embeddings/topic-embedder.js';
import { group, tool } from './fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'toolcap-semantic-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const GROUPS = [
  group('billing', { strategy: 'keyword', keywords: ['invoice'] }, [
    tool('create_invoice', { description: 'Creates an invoice for a customer.' }),
    tool('list_invoices', { description: 'Lists the invoices of a customer.' }),
  ]),
  group('calendar', { strategy: 'keyword', keywords: ['meeting'] }, [
    tool('schedule_meeting', { description: 'Books a meeting in the calendar.' }),
  ]),
  group('weather', { strategy: 'keyword', keywords: ['weather'] }, [
    tool('get_forecast', { description: 'Tells the weather forecast for a city.' }),
  ]),
];

/** The test groups in a registry with the topic embedder (and no disk cache) unless overridden. */
function registryWith(semantic: Partial<SemanticOptions> = {}): Registry {
  let registry = createRegistry({
    cwd: root,
    semantic: { embedder: createTopicEmbedder(), cacheDir: false, ...semantic },
  });
  for (const definition of GROUPS) registry = registry.register(definition);
  return registry;
}

describe('semantic search', () => {
  it('finds tools that share no word with the query, scoring at most the weight', async () => {
    const registry = registryWith({ weight: 0.4 });
    expect(registry.search('pay the fees')).toEqual([]);
    const results = await registry.searchAsync('pay the fees');
    expect(results.slice(0, 2).map((result) => result.name)).toEqual([
      'create_invoice',
      'list_invoices',
    ]);
    expect(results[0]!.matched).toEqual([]);
    for (const result of results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(0.4);
    }
  });

  it('never scores a tool below its lexical score, and stays within 0-1', async () => {
    const registry = registryWith({ weight: 1 });
    const lexical = new Map(
      registry.search('create an invoice').map((result) => [result.name, result.score]),
    );
    const fused = await registry.searchAsync('create an invoice');
    expect(fused[0]!.name).toBe('create_invoice');
    for (const result of fused) {
      expect(result.score).toBeGreaterThanOrEqual(lexical.get(result.name) ?? 0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
  });

  it('still abstains on a query unrelated to every tool', async () => {
    const registry = registryWith({ weight: 1 });
    const query = 'tell me a story about dragons and knights';
    expect(await registry.searchAsync(query, { minScore: 0.05 })).toEqual([]);
    const selection = await registry.selectAsync(query, { fallback: {} });
    expect(selection.tools).toEqual([]);
    expect(selection.warnings.map((warning) => warning.code)).toEqual(['FALLBACK_ABSTAINED']);
  });

  it('ranks the same whatever k', async () => {
    const registry = registryWith();
    const many = await registry.searchAsync('pay the fees for the meeting', { k: 40 });
    expect(many.length).toBeGreaterThan(2);
    expect(await registry.searchAsync('pay the fees for the meeting', { k: 2 })).toEqual(
      many.slice(0, 2),
    );
  });

  it('gives the sync path with a query vector the same results', async () => {
    const registry = registryWith();
    await registry.prepareSemantic();
    const [vector] = await createTopicEmbedder().embed(['pay the fees']);
    expect(registry.search('pay the fees', { queryVector: vector!, k: 3 })).toEqual(
      await registry.searchAsync('pay the fees', { k: 3 }),
    );
  });
});

describe('semantic selection', () => {
  it('offers fallback tools found by meaning when no keyword matches', async () => {
    const registry = registryWith();
    expect(registry.select('pay the fees', { fallback: { k: 2 } }).names).toEqual([]);
    const selection = await registry.selectAsync('pay the fees', { fallback: { k: 2 } });
    expect(selection.names).toEqual(['create_invoice', 'list_invoices']);
    expect(selection.tools[0]!.reason).toMatchObject({ strategy: 'fallback', matched: [] });
  });

  it('ranks by the fused score with the relevance option', async () => {
    const registry = registryWith();
    expect(registry.select('pay the fees', { relevance: { k: 2 } }).names).toEqual([]);
    const selection = await registry.selectAsync('pay the fees', { relevance: { k: 2 } });
    expect(selection.names).toEqual(['create_invoice', 'list_invoices']);
    expect(selection.tools[0]!.reason).toMatchObject({ strategy: 'relevance', matched: [] });
  });

  it('reports fused 0-1 scores for the tools of matched groups', async () => {
    const registry = registryWith();
    const lexical = registry.select('schedule a meeting about the invoice', { order: 'relevance' });
    const fused = await registry.selectAsync('schedule a meeting about the invoice', {
      order: 'relevance',
    });
    expect(fused.names.toSorted()).toEqual(lexical.names.toSorted());
    for (const selected of fused.tools) {
      const before = lexical.tools.find((entry) => entry.name === selected.name)!.reason.score!;
      expect(selected.reason.score).toBeGreaterThanOrEqual(before);
      expect(selected.reason.score).toBeLessThanOrEqual(1);
    }
  });

  it('embeds the message and the history messages in the window, history counting less', async () => {
    const embedder = createTopicEmbedder();
    const registry = registryWith({ embedder });
    const options = {
      history: ['an old one about rain', 'pay the bill', { message: 'and the fees' }],
      historyWindow: 2,
      fallback: { k: 2 },
    };
    const selection = await registry.selectAsync('what about it', options);
    // the texts of this turn, in one call after the tool vectors: the message, then history
    expect(embedder.calls.at(-1)).toEqual(['what about it', 'pay the bill', 'and the fees']);
    const vectors = await createTopicEmbedder().embed([
      'what about it',
      'pay the bill',
      'and the fees',
    ]);
    const queryVector = combineTurnVectors(vectors[0]!, vectors.slice(1), 0.5);
    expect(registry.select('what about it', { ...options, queryVector })).toEqual(selection);
    expect(selection.names).toEqual(['create_invoice', 'list_invoices']);
  });

  it('embeds a repeated history message once', async () => {
    const embedder = createTopicEmbedder();
    const registry = registryWith({ embedder });
    await registry.selectAsync('pay the bill');
    await registry.selectAsync('and the fees', { history: ['pay the bill'] });
    expect(embedder.calls.slice(1)).toEqual([['pay the bill'], ['and the fees']]);
  });

  it('is plain select without a semantic option', async () => {
    const registry = registryWith();
    let plain = createRegistry();
    for (const definition of GROUPS) plain = plain.register(definition);
    expect(await plain.selectAsync('invoice', { signal: AbortSignal.timeout(60_000) })).toEqual(
      plain.select('invoice'),
    );
    expect(await plain.searchAsync('pay the fees')).toEqual([]);
    // and select without a query vector stays lexical on a semantic registry
    expect(registry.select('invoice meeting', { fallback: {} })).toEqual(
      plain.select('invoice meeting', { fallback: {} }),
    );
  });
});

describe('preparing the semantic scorer', () => {
  it('embeds every tool once per snapshot and reuses the disk cache', async () => {
    const cacheDir = join(root, 'cache');
    const embedder = createTopicEmbedder();
    const registry = registryWith({ embedder, cacheDir });
    const [first, second] = await Promise.all([
      registry.prepareSemantic(),
      registry.prepareSemantic(),
    ]);
    expect(embedder.calls).toHaveLength(1);
    expect(first).toEqual(second);
    expect(first).toMatchObject({
      embedder: 'topic-test',
      tools: 4,
      dimensions: TOPIC_DIMENSIONS,
      computed: 4 + SEMANTIC_BACKGROUND.length,
      cached: 0,
      warnings: [],
    });
    expect(first.cacheFile!.startsWith(cacheDir)).toBe(true);

    const later = createTopicEmbedder();
    const grown = registryWith({ embedder: later, cacheDir }).register(
      group('notes', { strategy: 'keyword', keywords: ['note'] }, [tool('add_note')]),
    );
    expect(await grown.prepareSemantic()).toMatchObject({ computed: 1, cached: 4 + 32 });
    expect(later.calls).toEqual([['add_note. Does add note.']]);
  });

  it('keeps its cache under .toolcap/cache/embeddings of the registry cwd by default', async () => {
    const cwd = join(root, 'project');
    const registry = createRegistry({ cwd, semantic: { embedder: createTopicEmbedder() } });
    const report = await registry.register(GROUPS[0]!).prepareSemantic();
    expect(report.cacheFile!.startsWith(join(cwd, '.toolcap', 'cache', 'embeddings'))).toBe(true);
  });

  it('rejects when the embedder fails, and tries again on the next call', async () => {
    let failures = 1;
    const topics = createTopicEmbedder();
    const flaky: Embedder = {
      id: 'flaky',
      embed: async (texts, options) => {
        if (failures-- > 0) throw new Error('endpoint down');
        return topics.embed(texts, options);
      },
    };
    const registry = registryWith({ embedder: flaky });
    await expect(registry.selectAsync('pay the fees')).rejects.toThrow('endpoint down');
    expect((await registry.selectAsync('pay the fees', { fallback: {} })).names).toContain(
      'create_invoice',
    );
  });

  it("rejects with the signal's reason when aborted", async () => {
    const registry = registryWith();
    await expect(
      registry.searchAsync('pay the fees', { signal: AbortSignal.abort(new Error('cancelled')) }),
    ).rejects.toThrow('cancelled');
  });
});

describe('semantic errors', () => {
  it('explains a query vector the registry cannot use', async () => {
    expect(() => registryWith().select('x', { queryVector: [1, 2] })).toThrow(
      'select: queryVector needs the tool vectors; await registry.prepareSemantic() first',
    );
    expect(() => createRegistry().search('x', { queryVector: [1, 2] })).toThrow(
      'search: queryVector needs a semantic scorer; pass loadRegistry({ semantic: { embedder } })',
    );
    const registry = registryWith();
    await registry.prepareSemantic();
    expect(() => registry.select('x', { queryVector: [1, 2] })).toThrow(
      `select: queryVector must be ${TOPIC_DIMENSIONS} finite numbers (a vector of embedder "topic-test"), got an array of 2`,
    );
    expect(() =>
      registry.search('x', { queryVector: new Array(TOPIC_DIMENSIONS).fill(Number.NaN) }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_SEARCH_OPTION',
        message: `search: queryVector must be ${TOPIC_DIMENSIONS} finite numbers (a vector of embedder "topic-test"), got NaN at index 0; embed the message with the registry's embedder`,
      }),
    );
    await expect(createRegistry().prepareSemantic()).rejects.toMatchObject({
      code: 'SEMANTIC_NOT_CONFIGURED',
    });
  });

  it('rejects query vectors of another length than the tool vectors', async () => {
    const topics = createTopicEmbedder();
    let calls = 0;
    const shifting: Embedder = {
      id: 'shifting',
      embed: async (texts) => {
        const vectors = await topics.embed(texts);
        return calls++ === 0 ? vectors : vectors.map((vector) => [...Array.from(vector), 0]);
      },
    };
    const registry = registryWith({ embedder: shifting });
    await registry.prepareSemantic();
    await expect(registry.searchAsync('pay the fees')).rejects.toThrow(
      `embedder "shifting" made a ${TOPIC_DIMENSIONS + 1}-dimensional query vector, but its tool vectors have ${TOPIC_DIMENSIONS}`,
    );
  });

  it('checks options before preparing or embedding anything', async () => {
    const embedder = createTopicEmbedder();
    const registry = registryWith({ embedder });
    await expect(registry.selectAsync('x', { maxTools: 0 })).rejects.toThrow(
      'maxTools must be a positive integer',
    );
    await expect(registry.searchAsync('x', { k: -1 })).rejects.toThrow(
      'k must be a positive integer',
    );
    await expect(
      registry.selectAsync('x', { signal: 'soon' as unknown as AbortSignal }),
    ).rejects.toThrow('selectAsync: signal must be an AbortSignal');
    await expect(registry.searchAsync('x', { signal: {} as AbortSignal })).rejects.toThrow(
      'searchAsync: signal must be an AbortSignal',
    );
    expect(embedder.calls).toEqual([]);
  });

  it('checks the semantic registry option', () => {
    const embedder = createTopicEmbedder();
    const create = (semantic: unknown) => createRegistry({ semantic: semantic as SemanticOptions });
    expect(() => create({ embedder, weight: 2 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message:
          'createRegistry: option "semantic" has weight 2; weight must be a number above 0 and at most 1',
      }),
    );
    expect(() => create({ embedder, cacheDir: '' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message:
          'createRegistry: option "semantic" has cacheDir ""; cacheDir must be a directory path or false',
      }),
    );
    expect(() => create({ embedder: { id: 'x' } })).toThrow(
      'createRegistry: option "semantic" must be { embedder, weight?, cacheDir? } with embedder an object with a string id and an embed(texts) method',
    );
    expect(() => create({ embedder, wieght: 0.2 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message:
          'createRegistry: option "semantic" has the member "wieght", which is not one of embedder, weight, cacheDir',
      }),
    );
    expect(() => create({ embedder, weight: 0.5, cacheDir: false })).not.toThrow();
  });
});
