import type { ExecutionLimits } from '../execute/execution-limits.js';
import type { ExecuteOptions, ExecuteResult, ToolContext } from '../execute/types.js';
import type { LoadLimits } from '../format/limits.js';
import type { Diagnostic, RegisteredGroup, RegisteredTool, ToolCategory } from '../format/types.js';
import type { FallbackExecute } from '../registry/fallback-tools.js';
import { registerGroup } from '../registry/register-group.js';
import { searchTools } from '../select/search-tools.js';
import { selectTools } from '../select/select-tools.js';
import { SelectionIndex } from '../select/selection-index.js';
import type { SearchOptions, SearchResult, Selection, SelectOptions } from '../select/types.js';
import type { TextAnalyzer } from '../text/text-analyzer.js';

// loaded on the first `execute`: handlers, input validation and processes are not needed to
// load, list or select tools (the CLI's start-up path)
let executeModule: Promise<typeof import('../execute/execute-tool.js')> | undefined;

/** A named predicate for `context` groups: `(context, message) => boolean`. */
export type ContextCheck = (context: Readonly<Record<string, unknown>>, message: string) => boolean;

/** Which tools still live in code and which have moved to JSON (seed 004 migration). */
export interface MigrationStatus {
  /** Defined only in JSON group files. */
  jsonOnly: readonly string[];
  /** Defined only in code: still to migrate. */
  fallbackOnly: readonly string[];
  /** Defined in both: the JSON wins, so the code definition is safe to delete. */
  both: readonly string[];
}

/** Settings a registry carries for the stages after loading (selection, execution). */
export interface RegistrySettings {
  limits: LoadLimits;
  contextChecks: ReadonlyMap<string, ContextCheck>;
  /** Directories searched for `handlers/<executor>` modules, absolute. */
  handlerDirs: readonly string[];
  /** Implementations of code-defined (fallback) tools, by tool name. */
  fallbackImplementations: ReadonlyMap<string, FallbackExecute>;
  /** Values handed to handlers beyond the call context; also satisfy `requires_context` keys. */
  services?: ReadonlyMap<string, unknown>;
  /** Absolute directory for the handlers' stores. Default `<cwd>/.toolcap/data`. */
  dataDir?: string;
  /** Timeouts and output limits of `execute`; see `DEFAULT_EXECUTION_LIMITS`. */
  executionLimits?: ExecutionLimits;
  /** Tokenizer, stemmer and stopwords of keyword matching and ranking. Default: English Porter. */
  analyzer?: TextAnalyzer;
}

/** Everything a registry snapshot holds. */
export interface RegistryData {
  tools: readonly RegisteredTool[];
  groups: readonly RegisteredGroup[];
  diagnostics: readonly Diagnostic[];
  migration: MigrationStatus;
  settings: RegistrySettings;
}

/** Filters for `registry.list()`. */
export interface ListOptions {
  group?: string;
  category?: ToolCategory;
}

/**
 * An immutable snapshot of loaded tool groups (seed 003's registry API, typed). Lookups of
 * model-supplied names go through a Map, so `constructor` or `__proto__` are never tools.
 * Create one with `loadRegistry()` or `createRegistry()`.
 */
export class Registry {
  /** Problems found while building this snapshot (errors skipped files or tools). */
  readonly diagnostics: readonly Diagnostic[];
  /** Runtime settings for selection and execution. */
  readonly settings: RegistrySettings;
  readonly #tools: readonly RegisteredTool[];
  readonly #groups: readonly RegisteredGroup[];
  readonly #toolsByName: ReadonlyMap<string, RegisteredTool>;
  readonly #groupsByName: ReadonlyMap<string, RegisteredGroup>;
  readonly #migration: MigrationStatus;
  readonly #selection: SelectionIndex;

