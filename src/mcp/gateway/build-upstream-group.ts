import valid from 'semver/functions/valid.js';
import type { JsonSchema, ToolDefinition } from '../../format/types.js';
import type { SchemaProblem } from '../../json-schema/check-schema.js';
import { defineEntry, isPlainObject } from '../../json-schema/schema-node.js';
import type { ImportedGroup, RenamedTool } from '../../migrate/build-imported-group.js';
import { type ImportToolListOptions, importToolList } from '../../migrate/import-tool-list.js';
import { suggestKeywords } from '../../migrate/suggest-keywords.js';
import { toCanonicalToolName } from '../../providers/import/to-canonical-tool-name.js';
import { quoteValue } from '../../util/quote-value.js';
import { shortenName } from '../../util/shorten-name.js';
import type { UpstreamListing } from './list-upstream-tools.js';
import type { UpstreamOverlay } from './read-overlays.js';
import {
  describeUnsafeProperties,
  findUnsafePropertyNames,
  type RenamedProperties,
  renameProperties,
} from './rename-properties.js';
import { servedInputSchema } from './served-input-schema.js';
import type { UpstreamServer } from './upstream-config.js';
import { findInputRefCycles } from './upstream-input-checks.js';

/** Version of an upstream group whose server reports no semantic version. */
export const FALLBACK_UPSTREAM_VERSION = '0.0.0';

/** An upstream server's tools as a group, ready for `registry.register`. */
export interface UpstreamGroup {
  /**
   * A group document (the tools converted by `importToolList`, the overlay applied): what the
   * catalog searches and selects from. Its input schemas are not what the gateway lists.
   */
  document: Record<string, unknown>;
  /** Gateway tool name → the server's tool name. */
  routes: Map<string, string>;
  /** The server's own annotations by gateway name, listed as they are (never re-derived). */
  annotations: Map<string, Record<string, unknown>>;
  /**
   * The input schema each tool is listed with, by gateway name: the server's own (see
   * `servedInputSchema`), never the converted one; with `safePropertyNames`, its renamed form.
   * Calls are checked against the server's own.
   */
  inputSchemas: Map<string, JsonSchema>;
  /** With `safePropertyNames`: the tools served with renamed property keys, by gateway name. */
  renamedProperties: Map<string, RenamedProperties>;
  /** Gateway names of the tools the overlay pins. */
  pinned: string[];
  /** Names that differ from the server's: invalid names converted, collisions prefixed. */
  renamed: RenamedTool[];
  /**
   * Every gateway name the server's tools take, hidden tools' included: later servers must not
   * use them, so hiding a tool never renames another server's.
   */
  names: string[];
  /** Conversion warnings and overlay entries that name no tool, for the operator. */
  notes: string[];
}

const DESCRIPTION_LIMIT = 1_000;
const KEYWORD_LIMIT = 8;
/** The loader's default `maxKeywordLength`: a longer server name is no keyword. */
const MAX_KEYWORD_LENGTH = 100;

/**
 * Converts one server's `tools/list` into a group named after the server: title and description
 * overrides are applied, `importToolList` converts the whole list (names made valid, messy
 * schemas repaired, categories inferred from MCP hints) and prefixes names other groups already
 * use (`<group>_<name>`), then the tools the overlay hides are dropped. The converted definitions
 * are for search and selection only: each tool is listed, and its calls checked, with the
 * server's own input schema (`inputSchemas`), so the repairs never narrow what the server
 * accepts and are not reported. A tool whose schema the group format rejects (`true` as a
 * property schema, ...) is converted again with an empty object schema in its place, so it is
 * served and found by its name and description. Top-level property keys that the Anthropic
 * Messages API and Bedrock Converse reject are listed renamed with `safePropertyNames`
 * (`renameProperties`), and named in one note for the server either way. Hidden tools are named
 * with the others, so the names of every server's tools depend only on the servers' lists, never
 * on what an overlay hides. A tool whose schema has a `$ref` loop (`findInputRefCycles`) is
 * served with a note naming where, and its calls are forwarded unchecked. The version is the server's when it is semver, else `0.0.0`. Without an
 * overlay the group is a `keyword` group: the server's name plus keywords suggested from its
 * tools (TF-IDF against `otherDocuments`).
 */
