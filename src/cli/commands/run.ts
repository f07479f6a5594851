import { constants as osConstants } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_EXECUTION_LIMITS } from '../../execute/execution-limits.js';
import {
  type ExternalEnvironmentOptions,
  isEnvironmentPattern,
} from '../../execute/external/external-environment.js';
import type { ExecuteOptions, ToolCallError } from '../../execute/types.js';
import { parseJsonDocument } from '../../load/parse-json-document.js';
import type { Registry } from '../../toolcap/registry.js';
import type { SemanticOptions } from '../../toolcap/registry-options.js';
import { withExecutionSettings } from '../../toolcap/with-execution-settings.js';
import { checkCliHandlers } from '../check-handlers-option.js';
import { CliUsageError } from '../cli-usage-error.js';
import type { CliIo } from '../io.js';
import { writeJson } from '../io.js';
import {
  type CliOption,
  keyValuePairs,
  optionalString,
  type ParsedArgs,
  parseCliArgs,
  positiveInteger,
  stringList,
} from '../parse-cli-args.js';
import { printDiagnostics } from '../print-diagnostics.js';
import {
  loadCliRegistry,
  pathList,
  REGISTRY_OPTIONS,
  REGISTRY_OPTIONS_USAGE,
  requireSchemaDirs,
  withFlagHint,
} from '../registry-options.js';

/** One-line summary for `toolcap help`. */
export const summary = 'execute one tool call and print the result as JSON';

/** Options shared by `run` and `mcp`: what a registry needs to execute calls. */
export const EXECUTION_OPTIONS: Readonly<Record<string, CliOption>> = {
  context: { type: 'string', multiple: true },
  'tools-dir': { type: 'string', multiple: true },
  group: { type: 'string' },
  'data-dir': { type: 'string' },
  'env-allow': { type: 'string', multiple: true },
};

/** Usage text for EXECUTION_OPTIONS. */
export const EXECUTION_OPTIONS_USAGE = `  --context KEY=VALUE      context value passed to tools that require KEY (repeatable)
  --tools-dir DIR          directory of external --schema executables (repeatable)
  --group NAME             group name for the external tools (default external)
  --data-dir DIR           where the bundled handlers store data (default $TOOLCAP_DATA_DIR,
                           else ./.toolcap/data)
  --env-allow NAMES        pass external tools only PATH, HOME, LANG-style basics and these
                           variables (comma-separated or repeated; NAME* is a prefix; "" for
                           the basics only); default: the whole environment`;

/** Usage text. */
export const usage = `toolcap run [--schemas PATH]... [--handlers DIR]... [--context KEY=VALUE]... TOOL --input JSON

Validates the input, runs the tool's handler and prints {"ok": true, "output": ...} or
{"ok": false, "error": {"code", "message", "details"}} on stdout. Exit code 0 when ok, 1 when
the call failed (invalid input, unknown tool, handler error, timeout) or a schema path does not
exist, 2 on a usage error, 128 + the signal's number when stopped by SIGINT, SIGTERM or SIGHUP
(the call is cancelled and an external tool is killed with its process group). Load
diagnostics go to stderr. With --tools-dir and no --schemas, a missing ./schemas is no error.

Options:
${REGISTRY_OPTIONS_USAGE}
${EXECUTION_OPTIONS_USAGE}
  --input JSON             the tool's arguments as a JSON object (default {}); "-" reads stdin
  --timeout MS             run-time limit in milliseconds (default from latency_estimate)`;

/** Signals that stop `toolcap run`: the call is cancelled, never left running. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs `toolcap run`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseRunArgs(args);
  const toolName = positionals[0]!;
  const input = await readInput(values, io);
  const context = keyValuePairs('run', 'context', values.context);
  const timeoutMs = positiveInteger('run', 'timeout', values.timeout);
  // an external tool runs in its own process group: a signal that only stopped this process
  // would leave it running, so signals cancel the call (which kills the group) instead
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    controller.abort(new Error(`toolcap run was stopped by ${signal}`));
  };
  for (const signal of STOP_SIGNALS) process.once(signal, stop);
  try {
    const registry = await loadExecutionRegistry('run', values, io, controller.signal);
    requireSchemaDirs(registry.diagnostics);
    // a --handlers directory that does not exist would only show as HANDLER_NOT_FOUND
    const handlerDirs = await checkCliHandlers(values, registry, io, false);
    printDiagnostics(io, [...registry.diagnostics, ...handlerDirs.map(withFlagHint)]);
    const code = await executeAndPrint(registry, toolName, input, context, io, {
      signal: controller.signal,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    return stoppedBy === undefined ? code : 128 + (osConstants.signals[stoppedBy] ?? 0);
  } finally {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, stop);
  }
}

async function executeAndPrint(
  registry: Registry,
  toolName: string,
  input: unknown,
  context: Record<string, string>,
  io: CliIo,
  options: ExecuteOptions,
): Promise<number> {
  const result = await registry.execute(toolName, input, context, options);
  writeJson(io, result);
  if (!result.ok && result.error.code === 'MISSING_CONTEXT') printContextHint(io, result.error);
  return result.ok ? 0 : 1;
}

/** The library speaks of the call context; on the command line that is --context. */
function printContextHint(io: CliIo, error: ToolCallError): void {
  const details = error.details as { missing?: unknown } | null;
  const missing = Array.isArray(details?.missing) ? details.missing.map(String) : [];
  if (missing.length === 0) return;
  io.stderr(
    `toolcap: give the missing context with ${missing.map((key) => `--context ${key}=VALUE`).join(' ')}\n`,
  );
}

