import { formatDiagnostic } from '../../format/format-diagnostic.js';
import { DEFAULT_LOAD_LIMITS } from '../../format/limits.js';
import {
  DEFAULT_MAX_EXAMPLE_REQUESTS_PER_TOOL,
  type LearnReport,
  learnFromTranscripts,
} from '../../migrate/learn-from-transcripts.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../migrate/parse-transcript-line.js';
import { CliUsageError } from '../cli-usage-error.js';
import { formatTable } from '../format-table.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import { optionalString, parseCliArgs, positiveInteger, stringList } from '../parse-cli-args.js';
import { writtenGroupHeading } from '../written-group-heading.js';

/** One-line summary for `toolcap help`. */
export const summary = "add past users' messages to the tools they led to (example_requests)";

/** Usage text. */
export const usage = `toolcap learn --from FORMAT FILE [options]

Reads past conversations from FILE (JSON Lines) and adds, to each called tool's
"example_requests" in its group file, the user message that led to the call. Search, and
select with --relevance K or --fallback K, rank by these requests, so the tool comes up for
messages worded like them (a keyword group still needs a keyword to be included otherwise).
FORMAT: openai   {"messages": [...]} per line (OpenAI chat fine-tuning format, tool_calls)
        anthropic {"messages": [...]} per line with tool_use content blocks
        pairs    {"message": "...", "tool": "name"} per line
Each tool keeps a varied set without repeats or near-duplicates. E-mail addresses, URLs, phone
numbers and long numbers are replaced with <email>, <url>, <phone>, <number>. Each changed
group's version gets a patch bump; only the changed arrays and the version are edited, and each
file is replaced atomically. Tools no group defines and malformed lines are reported and
skipped. Details: docs/guide/learning.md.

Exit 0 when the run completed (also with skipped lines or unknown tools), 1 when FILE cannot
be read, no group file was found, or a file could not be written, 2 on a usage error.

Options:
  --from FORMAT            openai, anthropic or pairs (required)
  --schemas PATH           a directory of *_tools.json files, or one such file (repeatable;
                           default ./schemas)
  --max-per-tool N         most example requests a tool keeps (default ${DEFAULT_MAX_EXAMPLE_REQUESTS_PER_TOOL})
  --no-redact              keep e-mail addresses, URLs, phone numbers and numbers as written
  --dry-run                show what would be added; write nothing
  --json                   print the report as JSON (docs/guide/learning.md describes it)`;

