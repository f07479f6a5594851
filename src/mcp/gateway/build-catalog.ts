import type { JsonSchema, RegisteredTool, ToolDefinition } from '../../format/types.js';
import type { RenamedTool } from '../../migrate/build-imported-group.js';
import { toCanonicalToolName } from '../../providers/import/to-canonical-tool-name.js';
import { createRegistry } from '../../toolcap/create-registry.js';
import type { Registry } from '../../toolcap/registry.js';
import { errorMessage } from '../../util/error-message.js';
import { buildUpstreamGroup } from './build-upstream-group.js';
import type { UpstreamListing } from './list-upstream-tools.js';
import type { UpstreamOverlay } from './read-overlays.js';
import type { RenamedProperties } from './rename-properties.js';
import type { UpstreamServer } from './upstream-config.js';

/** Where a gateway tool is forwarded to. */
export interface UpstreamRoute {
  /** The server's key in the configuration. */
  server: string;
  /** The tool's name on that server. */
  tool: string;
}

/** Who serves a gateway name: a local tool, or an upstream server's tool. */
export type NameOwner = UpstreamRoute | 'local';

/** A renamed upstream tool and the server it belongs to. */
export interface GatewayRename extends Omit<RenamedTool, 'reason'> {
  server: string;
  /**
   * Why: `invalid` (not a valid tool name), `duplicate` (the server lists another tool under the
   * name), `collision` (a local tool or an earlier server in the file has it), `reserved` (the
   * gateway's own `find_tools` or `call_tool`), `served` (the gateway has served the name for
   * another tool since earlier in this process: names never move while it runs).
   */
  reason: RenamedTool['reason'] | 'reserved' | 'served';
  /** With `served`: who serves the name. */
  heldBy?: NameOwner;
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
   * calls, so the gateway never refuses what the server accepts. A tool in `renamedProperties`
   * is listed with its renamed schema here and checked against the server's.
   */
  inputSchemas: ReadonlyMap<string, JsonSchema>;
  /** Upstream tools served with renamed property keys (`safePropertyNames`), by gateway name. */
  renamedProperties: ReadonlyMap<string, RenamedProperties>;
  /** Tools the overlays pin (listed in `--expose selected`). */
  pinned: ReadonlySet<string>;
  /** Local tools that are not served, and why (a name the gateway reserves). */
  shadowed: readonly { name: string; reason: string }[];
  renamed: readonly GatewayRename[];
  /** Problems and conversion notes for the operator. */
  notes: readonly string[];
  /** Every name served by this catalog or an earlier one, and who serves it. */
  served: ReadonlyMap<string, NameOwner>;
}

/** What a catalog is built from. */
export interface CatalogInput {
  local: Registry;
  overlays: ReadonlyMap<string, UpstreamOverlay>;
  /** In configuration order; `listing` is undefined until the server has listed once. */
  upstreams: readonly { server: UpstreamServer; listing: UpstreamListing | undefined }[];
  /** Names of the gateway's own tools (`find_tools`, `call_tool`), never used for others. */
  reserved: readonly string[];
  /** Serve upstream tools' top-level property keys that Anthropic and Bedrock reject renamed. */
  safePropertyNames?: boolean;
  /**
   * Names earlier catalogs of this process served, and who: each keeps pointing at its tool, so
   * a server that comes up late never takes a name a client may already use. Default: none.
   */
  served?: ReadonlyMap<string, NameOwner>;
}

interface LocalBase {
  registry: Registry;
  shadowed: { name: string; reason: string }[];
  notes: string[];
}

/**
 * Builds the catalogs of one gateway. It remembers every name its catalogs served, so a name
 * keeps pointing at the same tool for the builder's life, and keeps, per loaded registry, the
 * local groups re-registered into a fresh registry, so a new upstream listing does not redo them.
 */
export class CatalogBuilder {
  readonly #bases = new WeakMap<Registry, Map<string, LocalBase>>();
  #served: ReadonlyMap<string, NameOwner> = new Map();