  /** @internal use `loadRegistry()` or `createRegistry()`. */
  constructor(data: RegistryData) {
    this.#tools = Object.freeze([...data.tools]);
    this.#groups = Object.freeze([...data.groups]);
    this.diagnostics = Object.freeze([...data.diagnostics]);
    this.#migration = data.migration;
    this.settings = data.settings;
    this.#toolsByName = new Map(this.#tools.map((tool) => [tool.name, tool]));
    this.#groupsByName = new Map(this.#groups.map((group) => [group.group, group]));
    // the keyword index is built here, once per snapshot; the ranking index on first use
    this.#selection = new SelectionIndex({
      tools: this.#tools,
      groups: this.#groups,
      contextChecks: this.settings.contextChecks,
      analyzer: this.settings.analyzer,
      services: this.settings.services,
    });
  }

  /** The tool named `name`, or undefined. Safe for names that come from a model. */
  get(name: string): RegisteredTool | undefined {
    return this.#toolsByName.get(name);
  }

  /** Whether a tool named `name` exists. */
  has(name: string): boolean {
    return this.#toolsByName.has(name);
  }

  /** All tools in catalog order (group file order, then tool order), optionally filtered. */
  list(options: ListOptions = {}): readonly RegisteredTool[] {
    if (options.group === undefined && options.category === undefined) return this.#tools;
    return this.#tools.filter(
      (tool) =>
        (options.group === undefined || tool.group === options.group) &&
        (options.category === undefined || tool.category === options.category),
    );
  }

  /** All groups in catalog order. */
  groups(): readonly RegisteredGroup[] {
    return this.#groups;
  }

  /** The group named `name`, or undefined. */
  group(name: string): RegisteredGroup | undefined {
    return this.#groupsByName.get(name);
  }

  /** Number of tools. */
  get size(): number {
    return this.#tools.length;
  }

  /**
   * Validates `group` like a group file and returns a NEW registry that includes it (this
   * snapshot is unchanged). Throws a `RegistryLoadError` listing the diagnostics when the group
   * is invalid, already registered, or reuses a tool name. The new snapshot holds `group`'s
   * own schemas, tags and examples, frozen in place: pass a copy if you keep changing yours.
   */
  register(group: unknown): Registry {
    return registerGroup(this, group);
  }

  /**
   * Runs one tool call: validates the input (nulls sent for optional parameters are dropped),
   * checks `requires_context`, runs the handler with a timeout and validates its output. Every
   * failure is returned as `{ ok: false, error }`; only an unknown tool name rejects, with a
   * `ToolNotFoundError`.
   */
  execute(
    name: string,
    input: unknown,
    context: ToolContext = {},
    options: ExecuteOptions = {},
  ): Promise<ExecuteResult> {
    executeModule ??= import('../execute/execute-tool.js');
    return executeModule.then(({ executeTool }) =>
      executeTool(this, name, input, context, options),
    );
  }

  /**
   * The tools for one conversation turn: pinned (`always`) groups, `context` groups whose
   * condition holds, `keyword` groups whose keywords occur in `message`, groups kept by recent
   * `history`, and optionally a relevance `fallback`; then filters and budgets. Each tool
   * carries a `reason`; left-out candidates are in `dropped`. See `SelectOptions`.
   */
  select(message: string, options: SelectOptions = {}): Selection {
    return selectTools(this.#selection, message, options);
  }

  /** Tools ranked by relevance to `query` (BM25F over names, descriptions, parameters, groups). */
  search(query: string, options: SearchOptions = {}): SearchResult[] {
    return searchTools(this.#selection, query, options);
  }

  /**
   * Builds the ranking index now instead of on the first `select` or `search`, and returns this
   * registry. The build analyzes every tool's text (0.5-0.7 s at 10,000 tools and under 0.1 s at
   * 1,000 on the bench machine), so a server with a large catalog can pay for it at start-up, or in
   * `watchRegistry`'s `load` before a new snapshot is served, rather than in a user's turn.
   */
  prepare(): this {
    this.#selection.words();
    return this;
  }

  /** Which tools are JSON-only, code-only (still to migrate) or both (safe to delete from code). */
  migrationStatus(): MigrationStatus {
    return this.#migration;
  }
}
