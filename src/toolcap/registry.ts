import { createRequire } from 'node:module';
import type { Embedder } from '../embeddings/embedder.js';
import { ToolcapError } from '../errors/toolcap-error.js';
import type { ExecutionSettings } from '../execute/execution-target.js';
import type { ExecuteOptions, ExecuteResult, ToolContext } from '../execute/types.js';
import type { LoadLimits } from '../format/limits.js';
import type { ProviderId } from '../format/provider-ids.js';
import type {
  Diagnostic,
  RegisteredGroup,
  RegisteredTool,
  ToolCategory,
  ToolDefinition,
} from '../format/types.js';
import { RegistryLoadError } from '../load/registry-load-error.js';
import { estimateToolTokens } from '../providers/estimate-tokens.js';
import type { TranslateOptions, TranslationResult } from '../providers/provider-types.js';
import type { ToolCallProviderId, ToolCallsResponseMap } from '../providers/tool-call-types.js';
import { createTranslator, type Translator } from '../providers/translator.js';
import { registerGroup } from '../registry/register-group.js';
import type { MigrationStatus, RegistrySnapshot } from '../registry/registry-snapshot.js';
import { prepareSemanticIndex, type SemanticReport } from '../select/prepare-semantic-index.js';
import { searchTools } from '../select/search-tools.js';
import {
  type SearchAsyncOptions,
  type SearchVectorOptions,
  type SelectAsyncOptions,
  type SelectVectorOptions,
  type SemanticScorer,
  searchToolsAsync,
  selectToolsAsync,
  takeOption,
} from '../select/select-semantic.js';
import { selectTools } from '../select/select-tools.js';
import { SelectionIndex } from '../select/selection-index.js';
import type {
  ContextCheck,
  SearchOptions,
  SearchResult,
  Selection,
  SelectOptions,
} from '../select/types.js';
import type { TextAnalyzer } from '../text/text-analyzer.js';
import type { ExecuteToolCallsOptions, ToolCallsResult } from './run-provider-tool-calls.js';

// loaded on the first `execute`: handlers, input validation and processes are not needed to
// load, list or select tools (the CLI's start-up path)
let executeModule: Promise<typeof import('../execute/execute-tool-calls.js')> | undefined;
let toolCallsModule: Promise<typeof import('./run-provider-tool-calls.js')> | undefined;

/** Settings a registry carries for the stages after loading (selection, execution). */
export interface RegistrySettings extends ExecutionSettings {
  limits: LoadLimits;
  contextChecks: ReadonlyMap<string, ContextCheck>;
  /** The `pins` option: semver ranges by group name, which `register()` also honours. */
  pins: ReadonlyMap<string, string>;
  /** Tokenizer, stemmer and stopwords of keyword matching and ranking. Default: English Porter. */
  analyzer?: TextAnalyzer;
  /** The semantic scorer, when `semantic` was given: embedder, fusion weight, cache directory. */
  semantic?: SemanticSettings;
}

/** A registry's semantic scorer settings (`SemanticOptions` resolved). */
export interface SemanticSettings {
  embedder: Embedder;
  weight: number;
  /** Absolute cache directory; undefined when the disk cache is off. */
  cacheDir: string | undefined;
}

/** Filters for `registry.list()`. */
export interface ListOptions {
  group?: string;
  category?: ToolCategory;
}

/**
 * A loaded tool registry: an immutable snapshot of tool groups plus what works on it
 * (selection, search, execution). Lookups of model-supplied names go through a Map, so
 * `constructor` or `__proto__` are never tools. Create one with `loadRegistry()` or
 * `createRegistry()`; `register()` returns a new one.
 */
