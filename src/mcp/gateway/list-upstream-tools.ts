import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { UpstreamServer } from './upstream-config.js';

/** What an upstream server says about itself and its tools. */
export interface UpstreamListing {
  /** The raw `tools` of every `tools/list` page, in order (converted later, leniently). */
  tools: readonly unknown[];
  /** `serverInfo` from the handshake. */
  server?: { name: string; version: string; title?: string };
  /** The server's `instructions` from the handshake. */
  instructions?: string;
  /**
   * False when the server declared no `tools` capability in its handshake (a server of resources
   * or prompts only): it has no `tools/list`, and `tools` is empty.
   */
  offersTools?: false;
}

/** Pages followed before a listing is cut short: a server that never ends its cursor chain. */
const MAX_PAGES = 100;

/**
 * Every tool of a connected server: `tools/list`, following `nextCursor` until the server
 * stops giving one. A cursor that repeats, or more than 100 pages, is an error (a server bug
 * that would otherwise loop forever). Entries are kept raw: `fromProvider` repairs or skips
 * malformed ones with a warning each, where a strict schema would reject the whole list. A
 * server that declared no `tools` capability is not asked: its listing is empty, with
 * `offersTools: false`.
 */
export async function listUpstreamTools(
  client: Client,
  options: { timeoutMs: number },
): Promise<UpstreamListing> {
  // the capability says whether tools/list exists at all (resources-only servers answer -32601)
  if (client.getServerCapabilities()?.tools === undefined) {
    return { ...describe(client, []), offersTools: false };
  }
  // the SDK loads on first use: `toolcap import` reaches this module without needing it
  const { ResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      ResultSchema,
      { timeout: options.timeoutMs },
    );
    const pageTools = (result as { tools?: unknown }).tools;
    if (!Array.isArray(pageTools)) {
      throw new Error(`tools/list answered without a "tools" list (page ${page + 1})`);
    }
    tools.push(...pageTools);
    const next = (result as { nextCursor?: unknown }).nextCursor;
    if (typeof next !== 'string' || next === '') return describe(client, tools);
    if (seen.has(next)) {
      throw new Error(`tools/list repeated the cursor ${JSON.stringify(next.slice(0, 100))}`);
    }
    seen.add(next);
    cursor = next;
  }
  throw new Error(`tools/list gave more than ${MAX_PAGES} pages`);
}

function describe(client: Client, tools: unknown[]): UpstreamListing {
  const info = client.getServerVersion();
  const instructions = client.getInstructions();
  return {
    tools,
    ...(info === undefined
      ? {}
      : {
          server: {
            name: info.name,
            version: info.version,
            ...(typeof info.title === 'string' ? { title: info.title } : {}),
          },
        }),
    ...(typeof instructions === 'string' ? { instructions } : {}),
  };
}

/** How `createUpstreamTransport` reads a server's messages. */
export interface UpstreamTransportOptions {
  /** Largest message read from a server. Default 10 MiB, the SDK's own stdio limit. */
  maxMessageBytes?: number;
  /** A message of a server that was dropped (not JSON-RPC, too large without an id). */
  onProblem?: (problem: string) => void;
}

/**
 * The SDK client transport for a configured server: `StdioClientTransport` (the child's stderr
 * piped, so the caller decides where it goes) or `StreamableHTTPClientTransport`. A stdio
 * transport reads the server's messages with an `UpstreamReadBuffer` instead of the SDK's
 * buffer, and an HTTP transport fetches through `createUpstreamFetch`, so an answer over the
 * limit or malformed fails only its own request.
 */
export async function createUpstreamTransport(
  server: UpstreamServer,
  options: UpstreamTransportOptions = {},
): Promise<Transport> {
  const { DEFAULT_MAX_UPSTREAM_MESSAGE_BYTES, UpstreamReadBuffer } = await import(
    './upstream-read-buffer.js'
  );
  const maxBufferSize = options.maxMessageBytes ?? DEFAULT_MAX_UPSTREAM_MESSAGE_BYTES;
  const onProblem = options.onProblem ?? (() => {});
  if (server.transport === 'http') {
    const [{ StreamableHTTPClientTransport }, { createUpstreamFetch }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('./upstream-http-fetch.js'),
    ]);
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { ...server.headers } },
      fetch: createUpstreamFetch(maxBufferSize, onProblem),
    });
  }
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...server.args],
    env: { ...server.env },
    stderr: 'pipe',
    maxBufferSize,
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
  });
  // the SDK offers no public way to replace its framing: its buffer is the private field
  // `_readBuffer` (a test pins this). Without it, the SDK's buffer applies the same limit but
  // closes the connection when a message exceeds it
  const internals = transport as unknown as { _readBuffer?: { append?: unknown } };
  if (typeof internals._readBuffer?.append === 'function') {
    internals._readBuffer = new UpstreamReadBuffer(maxBufferSize, onProblem);
  }
  return transport;
}

/**
 * Connects to one configured server, lists its tools and disconnects: the snapshot behind
 * `toolcap import --from-server`.
 */
export async function fetchUpstreamListing(
  server: UpstreamServer,
  options: { timeoutMs: number; clientInfo: { name: string; version: string } },
): Promise<UpstreamListing> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client(options.clientInfo, { capabilities: {} });
  const transport = await createUpstreamTransport(server);
  // a snapshot has no use for the server's log lines: drain them so the child never blocks
  (transport as { stderr?: NodeJS.ReadableStream | null }).stderr?.resume();
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
    return await listUpstreamTools(client, options);
  } finally {
    await client.close().catch(() => {});
  }
}
