import { resolve } from 'node:path';
import { formatDiagnostic } from '../../format/format-diagnostic.js';
import { DEFAULT_LOAD_LIMITS } from '../../format/limits.js';
import { findGroupFilePaths } from '../../migrate/example-request-files.js';
import {
  DEFAULT_GENERATED_PER_TOOL,
  type GenerateExamplesReport,
  generateExampleRequests,
} from '../../migrate/generate-example-requests.js';
import { errorMessage } from '../../util/error-message.js';
import { CliUsageError } from '../cli-usage-error.js';
import { formatTable } from '../format-table.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import { optionalString, parseCliArgs, positiveInteger, stringList } from '../parse-cli-args.js';
import { writtenGroupHeading } from '../written-group-heading.js';

/** The environment variable holding the chat API key. */
export const CHAT_API_KEY_ENV = 'TOOLCAP_CHAT_API_KEY';

/** One-line summary for `toolcap help`. */
export const summary = 'have a chat model write example requests for tools that have few';

/** Usage text. */
export const usage = `toolcap examples --chat-url URL --model NAME [options]

Asks a chat model (any server that speaks OpenAI's /v1/chat/completions: OpenAI, Ollama, vLLM,
llama.cpp, LM Studio) to write example requests for each tool of the group files that has fewer
than --per-tool, from the tool's name, description, parameters, group and sibling tools, and
adds them to the tools' "example_requests" as toolcap learn does: no repeats or
near-duplicates, one patch bump per changed group, each file checked and replaced atomically.
Search, and select with --relevance K or --fallback K, rank by these requests. Read them before
you commit: a model's guesses are a start, real users' messages (toolcap learn) are better.
With --upstream, the tools of the MCP servers of FILE (listed live) get requests in their
groups' overlay files (x-upstream.tools); a server whose group has no overlay file is skipped
and named. Details: docs/guide/learning.md.

Exit 0 when every request was answered, 1 when a request failed or an answer was unusable (the
others are still written), a --tool names no tool, an upstream server could not be listed or
its group has no overlay file, no group file was found, or a file could not be written, 2 on a
usage error.

Options:
  --chat-url URL           the API base up to /v1, e.g. http://localhost:11434/v1 (required)
  --model NAME             the chat model (required)
  --schemas PATH           a directory of *_tools.json files, or one such file (repeatable;
                           default ./schemas)
  --per-tool N             example requests each tool should have (default ${DEFAULT_GENERATED_PER_TOOL})
  --tool NAME              only this tool (repeatable)
  --upstream FILE          also the tools of these MCP servers ({"mcpServers": {...}}), into
                           their groups' overlay files
  --server NAME            with --upstream: only this server (repeatable)
  --concurrency N          requests in flight at once, 1-64 (default 4)
  --timeout MS             limit of one request, at most 3600000 (default 120000)
  --dry-run                show what would be added; write nothing
  --json                   print the report as JSON (docs/guide/learning.md describes it)

Environment: ${CHAT_API_KEY_ENV}, sent as "Authorization: Bearer <key>" when set.`;

