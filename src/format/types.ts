/**
 * The tool-group file format (`<group>_tools.json`) and the provider-neutral tool model every
 * later stage (selection, translation, execution) works on.
 */

/** How a group decides whether its tools are offered on a turn. */
export type SelectionStrategy = 'always' | 'keyword' | 'context';

/** What a tool does to data: creates, reads, changes or analyses it. */
export type ToolCategory = 'creation' | 'retrieval' | 'mutation' | 'analysis';

/** Rough computational or API cost of one call. */
export type CostEstimate = 'low' | 'medium' | 'high';

/** Expected response time: fast < 100 ms, medium 100 ms-1 s, slow > 1 s. */
export type LatencyEstimate = 'fast' | 'medium' | 'slow';

/** A JSON value as parsed from a file. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema object (2020-12 unless `$schema` names draft-07). */
export type JsonSchema = { [key: string]: unknown };

/** MCP tool annotations: hints for clients, never trusted for authorization. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Execution metadata of a tool: its handler, required context and estimates. */
export interface ToolMetadata {
  /** Handler module name: `handlers/<executor>`. A plain identifier, never a path. */
  executor: string;
  /** Context keys the tool needs at execution time; absent keys drop the tool from a selection. */
  requires_context: readonly string[];
  /** Rough cost of one call. */
  cost_estimate: CostEstimate;
  /** Rough latency of one call. */
  latency_estimate: LatencyEstimate;
}

/** One tool as written in a group file, after defaults are applied. */
export interface ToolDefinition {
  /** `^[A-Za-z_][A-Za-z0-9_]{0,63}$`: valid unchanged for OpenAI, Anthropic, Gemini and Bedrock. */
  name: string;
  /** What the tool does, shown to the model. Never empty. */
  description: string;
  category: ToolCategory;
  /** JSON Schema of the arguments: root `type: "object"` with `properties`. */
  input_schema: JsonSchema;
  /** JSON Schema of the result; when present, handler output is validated against it. */
  output_schema?: JsonSchema;
  /** Human display name. */
  title?: string;
  /** Discovery tags, normalized (lowercase, `[a-z0-9-_.]`, at most 64 characters and 20 tags). */
  tags?: readonly string[];
  /** MCP hints. */
  annotations?: ToolAnnotations;
  /** Example inputs, each valid against `input_schema`. */
  examples?: readonly JsonObject[];
  /**
   * User messages this tool serves ("book a room for Tuesday at 3"), matched by selection and
   * search like the description; never sent to a provider. Distinct, non-empty, bounded by
   * `limits.maxExampleRequests` and `limits.maxExampleRequestLength`.
   */
  example_requests?: readonly string[];
  metadata: ToolMetadata;
}

/** A group's selection rule. */
export interface GroupSelection {
  strategy: SelectionStrategy;
  /** Trigger words; required and non-empty for `keyword` groups. */
  keywords: readonly string[];
  /** Name of a predicate registered with `loadRegistry({ contextChecks })`. */
  context_check?: string;
}

/** A whole `<group>_tools.json` file after validation and defaults. */
export interface ToolGroupDefinition {
  /** snake_case name; equals the file-name prefix. */
  group: string;
  /** Strict semver. */
  version: string;
  description: string;
  selection: GroupSelection;
  tools: readonly ToolDefinition[];
}

/** Where a registered tool came from. */
export type ToolSource = 'json' | 'fallback' | 'external' | 'registered';

/** A tool inside a loaded registry: its definition plus where it lives. */
export interface RegisteredTool extends ToolDefinition {
  /** Group name. */
  group: string;
  /** Version of the group that supplied this tool. */
  version: string;
  /** Absolute path of the file that defined it, when it came from a file. */
  file?: string;
  /** JSON pointer of the tool inside that file (e.g. `/tools/2`). */
  pointer?: string;
  source: ToolSource;
  /** Position in catalog order (groups by file order, tools by file order). Stable output order. */
  index: number;
  /** For external `--schema` executables: the absolute path of the binary. */
  command?: string;
  /**
   * For code-defined (fallback) tools that say where they are defined (`toFallbackTools` sets
   * it): the module file as given and the tool's JSON pointer in what it exports.
   */
  definedIn?: { readonly file: string; readonly pointer: string };
}

/** A group inside a loaded registry. */
export interface RegisteredGroup {
  group: string;
  version: string;
  description: string;
  selection: GroupSelection;
  /** Absolute path of the file, when loaded from a file. */
  file?: string;
  source: ToolSource;
  /** Tool names in file order. */
  tools: readonly string[];
}

/** Severity of a diagnostic. */
export type DiagnosticSeverity = 'error' | 'warning';

/** A problem found while loading: data, rendered separately for humans and JSON. */
export interface Diagnostic {
  severity: DiagnosticSeverity;
  /** Stable code from the catalogue in the README (e.g. `INVALID_TOOL_NAME`). */
  code: string;
  /** Path of the file the problem is in (as given to the loader), or a label such as `<register>`. */
  file: string;
  /** JSON Pointer into the file (`""` for the whole document). */
  pointer: string;
  /** 1-based line, when the text position is known. */
  line?: number;
  /** 1-based column, when the text position is known. */
  column?: number;
  /** What is wrong and how to fix it. */
  message: string;
}

/** A non-fatal note from selection or translation: something changed, dropped or approximated. */
export interface Warning {
  /** Stable code, e.g. `STRICT_DISABLED`. */
  code: string;
  message: string;
  /** The tool it is about, if any. */
  tool?: string;
  /** JSON pointer inside the tool's schema, if any. */
  pointer?: string;
}

/** What a handler (or a code-defined tool's `execute`) receives besides its input and context. */
export interface ToolHandlerOptions {
  /** Aborted when the call times out or the caller cancels it; long handlers should honour it. */
  signal: AbortSignal;
  /** The tool being called (useful for `execute(toolName, ...)` dispatchers). */
  toolName: string;
  /** Absolute directory where handlers keep their stores (`registry.settings.dataDir`). */
  dataDir: string;
  /** The services the host declared (`loadRegistry({ services })` plus per-call `services`). */
  services: Readonly<Record<string, unknown>>;
}
