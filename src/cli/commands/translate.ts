import { ToolcapError } from '../../errors/toolcap-error.js';
import type { RegisteredTool, Warning } from '../../format/types.js';
import { translateOptionNames } from '../../providers/check-translate-options.js';
import { isProviderId, PROVIDER_IDS, type ProviderId } from '../../providers/provider-types.js';
import { translate } from '../../providers/translate.js';
import { suggestSimilar } from '../../util/suggest-similar.js';
import { CliUsageError } from '../cli-usage-error.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import { optionalString, type ParsedArgs, parseCliArgs, stringList } from '../parse-cli-args.js';
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
                  [translate options of the provider]

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
  --json                   print payload, metadata and warnings as one JSON object

Translate options (each only with the providers named; another provider is a usage error):
  --no-strict              openai, openai-responses: never strict (default: strict where the
                           schema can be made strict)
  --recursion-depth N      openai, openai-responses, google, bedrock: expand a recursive $ref
                           N times (0 or more, default 3) before the recursive part is dropped
  --cache-control          anthropic: cache_control on the last tool (a prompt-cache breakpoint)
  --cache-ttl 5m|1h        anthropic: --cache-control with this cache lifetime
  --input-examples         anthropic: send each tool's examples as input_examples
  --parameters-json-schema google: JSON Schema in parametersJsonSchema instead of parameters
  --cache-point            bedrock: append a cachePoint after the tools
  --no-derive-annotations  mcp: send only the annotations a tool sets`;

/** A translate option as a flag: how it is written and the option it sets. */
interface TranslateFlag {
  flag: string;
  option: string;
}

/** Every translate option the command exposes, by flag. */
const TRANSLATE_FLAGS: readonly TranslateFlag[] = [
  { flag: 'no-strict', option: 'strict' },
  { flag: 'recursion-depth', option: 'recursionDepth' },
  { flag: 'cache-control', option: 'cacheControl' },
  { flag: 'cache-ttl', option: 'cacheControl' },
  { flag: 'input-examples', option: 'inputExamples' },
  { flag: 'parameters-json-schema', option: 'parametersJsonSchema' },
  { flag: 'cache-point', option: 'cachePoint' },
  { flag: 'no-derive-annotations', option: 'deriveAnnotations' },
];

const CACHE_TTLS: readonly string[] = ['5m', '1h'];

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
      'no-strict': { type: 'boolean' },
      'recursion-depth': { type: 'string' },
      'cache-control': { type: 'boolean' },
      'cache-ttl': { type: 'string' },
      'input-examples': { type: 'boolean' },
      'parameters-json-schema': { type: 'boolean' },
      'cache-point': { type: 'boolean' },
      'no-derive-annotations': { type: 'boolean' },
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
  const options = translateOptions(provider, values);
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
  const result = translate(tools, provider, options);

  if (values.json === true) {
    writeJson(io, result);
    return 0;
  }
  writeJson(io, result.payload);
  printWarnings(io, result.warnings);
  return 0;
}

/**
 * The `translate` options the flags ask for. A flag the provider does not take is a usage error
 * naming the providers that take it, as is a value outside what the option accepts.
 */
function translateOptions(
  provider: ProviderId,
  values: ParsedArgs['values'],
): Record<string, unknown> {
  const accepted = translateOptionNames(provider);
  for (const { flag, option } of TRANSLATE_FLAGS) {
    if (values[flag] === undefined || accepted.includes(option)) continue;
    const takers = PROVIDER_IDS.filter((id) => translateOptionNames(id).includes(option));
    const own = TRANSLATE_FLAGS.filter((entry) => accepted.includes(entry.option)).map(
      (entry) => `--${entry.flag}`,
    );
    throw new CliUsageError(
      `--${flag} is not an option for --provider ${provider}; it applies to ${takers.join(', ')}. ${own.length > 0 ? `Options for ${provider}: ${own.join(', ')}` : `${provider} takes no translate options`}`,
      'translate',
    );
  }
  const options: Record<string, unknown> = {};
  if (values['no-strict'] === true) options.strict = false;
  const depth = optionalString(values['recursion-depth']);
  if (depth !== undefined) {
    if (!/^\d+$/.test(depth) || !Number.isSafeInteger(Number(depth))) {
      throw new CliUsageError(
        `--recursion-depth must be a whole number, 0 or more (how often a recursive $ref is expanded; default 3), got ${JSON.stringify(depth)}`,
        'translate',
      );
    }
    options.recursionDepth = Number(depth);
  }
  const ttl = optionalString(values['cache-ttl']);
  if (ttl !== undefined && !CACHE_TTLS.includes(ttl)) {
    throw new CliUsageError(
      `--cache-ttl must be 5m or 1h (the cache lifetimes Anthropic accepts), got ${JSON.stringify(ttl)}`,
      'translate',
    );
  }
  if (ttl !== undefined) options.cacheControl = { type: 'ephemeral', ttl };
  else if (values['cache-control'] === true) options.cacheControl = true;
  if (values['input-examples'] === true) options.inputExamples = true;
  if (values['parameters-json-schema'] === true) options.parametersJsonSchema = true;
  if (values['cache-point'] === true) options.cachePoint = true;
  if (values['no-derive-annotations'] === true) options.deriveAnnotations = false;
  return options;
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
