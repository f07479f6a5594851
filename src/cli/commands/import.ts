import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import valid from 'semver/functions/valid.js';
import { ToolcapError } from '../../errors/toolcap-error.js';
import { formatDiagnostic } from '../../format/format-diagnostic.js';
import { getAtPointer } from '../../format/json-pointer.js';
import { GROUP_NAME_PATTERN, isValidExecutorName } from '../../format/names.js';
import type { SelectionStrategy, Warning } from '../../format/types.js';
import { displayPath } from '../../load/display-path.js';
import { listGroupFiles } from '../../load/list-group-files.js';
import { parseJsonDocument } from '../../load/parse-json-document.js';
import { overlayFilesOf } from '../../mcp/gateway/read-overlays.js';
import { snapshotUpstream } from '../../mcp/gateway/snapshot-upstream.js';
import type { ImportedGroup } from '../../migrate/build-imported-group.js';
import {
  IMPORT_SOURCES,
  type ImportSource,
  importToolList,
} from '../../migrate/import-tool-list.js';
import { readToolModule } from '../../migrate/read-tool-module.js';
import { PYTHON_TOOLS_FIX, sourceFileKind } from '../../migrate/source-file-kind.js';
import { keywordDocument } from '../../migrate/suggest-keywords.js';
import { toGroupName } from '../../migrate/to-group-name.js';
import { PayloadFormatError } from '../../providers/import/payload-format-error.js';
import { loadRegistry } from '../../toolcap/load-registry.js';
import { errorMessage } from '../../util/error-message.js';
import { CliUsageError } from '../cli-usage-error.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import { optionalString, parseCliArgs } from '../parse-cli-args.js';
import { providerAlias } from '../provider-alias.js';

/** One-line summary for `toolcap help`. */
export const summary = 'turn an existing tool list into a validated group file';

/** Usage text. */
export const usage = `toolcap import --from FORMAT FILE --group NAME [options]
       toolcap import --from-server CONFIG --server NAME [options]

Converts the tools in FILE into <out>/<group>_tools.json and checks the file with the loader.
FORMAT: ${IMPORT_SOURCES.join(', ')};
gemini (the same as google).
FILE may hold a provider's "tools" array (or the whole request body), an MCP tools/list result
{"tools": [...]}, an external tool's --schema output (one object or an array; --from
canonical), or tools with "params" lists (--from params). With --from module, FILE is a
JavaScript module whose exported tools are read: AI SDK ToolSets, OpenAI Agents SDK and
LangChain tools, an MCP SDK McpServer, arrays of tool objects (TypeScript where Node runs it).
Invalid names are converted (the mapping is printed and kept as "x-original-name"), messy types
are repaired, each with a warning. FILE holding another format's tools than --from says is an error naming the --from
that fits. Details: docs/guide/migration.md.
With --from-server, the tools come from a live MCP server: NAME in CONFIG (the mcpServers format
of MCP clients) is started or reached, its tools/list read, and the group (named after NAME
unless --group says otherwise, versioned as the server reports when that is semver, else 0.0.0)
written as a reviewed snapshot that "toolcap diff" can compare with the next one.

The report (file, renamed tools, categories, keywords, warnings) goes to stdout; load
diagnostics of the written file to stderr.
Exit 0 when the file was written and loads without errors, 1 when the import failed (unreadable
or unusable FILE, the wrong --from, an existing file without --force, a file the loader
rejects), 2 on a usage error.

Options:
  --from FORMAT            format of FILE (required without --from-server)
  --export NAME            --from module: read only this export of FILE
  --from-server CONFIG     read the tools from the server --server NAME of CONFIG instead of FILE
  --server NAME            the server's key in CONFIG's mcpServers
  --group NAME             snake_case group name; the file is NAME_tools.json (required without
                           --from-server)
  --version VERSION        semver version of the group (default 1.0.0)
  --executor NAME          handler module for the tools (handlers/NAME; default: the group name)
  --strategy STRATEGY      always (default; keyword with --keywords), keyword or context
  --keywords A,B,...       keywords for a keyword group (default: suggested by TF-IDF);
                           without --strategy, makes the group a keyword group
  --description TEXT       group description (default: "Tools imported from FILE (FORMAT).")
  --out DIR                directory to write to (default ./schemas)
  --force                  replace an existing NAME_tools.json
  --rename-collisions      import a tool another group of --out already defines (by name or
                           "x-original-name") as <group>_<name>; default: leave it out, with a
                           TOOL_IN_OTHER_GROUP warning naming that group
  --json                   print {"file", "group", "version", "strategy", "tools", "renamed", "categories",
                           "keywords", "warnings", "diagnostics"}`;

