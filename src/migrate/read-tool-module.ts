import { ToolcapError } from '../errors/toolcap-error.js';
import type { JsonSchema, ToolAnnotations, Warning } from '../format/types.js';
import { createWarningSink } from '../json-schema/schema-warnings.js';
import { type FallbackTool, fallbackToolToEntry } from '../registry/fallback-tools.js';
import { errorMessage } from '../util/error-message.js';
import { importModule } from './import-module.js';
import { langChainStringInputSchema } from './langchain-string-input-schema.js';
import { isMcpServer, listMcpServerTools } from './list-mcp-server-tools.js';
import { JSON_FORMATS } from './source-file-kind.js';
import { strictSchemaWarning } from './strict-schema-warning.js';
import { toToolJsonSchema } from './to-tool-json-schema.js';

/** Where a tool of a module comes from. */
export type ModuleToolKind = 'ai-sdk' | 'openai-agents' | 'langchain' | 'mcp-server' | 'object';

/** One tool a module exports, as MCP describes tools. */
export interface ModuleTool {
  /** The ToolSet key (AI SDK), the export name (a lone AI SDK tool), or the tool's own name. */
  name: string;
  description?: string;
  title?: string;
  /** The parameters as JSON Schema; absent when `problem` says why they cannot be read. */
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  kind: ModuleToolKind;
  /** The export it was found in (`default`, `tools`, ...). */
  exportName: string;
  /** The exported object itself. */
  value: unknown;
  /** Why its parameters could not be converted (e.g. a Zod 3 schema). */
  problem?: string;
}

/** What `readToolModule` found. */
export interface ModuleTools {
  /** The module, as named in messages. */
  file: string;
  tools: ModuleTool[];
  /** Entries that were left out (hosted tools) and schemas to review. */
  warnings: Warning[];
}

/** Options of `readToolModule`. */
export interface ReadToolModuleOptions {
  /** Base for a relative path. Default `process.cwd()`. */
  cwd?: string;
  /** Read only this export. Default: every export that holds tools, `default` first. */
  exportName?: string;
}

/**
 * Imports a JavaScript module (TypeScript where the runtime can, see `importModule`) and
 * reads the tools it exports: Vercel AI SDK ToolSets (`{ name: tool({ description,
 * inputSchema }) }`, Zod 4.2+ or `jsonSchema()`) and lone AI SDK tools (named after the export),
 * OpenAI Agents SDK `tool()`s, LangChain tools, MCP SDK servers (`McpServer` or `Server`, listed
 * through an in-memory client), arrays of these, and arrays of plain tool objects
 * (`{ name, description, input_schema | inputSchema | parameters | params }`); an object's
 * `tools` property too. A tool object reached twice counts once. Throws a ToolcapError
 * (`MODULE_TOOLS_INVALID`, naming the export and the tool) when the module cannot be imported,
 * holds no tools, or holds two tools of one name.
 */
export async function readToolModule(
  file: string,
  options: ReadToolModuleOptions = {},
): Promise<ModuleTools> {
  const module = await importModule(
    file,
    options.cwd ?? process.cwd(),
    'MODULE_TOOLS_INVALID',
    `--from module reads the tools a module exports. For a JSON tool list, use --from ${JSON_FORMATS} instead (the format the file holds)`,
  );
  return readModuleExports(module, file, {
    ...(options.exportName !== undefined ? { exportName: options.exportName } : {}),
  });
}

/** Options of `readModuleExports`. */
export interface ReadModuleExportsOptions {
  /** Read only this export. Default: every export that holds tools, `default` first. */
  exportName?: string;
  /**
   * Two tools of one name: `error` (default) throws; `keep` returns both, for a caller that
   * reports them itself (the registry's DUPLICATE_TOOL for fallback tools).
   */
  sameName?: 'error' | 'keep';
}

/** A tool found in a module, and where. */
export interface FoundTool {
  tool: ModuleTool;
  /**
   * Its index in an exported array or its key in an exported object; absent for a tool
   * exported alone or listed by an MCP server.
   */
  entry?: number | string;
  /** The path to it in the module's exports (`["tools", "getWeather"]`; an MCP server's). */
  path: readonly (string | number)[];
}

/** What `readModuleEntries` found. */
export interface ModuleEntries {
  file: string;
  found: FoundTool[];
  warnings: Warning[];
}

