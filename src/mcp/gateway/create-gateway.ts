import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolcapError } from '../../errors/toolcap-error.js';
import type { ToolContext } from '../../execute/types.js';
import { createRegistry } from '../../toolcap/create-registry.js';
import type { Registry } from '../../toolcap/registry.js';
import {
  checkOptions,
  isArray,
  isBoolean,
  isFunction,
  isObject,
  type OptionCheck,
  type OptionSpec,
} from '../../util/check-options.js';
import { errorMessage } from '../../util/error-message.js';
import {
  type Catalog,
  CatalogBuilder,
  type GatewayRename,
  type UpstreamRoute,
} from './build-catalog.js';
import {
  CALL_TOOL,
  createGatewaySession,
  type ExposeMode,
  FIND_TOOLS,
  type FoundToolCall,
  type GatewaySession,
  listTools,
  MAX_FIND_LIMIT,
  missingContext,
  type SessionHost,
  ToolTranslations,
} from './gateway-session.js';
import type { UpstreamListing } from './list-upstream-tools.js';
import { readOverlays, type UpstreamOverlay } from './read-overlays.js';
import type { HttpServeHandle, HttpServeOptions } from './serve-http.js';
import { type ServeStdioOptions, serveStdio } from './serve-stdio.js';
import type { UpstreamServer } from './upstream-config.js';
import { UpstreamConnection, type UpstreamStatus } from './upstream-connection.js';
import { UpstreamInputChecks } from './upstream-input-checks.js';

/** A registry that can be replaced while serving, such as a `RegistryWatcher`. */
export interface GatewayRegistrySource {
  current(): Registry;
  /** Called after each change; returns the removal. */
  subscribe?(listener: () => void): () => void;
}

/** Options of `createGateway`. */
export interface GatewayOptions {
  /** Local groups (handlers run in this process), and the overlays of upstream groups. Default: none. */
  registry?: Registry | GatewayRegistrySource;
  /** Upstream MCP servers (see `readUpstreamConfig`), one group each. */
  upstreams?: readonly UpstreamServer[];
  /** What sessions list: `all` (default), `selected` or `search`. */
  expose?: ExposeMode;
  /** Context for every call; clients cannot override these keys. Default `{}`. */
  context?: ToolContext;
  /** Leave out tools whose `requires_context` keys are missing. Default true. */
  hideUnavailable?: boolean;
  /**
   * Serve upstream tools' top-level property keys that the Anthropic Messages API and Bedrock
   * Converse reject (`filter[id]`, `$top`, ...) under names that match `^[a-zA-Z0-9_.-]{1,64}$`,
   * and map calls back to the server's keys. Default false: such keys are served as they are,
   * with a note per server.
   */
  safePropertyNames?: boolean;
  /** Limit of one forwarded call, in ms. Default 60,000. */
  callTimeoutMs?: number;
  /** Limit of an upstream's handshake and listing, in ms. Default 30,000. */
  connectTimeoutMs?: number;
  /** How long `createGateway` waits for the upstreams' first connection, in ms. Default 15,000. */
  startupWaitMs?: number;
  /** First reconnection delay after an upstream fails, doubled per failure. Default 250 ms. */
  restartInitialDelayMs?: number;
  /** Largest reconnection delay. Default 30,000 ms. */
  restartMaxDelayMs?: number;
  /**
   * Largest message read from an upstream server (stdio or HTTP), in bytes; a larger answer
   * fails its call with `UPSTREAM_RESULT_TOO_LARGE`. Default 10 MiB (the MCP SDK's own stdio
   * limit).
   */
  maxUpstreamMessageBytes?: number;
  /** Tools a `find_tools` call returns by default. Default 5. */
  findLimit?: number;
  /** Name and version in the MCP handshake. Default `toolcap` / `0.0.0`. */
  name?: string;
  version?: string;
  /** Base for file names in messages. Default `process.cwd()`. */
  cwd?: string;
  /** Receives what happens, for logging (the library never prints). */
  onEvent?: (event: GatewayEvent) => void;
  /**
   * Cancels start-up: when it aborts before `createGateway` resolves, the upstreams started so
   * far are stopped and `createGateway` rejects with the signal's reason. Ignored afterwards
   * (stop a running gateway with `close()`).
   */
  signal?: AbortSignal;
}