const STRATEGIES: readonly SelectionStrategy[] = ['always', 'keyword', 'context'];

/** Runs `toolcap import`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(
    'import',
    args,
    {
      from: { type: 'string' },
      export: { type: 'string' },
      group: { type: 'string' },
      version: { type: 'string' },
      executor: { type: 'string' },
      strategy: { type: 'string' },
      keywords: { type: 'string' },
      description: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
      'rename-collisions': { type: 'boolean' },
      json: { type: 'boolean' },
      'from-server': { type: 'string' },
      server: { type: 'string' },
    },
    { min: 0, max: 1, names: 'FILE' },
  );
  const server = await readServerTools(values, positionals, io);
  const options = readOptions(server === undefined ? values : { ...server.defaults, ...values });
  const file = server?.label ?? positionals[0]!;

  const input =
    server?.input ??
    (options.from === 'module'
      ? await readToolModule(file, {
          cwd: io.cwd,
          ...(options.exportName !== undefined ? { exportName: options.exportName } : {}),
        })
      : await readInput(file, io.cwd, options.from));
  const outDir = resolve(io.cwd, options.out ?? 'schemas');
  const target = join(outDir, `${options.group}_tools.json`);
  const shownTarget = displayPath(target, io.cwd);
  await refuseBesideOverlay(outDir, options.group, shownTarget, io.cwd);
  if (existsSync(target) && values.force !== true) {
    throw new ToolcapError(
      'IMPORT_TARGET_EXISTS',
      `refusing to overwrite ${shownTarget}; pass --force to replace it, or choose another --group or --out`,
    );
  }
  if (options.keywords !== undefined && options.strategy !== 'keyword') {
    io.stderr(
      `toolcap import: note: ${options.strategy === 'always' ? 'an always group is offered on every turn' : 'a context group is offered when its context applies'}, so --keywords do not decide when; they only help rank its tools (search, --relevance). Use --strategy keyword (or leave --strategy out) for keywords that select the group\n`,
    );
  }
  const others = await readOtherGroups(outDir, options.group, io.cwd);
  const schema = installedSchemaPath(outDir);
  const imported = importOrExplain(file, input, {
    ...(schema !== undefined ? { schema } : {}),
    from: options.from,
    group: options.group,
    sourceLabel: `${file} (${options.from})`,
    reservedNames: others.names,
    ...(values['rename-collisions'] === true ? {} : { definedElsewhere: others.definedIn }),
    restDocuments: others.documents,
    ...(options.version !== undefined ? { version: options.version } : {}),
    ...(options.executor !== undefined ? { executor: options.executor } : {}),
    ...(options.strategy !== undefined ? { strategy: options.strategy } : {}),
    ...(options.keywords !== undefined ? { keywords: options.keywords } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
  });

  const written = (imported.document.tools as unknown[]).length;
  if (written === 0) {
    const source = server === undefined ? file : `the server "${server.name}" of ${server.config}`;
    throw new ToolcapError(
      'IMPORT_NO_TOOLS',
      explainNoTools(source, imported.warnings, server === undefined ? options.from : undefined),
    );
  }
  await mkdir(outDir, { recursive: true });
  await writeFile(target, `${JSON.stringify(imported.document, null, 2)}\n`);

  // the proof that the file is usable: load the directory as `toolcap validate` would
  const registry = await loadRegistry({ dirs: [outDir], cwd: io.cwd });
  const diagnostics = registry.diagnostics.filter((diagnostic) => diagnostic.file === shownTarget);
  const failed =
    diagnostics.some((diagnostic) => diagnostic.severity === 'error') ||
    registry.group(options.group)?.file !== target;

  if (values.json === true) {
    writeJson(io, {
      file: shownTarget,
      group: options.group,
      version: imported.document.version,
      strategy: options.strategy ?? 'always',
      tools: written,
      renamed: imported.renamed,
      categories: imported.categories,
      keywords: imported.keywords,
      warnings: imported.warnings,
      diagnostics,
    });
  } else {
    printReport(io, shownTarget, imported, options.strategy ?? 'always');
    for (const diagnostic of diagnostics) io.stderr(`${formatDiagnostic(diagnostic)}\n`);
  }
  if (failed) {
    io.stderr(
      `toolcap: ${shownTarget} was written but does not load cleanly (see above); fix it or report the input that produced it\n`,
    );
    return 1;
  }
  return 0;
}

/**
 * The group-file schema of the package installed for the written file, relative to it
 * (`../node_modules/tool-capabilities/schemas/tool-group.schema.json`): editors resolve it
 * offline. Found in the `node_modules` of `outDir` or a directory above it, the way Node looks
 * packages up, and never through the symlink npm link and pnpm install a package as, whose
 * target is a path on this machine only. Undefined when no such directory holds the package
 * (npx without an install), so the published URL is used.
 */