export interface Registry {
  /** Problems found while building this snapshot (errors skipped files or tools). */
  readonly diagnostics: readonly Diagnostic[];
  /** Runtime settings for selection and execution. */
  readonly settings: RegistrySettings;
  /** Number of tools. */
  readonly size: number;
  /** The tool named `name`, or undefined. Safe for names that come from a model. */
  get(name: string): RegisteredTool | undefined;
  /** Whether a tool named `name` exists. */
  has(name: string): boolean;
  /** All tools in catalog order (group file order, then tool order), optionally filtered. */
  list(options?: ListOptions): readonly RegisteredTool[];
  /** All groups in catalog order. */
  groups(): readonly RegisteredGroup[];
  /** The group named `name`, or undefined. */
  group(name: string): RegisteredGroup | undefined;
  /**
   * Validates `group` like a group file and returns a NEW registry that includes it (this
   * snapshot is unchanged). Throws a `RegistryLoadError` listing the diagnostics when the group
   * is invalid, already registered, or reuses a tool name. The new snapshot holds `group`'s
   * own schemas, tags and examples, frozen in place: pass a copy if you keep changing yours.
   * A group named in the `pins` option must have a version its range allows.
   */
  register(group: unknown): Registry;
  /**
   * The tools for one conversation turn: pinned (`always`) groups, `context` groups whose
   * condition holds, `keyword` groups whose keywords occur in `message`, groups kept by recent
   * `history`, and optionally a relevance `fallback`; then filters and budgets. Each tool
   * carries a `reason`; left-out candidates are in `dropped`. See `SelectOptions`. With a
   * `queryVector` (semantic scorer prepared), relevance is the fused lexical and semantic score.
   */
  select(message: string, options?: SelectVectorOptions): Selection;
  /**
   * Tools ranked by relevance to `query` (BM25F over names, descriptions, parameters, groups);
   * with a `queryVector` (semantic scorer prepared), by the fused score over every tool.
   */
  search(query: string, options?: SearchVectorOptions): SearchResult[];
  /**
   * `select` with the semantic scorer: embeds the message (and the history messages, which
   * count less), prepares the tool vectors on first use, and fuses the scores. Without a
   * `semantic` option it is `select`. Rejects when the embedder fails.
   */
  selectAsync(message: string, options?: SelectAsyncOptions): Promise<Selection>;
  /** `search` with the semantic scorer (see `selectAsync`); finds tools sharing no query word. */
  searchAsync(query: string, options?: SearchAsyncOptions): Promise<SearchResult[]>;
  /**
   * Embeds every tool (through the disk cache) once for this snapshot, so `select`/`search`
   * accept a `queryVector` and the first `selectAsync` does not wait; returns what it did,
   * with cache warnings. Repeated calls share the work. Throws `SEMANTIC_NOT_CONFIGURED`
   * without a `semantic` option.
   */
  prepareSemantic(options?: { signal?: AbortSignal }): Promise<SemanticReport>;
  /**
   * `translate(tools, provider, options)` with this registry's translation cache: a repeated
   * turn costs well under a microsecond and gives byte-identical output. Each call returns
   * fresh arrays and objects (over frozen entries), safe to change.
   */
  translate<P extends ProviderId>(
    tools: readonly ToolDefinition[],
    provider: P,
    options?: TranslateOptions<P>,
  ): TranslationResult<P>;
  /**
   * Runs one tool call: parses JSON-string input, checks `allowed`, validates the input (nulls
   * sent for optional parameters are dropped; `applyDefaults` fills in defaults), checks
   * `requires_context`, asks `approve`, runs the handler with a timeout and validates its
   * output. Every failure is returned as `{ ok: false, error }`, an unknown tool name
   * (`TOOL_NOT_FOUND`) included: a model's call never makes it reject.
   */
  execute(
    name: string,
    input: unknown,
    context?: ToolContext,
    options?: ExecuteOptions,
  ): Promise<ExecuteResult>;
  /**
   * One round trip: reads the tool calls in a provider's `response` (the response, or the
   * message or items it holds), runs them in parallel as `execute` does, and returns one
   * result per call plus the `messages` to append to the conversation in that provider's
   * format. Never rejects for what the model did: unknown tools (`TOOL_NOT_FOUND`), tools
   * outside `allowed` (`NOT_SELECTED`), arguments that are not JSON (`INVALID_INPUT`) and
   * refused approvals (`NOT_APPROVED`) are results the model reads. Client-side tool searches
   * are answered from `search`. Rejects with a `ProviderResponseError` when `response` is not
   * that provider's.
   */
  executeToolCalls<P extends ToolCallProviderId>(
    provider: P,
    response: ToolCallsResponseMap[P],
    context?: ToolContext,
    options?: ExecuteToolCallsOptions<P>,
  ): Promise<ToolCallsResult<P>>;
  /**
   * Builds the ranking index now instead of on the first `select` or `search`, and returns this
   * registry, so a server with a large catalog pays for it at start-up (or in `watchRegistry`'s
   * `load`) rather than in a user's turn.
   */
  prepare(): Registry;
  /** Which tools are JSON-only, code-only (still to migrate) or both (safe to delete from code). */
  migrationStatus(): MigrationStatus;
}

/**
 * The registry object: a snapshot (data) wired to the stages that work on it. The selection
 * index is built lazily, once per snapshot; execution modules load on the first call.
 */
class ToolRegistry implements Registry {
  readonly diagnostics: readonly Diagnostic[];
  readonly settings: RegistrySettings;
  readonly #snapshot: RegistrySnapshot;
  #selection: SelectionIndex | undefined;
  #translator: Translator | undefined;
  #semantic: Promise<{ scorer: SemanticScorer; report: SemanticReport }> | undefined;
  #semanticReady: SemanticScorer | undefined;

