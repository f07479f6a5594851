import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Embedder } from '../../src/embeddings/embedder.js';
import { createGateway, type GatewayEvent } from '../../src/mcp/gateway/create-gateway.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { createTopicEmbedder } from '../embeddings/topic-embedder.js';
import { connectClient, waitFor } from './gateway-helpers.js';

const meta = {
  executor: 'x',
  requires_context: [],
  cost_estimate: 'low',
  latency_estimate: 'fast',
};
const schema = { type: 'object', properties: {} };
const GROUP = {
  group: 'office',
  version: '1.0.0',
  description: 'Office tools.',
  selection: { strategy: 'keyword', keywords: ['office'] },
  tools: [
    { name: 'create_invoice', description: 'Create an invoice for a customer.' },
    { name: 'book_meeting', description: 'Book a meeting on the calendar.' },
    { name: 'rain_forecast', description: 'The weather forecast for a city.' },
  ].map((tool) => ({ ...tool, category: 'mutation', input_schema: schema, metadata: meta })),
} as const;

/** find_tools through a session of a gateway over `embedder`'s registry, in `search` mode. */
async function findTools(embedder: Embedder, query: string) {
  const events: GatewayEvent[] = [];
  const registry = createRegistry({ semantic: { embedder, cacheDir: false } }).register(GROUP);
  const gateway = await createGateway({
    registry,
    expose: 'search',
    onEvent: (event) => events.push(event),
  });
  try {
    const { client } = await connectClient(gateway);
    const result = await client.callTool({ name: 'find_tools', arguments: { query } });
    await client.close();
    const found = (result.structuredContent as { tools: { name: string }[] }).tools;
    return { names: found.map((tool) => tool.name), events };
  } finally {
    await gateway.close();
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('find_tools with a semantic scorer', () => {
  it('finds a tool by meaning when the query shares no word with it', async () => {
    // "fees" and "pay" are money words; no tool text contains them
    const lexical = createRegistry().register(GROUP).search('pay the fees', { k: 3 });
    expect(lexical).toEqual([]);
    const { names, events } = await findTools(createTopicEmbedder(), 'pay the fees');
    expect(names[0]).toBe('create_invoice');
    expect(events.filter((event) => event.type === 'semantic-failed')).toEqual([]);
  });

  it('embeds the catalog when it is built, before any search, in the modes that search', async () => {
    for (const expose of ['search', 'all'] as const) {
      const embedder = createTopicEmbedder();
      const registry = createRegistry({ semantic: { embedder, cacheDir: false } }).register(GROUP);
      const gateway = await createGateway({ registry, expose });
      try {
        if (expose === 'search') {
          // the tools' texts, with no find_tools call
          await waitFor(
            () => embedder.calls.flat().some((text) => text.includes('Create an invoice')),
            5_000,
          );
        } else {
          // without find_tools nothing is ever searched: nothing is embedded
          await new Promise((resolve) => setTimeout(resolve, 50));
          expect(embedder.calls).toEqual([]);
        }
      } finally {
        await gateway.close();
      }
    }
  });

  it('after a failure, answers by words alone for 30 s before it asks the embedder again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let calls = 0;
    const broken: Embedder = {
      id: 'broken',
      embed: async () => {
        calls++;
        throw new Error('embedding server down');
      },
    };
    const registry = createRegistry({ semantic: { embedder: broken, cacheDir: false } }).register(
      GROUP,
    );
    const events: GatewayEvent[] = [];
    const gateway = await createGateway({
      registry,
      expose: 'search',
      onEvent: (event) => events.push(event),
    });
    try {
      // the warm-up fails once
      await waitFor(() => events.some((event) => event.type === 'semantic-failed'), 5_000);
      expect(calls).toBe(1);
      const { client } = await connectClient(gateway);
      const find = async () =>
        (
          (await client.callTool({ name: 'find_tools', arguments: { query: 'book a meeting' } }))
            .structuredContent as { tools: { name: string }[] }
        ).tools.map((tool) => tool.name);
      expect((await find())[0]).toBe('book_meeting');
      expect(calls).toBe(1);
      vi.setSystemTime(Date.now() + 30_001);
      expect((await find())[0]).toBe('book_meeting');
      expect(calls).toBe(2);
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it('answers by words alone when the embedder fails, and reports why', async () => {
    const broken: Embedder = {
      id: 'broken',
      embed: async () => {
        throw new Error('embedding server at http://127.0.0.1:9/v1 refused the connection');
      },
    };
    const { names, events } = await findTools(broken, 'book a meeting');
    expect(names[0]).toBe('book_meeting');
    expect(events).toContainEqual({
      type: 'semantic-failed',
      message: 'embedding server at http://127.0.0.1:9/v1 refused the connection',
    });
  });
});
