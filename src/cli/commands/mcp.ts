import { readFile } from 'node:fs/promises';
import { constants as osConstants } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ToolcapError } from '../../errors/toolcap-error.js';
import { killRunningExecutables } from '../../execute/external/run-executable.js';
import type { Diagnostic } from '../../format/types.js';
import type { GatewayRename } from '../../mcp/gateway/build-catalog.js';
import {
  createGateway,
  type Gateway,
  type GatewayEvent,
} from '../../mcp/gateway/create-gateway.js';
import type { ExposeMode } from '../../mcp/gateway/gateway-session.js';
import type { HttpServeHandle } from '../../mcp/gateway/serve-http.js';
import { readUpstreamConfig, type UpstreamServer } from '../../mcp/gateway/upstream-config.js';
import type { UpstreamState } from '../../mcp/gateway/upstream-connection.js';
import { errorMessage } from '../../util/error-message.js';
import { shortenName } from '../../util/shorten-name.js';
import type { RegistryWatcher } from '../../watch/watch-registry.js';
import { CliUsageError } from '../cli-usage-error.js';
import type { CliIo } from '../io.js';
import { openPairRecorder, type PairRecorder } from '../pair-recorder.js';
import type { ParsedArgs } from '../parse-cli-args.js';
import {
  keyValuePairs,
  optionalString,
  parseCliArgs,
  positiveInteger,
  stringList,
} from '../parse-cli-args.js';
import { printDiagnostics } from '../print-diagnostics.js';
import {
  pathList,
  REGISTRY_OPTIONS,
  REGISTRY_OPTIONS_USAGE,
  requireSchemaDirs,
} from '../registry-options.js';
import {
  cliSemanticOptions,
  SEMANTIC_OPTIONS,
  SEMANTIC_OPTIONS_USAGE,
} from '../semantic-options.js';
import { EXECUTION_OPTIONS, EXECUTION_OPTIONS_USAGE, loadExecutionRegistry } from './run.js';

/** One-line summary for `toolcap help`. */
export const summary = 'serve the tools (and upstream MCP servers) to MCP clients';

/** Usage text. */
export const usage = `toolcap mcp [--schemas PATH]... [--upstream FILE] [--expose MODE] [--http HOST:PORT] [options]

Serves the loaded tools as a Model Context Protocol server on stdin/stdout, or over Streamable
HTTP with --http. With --upstream it is a gateway: every MCP server of FILE (the mcpServers
format of MCP clients) becomes one group of the catalog, its calls are validated here and
forwarded. Invalid input and failed calls come back as isError results; an unknown tool name is
a JSON-RPC error. On stdio only protocol messages are written to stdout; everything else goes to
stderr. Stops when stdin closes or on SIGINT, SIGTERM or SIGHUP (after answering the calls in
progress; with --http /readyz answers 503 meanwhile), then stops the upstream servers and exits
0. Exits 1 at start-up when a schema path does not exist (with --tools-dir or --upstream and no
--schemas, a missing ./schemas is no error). Guide: docs/guide/mcp.md.

Options:
${REGISTRY_OPTIONS_USAGE}
${EXECUTION_OPTIONS_USAGE}
  --upstream FILE          MCP servers to serve as groups ({"mcpServers": {...}}); a group file
                           named like a server's group overlays it
  --safe-property-names    with --upstream: serve the upstream tools' top-level property keys
                           that Anthropic and Bedrock reject (filter[id], $top, ...) under
                           names that match ^[a-zA-Z0-9_.-]{1,64}$; calls reach the server
                           with its own keys (without it, a note names such keys)
  --expose MODE            all (default): every tool; selected: pinned groups plus find_tools
                           and call_tool; search: only find_tools and call_tool
  --all-tools              also list tools whose required context is missing
  --watch                  reload when group files change: clients get
                           notifications/tools/list_changed; each reload prints its warnings,
                           a broken edit keeps the previous tools and prints its errors
  --call-timeout MS        limit of a forwarded call (default 60000)
  --record-pairs FILE      with --expose selected or search (not --stateless): append a line
                           to FILE when a session successfully calls a tool its latest
                           find_tools search returned ({"message": the query, "tool", "group",
                           ...}); toolcap learn --from pairs FILE adds them to the tools'
                           example requests
  --http HOST:PORT         serve Streamable HTTP at http://HOST:PORT/mcp (plus /healthz and
                           /readyz) instead of stdio; a non-loopback HOST needs TOOLCAP_MCP_TOKEN
  --stateless              with --http: no sessions, so any replica answers any request
  --allow-origin ORIGIN    with --http: an Origin browsers may send (repeatable; default none)
  --allow-host NAME        with --http: a Host header name to accept (repeatable)
  --max-message-bytes N    largest message or request body (default 4194304)
  --max-upstream-message-bytes N
                           with --upstream: largest message read from an upstream server; a
                           larger answer fails its call (default 10485760, at least 1024)
  With --expose selected or search, find_tools can also rank by meaning:
${SEMANTIC_OPTIONS_USAGE}

Environment: TOOLCAP_MCP_TOKEN, the bearer token every HTTP request must send.`;