/** What the gateway reports while it runs. */
export type GatewayEvent =
  | { type: 'upstream'; status: UpstreamStatus }
  | { type: 'stderr'; server: string; line: string }
  /** An upstream sent a message the gateway dropped (not JSON-RPC, or too large). */
  | { type: 'upstream-problem'; server: string; problem: string }
  | { type: 'catalog'; summary: CatalogSummary }
  | { type: 'overlay-rejected'; problems: readonly string[] }
  /**
   * A new local registry (a reload of the group files) is served: `registry` is it, `summary`
   * the catalog built with it. Not sent when its overlays were rejected (`overlay-rejected`).
   */
  | { type: 'reloaded'; registry: Registry; summary: CatalogSummary }
  /** `find_tools` fell back to words alone: the semantic scorer failed (the embedder's error). */
  | { type: 'semantic-failed'; message: string }
  /**
   * A session called a tool that its `find_tools` search had returned: the query and the tool
   * make a `{"message", "tool"}` pair for `toolcap learn --from pairs`.
   */
  | ({ type: 'found-tool-called' } & FoundToolCall);

/** The catalog in numbers and notes. */
export interface CatalogSummary {
  tools: number;
  /** Every served group, in catalog order, with its version and number of tools. */
  groups: readonly { group: string; version: string; tools: number }[];
  renamed: readonly GatewayRename[];
  /** Upstream tools served with renamed property keys (`safePropertyNames`); else empty. */
  renamedProperties: readonly GatewayPropertyRenames[];
  /** Local tools not served, and why. */
  shadowed: readonly { name: string; reason: string }[];
  notes: readonly string[];
}

/** An upstream tool whose top-level property keys are served under new names. */
export interface GatewayPropertyRenames {
  /** The server's key in the configuration. */
  server: string;
  /** The tool's name in the gateway. */
  tool: string;
  /** Each renamed key: `from` the server's, `to` the one clients see, in the schema's order. */
  properties: readonly { from: string; to: string }[];
}

/** The gateway's state. */
export interface GatewayStatus {
  /** Started and not closing. */
  ready: boolean;
  catalog: CatalogSummary;
  servers: UpstreamStatus[];
}

/** A running gateway. */
export interface Gateway {
  /** The current state. */
  status(): GatewayStatus;
  /**
   * What a session with the operator's context lists (tool names, the gateway's own tools
   * included) and the catalog tools it leaves out, with the reason (missing context keys, a
   * tool that cannot be translated for MCP, a name the gateway reserves).
   */
  listing(): { tools: string[]; hidden: { name: string; reason: string }[] };
  /** A new MCP session; connect its `server` to any SDK transport, `dispose()` it after. */
  createSession(options?: { stateless?: boolean }): GatewaySession;
  /** Serves one session over stdio until the input ends (requests in flight are answered). */
  serveStdio(options: ServeStdioOptions): Promise<void>;
  /** Serves over Streamable HTTP at `/mcp`. */
  listen(options?: HttpServeOptions): Promise<HttpServeHandle>;
  /** Stops the upstream servers and HTTP endpoints. Idempotent. */
  close(): Promise<void>;
}

/**
 * A tool gateway: the tools of local group files and of upstream MCP servers, served as one
 * catalog to MCP clients over stdio or Streamable HTTP. Each upstream's live `tools/list` is a
 * group (overlays from same-named group files applied); its `list_changed` notifications and
 * reloads of the local files rebuild the catalog, which is swapped atomically and announced to
 * the sessions. Calls are validated against the tool's schema, then run locally or forwarded.
 * Resolves once every upstream has connected or failed once (at most `startupWaitMs`); late ones
 * join later. Throws a ToolcapError (`GATEWAY_INVALID_OVERLAY`) when an overlay is unusable;
 * whatever makes it throw, the upstream servers it started are stopped first.
 */
