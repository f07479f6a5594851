import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatDiagnostic } from '../../format/format-diagnostic.js';
import type { Diagnostic } from '../../format/types.js';
import { checkMisnamedGroupFile } from '../../load/check-misnamed-group-file.js';
import { displayPath } from '../../load/display-path.js';
import { listGroupFiles, listSchemaDirectory } from '../../load/list-group-files.js';
import { checkOverlayConflicts, checkOverlayFiles } from '../../mcp/gateway/read-overlays.js';
import type { Registry } from '../../toolcap/registry.js';
import { CHECK_HANDLERS_USAGE, checkCliHandlers } from '../check-handlers-option.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import { parseCliArgs, stringList } from '../parse-cli-args.js';
import {
  checkProviders,
  PROVIDER_CHECK_USAGE,
  parseProviderList,
} from '../provider-check-option.js';
import {
  loadCliRegistry,
  REGISTRY_OPTIONS,
  REGISTRY_OPTIONS_USAGE,
  withFlagHint,
} from '../registry-options.js';

/** One-line summary for `toolcap help`. */
export const summary = 'check group files and report every problem';

/** Usage text. */
export const usage = `toolcap validate [--schemas PATH]... [--check-handlers] [--provider PROVIDER]...
                 [--strict] [--json]

Loads every *_tools.json and reports each problem as
"file:line:column: error CODE message (at /pointer)", then a summary line. The report is this
command's output, so it goes to stdout, as a linter's does.
Exit 0 when there are no errors (warnings allowed), 1 when there is any error, when a schema
path does not exist, or when no group file was found at all; 2 on a usage error.

Options:
${REGISTRY_OPTIONS_USAGE}
${CHECK_HANDLERS_USAGE}
${PROVIDER_CHECK_USAGE}
  --strict                 treat warnings as errors too
  --json                   print {"groups": [...], "diagnostics": [...]}`;

/** Diagnostics about a path that say no group file was read there. */
const NOT_FOUND_CODES: ReadonlySet<string> = new Set(['NO_GROUP_FILES', 'ENTRY_SKIPPED']);

const NOTHING_FOUND =
  'toolcap: no group file was found, so nothing was checked; group files are named <group>_tools.json (--schemas PATH; default ./schemas)\n';

/** Runs `toolcap validate`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(
    'validate',
    args,
    {
      ...REGISTRY_OPTIONS,
      'check-handlers': { type: 'boolean' },
      provider: { type: 'string', multiple: true },
      strict: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    { min: 0, max: 0, names: 'none' },
  );
  const providers = parseProviderList(stringList(values.provider), 'validate');
  // validate is the thorough check: it also compiles schemas to check each tool's examples
  const registry = await loadCliRegistry('validate', values, io, { checkExamples: true });
  const strict = values.strict === true;
  // overlay files of upstream servers: checked here as toolcap mcp --upstream would check them,
  // with the other files of their groups (a snapshot shadows an overlay of a lower version)
  const files = await listSchemaFiles(stringList(values.schemas), io.cwd);
  const diagnostics = [
    ...registry.diagnostics,
    ...checkOverlayFiles(registry, io.cwd),
    ...checkOverlayConflicts(registry, files, io.cwd),
    ...(await checkCliHandlers(values, registry, io, values['check-handlers'] === true)),
    ...checkProviders(registry.list(), providers, (file) => displayPath(file, io.cwd)),
    ...(await checkOtherJsonFiles(stringList(values.schemas), registry, io.cwd)),
  ];
  // an empty directory (a typo in a CI step) must not pass as "0 errors"; a group file that
  // failed to load was found, and its diagnostics say why. An empty directory named like a
  // group file, or an entry that was not read, found nothing
  const nothingFound =
    registry.groups().length === 0 &&
    !diagnostics.some(
      (diagnostic) =>
        diagnostic.file.endsWith('_tools.json') && !NOT_FOUND_CODES.has(diagnostic.code),
    );
  const failed =
    nothingFound ||
    diagnostics.some(
      (diagnostic) =>
        diagnostic.severity === 'error' || (strict && diagnostic.severity === 'warning'),
    );

  if (values.json === true) {
    writeJson(io, {
      groups: registry.groups().map((group) => ({
        group: group.group,
        version: group.version,
        file: group.file === undefined ? null : displayPath(group.file, io.cwd),
        tools: group.tools.length,
      })),
      diagnostics,
    });
    if (nothingFound) io.stderr(NOTHING_FOUND);
    return failed ? 1 : 0;
  }

  const style = createStyle(useColor(io));
  for (const diagnostic of diagnostics.map(withFlagHint))
    io.stdout(`${colorize(formatDiagnostic(diagnostic), diagnostic, style)}\n`);
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const toolCount = registry.size;
  const line = `${registry.groups().length} group(s), ${toolCount} tool(s): ${errors} error(s), ${warnings} warning(s)`;
  io.stdout(`${failed ? style.red(line) : style.green(line)}\n`);
  if (nothingFound) io.stderr(NOTHING_FOUND);
  return failed ? 1 : 0;
}

/**
 * `MISNAMED_GROUP_FILE` for the other `.json` files of the schema directories (`billing.json`)
 * that hold a group: loading reads only names close to `<group>_tools.json`, so that a
 * directory full of other JSON costs nothing; validate, the thorough check, reads them all.
 */
async function checkOtherJsonFiles(
  paths: readonly string[],
  registry: Registry,
  cwd: string,
): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  for (const path of paths.length > 0 ? paths : ['schemas']) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isDirectory() !== true) continue;
    for (const file of (await listSchemaDirectory(absolute)).otherJson) {
      const misnamed = checkMisnamedGroupFile(
        file,
        registry.settings.limits,
        displayPath(file, cwd),
      );
      if (misnamed !== undefined) diagnostics.push(misnamed);
    }
  }
  return diagnostics;
}

/** The group files under the --schemas paths (default ./schemas), as the loader finds them. */
async function listSchemaFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths.length > 0 ? paths : ['schemas']) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isDirectory() === true) files.push(...(await listGroupFiles(absolute)));
    else if (info?.isFile() === true) files.push(absolute);
  }
  return [...new Set(files)];
}

function colorize(
  text: string,
  diagnostic: Diagnostic,
  style: ReturnType<typeof createStyle>,
): string {
  const word = ` ${diagnostic.severity} `;
  const colored = diagnostic.severity === 'error' ? style.red(word) : style.yellow(word);
  return text.replace(word, colored);
}