const EXPOSE_MODES: readonly ExposeMode[] = ['all', 'selected', 'search'];
/** How long start-up waits for the upstreams' first connection before serving without them. */
const STARTUP_WAIT_MS = 15_000;

/** Runs `toolcap mcp` until the client disconnects (stdio) or a signal arrives (HTTP). */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(
    'mcp',
    args,
    {
      ...REGISTRY_OPTIONS,
      ...EXECUTION_OPTIONS,
      ...SEMANTIC_OPTIONS,
      'all-tools': { type: 'boolean' },
      watch: { type: 'boolean' },
      upstream: { type: 'string' },
      'safe-property-names': { type: 'boolean' },
      expose: { type: 'string' },
      'call-timeout': { type: 'string' },
      http: { type: 'string' },
      stateless: { type: 'boolean' },
      'allow-origin': { type: 'string', multiple: true },
      'allow-host': { type: 'string', multiple: true },
      'max-message-bytes': { type: 'string' },
      'max-upstream-message-bytes': { type: 'string' },
      'record-pairs': { type: 'string' },
    },
    { min: 0, max: 0, names: 'none' },
  );
  const context = keyValuePairs('mcp', 'context', values.context);
  const expose = readExpose(optionalString(values.expose));
  const callTimeoutMs = positiveInteger('mcp', 'call-timeout', values['call-timeout']);
  const maxMessageBytes = positiveInteger('mcp', 'max-message-bytes', values['max-message-bytes']);
  const maxUpstreamMessageBytes = positiveInteger(
    'mcp',
    'max-upstream-message-bytes',
    values['max-upstream-message-bytes'],
  );
  const http = readHttp(values, io);
  const upstreamFile = optionalString(values.upstream);
  if (maxUpstreamMessageBytes !== undefined && maxUpstreamMessageBytes < 1024) {
    throw new CliUsageError(
      `--max-upstream-message-bytes ${maxUpstreamMessageBytes} is too small: an upstream's handshake alone may need more; give at least 1024`,
      'mcp',
    );
  }
  if (upstreamFile === undefined && maxUpstreamMessageBytes !== undefined) {
    throw new CliUsageError(
      '--max-upstream-message-bytes limits what upstream MCP servers send: it only applies with --upstream FILE',
      'mcp',
    );
  }
  if (upstreamFile === undefined && callTimeoutMs !== undefined) {
    throw new CliUsageError(
      "--call-timeout limits calls forwarded to upstream MCP servers: it only applies with --upstream FILE (a local tool's limit comes from its latency_estimate)",
      'mcp',
    );
  }
  if (upstreamFile === undefined && values['safe-property-names'] === true) {
    throw new CliUsageError(
      "--safe-property-names renames the property keys of upstream MCP servers' tools: it only applies with --upstream FILE",
      'mcp',
    );
  }
  const upstreams = upstreamFile === undefined ? [] : await readUpstreams(upstreamFile, io);
  const semantic = await cliSemanticOptions('mcp', values, io);
  const pairsFile = optionalString(values['record-pairs']);
  if (pairsFile !== undefined && expose === 'all') {
    throw new CliUsageError(
      '--record-pairs records the tools found with find_tools, which only --expose selected or --expose search offer',
      'mcp',
    );
  }
  if (pairsFile !== undefined && values.stateless === true) {
    throw new CliUsageError(
      '--record-pairs needs sessions: with --stateless each HTTP request stands alone, so no search can be connected to the call after it',
      'mcp',
    );
  }
  const recorder: PairRecorder | undefined =
    pairsFile === undefined
      ? undefined
      : await openPairRecorder(pairsFile, resolve(io.cwd, pairsFile), io);

  const schemas = pathList('mcp', 'schemas', values.schemas);
  // a gateway of upstreams alone needs no ./schemas: do not report it missing
  const noLocalDir = upstreams.length > 0 && schemas.length === 0;
  const reported = (diagnostics: readonly Diagnostic[]) =>
    diagnostics.filter(
      (diagnostic) => !(noLocalDir && diagnostic.code === 'SCHEMAS_DIR_NOT_FOUND'),
    );
  const upstreamStates = new Map<string, UpstreamState>(
    upstreams.map((server) => [server.name, 'connecting']),
  );
  const log = createEventLog(io);
  // SIGINT, SIGTERM and SIGHUP stop the server in order at any point, start-up included: the
  // calls in progress finish and the upstream servers are stopped, on stdio as over HTTP
  // the upstream processes as they were when the stop began (a stopping server no longer
  // reports its pid): a second signal kills them rather than leave them running
  let upstreamPids: number[] = [];
  const stopping = onStopSignal(() => {
    // the external tools still running too: their process groups would outlive this process
    killRunningExecutables();
    for (const pid of upstreamPids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  let gateway: Gateway | undefined;
  // a stop during start-up is said at once: stopping the upstreams may take seconds
  let toldStopping = false;
  stopping.signal.addEventListener(
    'abort',
    () => {
      upstreamPids = gateway?.status().servers.flatMap((server) => server.pid ?? []) ?? [];
      if (gateway === undefined) {
        io.stderr('toolcap mcp: stopping (during start-up)\n');
        toldStopping = true;
      }
    },
    { once: true },
  );
  // each tool left out is said once, at start-up or at the reload that leaves it out
  const toldHidden = new Set<string>();
  const printHidden = (hidden: readonly { name: string; reason: string }[]) => {
    for (const { name, reason } of hidden) {
      const key = `${name}\0${reason}`;
      if (toldHidden.has(key)) continue;
      toldHidden.add(key);
      io.stderr(`toolcap mcp: not listing ${name} (${reason})\n`);
    }
  };
  // listen before the slow part (loading, the upstreams' first connection): meanwhile /healthz
  // answers and /readyz says "starting", instead of a refused connection
  const endpoint =
    http === undefined
      ? undefined
      : await listenHttp(values, io, {
          ...http,
          ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
          drainTimeoutMs: (callTimeoutMs ?? 60_000) + 5_000,
          gateway: () => gateway,
          upstreamStates,
        });
  let watcher: RegistryWatcher | undefined;
  try {
    watcher =
      values.watch === true
        ? await (await import('../../watch/watch-registry.js')).watchRegistry({
            dirs: schemas.length > 0 ? schemas : ['schemas'],
            cwd: io.cwd,
            load: () => loadExecutionRegistry('mcp', values, io, undefined, semantic),
          })
        : undefined;
    const registry =
      watcher?.current() ?? (await loadExecutionRegistry('mcp', values, io, undefined, semantic));
    // upstreams alone need no ./schemas: without --schemas, a missing default is then no error
    const diagnostics = reported(registry.diagnostics);
    // a typo in a client's configuration must fail at start-up, not serve zero tools
    requireSchemaDirs(diagnostics);
    printDiagnostics(io, diagnostics);

    gateway = await createGateway({
      registry: watcher ?? registry,
      upstreams,
      expose,
      context,
      hideUnavailable: values['all-tools'] !== true,
      safePropertyNames: values['safe-property-names'] === true,
      ...(maxUpstreamMessageBytes === undefined ? {} : { maxUpstreamMessageBytes }),
      name: 'toolcap',
      version: await readPackageVersion(),
      cwd: io.cwd,
      startupWaitMs: STARTUP_WAIT_MS,
      ...(callTimeoutMs === undefined ? {} : { callTimeoutMs }),
      signal: stopping.signal,
      onEvent: (event) => {
        if (event.type === 'upstream') upstreamStates.set(event.status.name, event.status.state);
        if (event.type === 'found-tool-called') recorder?.record(event);
        if (event.type === 'reloaded') {
          // only now is the reload served: an edit whose overlays are broken never gets here
          const served =
            upstreams.length === 0
              ? ''
              : `; serving ${event.summary.tools} with the upstream servers' tools`;
          io.stderr(`toolcap mcp: reloaded the tools (${event.registry.size} loaded${served})\n`);
          printDiagnostics(io, reported(event.registry.diagnostics));
          // a new local tool under an upstream tool's name is left out: say so, as at start-up
          if (gateway !== undefined) printHidden(gateway.listing().hidden);
        }
        log(event);
      },
    });
    // start-up stopped waiting for these: say so now, not when their handshake times out
    for (const server of gateway.status().servers) {
      if (server.state !== 'connecting') continue;
      io.stderr(
        `toolcap mcp: upstream "${server.name}" still connecting after ${STARTUP_WAIT_MS / 1_000} s; serving without its tools until it answers\n`,
      );
    }
    const { tools, hidden } = gateway.listing();
    printHidden(hidden);
    // a swapped registry is reported by the gateway's `reloaded` event, once it serves it
    watcher?.subscribe((change) => {
      if (change.type === 'swapped') return;
      if (change.type === 'rejected') {
        io.stderr('toolcap mcp: an edit has errors; still serving the previous tools\n');
        printDiagnostics(io, change.errors);
      } else {
        io.stderr(
          `toolcap mcp: reloading the tools failed (${errorMessage(change.error)}); still serving the previous tools\n`,
        );
      }
    });

    if (endpoint !== undefined) {
      io.stderr(
        `toolcap mcp: serving ${tools.length} tool(s) at ${endpoint.url}${values.stateless === true ? ' (stateless)' : ''}\n`,
      );
      await stopping.stopped;
      // the endpoint starts refusing in the same tick (in finally), so /readyz says 503 from now
      io.stderr('toolcap mcp: stopping\n');
    } else {
      io.stderr(`toolcap mcp: serving ${tools.length} tool(s) over stdio\n`);
      const onSignal = () => io.stderr('toolcap mcp: stopping\n');
      stopping.signal.addEventListener('abort', onSignal, { once: true });
      await gateway.serveStdio({
        input: (io.stdin ?? process.stdin) as Readable,
        write: io.stdout,
        ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
        drainTimeoutMs: (callTimeoutMs ?? 60_000) + 5_000,
        onProblem: (problem) => io.stderr(`toolcap mcp: refused a message: ${problem}\n`),
        signal: stopping.signal,
      });
      stopping.signal.removeEventListener('abort', onSignal);
    }
  } catch (error) {
    // a signal during start-up: createGateway stopped the upstreams it had started
    if (!stopping.signal.aborted) throw error;
    if (!toldStopping) io.stderr('toolcap mcp: stopping (during start-up)\n');
  } finally {
    try {
      // the requests in progress finish first: they may still need the upstream servers
      await endpoint?.close();
      await gateway?.close();
      await watcher?.close();
      await recorder?.close();
    } finally {
      // until the upstreams are stopped, a second signal still kills them on its way out
      stopping.dispose();
    }
  }
  return 0;
}

/**
 * Listens on `--http` at once, before the gateway exists: until `gateway()` returns one,
 * `/readyz` answers 503 "starting" and MCP requests 503. Counts per upstream state come from
 * the gateway's events.
 */
async function listenHttp(
  values: ParsedArgs['values'],
  io: CliIo,
  options: {
    host: string;
    port: number;
    maxMessageBytes?: number;
    drainTimeoutMs: number;
    gateway: () => Gateway | undefined;
    upstreamStates: ReadonlyMap<string, UpstreamState>;
  },
): Promise<HttpServeHandle> {
  // node:http and the SDK's HTTP transport load only for --http
  const { serveHttp } = await import('../../mcp/gateway/serve-http.js');
  const handle = await listenOrExplain(options.host, options.port, () =>
    serveHttp(
      {
        createSession: (stateless) => {
          const gateway = options.gateway();
          // the endpoint asks for sessions only once readiness() says ready
          if (gateway === undefined) throw new Error('the gateway has not started yet');
          return gateway.createSession({ stateless });
        },
        readiness: () => {
          const upstreams: Record<string, number> = {};
          for (const state of options.upstreamStates.values())
            upstreams[state] = (upstreams[state] ?? 0) + 1;
          return options.gateway() === undefined
            ? { ready: false, reason: 'starting', upstreams }
            : { ready: true, upstreams };
        },
      },
      {
        host: options.host,
        port: options.port,
        ...(io.env.TOOLCAP_MCP_TOKEN === undefined ? {} : { token: io.env.TOOLCAP_MCP_TOKEN }),
        stateless: values.stateless === true,
        allowedOrigins: stringList(values['allow-origin']),
        allowedHosts: stringList(values['allow-host']),
        ...(options.maxMessageBytes === undefined ? {} : { maxBodyBytes: options.maxMessageBytes }),
        drainTimeoutMs: options.drainTimeoutMs,
      },
    ),
  );
  io.stderr(`toolcap mcp: listening at ${handle.url} (starting)\n`);
  return handle;
}

/**
 * Runs `listen`, turning the errors of a port in use or not allowed into a usage error that
 * says so, instead of an unexpected error.
 */
async function listenOrExplain<T>(
  host: string,
  port: number,
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code === 'EADDRINUSE') {
      throw new ToolcapError(
        'MCP_LISTEN_FAILED',
        `--http ${host}:${port}: the port is in use by another process; stop it, or choose another port`,
      );
    }
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new ToolcapError(
        'MCP_LISTEN_FAILED',
        `--http ${host}:${port}: cannot listen there (${code === 'EACCES' ? 'a port below 1024 needs privileges' : 'the address is not on this machine'}); choose another address or port`,
      );
    }
    throw error;
  }
}

