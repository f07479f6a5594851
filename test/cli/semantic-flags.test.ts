import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const BIN = join(import.meta.dirname, '../../dist/cli/toolcap.mjs');

// two servers' worth of tools; "ethereum" and "fees" appear in no tool's text
const GROUPS = {
  'schemas/crypto_tools.json': makeGroup('crypto', {
    selection: { strategy: 'keyword', keywords: ['bitcoin'] },
    tools: [
      makeTool({ name: 'coin_prices', description: 'Cryptocurrency prices and transactions.' }),
    ],
  }),
  'schemas/weather_tools.json': makeGroup('weather', {
    selection: { strategy: 'keyword', keywords: ['forecast'] },
    tools: [makeTool({ name: 'get_forecast', description: 'Rain and sun for a city.' })],
  }),
};
// money words on axis 0, weather words on axis 1
const VECTORS = [
  'ethereum 1 0',
  'fees 0.9 0.1',
  'cryptocurrency 1 0',
  'prices 0.8 0.2',
  'transactions 0.9 0',
  'rain 0 1',
  'sun 0 1',
  'city 0.1 0.9',
].join('\n');

/** What the embeddings server received, one entry per request. */
const received: { authorization: string | undefined; model: string; input: string[] }[] = [];
let failing = false;
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    received.push({ authorization: request.headers.authorization, ...body });
    if (failing) {
      response.writeHead(503, { 'content-type': 'text/plain' });
      response.end('model is loading');
      return;
    }
    // money texts point along axis 0, the rest along axis 1
    const vector = (text: string) => (/ethereum|fee|crypto|coin/i.test(text) ? [1, 0] : [0, 1]);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        data: body.input.map((text: string, index: number) => ({
          index,
          embedding: vector(text),
        })),
      }),
    );
  });
});
let baseURL = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('semantic flags of toolcap search and select', () => {
  it('--vectors FILE fuses word vectors: a query sharing no word finds its tool', async () => {
    const cwd = createTempDir({ ...GROUPS, 'vectors.txt': `${VECTORS}\n` });
    const lexical = await runCli(['search', '--json', 'ethereum fees'], { cwd });
    expect(lexical.json()).toEqual({ results: [] });
    const semantic = await runCli(
      [
        'search',
        '--vectors',
        'vectors.txt',
        '--embeddings-cache',
        'none',
        '--json',
        'ethereum fees',
      ],
      { cwd },
    );
    expect(semantic.code).toBe(0);
    const { results } = semantic.json() as { results: { name: string; score: number }[] };
    expect(results[0]!.name).toBe('coin_prices');
    expect(results[0]!.score).toBeGreaterThan(0);
    const forecast = results.find((result) => result.name === 'get_forecast');
    expect(forecast === undefined || forecast.score < results[0]!.score / 2).toBe(true);
    // "none" wrote no cache; the default writes one under the working directory
    expect(existsSync(join(cwd, '.toolcap'))).toBe(false);
    await runCli(['search', '--vectors', 'vectors.txt', 'ethereum fees'], { cwd });
    expect(existsSync(join(cwd, '.toolcap/cache/embeddings'))).toBe(true);
  });

  it('--vectors builtin uses the vectors that ship with the library', async () => {
    const cwd = createTempDir(GROUPS);
    const query = 'how much money did I spend';
    expect((await runCli(['search', '--json', query], { cwd })).json()).toEqual({ results: [] });
    const result = await runCli(
      ['search', '--vectors', 'builtin', '--embeddings-cache', 'none', '--json', query],
      { cwd },
    );
    expect(result.code).toBe(0);
    const { results } = result.json() as { results: { name: string }[] };
    expect(results[0]!.name).toBe('coin_prices');
  });

  it('select --fallback with --vectors offers the tool no keyword names', async () => {
    const cwd = createTempDir({ ...GROUPS, 'vectors.txt': `${VECTORS}\n` });
    const args = ['select', '--fallback', '1', '--embeddings-cache', 'none', '--json'];
    const plain = await runCli(['select', '--fallback', '1', '--json', 'ethereum fees'], { cwd });
    expect((plain.json() as { tools: unknown[] }).tools).toEqual([]);
    const result = await runCli([...args, '--vectors', 'vectors.txt', 'ethereum fees'], { cwd });
    expect(result.code).toBe(0);
    const { tools } = result.json() as { tools: { name: string; reason: { strategy: string } }[] };
    expect(tools.map((tool) => [tool.name, tool.reason.strategy])).toEqual([
      ['coin_prices', 'fallback'],
    ]);
  });

  it('--embeddings-url asks an OpenAI-compatible server, with the key from the environment', async () => {
    const cwd = createTempDir(GROUPS);
    received.length = 0;
    const result = await runCli(
      [
        'search',
        '--embeddings-url',
        baseURL,
        '--embeddings-model',
        'tiny-embed',
        '--semantic-weight',
        '0.5',
        '--embeddings-cache',
        'none',
        '--json',
        'ethereum fees',
      ],
      { cwd, env: { TOOLCAP_EMBEDDINGS_API_KEY: 'secret-key' } },
    );
    expect(result.code).toBe(0);
    const { results } = result.json() as { results: { name: string; score: number }[] };
    expect(results[0]!.name).toBe('coin_prices');
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((request) => request.model === 'tiny-embed')).toBe(true);
    expect(received[0]!.authorization).toBe('Bearer secret-key');
    expect(received.flatMap((request) => request.input)).toContain('ethereum fees');
  });

  it('an embeddings server that fails is an error naming the endpoint and status', async () => {
    const cwd = createTempDir(GROUPS);
    failing = true;
    try {
      const result = await runCli(
        ['search', '--embeddings-url', baseURL, '--embeddings-model', 'm', '--json', 'fees'],
        { cwd },
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`${baseURL}/embeddings`);
      expect(result.stderr).toContain('503');
    } finally {
      failing = false;
    }
  });

  it('toolcap mcp --expose search --vectors FILE: find_tools ranks by meaning too', async () => {
    const cwd = createTempDir({ ...GROUPS, 'vectors.txt': `${VECTORS}\n` });
    const args = ['mcp', '--expose', 'search', '--embeddings-cache', 'none', '--data-dir', cwd];
    const client = new Client({ name: 'semantic-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, ...args, '--vectors', 'vectors.txt'],
        cwd,
        stderr: 'ignore',
      }),
    );
    try {
      const result = await client.callTool({
        name: 'find_tools',
        arguments: { query: 'ethereum fees' },
      });
      const { tools } = result.structuredContent as { tools: { name: string }[] };
      expect(tools[0]?.name).toBe('coin_prices');
    } finally {
      await client.close();
    }
    const usage = await runCli(['mcp', '--semantic-weight', '0.5'], { cwd });
    expect(usage.code).toBe(2);
    expect(usage.stderr.split('\n')[0]).toBe(
      'toolcap: --semantic-weight needs --vectors or --embeddings-url',
    );
  });

  it('explains flags that are missing, contradictory or out of range', async () => {
    const cwd = createTempDir({ ...GROUPS, 'vectors.txt': `${VECTORS}\n` });
    const usage = async (args: string[]) => {
      const result = await runCli(args, { cwd });
      expect(result.code).toBe(2);
      return result.stderr.split('\n')[0];
    };
    expect(await usage(['search', '--embeddings-url', baseURL, 'fees'])).toBe(
      'toolcap: --embeddings-url needs --embeddings-model M, the model to ask for (e.g. nomic-embed-text)',
    );
    expect(await usage(['search', '--embeddings-model', 'm', 'fees'])).toBe(
      'toolcap: --embeddings-model needs --embeddings-url URL',
    );
    expect(
      await usage([
        'select',
        '--vectors',
        'vectors.txt',
        '--embeddings-url',
        baseURL,
        '--embeddings-model',
        'm',
        'fees',
      ]),
    ).toBe('toolcap: give --vectors or --embeddings-url, not both');
    expect(await usage(['search', '--vectors', 'vectors.txt', '--semantic-weight', '2', 'x'])).toBe(
      'toolcap: --semantic-weight must be a number above 0 and at most 1, got "2"',
    );
    expect(await usage(['select', '--semantic-weight', '0.3', 'x'])).toBe(
      'toolcap: --semantic-weight needs --vectors or --embeddings-url',
    );
    expect(await usage(['search', '--vectors', 'no-such-vectors', 'x'])).toBe(
      'toolcap: --vectors no-such-vectors: no file of that name here, and no installed package "no-such-vectors"; give builtin, the path of a vectors file, or install the package (npm install no-such-vectors)',
    );
    // a path is never looked up as a package
    expect(await usage(['select', '--vectors', '/nonexistent/glove.txt', 'x'])).toBe(
      'toolcap: --vectors /nonexistent/glove.txt: there is no file /nonexistent/glove.txt; give builtin, the path of a vectors file (GloVe text or wink JSON), or the name of an installed package',
    );
  });
});
