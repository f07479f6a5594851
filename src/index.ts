/**
 * tool-capabilities: versioned JSON tool groups for LLM agents. Load and validate groups,
 * select the tools that matter for each turn, translate them for each provider, execute calls.
 * @module
 */

export { ToolcapError } from './errors/toolcap-error.js';
export { TranslationError, type TranslationErrorCode } from './errors/translation-error.js';
export { EXECUTE_ERROR_CODES, type ExecuteErrorCode } from './execute/execute-error-codes.js';
export {
  DEFAULT_EXECUTION_LIMITS,
  type ExecutionLimits,
  type ExecutionLimitsInput,
} from './execute/execution-limits.js';
// executing tool calls: handlers, external --schema tools, MCP server
export {
  checkExternalToolSchema,
  type ExternalSchemaProblem,
  type ExternalToolSchema,
} from './execute/external/check-external-schema.js';
export {
  type DiscoverExternalToolsOptions,
  type DiscoveredExternalTool,
  discoverExternalTools,
} from './execute/external/discover-external-tools.js';
export { binaryNameFromTool, toolNameFromBinary } from './execute/external/external-tool-names.js';
export {
  DEFAULT_EXTERNAL_GROUP,
  type LoadExternalToolsOptions,
} from './execute/external/load-external-tools.js';
export {
  appendJsonLines,
  type FileLockOptions,
  readJsonFile,
  readJsonLines,
  updateJsonFile,
  type WriteFileAtomicOptions,
  withFileLock,
  writeFileAtomic,
} from './execute/file-store.js';
export { ToolError } from './execute/tool-error.js';
export { ToolNotFoundError } from './execute/tool-not-found-error.js';
export type {
  ExecuteOptions,
  ExecuteResult,
  InputProblem,
  ToolCallError,
  ToolContext,
  ToolDispatcher,
  ToolHandler,
  ToolHandlerOptions,
} from './execute/types.js';
export { type InputValidation, validateToolInput } from './execute/validate-tool-input.js';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './format/diagnostic-codes.js';
export { formatDiagnostic } from './format/format-diagnostic.js';
export { DEFAULT_LOAD_LIMITS, type LoadLimits } from './format/limits.js';
export { isValidToolName, normalizeTags, TOOL_NAME_PATTERN } from './format/names.js';
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
export { removeNullOptionals } from './json-schema/remove-null-optionals.js';
export { RegistryLoadError } from './load/registry-load-error.js';
export {
  createMcpServer,
  type McpServerHandle,
  type McpServerOptions,
} from './mcp/create-mcp-server.js';
// migration and schema evolution: import, migrate status, semver diff
export {
  type BuildImportedGroupOptions,
  buildImportedGroup,
  type CategorySource,
  GROUP_FILE_SCHEMA_URL,
  type ImportedGroup,
  type ImportedTool,
  type RenamedTool,
} from './migrate/build-imported-group.js';
export {
  type ChangeBump,
  diffGroups,
  type GroupChange,
  type GroupDiff,
} from './migrate/diff-groups.js';
export {
  type DiffSchemasOptions,
  diffSchemas,
  type SchemaChange,
  type SchemaChangeKind,
  type SchemaEffect,
} from './migrate/diff-schemas.js';
export {
  IMPORT_SOURCES,
  type ImportSource,
  type ImportToolListOptions,
  importToolList,
} from './migrate/import-tool-list.js';
export {
  type GroupVersion,
  parseGroupVersion,
  readGroupVersion,
} from './migrate/read-group-version.js';
export {
  type ActualBump,
  type Bump,
  isBumpSufficient,
  measureBump,
} from './migrate/semver-bump.js';
export {
  keywordDocument,
  type SuggestKeywordsOptions,
  suggestKeywords,
} from './migrate/suggest-keywords.js';
export { toGroupName } from './migrate/to-group-name.js';
// provider translators, both directions
export {
  type FromProviderOptions,
  fromProvider,
  type ImportResult,
} from './providers/from-provider.js';
export { toCanonicalToolName } from './providers/import/to-canonical-tool-name.js';
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
export { translate } from './providers/translate.js';
export type { FallbackExecute, FallbackTool, ParamDefinition } from './registry/fallback-tools.js';
export { paramsToJsonSchema } from './registry/fallback-tools.js';
export type { MigrationStatus } from './registry/registry-snapshot.js';
// per-turn selection and search
export {
  DEFAULT_FALLBACK_K,
  DEFAULT_FALLBACK_MIN_SCORE,
  DEFAULT_HISTORY_WINDOW,
} from './select/resolve-select-options.js';
export { DEFAULT_SEARCH_K } from './select/search-tools.js';
export type {
  ContextCheck,
  DropCode,
  DroppedTool,
  FallbackOption,
  HistoryEntry,
  SearchOptions,
  SearchResult,
  SelectedTool,
  Selection,
  SelectionReason,
  SelectionStrategyName,
  SelectOptions,
  TypoMatch,
} from './select/types.js';
export {
  type AnalyzedPart,
  type AnalyzedToken,
  createTextAnalyzer,
  type StemmerOption,
  type TextAnalyzer,
  type TextAnalyzerOptions,
} from './text/text-analyzer.js';
export { type TextToken, tokenize } from './text/tokenize.js';
export { createRegistry } from './toolcap/create-registry.js';
export { loadExternalTools } from './toolcap/load-external-tools.js';
export { loadRegistry } from './toolcap/load-registry.js';
export { type MigrationReport, reportMigration } from './toolcap/migration-report.js';
export type { ListOptions, Registry, RegistrySettings } from './toolcap/registry.js';
export type {
  CreateRegistryOptions,
  ExecutionOptions,
  LoadRegistryOptions,
} from './toolcap/registry-options.js';
// hot reload
export {
  type RegistryChange,
  type RegistryChangeListener,
  type RegistryWatcher,
  type WatchRegistryOptions,
  watchRegistry,
} from './watch/watch-registry.js';