function readExpose(value: string | undefined): ExposeMode {
  if (value === undefined) return 'all';
  if (!(EXPOSE_MODES as readonly string[]).includes(value)) {
    throw new CliUsageError(
      `unknown --expose ${JSON.stringify(value)}; use ${EXPOSE_MODES.join(', ')}`,
      'mcp',
    );
  }
  return value as ExposeMode;
}

/** `--http HOST:PORT` (`PORT` alone means 127.0.0.1; IPv6 as `[::1]:PORT`). */
function readHttp(
  values: Record<string, unknown>,
  io: CliIo,
): { host: string; port: number } | undefined {
  const text = optionalString(values.http as string | undefined);
  const httpOnly = ['stateless', 'allow-origin', 'allow-host'].filter(
    (name) => values[name] !== undefined,
  );
  if (text === undefined) {
    if (httpOnly.length > 0) {
      throw new CliUsageError(`--${httpOnly[0]} only applies with --http HOST:PORT`, 'mcp');
    }
    return undefined;
  }
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null) {
    throw new CliUsageError(
      `--http ${JSON.stringify(text)} is not HOST:PORT; e.g. --http 127.0.0.1:8080`,
      'mcp',
    );
  }
  if (port > 65_535) {
    throw new CliUsageError(
      `--http ${JSON.stringify(text)}: port ${port} is out of range (0 to 65535; 0 picks a free port)`,
      'mcp',
    );
  }
  const host = (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, '');
  const token = io.env.TOOLCAP_MCP_TOKEN;
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
  if (!loopback && (token === undefined || token === '')) {
    throw new CliUsageError(
      `--http ${text} listens beyond this machine: set TOOLCAP_MCP_TOKEN (clients send "Authorization: Bearer <token>"), or listen on 127.0.0.1`,
      'mcp',
    );
  }
  return { host, port };
}