function parseRunArgs(args: readonly string[]): ParsedArgs {
  return parseCliArgs(
    'run',
    args,
    {
      ...REGISTRY_OPTIONS,
      ...EXECUTION_OPTIONS,
      input: { type: 'string' },
      timeout: { type: 'string' },
    },
    { min: 1, max: 1, names: 'TOOL' },
  );
}

/**
 * Loads the registry for `run` and `mcp`: the common registry options, then external tools
 * (`--tools-dir`, `--group`) and the data dir (`--data-dir`, `$TOOLCAP_DATA_DIR`).
 */
export async function loadExecutionRegistry(
  command: string,
  values: ParsedArgs['values'],
  io: CliIo,
  signal?: AbortSignal,
  semantic?: SemanticOptions,
): Promise<Registry> {
  const toolsDirs = pathList(command, 'tools-dir', values['tools-dir']);
  let registry = await loadCliRegistry(command, values, io, {
    defaultSchemasOptional: toolsDirs.length > 0,
    semantic,
  });
  const externalEnv = parseEnvAllow(command, values['env-allow']);
  if (externalEnv !== undefined) {
    registry = withExecutionSettings(registry, {
      executionLimits: {
        ...(registry.settings.executionLimits ?? DEFAULT_EXECUTION_LIMITS),
        externalEnv,
      },
    });
  }
  const group = optionalString(values.group);
  if (group !== undefined && toolsDirs.length === 0) {
    throw new CliUsageError(
      '--group names the group of external tools; give --tools-dir DIR too',
      command,
    );
  }
  if (toolsDirs.length > 0) {
    const { loadExternalTools } = await import('../../toolcap/load-external-tools.js');
    registry = await loadExternalTools(registry, {
      dirs: toolsDirs,
      cwd: io.cwd,
      ...(group !== undefined ? { group } : {}),
      // the allow-list covers --schema discovery as well as the calls
      externalEnv,
      signal,
    });
  }
  const dataDir = optionalString(values['data-dir']) ?? nonEmpty(io.env.TOOLCAP_DATA_DIR);
  return dataDir === undefined
    ? withExecutionSettings(registry, { dataDir: resolve(io.cwd, '.toolcap/data') })
    : withExecutionSettings(registry, { dataDir: resolve(io.cwd, dataDir) });
}

/** `--env-allow A,B --env-allow C_*` → `{ allow: [A, B, C_*] }`; `""` allows the basics only. */
function parseEnvAllow(
  command: string,
  value: ParsedArgs['values'][string],
): ExternalEnvironmentOptions | undefined {
  if (value === undefined) return undefined;
  const allow = stringList(value)
    .flatMap((text) => text.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of allow) {
    if (!isEnvironmentPattern(name)) {
      throw new CliUsageError(
        `--env-allow takes variable names (letters, digits, _) or NAME* prefixes, got ${JSON.stringify(name)}`,
        command,
      );
    }
  }
  return { allow };
}

async function readInput(values: ParsedArgs['values'], io: CliIo): Promise<unknown> {
  const text = optionalString(values.input);
  if (text === undefined) return {};
  const source = text === '-' ? await readStream(io) : text;
  const parsed = parseJsonDocument(source);
  if (parsed.ok) return parsed.document.value;
  if (parsed.reason === 'empty') {
    throw new CliUsageError(
      '--input is empty; give the arguments as a JSON object, e.g. --input \'{"title": "x"}\'',
      'run',
    );
  }
  throw new CliUsageError(
    `--input is not valid JSON: ${parsed.message} at line ${parsed.position.line}, column ${parsed.position.column}; give the arguments as a JSON object, e.g. --input '{"title": "x"}'`,
    'run',
  );
}

async function readStream(io: CliIo): Promise<string> {
  if (io.stdin === undefined)
    throw new CliUsageError('--input - reads stdin, but there is none', 'run');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
