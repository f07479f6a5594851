import type { JsonSchema, RegisteredTool, ToolDefinition } from '../../format/types.js';
import type { RenamedTool } from '../../migrate/build-imported-group.js';
import { createRegistry } from '../../toolcap/create-registry.js';
import type { Registry } from '../../toolcap/registry.js';
import { errorMessage } from '../../util/error-message.js';
import { buildUpstreamGroup } from './build-upstream-group.js';
import type { UpstreamListing } from './list-upstream-tools.js';
import type { UpstreamOverlay } from './read-overlays.js';
import type { UpstreamServer } from './upstream-config.js';

/** Where a gateway tool is forwarded to. */
export interface UpstreamRoute {
  /** The server's key in the configuration. */
  server: string;
  /** The tool's name on that server. */
  tool: string;
}

/** A renamed upstream tool and the server it belongs to. */
export interface GatewayRename extends RenamedTool {
  server: string;
}

/**
 * One immutable view of everything the gateway serves. A change (an upstream's new tool list, a
 * reloaded group file) builds a new catalog, swapped in with one assignment; a call keeps the
 * catalog it started with.
 */
export interface Catalog {
  /** Every served tool: local groups, then one group per upstream server (overlays applied). */
  registry: Registry;
  /** The loaded registry: runs the local tools. */
  local: Registry;
  /** Upstream tools by gateway name. */
  routes: ReadonlyMap<string, UpstreamRoute>;
  /**
   * Upstream tools' annotations as their servers list them: the gateway lists these rather than
   * hints derived from an inferred category, so no tool looks safer than its server says.
   */
  annotations: ReadonlyMap<string, Record<string, unknown>>;
  /**
   * Upstream tools' input schemas as their servers list them: listed to clients and checked on
   * calls, so the gateway never refuses what the server accepts.
   */
  inputSchemas: ReadonlyMap<string, JsonSchema>;
  /** Tools the overlays pin (listed in `--expose selected`). */
  pinned: ReadonlySet<string>;
  /** Local tools that are not served, and why (a name the gateway reserves). */
  shadowed: readonly { name: string; reason: string }[];
  renamed: readonly GatewayRename[];
  /** Problems and conversion notes for the operator. */
  notes: readonly string[];
}

/** What a catalog is built from. */
export interface CatalogInput {
  local: Registry;
  overlays: ReadonlyMap<string, UpstreamOverlay>;
  /** In configuration order; `listing` is undefined until the server has listed once. */
  upstreams: readonly { server: UpstreamServer; listing: UpstreamListing | undefined }[];
  /** Names of the gateway's own tools (`find_tools`, `call_tool`), never used for others. */
  reserved: readonly string[];
}

interface LocalBase {
  registry: Registry;
  shadowed: { name: string; reason: string }[];
  notes: string[];
}

/**
 * Builds catalogs; it keeps, per loaded registry, the local groups re-registered into a fresh
 * registry, so a new upstream listing does not redo them.
 */
export class CatalogBuilder {
  readonly #bases = new WeakMap<Registry, Map<string, LocalBase>>();