async function readUpstreams(file: string, io: CliIo): Promise<UpstreamServer[]> {
  const config = await readUpstreamConfig(resolve(io.cwd, file), { file, env: io.env });
  for (const note of config.notes) io.stderr(`toolcap mcp: ${note}\n`);
  return config.servers;
}

/** Prints gateway events on stderr; notes and renames only when they change. */
function createEventLog(io: CliIo): (event: GatewayEvent) => void {
  let printedNotes = new Set<string>();
  return (event) => {
    switch (event.type) {
      case 'upstream': {
        const { status } = event;
        if (status.state === 'available') {
          const info =
            status.server === undefined ? '' : `${status.server.name} ${status.server.version}, `;
          io.stderr(
            `toolcap mcp: upstream "${status.name}" available (${info}${status.tools} tool(s)${status.pid === undefined ? '' : `, pid ${status.pid}`})\n`,
          );
          if (status.offersTools === false) {
            io.stderr(
              `toolcap mcp: upstream "${status.name}" offers no tools (its initialize result has no "tools" capability); it stays connected with 0 tools\n`,
            );
          }
        } else if (status.state === 'unavailable') {
          io.stderr(
            `toolcap mcp: upstream "${status.name}" unavailable: ${status.reason ?? 'unknown reason'}; retrying in ${status.retryInMs ?? 0} ms\n`,
          );
        }
        return;
      }
      case 'stderr':
        io.stderr(`[${event.server}] ${event.line}\n`);
        return;
      case 'upstream-problem':
        io.stderr(`toolcap mcp: upstream "${event.server}": ${event.problem}\n`);
        return;
      case 'semantic-failed':
        io.stderr(
          `toolcap mcp: semantic scoring failed, find_tools answered by words alone: ${event.message}\n`,
        );
        return;
      case 'overlay-rejected':
        io.stderr('toolcap mcp: an overlay edit has errors; still serving the previous tools\n');
        for (const problem of event.problems) io.stderr(`  ${problem}\n`);
        return;
      case 'found-tool-called':
      case 'reloaded':
        return;
      case 'catalog': {
        const lines = [
          ...event.summary.renamed.map(
            (entry) =>
              `renamed ${JSON.stringify(shortenName(entry.from))} of upstream "${entry.server}" to "${entry.to}" (${renameReason(entry)})`,
          ),
          ...event.summary.notes,
        ];
        const next = new Set(lines);
        for (const line of lines) if (!printedNotes.has(line)) io.stderr(`toolcap mcp: ${line}\n`);
        printedNotes = next;
        return;
      }
    }
  };
}

