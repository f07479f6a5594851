import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolcapError } from '../errors/toolcap-error.js';
import type { Diagnostic } from '../format/types.js';
import type { ContextCheck } from '../select/types.js';
import { loadRegistry } from '../toolcap/load-registry.js';
import type { Registry } from '../toolcap/registry.js';
import type { LoadRegistryOptions, SemanticOptions } from '../toolcap/registry-options.js';
import { describeValue } from '../util/check-options.js';
import { errorMessage } from '../util/error-message.js';
import { CliUsageError } from './cli-usage-error.js';
import type { CliIo } from './io.js';
import {
  type CliOption,
  keyValuePairs,
  optionalString,
  type ParsedArgs,
  PIN_PAIR,
  stringList,
} from './parse-cli-args.js';

/** Options every registry-loading command accepts. */
export const REGISTRY_OPTIONS: Readonly<Record<string, CliOption>> = {
  schemas: { type: 'string', multiple: true },
  pin: { type: 'string', multiple: true },
  'context-checks': { type: 'string' },
  handlers: { type: 'string', multiple: true },
};

/** Usage text for REGISTRY_OPTIONS. */
export const REGISTRY_OPTIONS_USAGE = `  --schemas PATH           directory of *_tools.json files, or one such file (repeatable;
                           default ./schemas)
  --pin GROUP=RANGE        use the highest version of GROUP matching RANGE (repeatable)
  --context-checks MODULE  module exporting context_check predicates by name
  --handlers DIR           directory of handler modules (repeatable; default ./handlers)`;

/** The `loadRegistry` options the command line describes. */
export async function cliLoadOptions(
  command: string,
  values: ParsedArgs['values'],
  io: CliIo,
  extra: { defaultSchemasOptional?: boolean } = {},
): Promise<LoadRegistryOptions> {
  const schemas = pathList(command, 'schemas', values.schemas);
  const handlers = pathList(command, 'handlers', values.handlers);
  const contextChecksModule = optionalString(values['context-checks']);
  // external tools alone need no ./schemas: a missing default directory is then no error
  const skipDefault =
    schemas.length === 0 &&
    extra.defaultSchemasOptional === true &&
    !existsSync(resolve(io.cwd, 'schemas'));
  return {
    dirs: schemas.length > 0 ? schemas : skipDefault ? [] : ['schemas'],
    cwd: io.cwd,
    pins: checkPins(command, values.pin),
    ...(handlers.length > 0 ? { handlers } : {}),
    ...(contextChecksModule !== undefined
      ? { contextChecks: await importContextChecks(command, contextChecksModule, io.cwd) }
      : {}),
  };
}

/** What an empty value of a path option would do, resolved against the working directory. */
const EMPTY_PATH_EFFECT: Readonly<Record<string, string>> = {
  schemas: 'load every *_tools.json under the working directory',
  handlers: 'import handler modules from the working directory',
  'tools-dir': 'register the executables of the working directory',
};

/**
 * The values of the path option `--flag`, refusing an empty one: it would resolve to the
 * working directory itself, and usually is an unset variable (`--schemas "$SCHEMAS_DIR"`).
 */
export function pathList(
  command: string,
  flag: 'schemas' | 'handlers' | 'tools-dir',
  value: ParsedArgs['values'][string],
): string[] {
  const paths = stringList(value);
  if (paths.includes('')) {
    throw new CliUsageError(
      `--${flag} "": the path is empty, which would ${EMPTY_PATH_EFFECT[flag]}; give a directory such as --${flag} ${flag === 'tools-dir' ? 'tools' : flag} (an empty path is usually an unset environment variable)`,
      command,
    );
  }
  return paths;
}

/** Loads the registry the command line describes. */
export async function loadCliRegistry(
  command: string,
  values: ParsedArgs['values'],
  io: CliIo,
  extra: {
    checkExamples?: boolean;
    defaultSchemasOptional?: boolean;
    semantic?: SemanticOptions | undefined;
  } = {},
): Promise<Registry> {
  const { checkExamples, semantic, ...rest } = extra;
  return loadRegistry({
    ...(await cliLoadOptions(command, values, io, rest)),
    ...(checkExamples !== undefined ? { checkExamples } : {}),
    ...(semantic !== undefined ? { semantic } : {}),
  });
}

/**
 * Fails (exit 1) when a schema path given with --schemas (or the default ./schemas), or a
 * --tools-dir directory, does not exist: a typo in a CI step or an MCP client's configuration
 * must not pass as zero tools.
 */
