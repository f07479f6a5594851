/**
 * Provider ids, translation options, and the wire shapes each translator produces. The wire
 * types are a limited version of each provider's SDK type, focused on what the translators emit;
 * `test/providers/sdk-types.test.ts` proves they are assignable to the official SDK types.
 */

import type { ProviderId } from '../format/provider-ids.js';
import type {
  CostEstimate,
  JsonObject,
  JsonSchema,
  LatencyEstimate,
  ToolAnnotations,
  Warning,
} from '../format/types.js';

export { isProviderId, PROVIDER_IDS, type ProviderId } from '../format/provider-ids.js';

// ---------------------------------------------------------------------------------------------
// options

/** Options shared by translators that rewrite schemas. */
export interface SchemaRewriteOptions {
  /**
   * How many times a recursive `$ref` is expanded before the recursive property is dropped
   * (bounded unroll, with a `RECURSIVE_SCHEMA_UNROLLED` warning). Default 3.
   */
  recursionDepth?: number;
}

/** Options of the `openai` (Chat Completions) translator. */
export interface OpenAIChatOptions extends SchemaRewriteOptions {
  /**
   * `true` (default): make each schema strict when possible, else send `strict: false` with a
   * `STRICT_DISABLED` warning. `false`: never strict (still always sends `strict: false`).
   */
  strict?: boolean;
}

/** Options of the `openai-responses` translator. */
export interface OpenAIResponsesOptions extends OpenAIChatOptions {
  /**
   * Mark tools `defer_loading: true` (tool search, gpt-5.4 and later): `true` for every tool, or
   * the names of the tools to defer.
   */
  deferLoading?: boolean | readonly string[];
  /**
   * Put a tool search tool in front when any tool is deferred: `true` (default) the hosted
   * `{ type: "tool_search" }`; `"client"` a client-executed one (`execution: "client"`, a
   * `query` parameter) whose `tool_search_call`s `executeToolCalls` answers from
   * `registry.search`; `false` none (then at least one tool stays loaded).
   */
  toolSearch?: boolean | 'client';
  /**
   * Group tools into `{ type: "namespace", name, description, tools }` entries by their group
   * (tools outside a group stay top-level). `true` describes each namespace with its group's
   * description when translating through a registry (else "Tools of the <group> group."); an
   * object gives the descriptions by group name.
   */
  namespaces?: boolean | Readonly<Record<string, string>>;
}

/** Anthropic `cache_control` as it appears on a tool. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** Options of the `anthropic` translator. */
export interface AnthropicOptions {
  /** Put `cache_control` on the last tool (a prompt-cache breakpoint): `true` = `{type:"ephemeral"}`. */
  cacheControl?: boolean | AnthropicCacheControl;
  /** Mark tools `defer_loading: true` (tool search): `true` for every tool, or the names to defer. */
  deferLoading?: boolean | readonly string[];
  /**
   * The tool-search tool added in front when any tool is deferred. Default `"bm25"` (the BM25
   * server tool); `"regex"` the regex server tool; `"client"` a custom `search_tools` tool
   * whose calls `executeToolCalls` answers from `registry.search` with `tool_reference` blocks;
   * `false` none (then at least one tool stays loaded, because the API rejects a request where
   * every tool is deferred).
   */
  toolSearch?: 'bm25' | 'regex' | 'client' | false;
  /** Send each tool's `examples` as `input_examples` (tools without examples are unchanged). */
  inputExamples?: boolean;
}

/** Options of the `google` (Gemini) translator. */
export interface GoogleOptions extends SchemaRewriteOptions {
  /**
   * Send `parametersJsonSchema` (JSON Schema, `$ref`s and all) instead of `parameters` (the
   * OpenAPI subset), for models that accept full JSON Schema. Default false.
   */
  parametersJsonSchema?: boolean;
}

/** Options of the `bedrock` (Converse) translator. */
export interface BedrockOptions extends SchemaRewriteOptions {
  /** Append `{ cachePoint: { type: "default" } }` after the tools (a prompt-cache checkpoint). */
  cachePoint?: boolean;
}

/** Options of the `mcp` translator. */
export interface McpOptions {
  /** Derive `annotations` from `category` where the tool does not set them. Default true. */
  deriveAnnotations?: boolean;
}

/** Options of the `canonical` translator (none yet). */
export type CanonicalOptions = Record<string, never>;

/** Options by provider. */
export interface TranslateOptionsMap {
  openai: OpenAIChatOptions;
  'openai-responses': OpenAIResponsesOptions;
  anthropic: AnthropicOptions;
  google: GoogleOptions;
  bedrock: BedrockOptions;
  mcp: McpOptions;
  canonical: CanonicalOptions;
}

/** The options `translate(tools, provider, options)` accepts for `provider`. */
export type TranslateOptions<P extends ProviderId = ProviderId> = TranslateOptionsMap[P];

