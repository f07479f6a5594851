import { ToolcapError } from '../../errors/toolcap-error.js';
import { loadFallbackModule } from '../../migrate/load-fallback-module.js';
import { reportMigration } from '../../toolcap/migration-report.js';
import { CliUsageError } from '../cli-usage-error.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import { optionalString, parseCliArgs } from '../parse-cli-args.js';
import { printDiagnostics } from '../print-diagnostics.js';
import {
  cliLoadOptions,
  REGISTRY_OPTIONS,
  REGISTRY_OPTIONS_USAGE,
  requireSchemaDirs,
} from '../registry-options.js';

/** One-line summary for `toolcap help`. */
export const summary = 'show which tools are still defined in code (migration status)';

/** Subcommands, shown by `toolcap help migrate status` too. */
export const subcommands = ['status'] as const;

/** Usage text. */
export const usage = `toolcap migrate status [--schemas PATH]... --fallback MODULE [--json]

Compares the tools of the group files with the code-defined tools MODULE exports (every export
that holds tools, read as "toolcap import --from module" reads them: AI SDK ToolSets, OpenAI
Agents SDK and LangChain tools, an MCP SDK McpServer, arrays of tool objects or of {name,
description, params: [...]} tools) and lists them as JSON-only (migrated), fallback-only (still
to migrate) and both (JSON wins: safe to delete from code); a tool import renamed is matched
through the group file's "x-original-name". Load problems go to
stderr (inside the JSON with --json). Exit 0; 1 when a schema path does not exist; 2 on a
usage error (a --fallback MODULE that cannot be imported or exports no tools included).

Options:
${REGISTRY_OPTIONS_USAGE}
  --fallback MODULE        JavaScript module exporting the code-defined tools (required;
                           TypeScript where Node runs it)
  --json                   print {"json_only": [...], "fallback_only": [...], "both": [...], "diagnostics": [...]}`;

/** Runs `toolcap migrate`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(
    'migrate',
    args,
    {
      ...REGISTRY_OPTIONS,
      fallback: { type: 'string' },
      json: { type: 'boolean' },
    },
    { min: 1, max: 1, names: 'SUBCOMMAND (status)' },
  );
  if (positionals[0] !== 'status') {
    throw new CliUsageError(
      `unknown subcommand "migrate ${positionals[0]}"; the only one is "migrate status"`,
      'migrate',
    );
  }
  const module = optionalString(values.fallback);
  if (module === undefined) {
    throw new CliUsageError(
      '--fallback MODULE is required: the module that exports your code-defined tools',
      'migrate',
    );
  }
  let fallbackTools: Awaited<ReturnType<typeof loadFallbackModule>>;
  try {
    fallbackTools = await loadFallbackModule(module, io.cwd);
  } catch (error) {
    if (ToolcapError.isInstance(error))
      throw new CliUsageError(`--fallback ${error.message}`, 'migrate');
    throw error;
  }
  const report = await reportMigration(fallbackTools, await cliLoadOptions('migrate', values, io));
  requireSchemaDirs(report.diagnostics);
  if (values.json === true) {
    writeJson(io, report);
    return 0;
  }
  printDiagnostics(io, report.diagnostics);
  const style = createStyle(useColor(io));
  const sections: [string, string[], (text: string) => string][] = [
    ['JSON only (migrated)', report.json_only, style.green],
    ['Fallback only (still to migrate)', report.fallback_only, style.yellow],
    ['Both (JSON wins; safe to delete from code)', report.both, style.dim],
  ];
  for (const [title, names, paint] of sections) {
    io.stdout(`${style.bold(`${title}: ${names.length}`)}\n`);
    for (const name of names) io.stdout(`  ${paint(name)}\n`);
  }
  return 0;
}
