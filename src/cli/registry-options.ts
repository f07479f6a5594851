import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContextCheck } from '../select/types.js';
import { loadRegistry } from '../toolcap/load-registry.js';
import type { Registry } from '../toolcap/registry.js';
import { errorMessage } from '../util/error-message.js';
import { CliUsageError } from './cli-usage-error.js';
import type { CliIo } from './io.js';
import {
  type CliOption,
  keyValuePairs,
  optionalString,
  type ParsedArgs,
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
export const REGISTRY_OPTIONS_USAGE = `  --schemas DIR            directory of *_tools.json files (repeatable; default ./schemas)
  --pin GROUP=RANGE        use the highest version of GROUP matching RANGE (repeatable)
  --context-checks MODULE  module exporting context_check predicates by name
  --handlers DIR           directory of handler modules (repeatable; default ./handlers)`;

/** Loads the registry the command line describes. */
export async function loadCliRegistry(
  command: string,
  values: ParsedArgs['values'],
  io: CliIo,
  extra: { strict?: boolean; checkExamples?: boolean } = {},
): Promise<Registry> {
  const schemas = stringList(values.schemas);
  const handlers = stringList(values.handlers);
  const contextChecksModule = optionalString(values['context-checks']);
  return loadRegistry({
    dirs: schemas.length > 0 ? schemas : ['schemas'],
    cwd: io.cwd,
    pins: keyValuePairs(command, 'pin', values.pin),
    ...(handlers.length > 0 ? { handlers } : {}),
    ...(contextChecksModule !== undefined
      ? { contextChecks: await importContextChecks(command, contextChecksModule, io.cwd) }
      : {}),
    ...(extra.strict !== undefined ? { strict: extra.strict } : {}),
    ...(extra.checkExamples !== undefined ? { checkExamples: extra.checkExamples } : {}),
  });
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
  const source =
    module.default !== null && typeof module.default === 'object'
      ? (module.default as Record<string, unknown>)
      : module;
  const checks: Record<string, ContextCheck> = Object.create(null);
  for (const [name, value] of Object.entries(source)) {
    if (typeof value === 'function') checks[name] = value as ContextCheck;
  }
  return checks;
}
