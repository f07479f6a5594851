import { formatTable } from '../format-table.js';
import type { CliIo } from '../io.js';
import { writeJson } from '../io.js';
import { parseCliArgs } from '../parse-cli-args.js';
import { printDiagnostics } from '../print-diagnostics.js';
import {
  loadCliRegistry,
  REGISTRY_OPTIONS,
  REGISTRY_OPTIONS_USAGE,
  requireSchemaDirs,
} from '../registry-options.js';

/** One-line summary for `toolcap help`. */
export const summary = 'list the tools of the loaded groups';

/** Usage text. */
export const usage = `toolcap list [--schemas PATH]... [--json]

Lists every loaded tool in catalog order. Files with errors are skipped and their diagnostics
go to stderr; the exit code is 0 even then. A schema path that does not exist is an error
(exit 1).

Options:
${REGISTRY_OPTIONS_USAGE}
  --json                   print {"tools": [...], "diagnostics": [...]}`;

/** Runs `toolcap list`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(
    'list',
    args,
    { ...REGISTRY_OPTIONS, json: { type: 'boolean' } },
    {
      min: 0,
      max: 0,
      names: 'none',
    },
  );
  const registry = await loadCliRegistry('list', values, io);
  requireSchemaDirs(registry.diagnostics);
  const tools = registry.list().map((tool) => ({
    name: tool.name,
    group: tool.group,
    version: tool.version,
    category: tool.category,
    executor: tool.metadata.executor,
    cost_estimate: tool.metadata.cost_estimate,
    latency_estimate: tool.metadata.latency_estimate,
    requires_context: [...tool.metadata.requires_context],
  }));
  if (values.json === true) {
    writeJson(io, { tools, diagnostics: registry.diagnostics });
    return 0;
  }
  printDiagnostics(io, registry.diagnostics);
  const rows = tools.map((tool) => [
    tool.name,
    `${tool.group}@${tool.version}`,
    tool.category,
    tool.executor,
    `${tool.cost_estimate}/${tool.latency_estimate}`,
    tool.requires_context.join(',') || '-',
  ]);
  io.stdout(
    `${formatTable(['TOOL', 'GROUP', 'CATEGORY', 'EXECUTOR', 'COST/LATENCY', 'CONTEXT'], rows)}\n`,
  );
  return 0;
}
