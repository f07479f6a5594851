/**
 * `tool-capabilities/migrate`: evolving group files. Semver-aware diffs of groups and schemas,
 * code-defined tools as `fallbackTools` and their migration report, and example requests learned
 * from transcripts or written by a chat model.
 * @module
 */
export {
  type ChangeBump,
  type DiffGroupsOptions,
  diffGroups,
  type GroupChange,
  type GroupDiff,
} from '../migrate/diff-groups.js';
export {
  type DiffSchemasOptions,
  diffSchemas,
  type SchemaChange,
  type SchemaChangeKind,
  type SchemaEffect,
} from '../migrate/diff-schemas.js';
export {
  DEFAULT_GENERATED_PER_TOOL,
  type GeneratedGroup,
  type GeneratedTool,
  type GenerateExamplesOptions,
  type GenerateExamplesReport,
  generateExampleRequests,
} from '../migrate/generate-example-requests.js';
export {
  DEFAULT_MAX_EXAMPLE_REQUESTS_PER_TOOL,
  type LearnOptions,
  type LearnReport,
  learnFromTranscripts,
} from '../migrate/learn-from-transcripts.js';
export { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../migrate/parse-transcript-line.js';
export {
  type GroupVersion,
  parseGroupVersion,
  readGroupVersion,
} from '../migrate/read-group-version.js';
export {
  type ActualBump,
  type Bump,
  isBumpSufficient,
  measureBump,
} from '../migrate/semver-bump.js';
export { type ToFallbackToolsOptions, toFallbackTools } from '../migrate/to-fallback-tools.js';
export { type MigrationReport, reportMigration } from '../toolcap/migration-report.js';