export function buildUpstreamGroup(input: {
  server: UpstreamServer;
  listing: UpstreamListing;
  overlay: UpstreamOverlay | undefined;
  reserved: ReadonlySet<string>;
  /** Serve top-level property keys that Anthropic and Bedrock reject under new names. */
  safePropertyNames?: boolean;
}): UpstreamGroup {
  const { server, listing, overlay } = input;
  const notes: string[] = [];
  const refersTo = (names: readonly string[], rawName: string) =>
    names.includes(rawName) || names.includes(toCanonicalToolName(rawName));
  const used = { hidden: new Set<string>(), tools: new Set<string>() };
  /** The server's names of the tools the overlay hides. */
  const hiddenTools = new Set<string>();
  /** The overlay's example requests by the server's tool name (set after conversion). */
  const exampleRequests = new Map<string, readonly string[]>();
  const entries: unknown[] = [];
  for (const entry of listing.tools) {
    const rawName = toolName(entry);
    if (overlay !== undefined && rawName !== undefined) {
      if (refersTo(overlay.hidden, rawName)) {
        used.hidden.add(overlay.hidden.includes(rawName) ? rawName : toCanonicalToolName(rawName));
        hiddenTools.add(rawName);
      }
      const key = overlay.tools.has(rawName) ? rawName : toCanonicalToolName(rawName);
      const override = overlay.tools.get(key);
      if (override !== undefined) {
        used.tools.add(key);
        const { example_requests: requests, ...fields } = override;
        if (requests !== undefined) exampleRequests.set(rawName, requests);
        entries.push({ ...(entry as object), ...fields });
        continue;
      }
    }
    entries.push(entry);
  }

  const info = listing.server;
  const version =
    info !== undefined && valid(info.version) !== null
      ? valid(info.version)!
      : FALLBACK_UPSTREAM_VERSION;
  /** What the gateway lists and checks for each tool, by the server's name. */
  const served = new Map<string, JsonSchema | undefined>();
  for (const entry of entries) {
    const rawName = toolName(entry);
    if (rawName !== undefined && !served.has(rawName)) {
      const schema = servedInputSchema(
        (entry as { inputSchema?: unknown }).inputSchema,
        (pointer, problem) => {
          if (!hiddenTools.has(rawName)) {
            notes.push(
              `tool ${JSON.stringify(shortenName(rawName))}: inputSchema at ${JSON.stringify(shortenName(pointer))} ${problem}, since MCP clients reject a whole tools/list that holds it`,
            );
          }
        },
      );
      served.set(rawName, schema);
      if (schema !== undefined && !hiddenTools.has(rawName)) {
        // found now, not on the first call, where ajv would overflow the stack
        const cycles = findInputRefCycles(schema);
        if (cycles.length > 0) notes.push(describeRefCycles(rawName, cycles));
      }
    }
  }
  const imported = convertTools(entries, served, {
    from: 'mcp',
    group: server.group,
    version,
    strategy: 'always',
    reservedNames: input.reserved,
    sourceLabel: `the MCP server "${server.name}"`,
  });
  const converted = imported.document.tools as (ToolDefinition & {
    'x-original-name'?: string;
  })[];
  const names = converted.map((tool) => tool.name);
  const hiddenNames = new Set(
    converted
      .filter((tool) => hiddenTools.has(tool['x-original-name'] ?? tool.name))
      .map((tool) => tool.name),
  );
  const tools = converted.filter((tool) => !hiddenNames.has(tool.name));
  for (const tool of tools) {
    const requests = exampleRequests.get(tool['x-original-name'] ?? tool.name);
    if (requests !== undefined) tool.example_requests = [...requests];
  }
  for (const warning of imported.warnings) {
    // renames are reported as such; categories do not change what the gateway serves; a hidden
    // tool's conversion does not matter
    if (['NAME_COLLISION', 'TOOL_RENAMED', 'CATEGORY_DEFAULTED'].includes(warning.code)) continue;
    // a repair inside an input schema changes only the searched copy; SCHEMA_REPLACED says the
    // server listed no schema object, which the listed schema replaces too
    if (
      warning.tool !== undefined &&
      warning.pointer !== undefined &&
      warning.code !== 'SCHEMA_REPLACED'
    ) {
      continue;
    }
    if (
      warning.tool !== undefined &&
      (hiddenNames.has(warning.tool) || hiddenTools.has(warning.tool))
    ) {
      continue;
    }
    notes.push(
      `${warning.code}${warning.tool === undefined ? '' : ` ${warning.tool}`}: ${warning.message}`,
    );
  }
  const routes = new Map<string, string>();
  const inputSchemas = new Map<string, JsonSchema>();
  for (const tool of tools) {
    const original = tool['x-original-name'] ?? tool.name;
    routes.set(tool.name, original);
    // a schema the import accepted is within every limit the server's own schema is held to
    inputSchemas.set(tool.name, served.get(original) ?? tool.input_schema);
  }
  const renamedProperties = new Map<string, RenamedProperties>();
  const unsafe: { tool: string; keys: { from: string; to?: string }[] }[] = [];
  for (const [name, schema] of inputSchemas) {
    if (input.safePropertyNames === true) {
      const renamed = renameProperties(schema);
      if (renamed === undefined) continue;
      renamedProperties.set(name, renamed);
      inputSchemas.set(name, renamed.servedSchema);
      unsafe.push({ tool: name, keys: [...renamed.toServed].map(([from, to]) => ({ from, to })) });
    } else {
      const keys = findUnsafePropertyNames(schema);
      if (keys.length > 0) unsafe.push({ tool: name, keys: keys.map((from) => ({ from })) });
    }
  }
  // one note per server, however many of its tools have such keys
  if (unsafe.length > 0) notes.push(describeUnsafeProperties(unsafe));
  const rawAnnotations = new Map<string, Record<string, unknown>>();
  for (const entry of entries) {
    const rawName = toolName(entry);
    // a nameless entry (`null`, a number) was skipped by the conversion, with a note
    if (rawName === undefined) continue;
    const value = (entry as { annotations?: unknown }).annotations;
    if (isPlainObject(value)) {
      const problems: string[] = [];
      rawAnnotations.set(rawName, servedAnnotations(value, problems));
      if (problems.length > 0 && !hiddenTools.has(rawName)) {
        notes.push(
          `tool ${JSON.stringify(shortenName(rawName))}: ${problems.join('; ')}; left out, since MCP clients reject a whole tools/list that holds it (a hint left out never makes the tool look safer)`,
        );
      }
    }
  }
  const annotations = new Map<string, Record<string, unknown>>();
  for (const [name, original] of routes) {
    const value = rawAnnotations.get(original);
    if (value !== undefined) annotations.set(name, value);
  }

  const document: Record<string, unknown> = { ...imported.document, tools };
  delete document.$schema;
  if (overlay === undefined) {
    document.description = describeServer(server, listing);
    document.selection = { strategy: 'keyword', keywords: defaultKeywords(server, tools) };
  } else {
    document.description = overlay.description;
    document.selection = overlay.selection;
  }

  const pinned: string[] = [];
  if (overlay !== undefined) {
    const gatewayName = new Map<string, string>();
    for (const [name, original] of routes) {
      gatewayName.set(original, name);
      gatewayName.set(toCanonicalToolName(original), name);
    }
    for (const name of overlay.pinned) {
      const found = gatewayName.get(name);
      if (found === undefined) notes.push(unknownTool(overlay, 'pinned', name, server));
      else pinned.push(found);
    }
    for (const name of overlay.hidden) {
      if (!used.hidden.has(name)) notes.push(unknownTool(overlay, 'hidden', name, server));
    }
    for (const name of overlay.tools.keys()) {
      if (used.tools.has(name)) continue;
      // the converted name of a tool the overlay also names as the server does
      const twin = [...used.tools].find((key) => key !== name && toCanonicalToolName(key) === name);
      notes.push(
        twin === undefined
          ? unknownTool(overlay, 'tools', name, server)
          : `${overlay.file}: x-upstream.tools names one tool of the server "${server.name}" twice, as "${twin}" and "${name}"; only "${twin}" applies: merge them`,
      );
    }
  }
  const renamed = imported.renamed.filter((entry) => !hiddenNames.has(entry.to));
  return {
    document,
    routes,
    annotations,
    inputSchemas,
    renamedProperties,
    pinned,
    renamed,
    names,
    notes,
  };
}