/** The tools of an imported module's exports (see `readToolModule`). */
export async function readModuleExports(
  module: Readonly<Record<string, unknown>>,
  file: string,
  options: ReadModuleExportsOptions = {},
): Promise<ModuleTools> {
  const { found, warnings } = await readModuleEntries(module, file, options);
  return { file, tools: found.map(({ tool }) => tool), warnings };
}

/** The tools of an imported module's exports with where each one is (see `readToolModule`). */
export async function readModuleEntries(
  module: Readonly<Record<string, unknown>>,
  file: string,
  options: ReadModuleExportsOptions = {},
): Promise<ModuleEntries> {
  const { exportName } = options;
  // namespace keys are sorted, but not under every loader: sort them, default first
  const names = Object.keys(module).sort();
  const exported = names.length > 0 ? names.join(', ') : 'nothing';
  const warnings: Warning[] = [];
  const found: FoundTool[] = [];
  if (exportName !== undefined) {
    if (!Object.hasOwn(module, exportName)) {
      throw invalid(`${file} has no export "${exportName}"; it exports: ${exported}`);
    }
    const read = await readExport(exportName, module[exportName], file, warnings);
    if (read === undefined) {
      throw invalid(
        `export "${exportName}" of ${file} holds no tools: it is ${describe(module[exportName])}. ${WHAT_COUNTS}`,
      );
    }
    found.push(...read.tools);
  } else {
    const ordered = names.includes('default')
      ? ['default', ...names.filter((name) => name !== 'default')]
      : names;
    const lone: FoundTool[] = [];
    let containers = 0;
    for (const name of ordered) {
      const read = await readExport(name, module[name], file, warnings);
      if (read === undefined) continue;
      containers++;
      // a tool exported alone and in a ToolSet or list is named as the list names it
      (read.lone ? lone : found).push(...read.tools);
    }
    if (containers === 0) {
      throw invalid(`${file} exports no tools (it exports: ${exported}). ${WHAT_COUNTS}`);
    }
    found.push(...lone);
  }
  return { file, found: uniqueTools(found, file, options.sameName ?? 'error'), warnings };
}

/** Whether `value` is a module namespace object (`await import(...)`, `import * as`). */
export function isModuleNamespace(value: unknown): value is Readonly<Record<string, unknown>> {
  return Object.prototype.toString.call(value) === '[object Module]';
}

/**
 * The tools of one value, as an export holding it is read (a ToolSet, an array, a framework
 * tool, an MCP server, an object's `tools`, a plain tool object), each placed relative to the
 * value. Messages name the value `file`. Throws a ToolcapError (`MODULE_TOOLS_INVALID`) when it
 * holds no tools, or an entry that is not a tool.
 */
export async function readValueEntries(
  value: unknown,
  file: string,
  options: Pick<ReadModuleExportsOptions, 'sameName'> = {},
): Promise<ModuleEntries> {
  const warnings: Warning[] = [];
  let found: FoundTool[];
  if (kindOf(value) === 'object') {
    found = [
      { tool: (await readTool('object', value, undefined, 'default', warnings))!, path: [] },
    ];
  } else {
    const read = await readExport('default', value, file, warnings, []);
    if (read === undefined) {
      throw invalid(`${file} holds no tools: it is ${describe(value)}. ${WHAT_COUNTS}`);
    }
    found = read.tools;
  }
  return { file, found: uniqueTools(found, file, options.sameName ?? 'error'), warnings };
}

const WHAT_COUNTS =
  'Export an AI SDK ToolSet ({ name: tool({...}) }), OpenAI Agents SDK or LangChain tools (one, or an array), an MCP SDK McpServer, or an array of tool objects ({ name, description, inputSchema })';

/** The same tool object once; two tools of one name are an error unless `sameName` keeps them. */
function uniqueTools(
  tools: readonly FoundTool[],
  file: string,
  sameName: 'error' | 'keep',
): FoundTool[] {
  const seen = new Set<unknown>();
  const byName = new Map<string, FoundTool>();
  const unique: FoundTool[] = [];
  for (const found of tools) {
    const { tool } = found;
    if (tool.kind !== 'mcp-server') {
      if (seen.has(tool.value)) continue;
      seen.add(tool.value);
    }
    const other = byName.get(tool.name);
    if (other !== undefined && sameName === 'error') {
      throw invalid(`${file} exports two tools named "${tool.name}": ${twoPlaces(other, found)}`);
    }
    byName.set(tool.name, found);
    unique.push(found);
  }
  return unique;
}