  /** See `buildCatalog`. */
  build(input: CatalogInput): Catalog {
    return buildCatalog(input, this.#bases);
  }
}

/**
 * Builds a catalog: the local groups (without the overlays, whose tools come from their servers),
 * then each listed upstream as a group (`buildUpstreamGroup`), in configuration order, so name
 * collisions always resolve the same way: local tools keep their names, the first server to list
 * a name keeps it (even when its overlay hides the tool), and later servers' tools become
 * `<group>_<name>`. Without upstreams the loaded
 * registry is served as is.
 */
function buildCatalog(
  input: CatalogInput,
  bases: WeakMap<Registry, Map<string, LocalBase>>,
): Catalog {
  const { local, reserved } = input;
  if (input.upstreams.length === 0 && reserved.every((name) => !local.has(name))) {
    return {
      registry: local,
      local,
      routes: new Map(),
      annotations: new Map(),
      inputSchemas: new Map(),
      pinned: new Set(),
      shadowed: [],
      renamed: [],
      notes: [],
    };
  }
  const upstreamGroups = new Set(input.upstreams.map(({ server }) => server.group));
  const base = localBase(local, upstreamGroups, reserved, bases);
  let registry = base.registry;
  const routes = new Map<string, UpstreamRoute>();
  const annotations = new Map<string, Record<string, unknown>>();
  const inputSchemas = new Map<string, JsonSchema>();
  const pinned = new Set<string>();
  const renamed: GatewayRename[] = [];
  const notes = [...base.notes];
  const taken = new Set<string>([...reserved, ...registry.list().map((tool) => tool.name)]);
  for (const { server, listing } of input.upstreams) {
    if (listing === undefined) continue;
    const group = buildUpstreamGroup({
      server,
      listing,
      overlay: input.overlays.get(server.group),
      reserved: taken,
    });
    for (const note of group.notes) notes.push(`server "${server.name}": ${note}`);
    try {
      registry = registry.register(group.document);
    } catch (error) {
      const detail = (error as { diagnostics?: { message: string }[] }).diagnostics?.[0]?.message;
      notes.push(
        `server "${server.name}": its tools cannot be served (${detail ?? errorMessage(error)})`,
      );
      continue;
    }
    for (const [name, tool] of group.routes) routes.set(name, { server: server.name, tool });
    // hidden tools hold their names too: hiding one never renames a later server's tool
    for (const name of group.names) taken.add(name);
    for (const [name, value] of group.annotations) annotations.set(name, value);
    for (const [name, schema] of group.inputSchemas) inputSchemas.set(name, schema);
    for (const name of group.pinned) pinned.add(name);
    for (const entry of group.renamed) renamed.push({ ...entry, server: server.name });
  }
  return {
    registry,
    local,
    routes,
    annotations,
    inputSchemas,
    pinned,
    shadowed: base.shadowed,
    renamed,
    notes,
  };
}

function localBase(
  local: Registry,
  upstreamGroups: ReadonlySet<string>,
  reserved: readonly string[],
  cache: WeakMap<Registry, Map<string, LocalBase>>,
): LocalBase {
  const key = [...upstreamGroups, '', ...reserved].join('\0');
  let bases = cache.get(local);
  if (bases === undefined) {
    bases = new Map();
    cache.set(local, bases);
  }
  const cached = bases.get(key);
  if (cached !== undefined) return cached;

  let registry = createRegistry({
    limits: local.settings.limits,
    contextChecks: Object.fromEntries(local.settings.contextChecks),
    services: Object.fromEntries(local.settings.services ?? []),
    ...(local.settings.analyzer === undefined ? {} : { analyzer: local.settings.analyzer }),
    // find_tools searches with the local registry's semantic scorer too (its cache is absolute)
    ...(local.settings.semantic === undefined
      ? {}
      : {
          semantic: {
            embedder: local.settings.semantic.embedder,
            weight: local.settings.semantic.weight,
            cacheDir: local.settings.semantic.cacheDir ?? false,
          },
        }),
  });
  const shadowed: LocalBase['shadowed'] = [];
  const notes: string[] = [];
  for (const group of local.groups()) {
    if (upstreamGroups.has(group.group)) continue;
    const tools: ToolDefinition[] = [];
    for (const tool of local.list({ group: group.group })) {
      if (reserved.includes(tool.name)) {
        shadowed.push({
          name: tool.name,
          reason: `the name is the gateway's own ${tool.name} tool in this expose mode; rename the tool`,
        });
        continue;
      }
      tools.push(toDefinition(tool));
    }
    try {
      registry = registry.register({
        group: group.group,
        version: group.version,
        description: group.description,
        selection: group.selection,
        tools,
      });
    } catch (error) {
      notes.push(`group "${group.group}" cannot be served: ${errorMessage(error)}`);
    }
  }
  const base = { registry, shadowed, notes };
  bases.set(key, base);
  return base;
}

/** A registered tool's definition fields: what a group document holds. */
function toDefinition(tool: RegisteredTool): ToolDefinition {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    category: tool.category,
    ...(tool.tags === undefined ? {} : { tags: tool.tags }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    ...(tool.examples === undefined ? {} : { examples: tool.examples }),
    input_schema: tool.input_schema,
    ...(tool.output_schema === undefined ? {} : { output_schema: tool.output_schema }),
    metadata: tool.metadata,
  };
}