/** The type MCP gives each standard annotation (the SDK's clients check them). */
const ANNOTATION_TYPES = new Map([
  ['title', 'string'],
  ['readOnlyHint', 'boolean'],
  ['destructiveHint', 'boolean'],
  ['idempotentHint', 'boolean'],
  ['openWorldHint', 'boolean'],
]);

/**
 * The server's annotations as listed, without the standard ones of the wrong type (each
 * described in `problems`): one would make MCP clients reject the whole `tools/list`. An absent
 * hint takes MCP's default, which never says more about safety than the server did.
 */
function servedAnnotations(
  annotations: Record<string, unknown>,
  problems: string[],
): Record<string, unknown> {
  const served: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(annotations)) {
    const type = ANNOTATION_TYPES.get(key);
    if (type !== undefined && typeof value !== type) {
      problems.push(`annotations.${key} is ${quoteValue(value)}, not a ${type}`);
      continue;
    }
    defineEntry(served, key, value);
  }
  return problems.length === 0 ? annotations : served;
}

/**
 * The note for a tool whose input schema has `$ref` loops: where the first one is and what it
 * is, how many more there are, and what the gateway does about it.
 */
function describeRefCycles(rawName: string, cycles: readonly SchemaProblem[]): string {
  const first = cycles[0]!;
  const more = cycles.length > 1 ? ` (and ${cycles.length - 1} more $ref loop(s))` : '';
  return `tool ${JSON.stringify(shortenName(rawName))}: inputSchema at ${JSON.stringify(shortenName(first.pointer))} has a $ref loop (REF_CYCLE)${more}: ${first.message}. The tool is listed as the server lists it, and its calls are forwarded unchecked, for the server to check`;
}