  /** See `buildCatalog`; the names served so far are added to `input.served`. */
  build(input: Omit<CatalogInput, 'served'>): Catalog {
    const catalog = buildCatalog({ ...input, served: this.#served }, this.#bases);
    this.#served = catalog.served;
    return catalog;
  }
}

/**
 * Builds a catalog: the local groups (without the overlays, whose tools come from their servers),
 * then each listed upstream as a group (`buildUpstreamGroup`), in configuration order, so name
 * collisions resolve the same way: local tools keep their names, the first server to list
 * a name keeps it (even when its overlay hides the tool), and later servers' tools become
 * `<group>_<name>`. A name in `input.served` is the exception: it stays with its tool, so a
 * server that lists late (it was down at start) gets `<group>_<name>` for a name another tool
 * has been served under, and a local tool added later under such a name is not served. Without
 * upstreams the loaded registry is served as is.
 */
function buildCatalog(
  input: CatalogInput,
  bases: WeakMap<Registry, Map<string, LocalBase>>,
): Catalog {
  const { local, reserved } = input;
  const served = new Map(input.served);
  if (input.upstreams.length === 0 && reserved.every((name) => !local.has(name))) {
    return {
      registry: local,
      local,
      routes: new Map(),
      annotations: new Map(),
      inputSchemas: new Map(),
      renamedProperties: new Map(),
      pinned: new Set(),
      shadowed: [],
      renamed: [],
      notes: [],
      served,
    };
  }
  const upstreamGroups = new Set(input.upstreams.map(({ server }) => server.group));
  const base = localBase(local, upstreamGroups, reserved, served, bases);
  let registry = base.registry;
  for (const tool of registry.list()) if (!served.has(tool.name)) served.set(tool.name, 'local');
  const routes = new Map<string, UpstreamRoute>();
  const annotations = new Map<string, Record<string, unknown>>();
  const inputSchemas = new Map<string, JsonSchema>();
  const renamedProperties = new Map<string, RenamedProperties>();
  const pinned = new Set<string>();
  const renamed: GatewayRename[] = [];
  const notes = [...base.notes];
  const taken = new Set<string>([...reserved, ...registry.list().map((tool) => tool.name)]);
  for (const { server, listing } of input.upstreams) {
    if (listing === undefined) continue;
    let group: ReturnType<typeof buildUpstreamGroup>;
    try {
      group = buildServedGroup(server, listing, input, taken, served);
    } catch (error) {
      // a listing no check foresaw must cost that server's tools, never the whole catalog
      notes.push(
        `server "${server.name}": its tools cannot be served (its tools/list could not be read: ${errorMessage(error)})`,
      );
      continue;
    }
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
    // before this server's names join `taken`: the reasons compare with what came before it
    for (const entry of group.renamed)
      renamed.push(renameReason(entry, server, input, taken, served));
    for (const [name, tool] of group.routes) {
      routes.set(name, { server: server.name, tool });
      if (!served.has(name)) served.set(name, { server: server.name, tool });
    }
    // hidden tools hold their names too: hiding one never renames a later server's tool
    for (const name of group.names) taken.add(name);
    for (const [name, value] of group.annotations) annotations.set(name, value);
    for (const [name, schema] of group.inputSchemas) inputSchemas.set(name, schema);
    for (const [name, renamed] of group.renamedProperties) renamedProperties.set(name, renamed);
    for (const name of group.pinned) pinned.add(name);
  }
  return {
    registry,
    local,
    routes,
    annotations,
    inputSchemas,
    renamedProperties,
    pinned,
    shadowed: base.shadowed,
    renamed,
    notes,
    served,
  };
}

/**
 * One server's group, named around `taken` (the local tools and earlier servers) and around
 * the names served for other tools: another server's, a local tool's, or another tool of this
 * server's (a name the server's conversion now gives a different tool).
 */
function buildServedGroup(
  server: UpstreamServer,
  listing: UpstreamListing,
  input: CatalogInput,
  taken: ReadonlySet<string>,
  served: ReadonlyMap<string, NameOwner>,
): ReturnType<typeof buildUpstreamGroup> {
  const reserved = new Set(taken);
  for (const [name, owner] of served) if (!isOwnedBy(owner, server.name)) reserved.add(name);
  // each round reserves at least one more name: bounded by the number of tools
  for (let round = 0; ; round++) {
    const group = buildUpstreamGroup({
      server,
      listing,
      overlay: input.overlays.get(server.group),
      reserved,
      safePropertyNames: input.safePropertyNames === true,
    });
    const moved = [...group.routes].filter(([name, tool]) => {
      const owner = served.get(name);
      return owner !== undefined && owner !== 'local' && owner.tool !== tool;
    });
    if (moved.length === 0 || round > listing.tools.length) return group;
    for (const [name] of moved) reserved.add(name);
  }
}

function isOwnedBy(owner: NameOwner, server: string): boolean {
  return owner !== 'local' && owner.server === server;
}

/** The rename with the gateway's reason: its own tools' names, and names held for others. */
function renameReason(
  entry: RenamedTool,
  server: UpstreamServer,
  input: CatalogInput,
  taken: ReadonlySet<string>,
  served: ReadonlyMap<string, NameOwner>,
): GatewayRename {
  const rename: GatewayRename = { ...entry, server: server.name };
  if (entry.reason !== 'collision') return rename;
  const wanted = toCanonicalToolName(entry.from);
  if (input.reserved.includes(wanted)) return { ...rename, reason: 'reserved' };
  const owner = served.get(wanted);
  if (taken.has(wanted) || owner === undefined) return rename;
  return { ...rename, reason: 'served', heldBy: owner };
}

function localBase(
  local: Registry,
  upstreamGroups: ReadonlySet<string>,
  reserved: readonly string[],
  served: ReadonlyMap<string, NameOwner>,
  cache: WeakMap<Registry, Map<string, LocalBase>>,
): LocalBase {
  // local tools whose names upstream tools have been served under (a group file added later)
  const heldUpstream = new Map<string, UpstreamRoute>();
  for (const tool of local.list()) {
    const owner = served.get(tool.name);
    if (owner !== undefined && owner !== 'local') heldUpstream.set(tool.name, owner);
  }
  const key = [...upstreamGroups, '', ...reserved, '', ...heldUpstream.keys()].join('\0');
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
      const holder = heldUpstream.get(tool.name);
      if (holder !== undefined) {
        shadowed.push({
          name: tool.name,
          reason: `the gateway serves the tool "${holder.tool}" of upstream "${holder.server}" under this name, and names never move while it runs; rename the tool, or restart the gateway to give local tools their names`,
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
