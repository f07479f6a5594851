import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ToolcapError } from '../../errors/toolcap-error.js';
import { errorMessage } from '../../util/error-message.js';
import {
  checkJsonRpcMessage,
  errorResponse,
  JSON_RPC_ERRORS,
  type MessageCheck,
} from './check-json-rpc-message.js';
import type { GatewaySession } from './gateway-session.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './serve-stdio.js';

/** Options of the gateway's Streamable HTTP endpoint. */
export interface HttpServeOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * Bearer token every `/mcp` request must send (`Authorization: Bearer <token>`). Required to
   * bind an address other than loopback.
   */
  token?: string;
  /** `Origin` values browsers may send (e.g. `https://app.example.com`); others are refused. */
  allowedOrigins?: readonly string[];
  /**
   * Host names the `Host` header may carry. Default: when bound to loopback, only `localhost`,
   * `127.0.0.1` and `[::1]` (DNS-rebinding protection); otherwise any.
   */
  allowedHosts?: readonly string[];
  /** Any replica answers any request: no sessions, no notifications. Default false. */
  stateless?: boolean;
  /** Largest request body, in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Most concurrent sessions (stateful mode). Default 1,000. */
  maxSessions?: number;
  /** A session idle this long is closed (stateful mode). Default 30 minutes. */
  sessionIdleMs?: number;
  /**
   * On `close()`, how long requests in progress may take to finish before their connections are
   * cut. Default 60 s.
   */
  drainTimeoutMs?: number;
}

/** A listening HTTP gateway. */
export interface HttpServeHandle {
  /** `http://host:port/mcp`. */
  url: string;
  host: string;
  port: number;
  /**
   * Stops: answers 503 to new MCP requests (and on `/readyz`) while the requests in progress
   * finish (at most `drainTimeoutMs`), then closes the sessions and stops listening. Idempotent.
   */
  close(): Promise<void>;
}

/** What `/readyz` reports, and whether MCP requests are served. */
export interface HttpReadiness {
  ready: boolean;
  /** Why it is not ready (`starting`); shown on `/readyz` and in the 503 answers. */
  reason?: string;
  /** How many upstream servers are in each state. */
  upstreams: Record<string, number>;
}

/** What the endpoint needs from the gateway. */
export interface HttpHost {
  /** A new session; called only while `readiness().ready` is true. */
  createSession(stateless: boolean): GatewaySession;
  /** Readiness and a summary of the upstream servers' states, for `/readyz`. */
  readiness(): HttpReadiness;
}

