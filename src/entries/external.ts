/**
 * `tool-capabilities/external`: external executables that describe themselves with
 * `--schema`, discovered, checked and registered as tools.
 * @module
 */
export {
  checkExternalToolSchema,
  type ExternalSchemaProblem,
  type ExternalToolSchema,
} from '../execute/external/check-external-schema.js';
export {
  type DiscoverExternalToolsOptions,
  type DiscoveredExternalTool,
  discoverExternalTools,
} from '../execute/external/discover-external-tools.js';
export {
  BASIC_ENVIRONMENT_VARIABLES,
  type ExternalEnvironmentOptions,
  externalEnvironment,
} from '../execute/external/external-environment.js';
export { binaryNameFromTool, toolNameFromBinary } from '../execute/external/external-tool-names.js';
export {
  DEFAULT_EXTERNAL_GROUP,
  type LoadExternalToolsOptions,
} from '../execute/external/load-external-tools.js';
export { loadExternalTools } from '../toolcap/load-external-tools.js';
