import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../io.js';
import { keyValuePairs, parseCliArgs, stringList } from '../parse-cli-args.js';
import { printDiagnostics } from '../print-diagnostics.js';
import {
  REGISTRY_OPTIONS,
  REGISTRY_OPTIONS_USAGE,
  requireSchemaDirs,
} from '../registry-options.js';
import { EXECUTION_OPTIONS, EXECUTION_OPTIONS_USAGE, loadExecutionRegistry } from './run.js';

/** One-line summary for `toolcap help`. */
export const summary = 'serve the tools to MCP clients over stdio';

/** Usage text. */
export const usage = `toolcap mcp [--schemas PATH]... [--handlers DIR]... [--tools-dir DIR]... [--context KEY=VALUE]... [--watch]

Serves the loaded tools as a Model Context Protocol server on stdin/stdout. tools/list returns
the MCP translation of every tool whose requires_context keys are given with --context;
tools/call runs the tool with that context. Invalid input and failed calls come back as
isError results; an unknown tool name is a JSON-RPC error. Only protocol messages are written to
stdout; diagnostics and notes go to stderr. Stops when stdin closes. Exits 1 at start-up when
a schema path does not exist (with --tools-dir and no --schemas, a missing ./schemas is no
error).

Options:
${REGISTRY_OPTIONS_USAGE}
${EXECUTION_OPTIONS_USAGE}
  --all-tools              also list tools whose required context is missing
  --watch                  reload when group files change: tools/list answers from the new
                           tools and clients get notifications/tools/list_changed; a broken
                           edit keeps the previous tools and prints its diagnostics`;

/** Runs `toolcap mcp` until the client disconnects. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(
    'mcp',
    args,
    {
      ...REGISTRY_OPTIONS,
      ...EXECUTION_OPTIONS,
      'all-tools': { type: 'boolean' },
      watch: { type: 'boolean' },
    },
    { min: 0, max: 0, names: 'none' },
  );
  const context = keyValuePairs('mcp', 'context', values.context);
  const watcher =
    values.watch === true
      ? await (await import('../../watch/watch-registry.js')).watchRegistry({
          dirs: stringList(values.schemas).length > 0 ? stringList(values.schemas) : ['schemas'],
          cwd: io.cwd,
          load: () => loadExecutionRegistry('mcp', values, io),
        })
      : undefined;
  const registry = watcher?.current() ?? (await loadExecutionRegistry('mcp', values, io));
  // a typo in a client's configuration must fail at start-up, not serve zero tools
  if (registry.diagnostics.some((diagnostic) => diagnostic.code === 'SCHEMAS_DIR_NOT_FOUND')) {
    await watcher?.close();
    requireSchemaDirs(registry.diagnostics);
  }
  printDiagnostics(io, registry.diagnostics);
  const [{ createMcpServer }, { StdioServerTransport }] = await Promise.all([
    import('../../mcp/create-mcp-server.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const { server, tools, hidden } = await createMcpServer(watcher ?? registry, {
    context,
    name: 'toolcap',
    version: await readPackageVersion(),
    hideUnavailable: values['all-tools'] !== true,
  });
  for (const { name, reason } of hidden)
    io.stderr(`toolcap mcp: not listing ${name} (${reason})\n`);
  io.stderr(`toolcap mcp: serving ${tools.length} tool(s) over stdio\n`);

  const stdin = (io.stdin ?? process.stdin) as Readable;
  // everything the transport writes goes through io.stdout: protocol messages only
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      io.stdout(chunk.toString('utf8'));
      callback();
    },
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport(stdin, stdout));
  watcher?.subscribe((change) => {
    if (change.type === 'swapped') {
      io.stderr(`toolcap mcp: reloaded the tools (${change.registry.size} loaded)\n`);
      void server.sendToolListChanged().catch(() => {});
    } else if (change.type === 'rejected') {
      io.stderr('toolcap mcp: an edit has errors; still serving the previous tools\n');
      printDiagnostics(io, change.errors);
    }
  });
  const stop = () => {
    void server.close();
  };
  stdin.once('end', stop);
  stdin.once('close', stop);
  await closed;
  await watcher?.close();
  return 0;
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