/** Where two tools of one name are, and the fix: `--export` helps only across exports. */
function twoPlaces(first: FoundTool, second: FoundTool): string {
  const exportName = first.tool.exportName;
  if (exportName !== second.tool.exportName) {
    return `in export "${exportName}" and in export "${second.tool.exportName}"; rename one, or pick one export with --export`;
  }
  const [a, b] = [first.entry, second.entry];
  const places =
    typeof a === 'number' && typeof b === 'number'
      ? `entries ${a} and ${b}`
      : typeof a === 'string' && typeof b === 'string'
        ? `keys "${a}" and "${b}"`
        : 'both';
  return `${places} of export "${exportName}"; rename one or remove one`;
}

type Kind = ModuleToolKind | 'hosted';

/** What a single exported value is, as a tool. */
function kindOf(value: unknown): Kind | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const tool = value as Record<string, unknown>;
  const named = typeof tool.name === 'string';
  if (tool.type === 'function' && named && typeof tool.invoke === 'function') {
    return 'openai-agents';
  }
  if (named && typeof tool.invoke === 'function' && Array.isArray(tool.lc_namespace)) {
    return 'langchain';
  }
  if (!named && 'inputSchema' in tool) {
    return tool.type === 'provider' || tool.type === 'provider-defined' ? 'hosted' : 'ai-sdk';
  }
  if (named && tool.type === 'hosted_tool') return 'hosted';
  if (named && typeof tool.invoke !== 'function' && !isMcpServer(tool)) return 'object';
  return undefined;
}

/** The tools of one export, or undefined when it holds none. */
async function readExport(
  exportName: string,
  value: unknown,
  file: string,
  warnings: Warning[],
  path: readonly (string | number)[] = [exportName],
): Promise<{ tools: FoundTool[]; lone: boolean } | undefined> {
  // a value read by itself (readValueEntries) is named by its label alone
  const where = path.length === 0 ? file : `export "${exportName}" of ${file}`;
  if (isMcpServer(value)) {
    const listed = await listServer(value, exportName, where);
    return { tools: listed.map((tool) => ({ tool, path })), lone: false };
  }
  if (Array.isArray(value)) {
    const tools: FoundTool[] = [];
    for (const [index, entry] of value.entries()) {
      const kind = kindOf(entry);
      if (kind === 'ai-sdk') {
        throw invalid(
          `${where}: entry ${index} is an AI SDK tool, which has no name of its own; export AI SDK tools in an object keyed by name (a ToolSet)`,
        );
      }
      if (kind === undefined) {
        throw invalid(
          `${where}: entry ${index} is not a tool: it is ${describe(entry)}; make it a tool object ({ name, description, inputSchema }) or a framework's tool, or remove it`,
        );
      }
      const tool = await readTool(kind, entry, undefined, exportName, warnings);
      if (tool !== undefined) tools.push({ tool, entry: index, path: [...path, index] });
    }
    return { tools, lone: false };
  }
  const kind = kindOf(value);
  if (kind === 'ai-sdk') {
    if (exportName === 'default') {
      throw invalid(
        `${where} is an AI SDK tool, which has no name of its own; export it under its name (export const getWeather = tool(...)) or in a ToolSet`,
      );
    }
    return {
      tools: [{ tool: (await readTool(kind, value, exportName, exportName, warnings))!, path }],
      lone: true,
    };
  }
  if (kind === 'openai-agents' || kind === 'langchain') {
    return {
      tools: [{ tool: (await readTool(kind, value, undefined, exportName, warnings))!, path }],
      lone: true,
    };
  }
  if (value === null || typeof value !== 'object') return undefined;
  const entries = Object.entries(value);
  const kinds = entries.map(([, entry]) => kindOf(entry));
  if (entries.length > 0 && kinds.every((entry) => entry !== undefined && entry !== 'object')) {
    const tools: FoundTool[] = [];
    for (const [index, [key, entry]] of entries.entries()) {
      const tool = await readTool(kinds[index]!, entry, key, exportName, warnings);
      if (tool !== undefined) tools.push({ tool, entry: key, path: [...path, key] });
    }
    return { tools, lone: false };
  }
  const nested = (value as Record<string, unknown>).tools;
  if (nested !== undefined) {
    return readExport(`${exportName}.tools`, nested, file, warnings, [...path, 'tools']);
  }
  return undefined;
}