export async function createGateway(options: GatewayOptions = {}): Promise<Gateway> {
  checkOptions('createGateway', options, GATEWAY_OPTIONS);
  const gateway = new ToolGateway(options);
  try {
    await gateway.start();
  } catch (error) {
    // the upstream processes started so far would keep the caller's process alive for good
    await gateway.close();
    throw error;
  }
  return gateway;
}

const milliseconds =
  (minimum: number): OptionCheck =>
  (value) =>
    typeof value === 'number' && Number.isFinite(value) && value >= minimum
      ? undefined
      : `a number of milliseconds${minimum > 0 ? ` of at least ${minimum}` : ' (0 or more)'}`;
const nonEmptyString: OptionCheck = (value) =>
  typeof value === 'string' && value !== '' ? undefined : 'a non-empty string';

/** The options `createGateway` takes, and the shape of each. */
const GATEWAY_OPTIONS: OptionSpec = {
  // a Registry, or a source of one such as a RegistryWatcher
  registry: (value) =>
    value !== null &&
    typeof value === 'object' &&
    (typeof (value as { current?: unknown }).current === 'function' ||
      typeof (value as { select?: unknown }).select === 'function')
      ? undefined
      : 'a Registry (loadRegistry) or a source with current() (watchRegistry)',
  upstreams: isArray,
  expose: (value) =>
    value === 'all' || value === 'selected' || value === 'search'
      ? undefined
      : '"all", "selected" or "search"',
  context: isObject,
  hideUnavailable: isBoolean,
  safePropertyNames: isBoolean,
  callTimeoutMs: milliseconds(1),
  connectTimeoutMs: milliseconds(1),
  startupWaitMs: milliseconds(0),
  restartInitialDelayMs: milliseconds(1),
  restartMaxDelayMs: milliseconds(1),
  maxUpstreamMessageBytes: (value) =>
    Number.isInteger(value) && (value as number) >= 1024
      ? undefined
      : 'an integer number of bytes of at least 1024',
  findLimit: (value) =>
    Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_FIND_LIMIT
      ? undefined
      : `an integer from 1 to ${MAX_FIND_LIMIT}`,
  name: nonEmptyString,
  version: nonEmptyString,
  cwd: nonEmptyString,
  onEvent: isFunction,
  signal: (value) => (value instanceof AbortSignal ? undefined : 'an AbortSignal'),
};

/**
 * After the semantic scorer fails, find_tools answers by words alone for this long before it
 * tries again: a down embedding server must not make every search wait for its time limit.
 */
const SEMANTIC_RETRY_MS = 30_000;

class ToolGateway implements Gateway, SessionHost {
  readonly expose: ExposeMode;
  readonly context: ToolContext;
  readonly hideUnavailable: boolean;
  readonly findLimit: number;
  readonly translations = new ToolTranslations();
  readonly upstreamInput = new UpstreamInputChecks();
  /** When find_tools may try the semantic scorer again after it failed (epoch ms). */
  #semanticRetryAt = 0;
  readonly #options: GatewayOptions;
  readonly #source: GatewayRegistrySource;
  readonly #connections = new Map<string, UpstreamConnection>();
  readonly #listings = new Map<string, { listing: UpstreamListing; key: string }>();
  readonly #listeners = new Set<() => void>();
  readonly #builder = new CatalogBuilder();
  readonly #http: HttpServeHandle[] = [];
  #local: Registry;
  /** A snapshot whose overlays were unusable: not tried again. */
  #rejected: Registry | undefined;
  #overlays: ReadonlyMap<string, UpstreamOverlay> = new Map();
  #catalog: Catalog | undefined;
  #started = false;
  #closed = false;
  #unsubscribe: (() => void) | undefined;