/** Why an upstream tool is served under another name, for the operator. */
function renameReason(entry: GatewayRename): string {
  switch (entry.reason) {
    case 'invalid':
      return 'not a valid tool name';
    case 'duplicate':
      return 'the server lists another tool under that name';
    case 'collision':
      return 'the name is taken by another group';
    case 'reserved':
      return "the name is the gateway's own tool in this --expose mode";
    case 'served':
      return `${entry.heldBy === undefined || entry.heldBy === 'local' ? 'a local tool' : `upstream "${entry.heldBy.server}"`} had the name before "${entry.server}" came up; a served name keeps its tool while the gateway runs, a restart names tools by file order`;
  }
}

/** The signals that stop `toolcap mcp` in order (SIGHUP: the terminal or session went away). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * A signal aborted by the first stop signal, and a promise of that moment. A second signal ends
 * the process at once; `beforeForcedExit` runs first (to kill the upstream servers, which an
 * orderly stop would have stopped).
 */
function onStopSignal(beforeForcedExit: () => void): {
  signal: AbortSignal;
  stopped: Promise<void>;
  dispose(): void;
} {
  const controller = new AbortController();
  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });
  const force = (name: NodeJS.Signals) => {
    try {
      beforeForcedExit();
    } finally {
      process.exit(128 + (osConstants.signals[name] ?? 0));
    }
  };
  const stop = () => {
    for (const name of STOP_SIGNALS) process.off(name, stop);
    for (const name of STOP_SIGNALS) process.once(name, force);
    controller.abort(new Error('stopped by a signal'));
    resolveStopped();
  };
  const dispose = () => {
    for (const name of STOP_SIGNALS) {
      process.off(name, stop);
      process.off(name, force);
    }
  };
  for (const name of STOP_SIGNALS) process.once(name, stop);
  return { signal: controller.signal, stopped, dispose };
}

async function readPackageVersion(): Promise<string> {
  // src/cli/commands and dist/src/cli/commands sit at different depths: walk up to the package
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    try {
      const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'tool-capabilities') return manifest.version ?? '0.0.0';
    } catch {
      // not here; keep walking up
    }
    directory = dirname(directory);
  }
  return '0.0.0';
}