async function listServer(
  server: Parameters<typeof listMcpServerTools>[0],
  exportName: string,
  where: string,
): Promise<ModuleTool[]> {
  let listed: Awaited<ReturnType<typeof listMcpServerTools>>;
  try {
    listed = await listMcpServerTools(server);
  } catch (error) {
    const message = errorMessage(error);
    const hint = /already connected/i.test(message)
      ? ': the module connects the server when it is imported; export the server from a module that does not call connect()'
      : '';
    throw invalid(`${where}: cannot list the tools of the MCP server: ${message}${hint}`);
  }
  return listed.map((tool) => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.title === undefined ? {} : { title: tool.title }),
    inputSchema: tool.inputSchema as JsonSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as JsonSchema }),
    ...(tool.annotations === undefined
      ? {}
      : { annotations: { ...tool.annotations } as ToolAnnotations }),
    kind: 'mcp-server',
    exportName,
    value: server,
  }));
}

/** One tool; undefined (with a warning) for a hosted tool. */
async function readTool(
  kind: Kind,
  value: unknown,
  key: string | undefined,
  exportName: string,
  warnings: Warning[],
): Promise<ModuleTool | undefined> {
  const tool = value as Record<string, unknown>;
  const ownName = typeof tool.name === 'string' ? tool.name : undefined;
  const name = kind === 'ai-sdk' ? key! : ownName!;
  if (kind === 'hosted') {
    warnings.push({
      code: 'ENTRY_SKIPPED',
      tool: ownName ?? key ?? exportName,
      message: `"${ownName ?? key}" in export "${exportName}" is a provider-hosted tool, not a function tool; it was skipped`,
    });
    return undefined;
  }
  const description = typeof tool.description === 'string' ? tool.description : undefined;
  const base = {
    name,
    ...(description === undefined ? {} : { description }),
    ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
    kind,
    exportName,
    value,
  };
  switch (kind) {
    case 'ai-sdk': {
      const input = await toToolJsonSchema(tool.inputSchema);
      const output =
        tool.outputSchema === undefined ? undefined : await toToolJsonSchema(tool.outputSchema);
      if (output !== undefined && 'problem' in output) {
        warnings.push({
          code: 'FIELD_DROPPED',
          tool: name,
          message: `the outputSchema of "${name}" (export "${exportName}") was left out: ${output.problem}`,
        });
      }
      return {
        ...base,
        ...schemaOrProblem(input),
        ...(output !== undefined && 'schema' in output ? { outputSchema: output.schema } : {}),
      };
    }
    case 'openai-agents': {
      const input = await toToolJsonSchema(tool.parameters);
      const strict =
        tool.strict === true && 'schema' in input
          ? strictSchemaWarning(
              name,
              `"${name}" (export "${exportName}") is an OpenAI Agents SDK tool in strict mode`,
              input.schema,
            )
          : undefined;
      if (strict !== undefined) warnings.push(strict);
      return { ...base, ...schemaOrProblem(input) };
    }
    case 'langchain': {
      // a tool without a schema of its own has LangChain's string-input schema (Zod 3)
      const stringInput = langChainStringInputSchema(tool.schema);
      if (stringInput !== undefined) return { ...base, inputSchema: stringInput };
      return { ...base, ...schemaOrProblem(await toToolJsonSchema(tool.schema)) };
    }
    default: {
      const sink = createWarningSink();
      const entry = fallbackToolToEntry(value as FallbackTool, sink);
      warnings.push(...sink.finish(name));
      return {
        ...base,
        inputSchema: entry.input_schema as JsonSchema,
        ...(isAnnotations(tool.annotations) ? { annotations: { ...tool.annotations } } : {}),
      };
    }
  }
}

function schemaOrProblem(
  result: Awaited<ReturnType<typeof toToolJsonSchema>>,
): { inputSchema: JsonSchema } | { problem: string } {
  return 'schema' in result ? { inputSchema: result.schema } : { problem: result.problem };
}

function isAnnotations(value: unknown): value is ToolAnnotations {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function invalid(message: string): ToolcapError {
  return new ToolcapError('MODULE_TOOLS_INVALID', message);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return 'an object that is not a tool';
  return `a ${typeof value}`;
}