function installedSchemaPath(outDir: string): string | undefined {
  for (let dir = outDir; ; ) {
    const file = join(
      dir,
      'node_modules',
      'tool-capabilities',
      'schemas',
      'tool-group.schema.json',
    );
    if (existsSync(file)) return relative(outDir, file).split(sep).join('/');
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Throws `IMPORT_OVERLAY_CONFLICT` when a schema directory that would hold the written file
 * (`outDir` or a directory above it, inside the working directory) holds an overlay of the same
 * group: loading that directory would read both files as versions of one group, and
 * `toolcap mcp --upstream` would then refuse to start, or ignore the overlay.
 */
async function refuseBesideOverlay(
  outDir: string,
  group: string,
  shownTarget: string,
  cwd: string,
): Promise<void> {
  const dirs: string[] = [];
  for (let dir = outDir; displayPath(dir, cwd) !== dir && dir !== cwd; dir = dirname(dir)) {
    dirs.push(dir);
  }
  // outside the working directory (or the directory itself): only what is under --out
  if (dirs.length === 0) dirs.push(outDir);
  for (const dir of dirs) {
    const overlay = overlayFilesOf(await listGroupFiles(dir), group)[0];
    if (overlay === undefined) continue;
    const shownDir = displayPath(dir, cwd);
    throw new ToolcapError(
      'IMPORT_OVERLAY_CONFLICT',
      `refusing to write ${shownTarget}: ${displayPath(overlay, cwd)} is the overlay of group "${group}" (it has "x-upstream"), and loading ${shownDir} (toolcap mcp --upstream --schemas ${shownDir}, toolcap validate) would read both files as versions of that group: the higher version is used, so the gateway either refuses to start or ignores the overlay. Write snapshots outside the schema directories, e.g. --out snapshots; nothing was written`,
    );
  }
}

/** importToolList, with a wrong --from explained in terms of --from. */
function importOrExplain(
  file: string,
  input: unknown,
  options: Parameters<typeof importToolList>[1],
): ImportedGroup {
  try {
    return importToolList(input, options);
  } catch (error) {
    if (ToolcapError.isInstance(error) && error.code === 'IMPORT_INVALID_INPUT') {
      // the library speaks of "the input"; here it is a file the user named
      throw new ToolcapError(
        'IMPORT_INVALID_INPUT',
        `${file}: ${error.message.replace(/^the input /, 'the file ')}`,
      );
    }
    if (!(error instanceof PayloadFormatError)) throw error;
    const [best, ...others] = error.fits;
    const name = error.tool === undefined ? '' : ` (${JSON.stringify(error.tool)})`;
    const alternatives = others.map((fit) => `--from ${fit}`).join(', ');
    throw new ToolcapError(
      'IMPORT_WRONG_FORMAT',
      `${file} holds ${best} tools, not ${error.readAs} ones: entry ${error.index}${name} keeps its parameters in ${error.place} (${error.readAs} tools keep them in ${error.readAsPlace}). Nothing was written; use --from ${best}${alternatives === '' ? '' : ` (or ${alternatives})`}`,
    );
  }
}

interface ImportCliOptions {
  from: ImportSource;
  exportName?: string;
  group: string;
  version?: string;
  executor?: string;
  strategy?: SelectionStrategy;
  keywords?: string[];
  description?: string;
  out?: string;
}

/**
 * With --from-server: the live server's tools, plus the defaults they imply (--from mcp,
 * --group and --version from the server). Without it: checks FILE is given.
 */
async function readServerTools(
  values: Record<string, unknown>,
  positionals: readonly string[],
  io: CliIo,
): Promise<
  | {
      input: unknown;
      label: string;
      name: string;
      config: string;
      defaults: Record<string, string>;
    }
  | undefined
> {
  const config = optionalString(values['from-server'] as string | undefined);
  const name = optionalString(values.server as string | undefined);
  if (config === undefined) {
    if (name !== undefined)
      throw new CliUsageError('--server NAME needs --from-server CONFIG', 'import');
    if (positionals.length === 0) {
      throw new CliUsageError('"toolcap import" takes 1 argument(s) (FILE), got 0', 'import');
    }
    return undefined;
  }
  if (positionals.length > 0 || values.from !== undefined) {
    throw new CliUsageError('--from-server replaces FILE and --from; give one source', 'import');
  }
  if (name === undefined)
    throw new CliUsageError('--from-server CONFIG needs --server NAME', 'import');
  const snapshot = await snapshotUpstream(resolve(io.cwd, config), {
    file: config,
    name,
    env: io.env,
  });
  return {
    input: { tools: snapshot.tools },
    label: `${config} (server ${name})`,
    name,
    config,
    defaults: { from: 'mcp', group: snapshot.group, version: snapshot.version },
  };
}

function readOptions(values: Record<string, unknown>): ImportCliOptions {
  const read = (name: string) =>
    optionalString(values[name] as Parameters<typeof optionalString>[0]);
  const given = read('from');
  const from = given === undefined ? undefined : providerAlias(given);
  if (from === undefined || !(IMPORT_SOURCES as readonly string[]).includes(from)) {
    throw new CliUsageError(
      `${from === undefined ? '--from FORMAT is required' : `unknown --from ${JSON.stringify(from)}`}; use one of ${IMPORT_SOURCES.join(', ')}`,
      'import',
    );
  }
  const group = read('group');
  if (group === undefined) {
    throw new CliUsageError('--group NAME is required (the file is NAME_tools.json)', 'import');
  }
  if (!GROUP_NAME_PATTERN.test(group) || group.length > 64) {
    throw new CliUsageError(
      `--group ${JSON.stringify(group)} is not a snake_case group name; try --group ${toGroupName(group)}`,
      'import',
    );
  }
  const options: ImportCliOptions = { from: from as ImportSource, group };
  const exportName = read('export');
  if (exportName !== undefined) {
    if (from !== 'module') {
      throw new CliUsageError('--export NAME only applies to --from module', 'import');
    }
    options.exportName = exportName;
  }
  const version = read('version');
  if (version !== undefined) {
    if (valid(version) !== version) {
      throw new CliUsageError(
        `--version ${JSON.stringify(version)} is not a strict semantic version such as 1.0.0`,
        'import',
      );
    }
    options.version = version;
  }
  const executor = read('executor');
  if (executor !== undefined) {
    if (!isValidExecutorName(executor)) {
      throw new CliUsageError(
        `--executor ${JSON.stringify(executor)} is not a handler name (lowercase letters, digits and underscores, starting with a letter)`,
        'import',
      );
    }
    options.executor = executor;
  }
  const strategy = read('strategy');
  if (strategy !== undefined) {
    if (!(STRATEGIES as readonly string[]).includes(strategy)) {
      throw new CliUsageError(
        `unknown --strategy ${JSON.stringify(strategy)}; use always, keyword or context`,
        'import',
      );
    }
    options.strategy = strategy as SelectionStrategy;
  }
  const keywords = read('keywords');
  if (keywords !== undefined) {
    options.keywords = keywords
      .split(',')
      .map((keyword) => keyword.trim())
      .filter((keyword) => keyword !== '');
    // keywords decide only in a keyword group: giving them asks for one
    options.strategy ??= 'keyword';
  }
  const description = read('description');
  if (description !== undefined) options.description = description;
  const out = read('out');
  if (out !== undefined) options.out = out;
  return options;
}

async function readInput(file: string, cwd: string, from: ImportSource): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new ToolcapError('IMPORT_INVALID_INPUT', `cannot read ${file}: ${errorMessage(error)}`);
  }
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) {
    const kind = sourceFileKind(file);
    if (kind === 'javascript') {
      throw new ToolcapError(
        'IMPORT_INVALID_INPUT',
        `${file} is a JavaScript module, not a JSON file, so --from ${from} cannot read it: use --from module to read the tools it exports`,
      );
    }
    if (kind === 'python') {
      throw new ToolcapError(
        'IMPORT_INVALID_INPUT',
        `${file} is a Python file, not a JSON file: ${PYTHON_TOOLS_FIX}`,
      );
    }
    throw new ToolcapError(
      'IMPORT_INVALID_INPUT',
      parsed.reason === 'empty'
        ? `${file} is empty; it must hold a JSON tool list`
        : `${file}:${parsed.position.line}:${parsed.position.column}: invalid JSON: ${parsed.message}`,
    );
  }
  return parsed.document.value;
}