  constructor(snapshot: RegistrySnapshot, settings: RegistrySettings) {
    this.#snapshot = snapshot;
    this.diagnostics = snapshot.diagnostics;
    this.settings = settings;
  }

  get size(): number {
    return this.#snapshot.tools.length;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#snapshot.toolsByName.get(name);
  }

  has(name: string): boolean {
    return this.#snapshot.toolsByName.has(name);
  }

  list(options: ListOptions = {}): readonly RegisteredTool[] {
    const { tools } = this.#snapshot;
    if (options.group === undefined && options.category === undefined) return tools;
    return tools.filter(
      (tool) =>
        (options.group === undefined || tool.group === options.group) &&
        (options.category === undefined || tool.category === options.category),
    );
  }

  groups(): readonly RegisteredGroup[] {
    return this.#snapshot.groups;
  }

  group(name: string): RegisteredGroup | undefined {
    return this.#snapshot.groupsByName.get(name);
  }

  register(group: unknown): Registry {
    const snapshot = registerGroup(this.#snapshot, group, {
      limits: this.settings.limits,
      contextChecks: new Set(this.settings.contextChecks.keys()),
    });
    checkRegisteredPin(snapshot, this.settings.pins);
    return new ToolRegistry(snapshot, withoutReplacedFallbacks(this.settings, snapshot));
  }

  select(message: string, options: SelectVectorOptions = {}): Selection {
    const { value: vector, rest } = takeOption<unknown>(options, 'queryVector');
    if (vector === undefined) return selectTools(this.#selectionIndex(), message, options);
    const scorer = this.#readySemantic('select', 'INVALID_SELECT_OPTION');
    return selectTools(
      this.#selectionIndex(),
      message,
      rest as SelectOptions,
      scorer.index.turn(vector, scorer.weight),
    );
  }

  search(query: string, options: SearchVectorOptions = {}): SearchResult[] {
    const { value: vector, rest } = takeOption<unknown>(options, 'queryVector');
    if (vector === undefined) return searchTools(this.#selectionIndex(), query, options);
    const scorer = this.#readySemantic('search', 'INVALID_SEARCH_OPTION');
    return searchTools(
      this.#selectionIndex(),
      query,
      rest as SearchOptions,
      scorer.index.turn(vector, scorer.weight, 'INVALID_SEARCH_OPTION'),
    );
  }

  async selectAsync(message: string, options: SelectAsyncOptions = {}): Promise<Selection> {
    if (this.settings.semantic === undefined) {
      const { rest } = takeOption(options, 'signal');
      return selectTools(this.#selectionIndex(), message, rest as SelectOptions);
    }
    return selectToolsAsync(this.#selectionIndex(), this.#semanticScorer, message, options);
  }

  async searchAsync(query: string, options: SearchAsyncOptions = {}): Promise<SearchResult[]> {
    if (this.settings.semantic === undefined) {
      const { rest } = takeOption(options, 'signal');
      return searchTools(this.#selectionIndex(), query, rest as SearchOptions);
    }
    return searchToolsAsync(this.#selectionIndex(), this.#semanticScorer, query, options);
  }

  async prepareSemantic(options: { signal?: AbortSignal } = {}): Promise<SemanticReport> {
    if (this.settings.semantic === undefined) {
      throw new ToolcapError(
        'SEMANTIC_NOT_CONFIGURED',
        'prepareSemantic: this registry has no semantic scorer; pass loadRegistry({ semantic: { embedder } }) (embedders are on tool-capabilities/embeddings)',
      );
    }
    const { report } = await this.#prepareSemantic(options?.signal);
    return { ...report, warnings: [...report.warnings] };
  }

  translate<P extends ProviderId>(
    tools: readonly ToolDefinition[],
    provider: P,
    options?: TranslateOptions<P>,
  ): TranslationResult<P> {
    this.#translator ??= createTranslator({
      describeGroup: (name) => this.#snapshot.groupsByName.get(name)?.description,
    });
    return this.#translator.translate(tools, provider, options);
  }

  execute(
    name: string,
    input: unknown,
    context: ToolContext = {},
    options: ExecuteOptions = {},
  ): Promise<ExecuteResult> {
    executeModule ??= import('../execute/execute-tool-calls.js');
    return executeModule.then(({ executeToolCall }) =>
      executeToolCall(this, name, input, context, options),
    );
  }

  executeToolCalls<P extends ToolCallProviderId>(
    provider: P,
    response: ToolCallsResponseMap[P],
    context: ToolContext = {},
    options: ExecuteToolCallsOptions<P> = {},
  ): Promise<ToolCallsResult<P>> {
    toolCallsModule ??= import('./run-provider-tool-calls.js');
    return toolCallsModule.then(({ runProviderToolCalls }) =>
      runProviderToolCalls(this, provider, response, context, options),
    );
  }

  prepare(): this {
    this.#selectionIndex().words();
    return this;
  }

  migrationStatus(): MigrationStatus {
    return this.#snapshot.migration;
  }

  /** The snapshot behind `registry` (a static method can read the private field). */
  static snapshotOf(registry: ToolRegistry): RegistrySnapshot {
    return registry.#snapshot;
  }

  readonly #semanticScorer = async (signal: AbortSignal | undefined) =>
    (await this.#prepareSemantic(signal)).scorer;

  /** The semantic index of this snapshot, built once; a failed build is retried next call. */
  #prepareSemantic(
    signal: AbortSignal | undefined,
  ): Promise<{ scorer: SemanticScorer; report: SemanticReport }> {
    const { embedder, weight, cacheDir } = this.settings.semantic!;
    this.#semantic ??= prepareSemanticIndex(this.#snapshot.tools, embedder, {
      cacheDir,
      signal,
    }).then(
      ({ index, report }) => {
        this.#semanticReady = { index, weight };
        return { scorer: this.#semanticReady, report };
      },
      (error: unknown) => {
        this.#semantic = undefined;
        throw error;
      },
    );
    return this.#semantic;
  }

  /** The prepared semantic scorer, for a call given a `queryVector`. */
  #readySemantic(caller: string, code: string): SemanticScorer {
    if (this.settings.semantic === undefined) {
      throw new ToolcapError(
        code,
        `${caller}: queryVector needs a semantic scorer; pass loadRegistry({ semantic: { embedder } }), or leave queryVector out`,
      );
    }
    if (this.#semanticReady === undefined) {
      throw new ToolcapError(
        'SEMANTIC_NOT_READY',
        `${caller}: queryVector needs the tool vectors; await registry.prepareSemantic() first (selectAsync and searchAsync do it for you)`,
      );
    }
    return this.#semanticReady;
  }

  #selectionIndex(): SelectionIndex {
    this.#selection ??= new SelectionIndex({
      tools: this.#snapshot.tools,
      groups: this.#snapshot.groups,
      contextChecks: this.settings.contextChecks,
      analyzer: this.settings.analyzer,
      services: this.settings.services,
      estimateTokens: estimateToolTokens,
    });
    return this.#selection;
  }
}

