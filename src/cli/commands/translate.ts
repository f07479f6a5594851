import { ToolcapError } from '../../errors/toolcap-error.js';
import type { RegisteredTool, Warning } from '../../format/types.js';
import { isProviderId, PROVIDER_IDS } from '../../providers/provider-types.js';
import { translate } from '../../providers/translate.js';
import { suggestSimilar } from '../../util/suggest-similar.js';
import { CliUsageError } from '../cli-usage-error.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import { optionalString, parseCliArgs, stringList } from '../parse-cli-args.js';
import { printDiagnostics } from '../print-diagnostics.js';
import { providerAlias } from '../provider-alias.js';
import {
  loadCliRegistry,
  REGISTRY_OPTIONS,
  REGISTRY_OPTIONS_USAGE,
  requireSchemaDirs,
} from '../registry-options.js';

/** One-line summary for `toolcap help`. */
export const summary = 'print the tools as a provider request expects them';

/** Usage text. */
export const usage = `toolcap translate --provider PROVIDER [--schemas PATH]... [--tools a,b] [--json]

Translates the loaded tools (or the --tools subset, in the order given) into the value of a
provider request's "tools" field.
Providers: ${PROVIDER_IDS.join(', ')}; gemini (the same as google).

Output: the payload as JSON on stdout (paste it into a request); warnings (what was changed
or dropped for the provider, and why) and load diagnostics on stderr.
With --json: {"payload": ..., "metadata": {"<tool>": {"group", "executor", "cost_estimate",
"latency_estimate"}}, "warnings": [...]} on stdout; load diagnostics still on stderr.

Exit codes: 0 translated (warnings included), 1 unknown tool, untranslatable tool or a schema
path that does not exist, 2 bad command line.

Options:
  --provider PROVIDER      target provider (required)
  --tools a,b              only these tools (comma-separated, repeatable)
${REGISTRY_OPTIONS_USAGE}
  --json                   print payload, metadata and warnings as one JSON object`;

/** Runs `toolcap translate`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(
    'translate',
    args,
    {
      ...REGISTRY_OPTIONS,
      provider: { type: 'string' },
      tools: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    },
    { min: 0, max: 0, names: 'none' },
  );
  const given = optionalString(values.provider);
  const provider = given === undefined ? undefined : providerAlias(given);
  if (provider === undefined) {
    throw new CliUsageError(
      `--provider is required (one of ${PROVIDER_IDS.join(', ')})`,
      'translate',
    );
  }
  if (!isProviderId(provider)) {
    const similar = suggestSimilar(provider, [...PROVIDER_IDS, 'gemini']);
    const hint = similar.length > 0 ? `; did you mean "${similar[0]}"?` : '';
    throw new CliUsageError(
      `unknown provider "${provider}"${hint} (providers: ${PROVIDER_IDS.join(', ')})`,
      'translate',
    );
  }
  const requested = stringList(values.tools)
    .flatMap((list) => list.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (values.tools !== undefined && requested.length === 0) {
    throw new CliUsageError(
      '--tools names no tool; give tool names separated by commas (e.g. --tools add_task,list_tasks), or leave --tools out for every tool',
      'translate',
    );
  }

  const registry = await loadCliRegistry('translate', values, io);
  requireSchemaDirs(registry.diagnostics);
  printDiagnostics(io, registry.diagnostics);
  const tools = requested.length === 0 ? registry.list() : pickTools(registry.list(), requested);
  const result = translate(tools, provider);

  if (values.json === true) {
    writeJson(io, result);
    return 0;
  }
  writeJson(io, result.payload);
  printWarnings(io, result.warnings);
  return 0;
}

/** The requested tools in the order given (duplicates once); unknown names are an error. */
function pickTools(all: readonly RegisteredTool[], names: readonly string[]): RegisteredTool[] {
  const byName = new Map(all.map((tool) => [tool.name, tool]));
  const unknown = names.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    const details = unknown.map((name) => {
      const similar = suggestSimilar(name, byName.keys());
      return similar.length > 0 ? `"${name}" (did you mean "${similar[0]}"?)` : `"${name}"`;
    });
    throw new ToolcapError(
      'TOOL_NOT_FOUND',
      `unknown tool${unknown.length > 1 ? 's' : ''} in --tools: ${details.join(', ')}. Run "toolcap list" to see the loaded tools`,
    );
  }
  return [...new Set(names)].map((name) => byName.get(name)!);
}

function printWarnings(io: CliIo, warnings: readonly Warning[]): void {
  const style = createStyle(useColor(io));
  for (const warning of warnings) {
    const where = warning.tool === undefined ? '' : ` ${warning.tool}`;
    io.stderr(`${style.yellow(`warning ${warning.code}`)}${where}: ${warning.message}\n`);
  }
}