interface LiveSession {
  session: GatewaySession;
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const SWEEP_INTERVAL_MS = 60_000;
const DEFAULT_DRAIN_TIMEOUT_MS = 60_000;
/** Seconds a client is told to wait before it retries a request refused while not ready. */
const RETRY_AFTER_SECONDS = '1';

/** Whether a bind address or host name is loopback. */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * Serves the gateway over Streamable HTTP (the SDK's `StreamableHTTPServerTransport`) on
 * node:http: `/mcp` for MCP, `/healthz` (the process answers) and `/readyz` (the host is ready
 * and the endpoint is not stopping). While not ready, MCP requests get 503 with `Retry-After`,
 * so the endpoint can listen before the gateway has started. Every `/mcp` request passes, in
 * order: the `Host` check (DNS rebinding), the `Origin` check (browsers on other sites), the
 * bearer token, the body size limit and the JSON-RPC check; only then does the SDK see it. In stateless mode each POST gets
 * a fresh session, so replicas behind a load balancer need no shared state; otherwise sessions
 * live in this process (`Mcp-Session-Id`), and `GET /mcp` streams their notifications.
 */
export async function serveHttp(
  host: HttpHost,
  options: HttpServeOptions = {},
): Promise<HttpServeHandle> {
  const bindHost = options.host ?? '127.0.0.1';
  const token = options.token === undefined || options.token === '' ? undefined : options.token;
  if (!isLoopback(bindHost) && token === undefined) {
    throw new ToolcapError(
      'GATEWAY_TOKEN_REQUIRED',
      `refusing to listen on ${bindHost} without a bearer token: anyone who reaches it could call the tools. Set a token (TOOLCAP_MCP_TOKEN for toolcap mcp) or listen on 127.0.0.1`,
    );
  }
  const endpoint = new HttpEndpoint(host, {
    ...options,
    bindHost,
    ...(token === undefined ? {} : { tokenDigest: digest(token) }),
  });
  const server = createServer((req, res) => {
    endpoint.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, errorBody(-32603, `internal error: ${errorMessage(error)}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/mcp`,
    host: address.address,
    port: address.port,
    close: () => endpoint.close(server),
  };
}

interface EndpointOptions extends HttpServeOptions {
  bindHost: string;
  tokenDigest?: Buffer;
}

class HttpEndpoint {
  readonly #host: HttpHost;
  readonly #options: EndpointOptions;
  readonly #sessions = new Map<string, LiveSession>();
  readonly #sweep: NodeJS.Timeout;
  /** MCP requests being answered (not the GET notification streams, which never end). */
  #inFlight = 0;
  /** Called when `#inFlight` drops to 0 while closing. */
  #onDrained: (() => void) | undefined;
  #closing: Promise<void> | undefined;

  constructor(host: HttpHost, options: EndpointOptions) {
    this.#host = host;
    this.#options = options;
    this.#sweep = setInterval(() => this.#closeIdleSessions(), SWEEP_INTERVAL_MS);
    this.#sweep.unref();
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    if (path === '/readyz') {
      const readiness = this.#host.readiness();
      const { upstreams } = readiness;
      const reason = this.#notReady(readiness);
      if (reason === undefined) sendJson(res, 200, { ready: true, upstreams });
      else sendJson(res, 503, { ready: false, reason, upstreams });
      return;
    }
    if (path !== '/mcp') {
      sendJson(res, 404, errorBody(-32000, `not found: the MCP endpoint is /mcp`));
      return;
    }
    const refusal = this.#refusal(req);
    if (refusal !== undefined) {
      sendJson(res, refusal.status, errorBody(-32000, refusal.message), refusal.headers);
      return;
    }
    const reason = this.#notReady(this.#host.readiness());
    if (reason !== undefined) {
      const message =
        reason === 'stopping'
          ? 'the gateway is shutting down; retry on another replica'
          : `the gateway is ${reason}; retry in a moment`;
      sendJson(res, 503, errorBody(-32000, message), { 'retry-after': RETRY_AFTER_SECONDS });
      return;
    }
    if (req.method !== 'GET') this.#track(res);
    if (req.method === 'POST') await this.#post(req, res);
    else if (req.method === 'GET' || req.method === 'DELETE') await this.#sessionRequest(req, res);
    else
      sendJson(res, 405, errorBody(-32000, `method ${req.method} is not allowed; use POST`), {
        allow: 'GET, POST, DELETE',
      });
  }

  close(server: Server): Promise<void> {
    this.#closing ??= this.#stop(server);
    return this.#closing;
  }

  /** Why MCP requests are refused now, or undefined when they are served. */
  #notReady(readiness: HttpReadiness): string | undefined {
    if (this.#closing !== undefined) return 'stopping';
    if (readiness.ready) return undefined;
    // a host that gives no reason is one that has been closed
    return readiness.reason ?? 'stopping';
  }

  /** Counts a request in progress until its response is done or its connection is gone. */
  #track(res: ServerResponse): void {
    this.#inFlight++;
    res.once('close', () => {
      this.#inFlight--;
      if (this.#inFlight === 0) this.#onDrained?.();
    });
  }

  async #stop(server: Server): Promise<void> {
    clearInterval(this.#sweep);
    // keep listening while the requests in progress finish, so /readyz can tell the load
    // balancer to send new requests elsewhere, and they get a 503 instead of a refused connection
    if (this.#inFlight > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.#onDrained = resolve;
        timer = setTimeout(resolve, this.#options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
      });
      clearTimeout(timer);
    }
    for (const id of [...this.#sessions.keys()]) await this.#endSession(id);
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    // what is left: idle keep-alive connections, and requests past the drain limit
    server.closeAllConnections();
    await stopped;
  }

  /** The Host, Origin and token checks, in that order. */
  #refusal(
    req: IncomingMessage,
  ): { status: number; message: string; headers?: Record<string, string> } | undefined {
    const hostName = hostnameOf(req.headers.host);
    const allowedHosts = this.#options.allowedHosts?.map((name) => name.toLowerCase());
    const hostOk =
      allowedHosts !== undefined && allowedHosts.length > 0
        ? hostName !== undefined && allowedHosts.includes(hostName)
        : !isLoopback(this.#options.bindHost) || (hostName !== undefined && isLoopback(hostName));
    if (!hostOk) {
      return {
        status: 403,
        message: `Host ${JSON.stringify(req.headers.host ?? '')} is not allowed (DNS-rebinding protection); allow it with --allow-host`,
      };
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !(this.#options.allowedOrigins ?? []).includes(origin)) {
      return {
        status: 403,
        message: `Origin ${JSON.stringify(origin)} is not allowed; allow it with --allow-origin`,
      };
    }
    const expected = this.#options.tokenDigest;
    if (expected !== undefined) {
      const header = req.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (match === null || !timingSafeEqual(digest(match[1]!), expected)) {
        return {
          status: 401,
          message: 'missing or wrong bearer token: send Authorization: Bearer <token>',
          headers: { 'www-authenticate': 'Bearer' },
        };
      }
    }
    return undefined;
  }

  async #post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const maxBytes = this.#options.maxBodyBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const body = await readBody(req, maxBytes);
    if (body === undefined) {
      sendJson(
        res,
        413,
        errorBody(
          JSON_RPC_ERRORS.invalidRequest,
          `the request body is larger than the limit of ${maxBytes} bytes; send smaller arguments`,
        ),
        { connection: 'close' },
      );
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      sendJson(
        res,
        400,
        errorResponse(
          null,
          JSON_RPC_ERRORS.parseError,
          `the body is not valid JSON (${errorMessage(error)})`,
        ),
      );
      return;
    }
    // one message per body, as on stdio: a batch (an array) is refused like any other malformed
    // message (MCP 2025-06-18 dropped batches; the SDK's transport would still take them)
    const check: MessageCheck = checkJsonRpcMessage(value);
    if (!check.ok) {
      // a request with a readable id gets its error as a JSON-RPC answer the client can match
      const reply: JSONRPCErrorResponse =
        check.reply ?? errorResponse(null, JSON_RPC_ERRORS.invalidRequest, check.problem);
      sendJson(res, reply.id === null ? 400 : 200, reply);
      return;
    }
    if (this.#options.stateless === true) {
      await this.#stateless(req, res, value);
      return;
    }
    const sessionId = header(req, 'mcp-session-id');
    if (sessionId !== undefined) {
      const live = this.#sessions.get(sessionId);
      if (live === undefined) {
        sendJson(
          res,
          404,
          errorBody(
            -32001,
            'session not found (it expired or another replica holds it); initialize a new session',
          ),
        );
        return;
      }
      live.lastSeen = Date.now();
      if (check.kind === 'request') cancelOnDisconnect(res, live.transport, check.id);
      await live.transport.handleRequest(req, res, value);
      return;
    }
    const initializes = check.kind === 'request' && check.method === 'initialize';
    if (!initializes) {
      sendJson(
        res,
        400,
        errorBody(
          JSON_RPC_ERRORS.invalidRequest,
          'no Mcp-Session-Id header: send initialize first, then the session id it returns',
        ),
      );
      return;
    }
    if (this.#sessions.size >= (this.#options.maxSessions ?? 1_000)) {
      sendJson(res, 503, errorBody(-32000, 'too many sessions; retry later'), {
        'retry-after': '5',
      });
      return;
    }
    const session = this.#host.createSession(false);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { session, transport, lastSeen: Date.now() });
      },
      onsessionclosed: (id) => {
        void this.#endSession(id);
      },
    });
    await session.server.connect(transport);
    await transport.handleRequest(req, res, value);
    if (transport.sessionId === undefined) {
      // the handshake failed: nothing refers to this session
      session.dispose();
      await session.server.close();
    }
  }

  async #stateless(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const session = this.#host.createSession(true);
    // no session id generator: the SDK's stateless mode
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    // closing the session's server aborts the handlers still running: a client that went away
    // before its answer cancels its call
    res.on('close', () => {
      session.dispose();
      void session.server.close();
    });
    await session.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async #sessionRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.#options.stateless === true) {
      sendJson(
        res,
        405,
        errorBody(-32000, `${req.method} is not available on a stateless gateway; use POST`),
        { allow: 'POST' },
      );
      return;
    }
    const sessionId = header(req, 'mcp-session-id');
    const live = sessionId === undefined ? undefined : this.#sessions.get(sessionId);
    if (live === undefined) {
      sendJson(
        res,
        sessionId === undefined ? 400 : 404,
        errorBody(-32001, 'session not found; initialize a new session'),
      );
      return;
    }
    live.lastSeen = Date.now();
    await live.transport.handleRequest(req, res);
  }

