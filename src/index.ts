/**
 * tool-capabilities: versioned JSON tool groups for LLM agents. Load and validate groups,
 * select the tools that matter for each turn, translate them for each provider, execute calls.
 * @module
 */

export { RegistryLoadError } from './errors/registry-load-error.js';
export { ToolcapError } from './errors/toolcap-error.js';
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
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './load/diagnostic-codes.js';
export { formatDiagnostic } from './load/format-diagnostic.js';
export { DEFAULT_LOAD_LIMITS, type LoadLimits } from './load/limits.js';
export { type LoadRegistryOptions, loadRegistry } from './load/load-registry.js';
export { type CreateRegistryOptions, createRegistry } from './registry/create-registry.js';
export type { FallbackExecute, FallbackTool, ParamDefinition } from './registry/fallback-tools.js';
export { paramsToJsonSchema } from './registry/fallback-tools.js';
export {
  type ContextCheck,
  type ListOptions,
  type MigrationStatus,
  Registry,
  type RegistrySettings,
} from './registry/registry.js';
