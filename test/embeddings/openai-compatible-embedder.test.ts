import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleEmbedder } from '../../src/embeddings/openai-compatible-embedder.js';

/** What the test server received: one entry per request. */
interface Received {
  path: string;
  authorization: string | undefined;
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number };
}

let received: Received[] = [];
let respond: (request: Received, response: ServerResponse) => void;

// one local server for the file, speaking OpenAI's /v1/embeddings; closed after the tests
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const entry: Received = {
      path: request.url ?? '',
      authorization: request.headers.authorization,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
    };
    received.push(entry);
    respond(entry, response);
  });
});
let baseURL = '';

/** The OpenAI answer: a vector [length of text, index] per input. */
function answer(request: Received, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      object: 'list',
      data: request.body.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: [text.length, index],
      })),
      model: request.body.model,
    }),
  );
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received = [];
  respond = answer;
});

describe('createOpenAICompatibleEmbedder', () => {
  it('posts the texts in batches to <baseURL>/embeddings and returns the vectors in order', async () => {
    const embedder = createOpenAICompatibleEmbedder({
      baseURL: `${baseURL}/`,
      model: 'nomic-embed-text',
      apiKey: 'sk-test-secret',
      batchSize: 2,
      dimensions: 2,
    });
    const vectors = await embedder.embed(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    expect(vectors).toEqual([
      [1, 0],
      [2, 1],
      [3, 0],
      [4, 1],
      [5, 0],
    ]);
    expect(received.map((entry) => entry.body.input)).toEqual([
      ['a', 'bb'],
      ['ccc', 'dddd'],
      ['eeeee'],
    ]);
    expect(received[0]).toMatchObject({
      path: '/v1/embeddings',
      authorization: 'Bearer sk-test-secret',
      body: { model: 'nomic-embed-text', encoding_format: 'float', dimensions: 2 },
    });
  });

  it('sends no key when there is none, and orders the data by index', async () => {
    respond = (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const data = request.body.input.map((text, index) => ({ index, embedding: [text.length] }));
      response.end(JSON.stringify({ data: data.reverse() }));
    };
    const embedder = createOpenAICompatibleEmbedder({
      baseURL: `${baseURL}?api-version=1`,
      model: 'm',
    });
    expect(await embedder.embed(['a', 'bbb'])).toEqual([[1], [3]]);
    expect(received[0]!.path).toBe('/v1/embeddings?api-version=1');
    expect(received[0]!.authorization).toBeUndefined();
    expect(received[0]!.body.dimensions).toBeUndefined();
  });

  it('names the endpoint and model in its id, never the key', () => {
    const embedder = createOpenAICompatibleEmbedder({
      baseURL: `${baseURL}?key=secret`,
      model: 'text-embedding-3-small',
      apiKey: 'sk-test-secret',
      dimensions: 256,
    });
    expect(embedder.id).toBe(`openai-compatible:${baseURL}/embeddings:text-embedding-3-small:256`);
  });

  it('reports an HTTP error with the endpoint, the status and the server message, not the key', async () => {
    respond = (_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: 'Incorrect API key provided: sk-test-secret' } }),
      );
    };
    const embedder = createOpenAICompatibleEmbedder({
      baseURL,
      model: 'm',
      apiKey: 'sk-test-secret',
    });
    const error = await embedder.embed(['a']).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'EMBEDDING_REQUEST_FAILED' });
    expect((error as Error).message).toBe(
      `POST ${baseURL}/embeddings (model m) failed: HTTP 401 Unauthorized: Incorrect API key provided: <apiKey>`,
    );
  });

  it('reports a body that is not the embeddings shape', async () => {
    respond = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"data": [{"embedding": "nope"}]}');
    };
    const embedder = createOpenAICompatibleEmbedder({ baseURL, model: 'm' });
    await expect(embedder.embed(['a'])).rejects.toThrow(
      'embedding 0 of the response is malformed; expected JSON { "data": [{ "index", "embedding": [numbers] }] } with 1 embeddings',
    );
    respond = (_request, response) => {
      response.writeHead(200);
      response.end('<html>proxy error</html>');
    };
    await expect(embedder.embed(['a'])).rejects.toThrow(
      'the response is not JSON (<html>proxy error</html>)',
    );
    respond = (_request, response) => {
      response.writeHead(200);
      response.end('{"data": []}');
    };
    await expect(embedder.embed(['a', 'b'])).rejects.toThrow('the response has 0 embeddings');
  });

  it('gives up after timeoutMs, naming the endpoint', async () => {
    respond = () => {
      // never answers; afterAll closes the connection
    };
    const embedder = createOpenAICompatibleEmbedder({ baseURL, model: 'm', timeoutMs: 50 });
    await expect(embedder.embed(['a'])).rejects.toThrow(
      `POST ${baseURL}/embeddings (model m) failed: no response within 50 ms (timeoutMs)`,
    );
  });

  it("rejects with the caller's abort reason", async () => {
    respond = () => {};
    const controller = new AbortController();
    const embedder = createOpenAICompatibleEmbedder({ baseURL, model: 'm' });
    const pending = embedder.embed(['a'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 10);
    await expect(pending).rejects.toThrow('user left');
    const aborted = AbortSignal.abort(new Error('already'));
    await expect(embedder.embed(['a'], { signal: aborted })).rejects.toThrow('already');
  });

  it('reports a server that is not there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const embedder = createOpenAICompatibleEmbedder({
      baseURL: `http://127.0.0.1:${port}/v1`,
      model: 'm',
    });
    await expect(embedder.embed(['a'])).rejects.toThrow(
      /failed: ECONNREFUSED: .*; is the server running and the baseURL right\?/,
    );
  });

  it('checks its options', () => {
    expect(() => createOpenAICompatibleEmbedder({ model: '' })).toThrow('"model" must name');
    expect(() =>
      createOpenAICompatibleEmbedder({ model: 'm', baseURL: 'localhost:11434' }),
    ).toThrow('"baseURL" must use http or https');
    expect(() => createOpenAICompatibleEmbedder({ model: 'm', baseURL: 'not a url' })).toThrow(
      '"baseURL" must be an http(s) URL',
    );
    expect(() =>
      createOpenAICompatibleEmbedder({ model: 'm', baseURL: 'http://user:pw@localhost/v1' }),
    ).toThrow('must not hold a user or password');
    expect(() => createOpenAICompatibleEmbedder({ model: 'm', batchSize: 0 })).toThrow(
      '"batchSize" must be a positive integer, got 0',
    );
  });
});
