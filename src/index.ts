/**
 * tool-capabilities: versioned JSON tool groups for LLM agents. Load and validate groups,
 * select the tools that matter for each turn, translate them for each provider, execute calls.
 *
 * The root entry holds what every user needs; the rest is on documented subpaths:
 * `tool-capabilities/import` (provider payloads and code to group files), `/migrate` (diff,
 * semver, migration status, learning from transcripts), `/watch` (hot reload), `/mcp` (the
 * MCP server), `/external` (external `--schema` tools), `/handler-kit` (writing handlers),
 * `/text` (the analyzer), `/json-schema` (input validation helpers), `/embeddings` (embedders for
 * the semantic scorer).
 * @module
 */

// errors
export { ToolcapError } from './errors/toolcap-error.js';
export { TranslationError, type TranslationErrorCode } from './errors/translation-error.js';
// executing tool calls
export { needsApprovalByDefault } from './execute/approval-gate.js';
export { EXECUTE_ERROR_CODES, type ExecuteErrorCode } from './execute/execute-error-codes.js';
export {
  DEFAULT_EXECUTION_LIMITS,
  type ExecutionLimits,
  type ExecutionLimitsInput,
} from './execute/execution-limits.js';
export type {
  ApproveToolCall,
  ExecuteOptions,
  ExecuteResult,
  InputProblem,
  ToolCall,
  ToolCallError,
  ToolCallResult,
  ToolContext,
  ToolDispatcher,
  ToolHandler,
  ToolHandlerOptions,
} from './execute/types.js';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './format/diagnostic-codes.js';
export { formatDiagnostic } from './format/format-diagnostic.js';
export { DEFAULT_LOAD_LIMITS, type LoadLimits } from './format/limits.js';
export type {
  CostEstimate,
  Diagnostic,
  DiagnosticSeverity,
  GroupSelection,
  JsonObject,
  JsonSchema,
  JsonValue,
  LatencyEstimate,
  RegisteredGroup,
  RegisteredTool,
  SelectionStrategy,
  ToolAnnotations,
  ToolCategory,
  ToolDefinition,
  ToolGroupDefinition,
  ToolMetadata,
  ToolSource,
  Warning,
} from './format/types.js';
export { RegistryLoadError } from './load/registry-load-error.js';
// delivering a selection, and the provider round trip
export {
  type AllowedToolChoiceMap,
  type AllowedToolChoiceOptions,
  type AllowedToolsMode,
  type AllowedToolsProviderId,
  allowedToolChoice,
  type OpenAIChatAllowedToolChoice,
  type OpenAIResponsesAllowedToolChoice,
} from './providers/allowed-tools.js';
export {
  type AssembledBedrockBlock,
  type AssembledBedrockResponse,
  type AssembledGeminiResponse,
  type AssembledResponseMap,
  assembleStream,
  type StreamEvents,
  type StreamedProviderId,
} from './providers/assemble-stream.js';
export {
  ProviderResponseError,
  type ProviderResponseErrorCode,
} from './providers/provider-response-error.js';
export {
  type AnthropicCacheControl,
  type AnthropicOptions,
  type AnthropicTool,
  type AnthropicToolEntry,
  type AnthropicToolSearchTool,
  type BedrockCachePointEntry,
  type BedrockOptions,
  type BedrockToolEntry,
  type BedrockToolSpecEntry,
  type CanonicalOptions,
  type CanonicalTool,
  type GeminiFunctionDeclaration,
  type GeminiSchema,
  type GeminiTool,
  type GeminiType,
  type GoogleOptions,
  isProviderId,
  type McpOptions,
  type McpTool,
  type OpenAIChatOptions,
  type OpenAIChatTool,
  type OpenAINamespaceTool,
  type OpenAIResponsesOptions,
  type OpenAIResponsesTool,
  type OpenAIResponsesToolEntry,
  type OpenAIToolSearchTool,
  PROVIDER_IDS,
  type ProviderId,
  type ProviderPayload,
  type ProviderPayloadMap,
  type SchemaRewriteOptions,
  type ToolTranslationMetadata,
  type TranslateOptions,
  type TranslateOptionsMap,
  type TranslationResult,
  type WireSchema,
} from './providers/provider-types.js';
export {
  type AnthropicContentBlockLike,
  type AnthropicResponseLike,
  type AnthropicToolReferenceBlock,
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  type BedrockContentBlockLike,
  type BedrockMessageLike,
  type BedrockResponseLike,
  type BedrockToolResultBlock,
  type BedrockToolResultMessage,
  type GeminiContentLike,
  type GeminiFunctionResponseContent,
  type GeminiFunctionResponsePart,
  type GeminiFunctionResult,
  type GeminiPartLike,
  type GeminiResponseLike,
  type OpenAIChatMessageLike,
  type OpenAIChatResponseLike,
  type OpenAIChatToolCallLike,
  type OpenAIChatToolMessage,
  type OpenAIFunctionCallOutput,
  type OpenAIResponsesItemLike,
  type OpenAIResponsesResponseLike,
  type OpenAIResponsesResultItem,
  type OpenAIToolSearchOutput,
  TOOL_CALL_PROVIDER_IDS,
  type ToolCallProviderId,
  type ToolCallsResponseMap,
  type ToolResultMessagesMap,
} from './providers/tool-call-types.js';
// provider translation
export { translate } from './providers/translate.js';
export { createTranslator, type Translator } from './providers/translator.js';
export type { FallbackExecute, FallbackTool, ParamDefinition } from './registry/fallback-tools.js';
export type { MigrationStatus } from './registry/registry-snapshot.js';
export type { SemanticReport } from './select/prepare-semantic-index.js';
// per-turn selection and search
export {
  DEFAULT_FALLBACK_K,
  DEFAULT_FALLBACK_MIN_SCORE,
  DEFAULT_HISTORY_WINDOW,
} from './select/resolve-select-options.js';
export { DEFAULT_SEARCH_K } from './select/search-tools.js';
export type {
  SearchAsyncOptions,
  SearchVectorOptions,
  SelectAsyncOptions,
  SelectVectorOptions,
} from './select/select-semantic.js';
export type {
  ContextCheck,
  DropCode,
  DroppedTool,
  ExplanationStatus,
  FallbackOption,
  HistoryEntry,
  SearchOptions,
  SearchResult,
  SelectedTool,
  Selection,
  SelectionReason,
  SelectionStrategyName,
  SelectOptions,
  ToolExplanation,
  TypoMatch,
} from './select/types.js';
export { createRegistry } from './toolcap/create-registry.js';
// select's history from a conversation in a provider's format
export {
  type HistoryFromMessagesOptions,
  historyFromMessages,
} from './toolcap/history-from-messages.js';
// loading and the registry
export { loadRegistry } from './toolcap/load-registry.js';
export type {
  ListOptions,
  Registry,
  RegistrySettings,
  SemanticSettings,
} from './toolcap/registry.js';
export type {
  CreateRegistryOptions,
  ExecutionOptions,
  LoadRegistryOptions,
  SemanticOptions,
} from './toolcap/registry-options.js';
export type {
  ExecuteToolCallsOptions,
  ToolCallsResult,
  ToolSearchOptions,
} from './toolcap/run-provider-tool-calls.js';
