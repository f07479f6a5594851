import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  ResultSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../util/error-message.js';
import {
  createUpstreamTransport,
  listUpstreamTools,
  type UpstreamListing,
} from './list-upstream-tools.js';
import { toolError } from './tool-results.js';
import type { UpstreamServer } from './upstream-config.js';
import { unreadableAnswer } from './upstream-read-buffer.js';

/**
 * `connecting`: the first connection is being made. `available`: connected and listed.
 * `unavailable`: down (crashed, unreachable, refused); a restart is scheduled. `closed`: stopped.
 */
export type UpstreamState = 'connecting' | 'available' | 'unavailable' | 'closed';

/** What the gateway reports about one upstream server. */
export interface UpstreamStatus {
  /** The server's key in the configuration. */
  name: string;
  /** The group its tools form. */
  group: string;
  transport: 'stdio' | 'http';
  state: UpstreamState;
  /** Why it is unavailable. */
  reason?: string;
  /** When it is unavailable: milliseconds until the next connection attempt was scheduled. */
  retryInMs?: number;
  /** The server's `serverInfo` from its last handshake. */
  server?: { name: string; version: string; title?: string };
  /** Tools in its last listing with a name (kept while it is unavailable); entries the gateway
   * skips (`null`, a number) are not counted. */
  tools: number;
  /**
   * False when the server declared no `tools` capability (resources or prompts only): it is
   * available with 0 tools, and not restarted for that.
   */
  offersTools?: false;
  /** Times it came back after being unavailable. */
  restarts: number;
  /** Process id of a stdio server while it runs. */
  pid?: number;
}

/** Timing of one upstream connection. */
export interface UpstreamTiming {
  /** Limit of one forwarded call, unless the call gives its own. */
  callTimeoutMs: number;
  /** Limit of the handshake and of each `tools/list` page. */
  connectTimeoutMs: number;
  /** First delay before reconnecting after a failure; doubled per failure in a row. */
  restartInitialDelayMs: number;
  /** Largest delay between attempts. */
  restartMaxDelayMs: number;
}

/** Options of an `UpstreamConnection`. */
export interface UpstreamConnectionOptions extends UpstreamTiming {
  server: UpstreamServer;
  clientInfo: { name: string; version: string };
  /** A new listing (first connection, `list_changed`, reconnection). */
  onListing: (listing: UpstreamListing) => void;
  /** Any change of `status()`. */
  onStatus: (status: UpstreamStatus) => void;
  /** A line the stdio server wrote on its stderr. */
  onStderr?: (line: string) => void;
  /** Largest message read from the server (stdio or HTTP). Default 10 MiB. */
  maxMessageBytes?: number;
  /** A message of the server that was dropped (not JSON-RPC, or too large without an id). */
  onProblem?: (problem: string) => void;
}

/** A connection that stayed up this long resets the restart backoff. */
const STABLE_AFTER_MS = 10_000;
const MAX_STDERR_LINE = 2_000;
/** The SDK's own request timer, set past any call limit: the gateway times calls itself. */
const NO_SDK_TIMEOUT_MS = 2_147_483_647;
// the client's McpError adds this prefix, and SDK servers often put it in their messages too
const MCP_ERROR_PREFIX = /^(?:MCP error -?\d+: )+/;

/**
 * One upstream MCP server behind the gateway, through the official SDK client: connects, lists
 * (following cursors), re-lists on `notifications/tools/list_changed`, forwards calls with a
 * timeout and the caller's cancellation, and reconnects with exponential backoff when the
 * server crashes or cannot be reached. Calls never throw for upstream trouble: errors, crashes,
 * timeouts and an unavailable server are `isError` results.
 */