// ---------------------------------------------------------------------------------------------
// wire shapes

/** A JSON Schema as sent to a provider. */
export type WireSchema = { [key: string]: unknown };

/** OpenAI Chat Completions `tools[]` entry (SDK `ChatCompletionFunctionTool`). */
export interface OpenAIChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters: WireSchema;
    strict: boolean;
  };
}

/** OpenAI Responses `tools[]` entry (SDK `FunctionTool`): flat. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: WireSchema;
  strict: boolean;
  defer_loading?: boolean;
}

/**
 * OpenAI Responses tool search (SDK `ToolSearchTool`), added when tools are deferred: hosted
 * (`{ type }` alone) or client-executed (`execution`, `description`, `parameters`).
 */
export interface OpenAIToolSearchTool {
  type: 'tool_search';
  execution?: 'client';
  description?: string;
  parameters?: WireSchema;
}

/** OpenAI Responses namespace (SDK `NamespaceTool`): one group's functions. */
export interface OpenAINamespaceTool {
  type: 'namespace';
  name: string;
  description: string;
  tools: OpenAIResponsesTool[];
}

/** One entry of the Responses `tools` array. */
export type OpenAIResponsesToolEntry =
  | OpenAIResponsesTool
  | OpenAIToolSearchTool
  | OpenAINamespaceTool;

/** Anthropic custom tool (SDK `Tool`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: {
    type: 'object';
    properties?: unknown;
    required?: string[];
    [key: string]: unknown;
  };
  cache_control?: AnthropicCacheControl;
  defer_loading?: boolean;
  /** Example inputs (the tool's `examples`), with `inputExamples: true`. */
  input_examples?: { [key: string]: unknown }[];
}

/** Anthropic tool-search server tool (SDK `ToolSearchToolBm25_20251119` / `...Regex20251119`). */
export type AnthropicToolSearchTool =
  | { type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25' }
  | { type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex' };

/** One entry of the Anthropic `tools` array. */
export type AnthropicToolEntry = AnthropicTool | AnthropicToolSearchTool;

import type { GeminiSchema } from '../json-schema/gemini-schema.js';

export type { GeminiSchema, GeminiType } from '../json-schema/gemini-schema.js';

/**
 * Gemini `FunctionDeclaration`: `parameters` (OpenAPI subset) or, with `parametersJsonSchema:
 * true`, `parametersJsonSchema`; neither for tools without parameters.
 */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
  parametersJsonSchema?: WireSchema;
}

/** Gemini `Tool`: the translator emits one holding every declaration. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** Bedrock Converse `toolConfig.tools[]` tool entry. `description` is omitted when empty. */
export interface BedrockToolSpecEntry {
  toolSpec: {
    name: string;
    description?: string;
    /** JSON data (the AWS SDK types it as its `DocumentType`), so the payload is the SDK's `Tool[]`. */
    inputSchema: { json: JsonObject };
  };
}

/** Bedrock Converse cache checkpoint entry. */
export interface BedrockCachePointEntry {
  cachePoint: { type: 'default' };
}

/** One entry of the Bedrock `toolConfig.tools` array. */
export type BedrockToolEntry = BedrockToolSpecEntry | BedrockCachePointEntry;

/** MCP `tools/list` entry. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, object>; [key: string]: unknown };
  outputSchema?: { type: 'object'; properties?: Record<string, object>; [key: string]: unknown };
  annotations?: ToolAnnotations;
}

/** The canonical `{ name, description, parameters }` format: what an external tool's `--schema` prints. */
export interface CanonicalTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** The `tools` value each provider's request takes. */
export interface ProviderPayloadMap {
  openai: OpenAIChatTool[];
  'openai-responses': OpenAIResponsesToolEntry[];
  anthropic: AnthropicToolEntry[];
  google: GeminiTool[];
  bedrock: BedrockToolEntry[];
  mcp: McpTool[];
  canonical: CanonicalTool[];
}

/** The payload of `provider`: exactly the value of the request's `tools` field. */
export type ProviderPayload<P extends ProviderId = ProviderId> = ProviderPayloadMap[P];

// ---------------------------------------------------------------------------------------------
// results

/** What `translate` returns beside the payload for each tool (never sent to the provider). */
export interface ToolTranslationMetadata {
  /** Group of a registry tool; null for tools that did not come from a registry. */
  group: string | null;
  executor: string;
  cost_estimate: CostEstimate;
  latency_estimate: LatencyEstimate;
}

/** The result of `translate`. Shared with the cache: treat every part as read-only. */
export interface TranslationResult<P extends ProviderId = ProviderId> {
  /** Exactly the value of the request's `tools` field. */
  payload: ProviderPayload<P>;
  /** Execution metadata keyed by tool name, for the tools in `payload`. */
  metadata: Readonly<Record<string, ToolTranslationMetadata>>;
  /** What was changed or dropped, and why. */
  warnings: readonly Warning[];
}