/** A registry over `snapshot` with `settings`. */
export function createRegistryObject(
  snapshot: RegistrySnapshot,
  settings: RegistrySettings,
): Registry {
  return new ToolRegistry(snapshot, settings);
}

/** The snapshot behind a registry made by this module. */
export function snapshotOf(registry: Registry): RegistrySnapshot {
  if (!(registry instanceof ToolRegistry)) {
    throw new TypeError('expected a registry made by loadRegistry() or createRegistry()');
  }
  return ToolRegistry.snapshotOf(registry);
}

/** Settings whose fallback implementations no longer include tools JSON has replaced. */
function withoutReplacedFallbacks(
  settings: RegistrySettings,
  snapshot: RegistrySnapshot,
): RegistrySettings {
  const implementations = new Map(
    [...settings.fallbackImplementations].filter(
      ([name]) => snapshot.toolsByName.get(name)?.source === 'fallback',
    ),
  );
  return { ...settings, fallbackImplementations: implementations };
}

const require = createRequire(import.meta.url);

/**
 * Throws a `RegistryLoadError` (`UNSATISFIED_PIN`) when the group just registered (the last
 * of `snapshot`, already validated) has a pin that its version does not satisfy: a pin that
 * chooses among loaded files must also keep other versions out of `register()`.
 */
function checkRegisteredPin(snapshot: RegistrySnapshot, pins: ReadonlyMap<string, string>): void {
  const { group, version } = snapshot.groups.at(-1)!;
  const pin = pins.get(group);
  if (pin === undefined) return;
  // semver's range functions load with the first pin, as at load time
  const validRange: (range: string) => string | null = require('semver/ranges/valid.js');
  const satisfies: (
    version: string,
    range: string,
  ) => boolean = require('semver/functions/satisfies.js');
  const problem =
    validRange(pin) === null
      ? `its pin ${JSON.stringify(pin)} is not a valid semver range; fix the pins option`
      : satisfies(version, pin)
        ? undefined
        : `the pins option allows only "${pin}"; register a version in that range or change the pin`;
  if (problem === undefined) return;
  throw new RegistryLoadError('register() rejected the group', [
    {
      severity: 'error',
      code: 'UNSATISFIED_PIN',
      file: '<register>',
      pointer: '/version',
      message: `group "${group}" version ${version} is not registered: ${problem}`,
    },
  ]);
}