export class UpstreamConnection {
  readonly #options: UpstreamConnectionOptions;
  #state: UpstreamState = 'connecting';
  #reason: string | undefined;
  #retryInMs: number | undefined;
  #client: Client | undefined;
  #transport: Transport | undefined;
  /** The transport of a connection being set up (handshake, first listing), until it is done. */
  #pending: Transport | undefined;
  #listing: UpstreamListing | undefined;
  #connectedAt = 0;
  #failures = 0;
  #restarts = 0;
  #everAvailable = false;
  #timer: NodeJS.Timeout | undefined;
  #relisting: Promise<void> | undefined;
  #relistAgain = false;

  constructor(options: UpstreamConnectionOptions) {
    this.#options = options;
  }

  /** The configured server. */
  get server(): UpstreamServer {
    return this.#options.server;
  }

  /** The current state and last listing's size. */
  status(): UpstreamStatus {
    const { server } = this.#options;
    const pid = (this.#transport as { pid?: number | null } | undefined)?.pid;
    const info = this.#listing?.server;
    return {
      name: server.name,
      group: server.group,
      transport: server.transport,
      state: this.#state,
      ...(this.#reason === undefined ? {} : { reason: this.#reason }),
      ...(this.#retryInMs === undefined ? {} : { retryInMs: this.#retryInMs }),
      ...(info === undefined ? {} : { server: info }),
      tools: countNamedTools(this.#listing?.tools),
      ...(this.#listing?.offersTools === false ? { offersTools: false as const } : {}),
      restarts: this.#restarts,
      ...(typeof pid === 'number' && this.#state === 'available' ? { pid } : {}),
    };
  }

  /** Makes the first connection; resolves once it succeeded or failed (then a retry is scheduled). */
  start(): Promise<void> {
    return this.#connect();
  }

  /**
   * Forwards one `tools/call`. `name` is the tool's name on the server. Rejects only when
   * `signal` aborts (the caller cancelled: the server got `notifications/cancelled`).
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<CallToolResult> {
    const client = this.#client;
    const label = `The MCP server "${this.#options.server.name}"`;
    if (this.#state !== 'available' || client === undefined) {
      return toolError(
        'UPSTREAM_UNAVAILABLE',
        `${label} is unavailable${this.#reason === undefined ? '' : ` (${this.#reason})`}; the gateway is reconnecting. Try again in a few seconds.`,
      );
    }
    const timeoutMs = options.timeoutMs ?? this.#options.callTimeoutMs;
    // the gateway's own timer, not the SDK's: a server may answer with any code, -32001
    // (RequestTimeout) included, so only this timer firing means the call timed out
    const timer = new AbortController();
    const timeout = setTimeout(
      () => timer.abort(new McpError(ErrorCode.RequestTimeout, 'Request timed out')),
      timeoutMs,
    );
    const signal =
      options.signal === undefined ? timer.signal : AbortSignal.any([options.signal, timer.signal]);
    try {
      const result = await client.request(
        { method: 'tools/call', params: { name, arguments: args } },
        ResultSchema,
        { timeout: NO_SDK_TIMEOUT_MS, signal },
      );
      return checkCallResult(result, label);
    } catch (error) {
      if (options.signal?.aborted === true) throw error;
      const unreadable = unreadableAnswer(error);
      if (unreadable?.kind === 'too-large') {
        return toolError(
          'UPSTREAM_RESULT_TOO_LARGE',
          `${label} answered with ${unreadable.bytes} bytes, more than the gateway's ${unreadable.limit}-byte limit for a message from an upstream server; the answer was dropped unread (the server stays connected). Ask for less data (e.g. a smaller limit or range).`,
        );
      }
      if (unreadable?.kind === 'invalid') {
        return toolError(
          'UPSTREAM_INVALID_RESULT',
          `${label} answered with a message that is not a valid JSON-RPC response: ${unreadable.problem}.`,
        );
      }
      if (timer.signal.aborted) {
        return toolError(
          'UPSTREAM_TIMEOUT',
          `${label} did not answer within ${timeoutMs} ms; the call was cancelled there.`,
        );
      }
      if (error instanceof McpError) {
        // the SDK fails the calls in flight with ConnectionClosed (-32000) after the transport
        // closed (it drops the transport first); the same code answered by a server that is
        // still connected is that server's error
        if (error.code === ErrorCode.ConnectionClosed && client.transport === undefined) {
          if (this.#isClosed()) {
            // the gateway itself is stopping: nothing crashed, and nothing is restarted
            return toolError(
              'UPSTREAM_UNAVAILABLE',
              `The gateway stopped while the MCP server "${this.#options.server.name}" was answering this call; the call may or may not have completed there. Try again once the gateway is back (or on another replica).`,
            );
          }
          return toolError(
            'UPSTREAM_UNAVAILABLE',
            `${label} closed the connection during the call (it crashed or exited); the gateway is restarting it. Try again in a few seconds.`,
          );
        }
        return toolError(
          'UPSTREAM_ERROR',
          `${label} answered with an error: ${error.message.replace(MCP_ERROR_PREFIX, '')}`,
        );
      }
      if (isParseError(error)) {
        // the SDK's HTTP transport rejects the call when the answer fails its message schema
        return toolError(
          'UPSTREAM_INVALID_RESULT',
          `${label} answered with a message that is not a valid JSON-RPC response (the MCP SDK could not parse it; a "result" must be an object).`,
        );
      }
      // not a JSON-RPC answer: the connection itself failed (an HTTP server went away)
      this.#lost(client, `the last call failed: ${errorMessage(error)}`);
      return toolError(
        'UPSTREAM_UNAVAILABLE',
        `${label} could not be reached: ${errorMessage(error)}`,
      );
    } finally {
      clearTimeout(timeout);
    }
  }

  /**
   * Disconnects (a stdio server's process is stopped) and stops reconnecting; a connection still
   * being set up is aborted, not waited for. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#setState('closed', undefined, undefined);
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    const pending = this.#pending;
    this.#pending = undefined;
    // a server that never answers its handshake must not hold the gateway until the time limit
    await Promise.all(
      [client?.close(), pending?.close()].map((closing) => closing?.catch(() => {})),
    );
  }

  async #connect(): Promise<void> {
    if (this.#state === 'closed') return;
    const { server } = this.#options;
    let client: Client | undefined;
    let transport: Transport | undefined;
    try {
      transport = await createUpstreamTransport(server, {
        ...(this.#options.maxMessageBytes === undefined
          ? {}
          : { maxMessageBytes: this.#options.maxMessageBytes }),
        ...(this.#options.onProblem === undefined ? {} : { onProblem: this.#options.onProblem }),
      });
      if (this.#isClosed()) return;
      // close() aborts it from here on (its process is spawned by connect below)
      this.#pending = transport;
      this.#forwardStderr(transport);
      client = new Client(this.#options.clientInfo, { capabilities: {} });
      const connecting = client;
      connecting.onclose = () => this.#lost(connecting, 'the server closed the connection');
      connecting.onerror = () => {
        // transport errors surface as failed calls or as a closed connection
      };
      connecting.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        this.#relist(connecting);
      });
      await connecting.connect(transport, { timeout: this.#options.connectTimeoutMs });
      const listing = await listUpstreamTools(connecting, {
        timeoutMs: this.#options.connectTimeoutMs,
      });
      if (this.#isClosed()) {
        await connecting.close().catch(() => {});
        return;
      }
      this.#client = connecting;
      this.#transport = transport;
      this.#connectedAt = Date.now();
      if (this.#everAvailable) this.#restarts++;
      this.#everAvailable = true;
      this.#listing = listing;
      this.#options.onListing(listing);
      this.#setState('available', undefined, undefined);
    } catch (error) {
      const failed = client;
      client = undefined;
      if (failed !== undefined) {
        failed.onclose = () => {};
        await failed.close().catch(() => {});
      }
      if (this.#isClosed()) return;
      this.#scheduleRestart(`could not connect: ${errorMessage(error)}`);
    } finally {
      if (this.#pending === transport) this.#pending = undefined;
    }
  }

  /** The connection `client` broke: mark the server unavailable and reconnect later. */
  #lost(client: Client, reason: string): void {
    if (client !== this.#client || this.#state !== 'available') return;
    this.#client = undefined;
    client.onclose = () => {};
    void client.close().catch(() => {});
    if (Date.now() - this.#connectedAt >= STABLE_AFTER_MS) this.#failures = 0;
    this.#scheduleRestart(reason);
  }

  #scheduleRestart(reason: string): void {
    const { restartInitialDelayMs, restartMaxDelayMs } = this.#options;
    const delay = Math.min(restartMaxDelayMs, restartInitialDelayMs * 2 ** this.#failures);
    this.#failures = Math.min(this.#failures + 1, 30);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#connect(), delay);
    this.#timer.unref();
    this.#setState('unavailable', reason, delay);
  }

  /** Re-lists after `list_changed`; notifications that arrive meanwhile cause one more listing. */
  #relist(client: Client): void {
    if (this.#relisting !== undefined) {
      this.#relistAgain = true;
      return;
    }
    this.#relisting = (async () => {
      do {
        this.#relistAgain = false;
        try {
          const listing = await listUpstreamTools(client, {
            timeoutMs: this.#options.connectTimeoutMs,
          });
          if (client !== this.#client) return;
          this.#listing = listing;
          this.#options.onListing(listing);
          this.#options.onStatus(this.status());
        } catch {
          // the connection broke (its close handler reconnects and lists) or the server
          // failed to list: the previous tools stay until the next notification
        }
      } while (this.#relistAgain && client === this.#client);
    })().finally(() => {
      this.#relisting = undefined;
    });
  }

  #forwardStderr(transport: Transport): void {
    const stderr = (transport as { stderr?: NodeJS.ReadableStream | null }).stderr;
    if (stderr === undefined || stderr === null) return;
    const onStderr = this.#options.onStderr;
    if (onStderr === undefined) {
      stderr.resume();
      return;
    }
    let pending = '';
    stderr.on('data', (chunk: Buffer | string) => {
      pending += chunk.toString();
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        onStderr(pending.slice(0, Math.min(newline, MAX_STDERR_LINE)));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      if (pending.length > MAX_STDERR_LINE) {
        onStderr(pending.slice(0, MAX_STDERR_LINE));
        pending = '';
      }
    });
  }

  /** Whether `close()` ran (a method, so checks after an await are not narrowed away). */
  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #setState(state: UpstreamState, reason: string | undefined, retryInMs: number | undefined): void {
    this.#state = state;
    this.#reason = reason;
    this.#retryInMs = retryInMs;
    this.#options.onStatus(this.status());
  }
}

/** Whether `error` is the SDK's message schema (zod) rejecting what the server sent. */
function isParseError(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'ZodError' &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}

/** The upstream's result if it has the shape of a `tools/call` result, else a tool error. */
function checkCallResult(result: Record<string, unknown>, label: string): CallToolResult {
  const { content, structuredContent, isError } = result;
  const contentOk =
    Array.isArray(content) &&
    content.every(
      (block) =>
        block !== null &&
        typeof block === 'object' &&
        typeof (block as { type?: unknown }).type === 'string',
    );
  const structuredOk =
    structuredContent === undefined ||
    (structuredContent !== null &&
      typeof structuredContent === 'object' &&
      !Array.isArray(structuredContent));
  if (!contentOk || !structuredOk || (isError !== undefined && typeof isError !== 'boolean')) {
    return toolError(
      'UPSTREAM_INVALID_RESULT',
      `${label} returned a result that is not a tools/call result (it needs "content", a list of blocks with a "type").`,
    );
  }
  return result as CallToolResult;
}

/** The entries of a tools/list answer that are tools at all (an object with a string name). */
function countNamedTools(tools: readonly unknown[] | undefined): number {
  let count = 0;
  for (const tool of tools ?? []) {
    if (
      tool !== null &&
      typeof tool === 'object' &&
      typeof (tool as { name?: unknown }).name === 'string'
    )
      count++;
  }
  return count;
}