/** Stands in for an input schema the group format rejects: the tool is searched without it. */
const STAND_IN_SCHEMA = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/**
 * `importToolList` over the server's entries. Entries it left out although their own schema can
 * be served are converted again with `STAND_IN_SCHEMA`, in one pass over the whole list so that
 * every tool gets the name it would have had.
 */
function convertTools(
  entries: readonly unknown[],
  served: ReadonlyMap<string, JsonSchema | undefined>,
  options: ImportToolListOptions,
): ImportedGroup {
  const imported = importToolList({ tools: entries }, options);
  const kept = new Set(
    (imported.document.tools as { name: string; 'x-original-name'?: string }[]).map(
      (tool) => tool['x-original-name'] ?? tool.name,
    ),
  );
  const rejected = new Set(
    entries.filter((entry) => {
      const rawName = toolName(entry);
      return (
        rawName !== undefined &&
        !kept.has(rawName) &&
        served.get(rawName) !== undefined &&
        isPlainObject((entry as { inputSchema?: unknown }).inputSchema)
      );
    }),
  );
  if (rejected.size === 0) return imported;
  return importToolList(
    {
      tools: entries.map((entry) =>
        rejected.has(entry) ? { ...(entry as object), inputSchema: STAND_IN_SCHEMA } : entry,
      ),
    },
    options,
  );
}

function toolName(entry: unknown): string | undefined {
  if (entry === null || typeof entry !== 'object') return undefined;
  const name = (entry as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}

function describeServer(server: UpstreamServer, listing: UpstreamListing): string {
  const info = listing.server;
  const who =
    info === undefined
      ? ''
      : ` (${info.title ?? info.name}${info.version === '' ? '' : ` ${info.version}`})`;
  const instructions = listing.instructions?.trim().replace(/\s+/g, ' ') ?? '';
  const text = `Tools of the MCP server "${server.name}"${who}.${instructions === '' ? '' : ` ${instructions}`}`;
  return text.length > DESCRIPTION_LIMIT ? `${text.slice(0, DESCRIPTION_LIMIT - 4)} ...` : text;
}

/** The server's name as a keyword (as written in the configuration), then TF-IDF suggestions. */
function defaultKeywords(server: UpstreamServer, tools: readonly ToolDefinition[]): string[] {
  const keywords: string[] = [];
  const seen = new Set<string>();
  for (const keyword of [
    server.name.trim(),
    ...suggestKeywords(tools, server.group, { limit: KEYWORD_LIMIT }),
  ]) {
    const key = keyword.normalize('NFKC').trim().toLowerCase();
    if (key === '' || keyword.length > MAX_KEYWORD_LENGTH || seen.has(key)) continue;
    seen.add(key);
    keywords.push(keyword);
  }
  return keywords.length > 0 ? keywords : [server.group];
}

function unknownTool(
  overlay: UpstreamOverlay,
  field: string,
  name: string,
  server: UpstreamServer,
): string {
  return `${overlay.file}: x-upstream.${field} names "${name}", which the server "${server.name}" does not list (now); check the name`;
}