  async #endSession(id: string): Promise<void> {
    const live = this.#sessions.get(id);
    if (live === undefined) return;
    this.#sessions.delete(id);
    live.session.dispose();
    await live.transport.close().catch(() => {});
    await live.session.server.close().catch(() => {});
  }

  #closeIdleSessions(): void {
    const limit = Date.now() - (this.#options.sessionIdleMs ?? 30 * 60_000);
    for (const [id, live] of this.#sessions) {
      if (live.lastSeen < limit) void this.#endSession(id);
    }
  }
}

/**
 * When the connection of a session's request closes before its answer is written, cancels the
 * request as a client's `notifications/cancelled` does: the SDK aborts its handler's signal (an
 * external tool's process is stopped, an upstream call is cancelled there) and sends no answer.
 * The SDK's transport would otherwise keep the request until its handler ends, which for a slow
 * tool is its time limit.
 */
function cancelOnDisconnect(
  res: ServerResponse,
  transport: StreamableHTTPServerTransport,
  requestId: RequestId,
): void {
  res.once('close', () => {
    if (res.writableFinished) return;
    transport.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, reason: 'the HTTP client disconnected before the answer' },
    });
    // drops the transport's wait for the answer that will never come
    transport.closeSSEStream(requestId);
  });
}

/** The body as text, or undefined when it is longer than `maxBytes` (reading stops there). */
async function readBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      req.resume();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The host name of a Host header (`[::1]:80` → `[::1]`, `Example.com:8080` → `example.com`). */
function hostnameOf(host: string | undefined): string | undefined {
  if (host === undefined || host === '') return undefined;
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end === -1 ? undefined : lower.slice(0, end + 1);
  }
  const colon = lower.lastIndexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function errorBody(code: number, message: string): JSONRPCErrorResponse {
  return errorResponse(null, code, message);
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
