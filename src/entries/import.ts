/**
 * `tool-capabilities/import`: existing tool lists (any provider's payload, an MCP `tools/list`
 * result, `--schema` output, code-style param lists, the tools a JavaScript module exports)
 * into group files.
 * @module
 */

export {
  type BuildImportedGroupOptions,
  buildImportedGroup,
  type CategorySource,
  GROUP_FILE_SCHEMA_URL,
  type ImportedGroup,
  type ImportedTool,
  type RenamedTool,
} from '../migrate/build-imported-group.js';
export {
  IMPORT_SOURCES,
  type ImportSource,
  type ImportToolListOptions,
  importToolList,
} from '../migrate/import-tool-list.js';
export {
  type ModuleTool,
  type ModuleToolKind,
  type ModuleTools,
  type ReadToolModuleOptions,
  readToolModule,
} from '../migrate/read-tool-module.js';
export {
  keywordDocument,
  type SuggestKeywordsOptions,
  suggestKeywords,
} from '../migrate/suggest-keywords.js';
export { toGroupName } from '../migrate/to-group-name.js';
export {
  type FromProviderOptions,
  fromProvider,
  type ImportResult,
} from '../providers/from-provider.js';
export {
  PayloadFormatError,
  type PayloadFormatMismatch,
} from '../providers/import/payload-format-error.js';
export { toCanonicalToolName } from '../providers/import/to-canonical-tool-name.js';
export { paramsToJsonSchema } from '../registry/fallback-tools.js';