  constructor(options: GatewayOptions) {
    this.#options = options;
    this.expose = options.expose ?? 'all';
    this.context = options.context ?? {};
    this.hideUnavailable = options.hideUnavailable !== false;
    this.findLimit = options.findLimit ?? 5;
    const registry = options.registry ?? createRegistry();
    this.#source = 'current' in registry ? registry : { current: () => registry };
    this.#local = this.#source.current();
    for (const server of options.upstreams ?? []) {
      this.#connections.set(
        server.name,
        new UpstreamConnection({
          server,
          clientInfo: { name: options.name ?? 'toolcap', version: options.version ?? '0.0.0' },
          callTimeoutMs: options.callTimeoutMs ?? 60_000,
          connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
          restartInitialDelayMs: options.restartInitialDelayMs ?? 250,
          restartMaxDelayMs: options.restartMaxDelayMs ?? 30_000,
          onListing: (listing) => this.#onListing(server, listing),
          onStatus: (status) => this.#emit({ type: 'upstream', status }),
          onStderr: (line) => this.#emit({ type: 'stderr', server: server.name, line }),
          onProblem: (problem) =>
            this.#emit({ type: 'upstream-problem', server: server.name, problem }),
          ...(options.maxUpstreamMessageBytes === undefined
            ? {}
            : { maxMessageBytes: options.maxUpstreamMessageBytes }),
        }),
      );
    }
  }

  async start(): Promise<void> {
    const reading = readOverlays(this.#local, this.#upstreamGroups(), this.#cwd());
    if (reading.problems.length > 0) {
      throw new ToolcapError('GATEWAY_INVALID_OVERLAY', reading.problems.join('\n'));
    }
    this.#overlays = reading.overlays;
    const { signal } = this.#options;
    signal?.throwIfAborted();
    const first = Promise.all(
      [...this.#connections.values()].map((connection) => connection.start()),
    );
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      first,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.#options.startupWaitMs ?? 15_000);
      }),
      new Promise<void>((resolve) => {
        onAbort = resolve;
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    if (signal?.aborted) {
      // the upstreams started so far stop with their handshakes
      await this.close();
      throw signal.reason;
    }
    this.#started = true;
    this.#rebuild();
    this.#unsubscribe = this.#source.subscribe?.(() => this.#onLocalChange());
  }

  catalog(): Catalog {
    // a source without subscribe (or before its event) is still served from its current snapshot
    const current = this.#source.current();
    if (current !== this.#local && current !== this.#rejected) this.#onLocalChange();
    if (this.#catalog === undefined) this.#rebuild();
    return this.#catalog!;
  }

  status(): GatewayStatus {
    return {
      ready: this.#started && !this.#closed,
      catalog: summarize(this.catalog()),
      servers: [...this.#connections.values()].map((connection) => connection.status()),
    };
  }

  listing(): { tools: string[]; hidden: { name: string; reason: string }[] } {
    const catalog = this.catalog();
    const hidden = [...catalog.shadowed];
    for (const tool of catalog.registry.list()) {
      const missing = missingContext(tool, this.context, catalog);
      if (missing.length > 0 && this.hideUnavailable) {
        hidden.push({ name: tool.name, reason: `missing context: ${missing.join(', ')}` });
        continue;
      }
      const entry = this.translations.get(catalog, tool);
      if (typeof entry === 'string') hidden.push({ name: tool.name, reason: entry });
    }
    const tools = listTools(this, catalog, this.context).map((tool) => tool.name);
    return { tools, hidden };
  }

  createSession(options: { stateless?: boolean } = {}): GatewaySession {
    return createGatewaySession(this, {
      name: this.#options.name ?? 'toolcap',
      version: this.#options.version ?? '0.0.0',
      stateless: options.stateless === true,
    });
  }

  async serveStdio(options: ServeStdioOptions): Promise<void> {
    const session = this.createSession();
    try {
      await serveStdio(session.server, options);
    } finally {
      session.dispose();
    }
  }

  async listen(options: HttpServeOptions = {}): Promise<HttpServeHandle> {
    // node:http and the SDK's HTTP transport load only for a gateway that serves HTTP
    const { serveHttp } = await import('./serve-http.js');
    const handle = await serveHttp(
      {
        createSession: (stateless) => this.createSession({ stateless }),
        readiness: () => {
          const upstreams: Record<string, number> = {};
          for (const connection of this.#connections.values()) {
            const { state } = connection.status();
            upstreams[state] = (upstreams[state] ?? 0) + 1;
          }
          return { ready: this.#started && !this.#closed, upstreams };
        },
      },
      options,
    );
    this.#http.push(handle);
    return handle;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe?.();
    await Promise.all(this.#http.splice(0).map((handle) => handle.close()));
    await Promise.all([...this.#connections.values()].map((connection) => connection.close()));
    this.#listeners.clear();
  }

  forward(
    route: UpstreamRoute,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const connection = this.#connections.get(route.server);
    if (connection === undefined) throw new Error(`no upstream named ${route.server}`);
    return connection.callTool(route.tool, input, { signal });
  }

  semanticFailed(message: string): void {
    this.#semanticRetryAt = Date.now() + SEMANTIC_RETRY_MS;
    this.#emit({ type: 'semantic-failed', message });
  }

  foundToolCalled(call: FoundToolCall): void {
    this.#emit({ type: 'found-tool-called', ...call });
  }

  semanticAvailable(): boolean {
    return Date.now() >= this.#semanticRetryAt;
  }

  isAvailable(route: UpstreamRoute): boolean {
    return this.#connections.get(route.server)?.status().state === 'available';
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #onListing(server: UpstreamServer, listing: UpstreamListing): void {
    const key = JSON.stringify(listing);
    if (this.#listings.get(server.name)?.key === key) return;
    this.#listings.set(server.name, { listing, key });
    if (this.#started && !this.#closed) this.#swap();
  }

  #onLocalChange(): void {
    const local = this.#source.current();
    if (local === this.#local || local === this.#rejected || this.#closed) return;
    const reading = readOverlays(local, this.#upstreamGroups(), this.#cwd());
    if (reading.problems.length > 0) {
      // a broken overlay edit keeps the catalog that serves now, as a broken group file does
      this.#rejected = local;
      this.#emit({ type: 'overlay-rejected', problems: reading.problems });
      return;
    }
    this.#local = local;
    this.#overlays = reading.overlays;
    this.#swap();
    this.#emit({ type: 'reloaded', registry: local, summary: summarize(this.#catalog!) });
  }

  #swap(): void {
    this.#rebuild();
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // one session's failure must not stop the others' notifications
      }
    }
  }

  #rebuild(): void {
    const catalog = this.#builder.build({
      local: this.#local,
      overlays: this.#overlays,
      upstreams: (this.#options.upstreams ?? []).map((server) => ({
        server,
        listing: this.#listings.get(server.name)?.listing,
      })),
      reserved: this.expose === 'all' ? [] : [FIND_TOOLS, CALL_TOOL],
      safePropertyNames: this.#options.safePropertyNames === true,
    });
    this.#catalog = catalog;
    this.#emit({ type: 'catalog', summary: summarize(catalog) });
    // find_tools with a semantic scorer: embed the catalog now, not on the first search
    if (this.expose !== 'all' && catalog.registry.settings.semantic !== undefined) {
      catalog.registry.prepareSemantic().catch((error: unknown) => {
        this.semanticFailed(errorMessage(error));
      });
    }
  }

  #upstreamGroups(): Set<string> {
    return new Set((this.#options.upstreams ?? []).map((server) => server.group));
  }

  #cwd(): string {
    return this.#options.cwd ?? process.cwd();
  }

  #emit(event: GatewayEvent): void {
    try {
      this.#options.onEvent?.(event);
    } catch {
      // a logger's failure must not stop the gateway
    }
  }
}

function summarize(catalog: Catalog): CatalogSummary {
  return {
    tools: catalog.registry.size,
    groups: catalog.registry
      .groups()
      .map(({ group, version, tools }) => ({ group, version, tools: tools.length })),
    renamed: catalog.renamed,
    renamedProperties: [...catalog.renamedProperties].map(([tool, renamed]) => ({
      server: catalog.routes.get(tool)!.server,
      tool,
      properties: [...renamed.toServed].map(([from, to]) => ({ from, to })),
    })),
    shadowed: catalog.shadowed,
    notes: catalog.notes,
  };
}