/** Runs `toolcap examples`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(
    'examples',
    args,
    {
      'chat-url': { type: 'string' },
      model: { type: 'string' },
      schemas: { type: 'string', multiple: true },
      'per-tool': { type: 'string' },
      tool: { type: 'string', multiple: true },
      upstream: { type: 'string' },
      server: { type: 'string', multiple: true },
      concurrency: { type: 'string' },
      timeout: { type: 'string' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    { min: 0, max: 0, names: 'none' },
  );
  const baseURL = optionalString(values['chat-url']);
  const model = optionalString(values.model);
  if (baseURL === undefined || baseURL === '' || model === undefined || model === '') {
    throw new CliUsageError(
      `${baseURL === undefined || baseURL === '' ? '--chat-url URL' : '--model NAME'} is required: the chat endpoint and model that write the requests, e.g. --chat-url http://localhost:11434/v1 --model llama3.1`,
      'examples',
    );
  }
  const perTool = positiveInteger('examples', 'per-tool', values['per-tool']);
  if (perTool !== undefined && perTool > DEFAULT_LOAD_LIMITS.maxExampleRequests) {
    throw new CliUsageError(
      `--per-tool must be at most ${DEFAULT_LOAD_LIMITS.maxExampleRequests} (the most example requests a tool may have), got ${perTool}`,
      'examples',
    );
  }
  const concurrency = atMost('concurrency', values.concurrency, 64);
  const timeoutMs = atMost('timeout', values.timeout, 3_600_000);
  const schemas = stringList(values.schemas);
  const tools = stringList(values.tool);
  const apiKey = io.env[CHAT_API_KEY_ENV];
  // a mistyped --schemas is reported before any server is started and listed
  await findGroupFilePaths(schemas.length > 0 ? schemas : ['schemas'], io.cwd);
  const upstream = await listUpstreams(
    optionalString(values.upstream),
    stringList(values.server),
    io,
  );
  let report: GenerateExamplesReport;
  try {
    report = await generateExampleRequests({
      baseURL,
      model,
      cwd: io.cwd,
      ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
      ...(schemas.length > 0 ? { schemas } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      ...(upstream === undefined ? {} : { upstream: upstream.tools }),
      ...(perTool !== undefined ? { perTool } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      dryRun: values['dry-run'] === true,
    });
  } catch (error) {
    // option problems here come from the flags (the URL): a usage error
    if ((error as { code?: unknown }).code === 'EXAMPLES_INVALID_OPTIONS') {
      throw new CliUsageError(
        (error as Error).message
          .replace(/^generateExampleRequests: "baseURL"/, '--chat-url')
          .replace('pass the key as "apiKey"', `set ${CHAT_API_KEY_ENV} instead`),
        'examples',
      );
    }
    throw error;
  }

  if (values.json === true) {
    // which servers could not be listed belongs in the report CI reads
    writeJson(
      io,
      upstream === undefined ? report : { ...report, upstream_errors: upstream.errors },
    );
  } else printReport(io, report);
  const unwritten = report.groups.filter((group) => group.error !== undefined);
  for (const group of unwritten) {
    io.stderr(`toolcap: could not write ${group.file}: ${group.error}\n`);
  }
  return (upstream?.errors.length ?? 0) > 0 ||
    unwritten.length > 0 ||
    report.failed.length > 0 ||
    report.stopped !== undefined ||
    report.unknown_tools.length > 0 ||
    report.no_overlay.length > 0 ||
    report.upstream_tools.length > 0
    ? 1
    : 0;
}

/**
 * The live tools of the servers of `file` (all, or those of `servers`) by group; a server that
 * cannot be listed is reported on stderr and left out.
 */
async function listUpstreams(
  file: string | undefined,
  servers: readonly string[],
  io: CliIo,
): Promise<
  | { tools: Record<string, readonly unknown[]>; errors: { server: string; error: string }[] }
  | undefined
> {
  if (file === undefined) {
    if (servers.length > 0)
      throw new CliUsageError('--server NAME needs --upstream FILE', 'examples');
    return undefined;
  }
  if (file === '') {
    throw new CliUsageError(
      '--upstream needs the servers file, e.g. --upstream servers.json',
      'examples',
    );
  }
  // the MCP client loads only for --upstream
  const [{ snapshotUpstream }, { readUpstreamConfig }] = await Promise.all([
    import('../../mcp/gateway/snapshot-upstream.js'),
    import('../../mcp/gateway/upstream-config.js'),
  ]);
  const path = resolve(io.cwd, file);
  const config = await readUpstreamConfig(path, { file, env: io.env });
  const names = config.servers.map((server) => server.name);
  const unknown = servers.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new CliUsageError(
      `${file} has no enabled server ${unknown.map((name) => JSON.stringify(name)).join(', ')}; its servers: ${names.join(', ')}`,
      'examples',
    );
  }
  const tools: Record<string, readonly unknown[]> = {};
  const errors: { server: string; error: string }[] = [];
  const chosen = servers.length > 0 ? servers : names;
  // at the same time: a server that hangs costs its time limit once, not once per server before it
  const listed = await Promise.allSettled(
    chosen.map((name) => snapshotUpstream(path, { file, name, env: io.env })),
  );
  listed.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') {
      tools[outcome.value.group] = outcome.value.tools;
      return;
    }
    errors.push({ server: chosen[index]!, error: errorMessage(outcome.reason) });
    io.stderr(`toolcap examples: ${errorMessage(outcome.reason)}; its tools are left out\n`);
  });
  return { tools, errors };
}