/**
 * Tool names and keyword texts of the groups already in `outDir` (except `group` itself), and
 * the group defining each tool name and `x-original-name` there (`"billing"
 * (schemas/billing_tools.json)`, plus `as "name"` for an original name).
 */
async function readOtherGroups(
  outDir: string,
  group: string,
  cwd: string,
): Promise<{ names: Set<string>; documents: string[]; definedIn: Map<string, string> }> {
  const names = new Set<string>();
  const documents: string[] = [];
  const definedIn = new Map<string, string>();
  if (!existsSync(outDir) || !statSync(outDir).isDirectory()) {
    return { names, documents, definedIn };
  }
  const registry = await loadRegistry({ dirs: [outDir], cwd });
  const files = new Map<string, unknown>();
  for (const other of registry.groups()) {
    if (other.group === group) continue;
    const tools = registry.list({ group: other.group });
    const label =
      other.file === undefined
        ? JSON.stringify(other.group)
        : `${JSON.stringify(other.group)} (${displayPath(other.file, cwd)})`;
    for (const tool of tools) {
      names.add(tool.name);
      if (!definedIn.has(tool.name)) definedIn.set(tool.name, label);
      const original = await originalNameOf(tool, files);
      if (original !== undefined && !definedIn.has(original)) {
        definedIn.set(original, `${label} as ${JSON.stringify(tool.name)}`);
      }
    }
    documents.push(keywordDocument(tools));
  }
  return { names, documents, definedIn };
}