export function requireSchemaDirs(diagnostics: readonly Diagnostic[]): void {
  const missing = diagnostics.filter(
    (diagnostic) =>
      diagnostic.code === 'SCHEMAS_DIR_NOT_FOUND' || diagnostic.code === 'TOOLS_DIR_NOT_FOUND',
  );
  if (missing.length === 0) return;
  throw new ToolcapError(
    missing[0]!.code,
    missing.map((diagnostic) => withFlagHint(diagnostic).message).join('\ntoolcap: '),
  );
}

/** A diagnostic whose fix is a command-line flag, with that flag named. */
export function withFlagHint(diagnostic: Diagnostic): Diagnostic {
  if (diagnostic.code === 'SCHEMAS_DIR_NOT_FOUND') {
    return { ...diagnostic, message: `${diagnostic.message} (--schemas PATH; default ./schemas)` };
  }
  return diagnostic.code === 'HANDLERS_DIR_NOT_FOUND'
    ? { ...diagnostic, message: `${diagnostic.message} (--handlers DIR; default ./handlers)` }
    : diagnostic;
}

async function importContextChecks(
  command: string,
  specifier: string,
  cwd: string,
): Promise<Record<string, ContextCheck>> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(cwd, specifier)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliUsageError(
      `--context-checks ${specifier} could not be imported (${errorMessage(error)})`,
      command,
    );
  }
  // a default-export object and named exports are merged; a named export wins over a member of
  // the default object with the same name, as in handler modules
  const checks: Record<string, ContextCheck> = Object.create(null);
  const fallback = module.default;
  if (typeof fallback === 'function') {
    throw new CliUsageError(
      `--context-checks: the default export of ${specifier} is a function, but a context_check names its predicate: export it by that name (export function is_admin(context, message) { ... }) or export default an object of them ({ is_admin })`,
      command,
    );
  }
  const entries = new Map<string, [value: unknown, label: string]>();
  if (fallback !== null && typeof fallback === 'object') {
    for (const [name, value] of Object.entries(fallback)) {
      entries.set(name, [value, `member ${name} of the default export`]);
    }
  }
  for (const [name, value] of Object.entries(module)) {
    if (name !== 'default') entries.set(name, [value, `export ${name}`]);
  }
  for (const [name, [value, label]] of entries) {
    // a value that is not a predicate was meant as one (or does not belong in this module):
    // dropping it would only surface later as "not a registered predicate"
    if (typeof value !== 'function') {
      throw new CliUsageError(
        `--context-checks: ${label} of ${specifier} is not a function (got ${describeValue(value)}); export only context_check predicates, (context, message) => boolean, from this module`,
        command,
      );
    }
    checks[name] = value as ContextCheck;
  }
  return checks;
}

/**
 * The pins, each range checked: a range semver cannot read is a usage error, not an empty run;
 * so are a group pinned twice (the last would silently win) and an empty range (semver reads
 * it as "any version"; it is usually an unset variable, as in --pin billing=$BILLING_RANGE).
 */
function checkPins(command: string, value: ParsedArgs['values'][string]): Record<string, string> {
  const pins = keyValuePairs(command, 'pin', value, PIN_PAIR);
  const seen = new Map<string, string>();
  for (const pair of stringList(value)) {
    const separator = pair.indexOf('=');
    const group = pair.slice(0, separator);
    const range = pair.slice(separator + 1);
    const previous = seen.get(group);
    if (previous !== undefined) {
      throw new CliUsageError(
        `--pin ${group}: the group is pinned twice (${group}=${previous} and ${group}=${range}); pin each group once`,
        command,
      );
    }
    seen.set(group, range);
    if (range.trim() === '') {
      throw new CliUsageError(
        `--pin ${group}=: the range is empty; give a version or range such as --pin ${group}=^1.0.0, or leave the pin out for the highest version (an empty range is usually an unset environment variable)`,
        command,
      );
    }
  }
  const entries = Object.entries(pins);
  if (entries.length === 0) return pins;
  // loaded only when a pin is given (semver's range code costs start-up time)
  const validRange = createRequire(import.meta.url)('semver/ranges/valid.js') as (
    range: string,
  ) => string | null;
  for (const [group, range] of entries) {
    if (validRange(range) === null) {
      throw new CliUsageError(
        `--pin ${group}=${range}: ${JSON.stringify(range)} is not a semver range; use a version or range such as 1.2.0, ^1.0.0 or ~2.1`,
        command,
      );
    }
  }
  return pins;
}