/** A positive integer flag of at most `max`. */
function atMost(
  name: string,
  value: Parameters<typeof positiveInteger>[2],
  max: number,
): number | undefined {
  const number = positiveInteger('examples', name, value);
  if (number !== undefined && number > max) {
    throw new CliUsageError(`--${name} must be at most ${max}, got ${number}`, 'examples');
  }
  return number;
}

function printReport(io: CliIo, report: GenerateExamplesReport): void {
  const style = createStyle(useColor(io));
  io.stdout(
    `Asked ${report.model} at ${report.endpoint} about ${report.requested} tool(s) with fewer than ${report.per_tool} example requests (${report.complete} already had enough)\n`,
  );
  for (const group of report.groups) {
    io.stdout(writtenGroupHeading(style, group, report.dry_run));
    const rows = group.tools.map((tool) => [
      tool.tool,
      String(tool.added.length),
      String(tool.total),
    ]);
    io.stdout(`${formatTable(['TOOL', 'ADDED', 'TOTAL'], rows)}\n`);
    for (const tool of group.tools) {
      for (const request of tool.added) io.stdout(`  ${tool.tool} + ${request}\n`);
    }
  }
  const { skipped } = report;
  io.stdout(
    `\nNot added: ${skipped.duplicate} duplicate(s), ${skipped.near_duplicate} near-duplicate(s), ${skipped.over_cap} beyond what the tool needed, ${skipped.invalid} empty or not a string${report.truncated > 0 ? `; ${report.truncated} shortened to the length limit` : ''}\n`,
  );
  const older = new Map(report.older_version_tools.map((entry) => [entry.tool, entry]));
  const unknown = report.unknown_tools.filter((name) => !older.has(name));
  if (unknown.length > 0) {
    const similar = new Map(report.similar_tools.map((entry) => [entry.tool, entry.similar]));
    const named = unknown.map((name) => {
      const close = similar.get(name);
      return close === undefined
        ? `"${name}"`
        : `"${name}" (did you mean ${close.map((other) => `"${other}"`).join(' or ')}?)`;
    });
    io.stderr(`${style.yellow('No group file defines')} ${named.join(', ')}\n`);
  }
  for (const { tool, group, version, file } of older.values()) {
    io.stderr(
      `${style.yellow('Not in the loaded version')}: "${tool}" is only in ${group}@${version} (${file}), a lower version than the one loaded; requests are written to the loaded version, so add the tool there first\n`,
    );
  }
  if (report.upstream_tools.length > 0) {
    io.stderr(
      `${style.yellow('Left out')} ${report.upstream_tools.map((name) => `"${name}"`).join(', ')}: tools of upstream MCP servers; add --upstream FILE (the servers' configuration) to write requests for them\n`,
    );
  }
  if (report.no_overlay.length > 0) {
    io.stderr(
      `${style.yellow('No valid overlay file')} for the upstream groups ${report.no_overlay.join(', ')}: their requests go in one (a group file named after the group, with "tools": [] and "x-upstream": {}, its header complete: description, selection; see docs/guide/mcp.md); create or fix it and run again\n`,
    );
  }
  if (report.overlay_groups.length > 0) {
    io.stderr(
      `The overlay groups ${report.overlay_groups.join(', ')} hold tools of upstream MCP servers: add --upstream FILE (the servers' configuration) to write requests for them\n`,
    );
  }
  if (report.failed.length > 0) {
    io.stderr(`${style.yellow(`No requests for ${report.failed.length} tool(s)`)}:\n`);
    for (const failure of report.failed.slice(0, 20)) {
      io.stderr(`  ${failure.group}/${failure.tool}: ${flagNames(failure.error)}\n`);
    }
    if (report.failed.length > 20) io.stderr(`  ... and ${report.failed.length - 20} more\n`);
  }
  if (report.stopped !== undefined) {
    io.stderr(`${style.red('Stopped')}: ${flagNames(report.stopped)}\n`);
  }
  for (const diagnostic of report.diagnostics) io.stderr(`${formatDiagnostic(diagnostic)}\n`);
}

/** A library message with its option names replaced by the flags that set them here. */
function flagNames(message: string): string {
  return message.replaceAll('(timeoutMs)', '(--timeout)');
}