/** A loaded tool's `x-original-name` (the name in the system it was imported from), if any. */
async function originalNameOf(
  tool: { file?: string; pointer?: string },
  files: Map<string, unknown>,
): Promise<string | undefined> {
  if (tool.file === undefined || tool.pointer === undefined) return undefined;
  if (!files.has(tool.file)) {
    let document: unknown;
    try {
      document = JSON.parse(await readFile(tool.file, 'utf8'));
    } catch {
      // the loader read it a moment ago; a file that changed since has no names to offer
      document = undefined;
    }
    files.set(tool.file, document);
  }
  const original = getAtPointer(files.get(tool.file), `${tool.pointer}/x-original-name`);
  return typeof original === 'string' ? original : undefined;
}

function printReport(
  io: CliIo,
  target: string,
  imported: ImportedGroup,
  strategy: SelectionStrategy,
): void {
  const style = createStyle(useColor(io));
  const document = imported.document;
  const count = (document.tools as unknown[]).length;
  io.stdout(
    `${style.green(`Wrote ${target}`)}: group "${String(document.group)}" ${String(document.version)}, ${count} tool(s), strategy ${strategy}\n`,
  );
  if (imported.renamed.length > 0) {
    io.stdout(`Renamed (${imported.renamed.length}):\n`);
    for (const entry of imported.renamed) {
      io.stdout(
        `  ${entry.from} -> ${entry.to}${entry.reason === 'collision' ? ' (name used by another group)' : entry.reason === 'duplicate' ? ' (another tool of the list has the name)' : ''}\n`,
      );
    }
  }
  const tally = new Map<string, number>();
  for (const { category } of imported.categories)
    tally.set(category, (tally.get(category) ?? 0) + 1);
  const fromDescription = imported.categories.filter((entry) => entry.source === 'description');
  const defaulted = imported.categories.filter((entry) => entry.source === 'default');
  io.stdout(
    `Categories: ${[...tally].map(([category, n]) => `${n} ${category}`).join(', ') || 'none'} (${fromDescription.length} from the description, ${defaulted.length} defaulted${defaulted.length > 0 ? ': check those' : ''})\n`,
  );
  if (imported.keywords.length > 0) {
    io.stdout(`Keywords (edit them in the file): ${imported.keywords.join(', ')}\n`);
  }
  if (imported.warnings.length > 0) {
    io.stdout(`Warnings (${imported.warnings.length}):\n`);
    for (const warning of imported.warnings)
      io.stdout(`  ${style.yellow(formatWarning(warning))}\n`);
  }
}