/** Runs `toolcap learn`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(
    'learn',
    args,
    {
      from: { type: 'string' },
      schemas: { type: 'string', multiple: true },
      'max-per-tool': { type: 'string' },
      'no-redact': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    { min: 1, max: 1, names: 'FILE' },
  );
  const from = optionalString(values.from);
  if (from === undefined || !(TRANSCRIPT_FORMATS as readonly string[]).includes(from)) {
    throw new CliUsageError(
      `${from === undefined ? '--from FORMAT is required' : `unknown --from ${JSON.stringify(from)}`}; use one of ${TRANSCRIPT_FORMATS.join(', ')}`,
      'learn',
    );
  }
  const maxPerTool = positiveInteger('learn', 'max-per-tool', values['max-per-tool']);
  if (maxPerTool !== undefined && maxPerTool > DEFAULT_LOAD_LIMITS.maxExampleRequests) {
    throw new CliUsageError(
      `--max-per-tool must be at most ${DEFAULT_LOAD_LIMITS.maxExampleRequests} (the most example requests a tool may have), got ${maxPerTool}`,
      'learn',
    );
  }
  const schemas = stringList(values.schemas);
  const report = await learnFromTranscripts({
    from: from as TranscriptFormat,
    file: positionals[0]!,
    cwd: io.cwd,
    ...(schemas.length > 0 ? { schemas } : {}),
    ...(maxPerTool !== undefined ? { maxPerTool } : {}),
    redact: values['no-redact'] !== true,
    dryRun: values['dry-run'] === true,
  });

  if (values.json === true) writeJson(io, report);
  else printReport(io, report);
  const failed = report.groups.filter((group) => group.error !== undefined);
  for (const group of failed) {
    io.stderr(`toolcap: could not write ${group.file}: ${group.error}\n`);
  }
  return failed.length > 0 ? 1 : 0;
}

function printReport(io: CliIo, report: LearnReport): void {
  const style = createStyle(useColor(io));
  io.stdout(
    `Read ${report.file} (${report.format}): ${report.lines} line(s), ${report.records} ${report.format === 'pairs' ? 'pair(s)' : 'conversation(s)'}, ${report.calls} tool call(s)\n`,
  );
  for (const group of report.groups) {
    io.stdout(writtenGroupHeading(style, group, report.dry_run));
    const rows = group.tools.map((tool) => [
      tool.tool,
      String(tool.calls),
      String(tool.added.length),
      String(tool.total),
    ]);
    io.stdout(`${formatTable(['TOOL', 'CALLS', 'ADDED', 'TOTAL'], rows)}\n`);
    for (const tool of group.tools) {
      for (const request of tool.added) io.stdout(`  ${tool.tool} + ${request}\n`);
    }
  }
  if (report.groups.length === 0) io.stdout('\nNo tool of the group files was called.\n');
  const { skipped } = report;
  io.stdout(
    `\nNot added: ${skipped.duplicate} duplicate(s), ${skipped.near_duplicate} near-duplicate(s), ${skipped.over_cap} over the cap of ${report.max_per_tool}, ${skipped.empty} empty, ${skipped.no_user_message} call(s) without a user message${skipped.no_content_words > 0 ? `, ${skipped.no_content_words} call(s) whose user message was only a confirmation ("yes go ahead") with no earlier request` : ''}${report.truncated > 0 ? `; ${report.truncated} message(s) shortened to the length limit` : ''}\n`,
  );
  const unknown = report.unknown_tools.filter((entry) => entry.needs_server_tool !== true);
  const renamed = report.unknown_tools.filter((entry) => entry.needs_server_tool === true);
  if (unknown.length > 0) {
    const shown = unknown
      .slice(0, 20)
      .map(
        (entry) =>
          `${entry.tool} (${entry.calls}${entry.group === undefined ? '' : `, group ${entry.group}`})`,
      )
      .join(', ');
    const more = unknown.length > 20 ? `, and ${unknown.length - 20} more` : '';
    io.stderr(
      `${style.yellow(`Skipped ${unknown.length} tool(s) no group defines`)}: ${shown}${more}\n`,
    );
    const groups = [
      ...new Set(unknown.flatMap((entry) => (entry.needs_overlay === true ? [entry.group!] : []))),
    ];
    if (groups.length > 0) {
      // pairs the gateway recorded for upstream tools name the group: it needs an overlay file
      io.stderr(
        `  They are tools of upstream MCP servers in the groups ${groups.slice(0, 5).join(', ')}${groups.length > 5 ? ', ...' : ''}, which no valid group file here defines: give each an overlay file (${groups[0]}_tools.json with "tools": [] and "x-upstream": {}, its header complete; see docs/guide/mcp.md), then run learn again.\n`,
      );
    }
  }
  if (renamed.length > 0) {
    const shown = renamed
      .slice(0, 20)
      .map((entry) => `${entry.tool} (${entry.calls}, group ${entry.group})`)
      .join(', ');
    const more = renamed.length > 20 ? `, and ${renamed.length - 20} more` : '';
    const first = renamed[0]!;
    io.stderr(
      `${style.yellow(`Skipped ${renamed.length} tool(s) named as the gateway may have renamed them`)}: ${shown}${more}\n`,
    );
    // the gateway prefixes "<group>_" to a name another group uses; only the server's name is a key
    io.stderr(
      `  A pair's "tool" is the name the gateway lists, and the gateway lists a server's tool as "<group>_<name>" when another group already uses the name; the overlay has no key that tells which tool "${first.tool}" is. Add "server_tool" to those pairs: the tool's name on its server (such as "${first.tool.slice(`${first.group}_`.length)}" for "${first.tool}"), as toolcap mcp --record-pairs writes it, then run learn again.\n`,
    );
  }
  if (report.group_mismatch.length > 0) {
    const shown = report.group_mismatch
      .slice(0, 20)
      .map(
        (entry) => `${entry.tool} (${entry.calls}, named ${entry.group}, in ${entry.credited_to})`,
      )
      .join(', ');
    const more =
      report.group_mismatch.length > 20 ? `, and ${report.group_mismatch.length - 20} more` : '';
    io.stderr(
      `${style.yellow(`${report.group_mismatch.length} tool(s) of pairs whose "group" does not define them`)}: ${shown}${more}\n`,
    );
    io.stderr(
      `  Their requests were added to the group that defines the tool. If the pairs meant another tool, fix their "tool" or "group" (and the requests added here), then run learn again.\n`,
    );
  }
  if (report.problem_count > 0) {
    io.stderr(`${style.yellow(`Skipped ${report.problem_count} line(s)`)}:\n`);
    for (const problem of report.problems) {
      io.stderr(`  ${report.file}:${problem.line}: ${problem.message}\n`);
    }
    if (report.problem_count > report.problems.length) {
      io.stderr(`  ... and ${report.problem_count - report.problems.length} more\n`);
    }
  }
  for (const diagnostic of report.diagnostics) io.stderr(`${formatDiagnostic(diagnostic)}\n`);
}