/** Warnings that name a tool of the input left out: the input held tools of its format. */
const LEFT_OUT = new Set(['TOOL_SKIPPED', 'TOOL_IN_OTHER_GROUP']);
const MAX_REASONS = 5;

/**
 * Why no tool of `source` was written: the tools left out and why (the loader rejected them,
 * other groups define them), or, when nothing in it was a tool of the format, the first
 * warning and a hint to check `from` (undefined for a server).
 */
function explainNoTools(
  source: string,
  warnings: readonly Warning[],
  from: ImportSource | undefined,
): string {
  const leftOut = warnings.filter((warning) => LEFT_OUT.has(warning.code));
  if (leftOut.length > 0) {
    const shown = leftOut.slice(0, MAX_REASONS).map(formatWarning).join('; ');
    const more = leftOut.length > MAX_REASONS ? `; and ${leftOut.length - MAX_REASONS} more` : '';
    return `no tool of ${source} could be imported: ${leftOut.length === 1 ? 'its only tool was' : `all ${leftOut.length} tools were`} left out: ${shown}${more}. Nothing was written`;
  }
  const first = warnings[0];
  if (from === undefined) {
    return first === undefined
      ? `${source} lists no tools (its tools/list is empty). Nothing was written`
      : `no tool of ${source} could be imported (${warnings.length} warning(s); the first: ${formatWarning(first)}). Nothing was written`;
  }
  const found =
    first === undefined
      ? ' (it holds no tools)'
      : ` (${warnings.length} warning(s); the first: ${formatWarning(first)})`;
  return `no tool of ${source} could be imported as --from ${from}${found}; check --from. Nothing was written`;
}

function formatWarning(warning: Warning): string {
  const where = [warning.tool, warning.pointer].filter((part) => part !== undefined).join(' ');
  return `${warning.code}${where === '' ? '' : ` ${where}`}: ${warning.message}`;
}
