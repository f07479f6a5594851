import {
  addExternalTools,
  type LoadExternalToolsOptions,
} from '../execute/external/load-external-tools.js';
import { createRegistryObject, type Registry, snapshotOf } from './registry.js';

/**
 * Discovers the external `--schema` tools in `options.dirs` and returns a NEW registry with
 * them registered as one group (default `external`, strategy `always`). Invalid, failing or
 * conflicting executables are skipped; every reason becomes a diagnostic on the returned
 * registry, which is otherwise `registry` unchanged. Never throws for a bad tool.
 */
export async function loadExternalTools(
  registry: Registry,
  options: LoadExternalToolsOptions,
): Promise<Registry> {
  const externalEnv = options.externalEnv ?? registry.settings.executionLimits?.externalEnv;
  const snapshot = await addExternalTools(
    snapshotOf(registry),
    externalEnv === undefined ? options : { ...options, externalEnv },
    registry.settings.limits,
  );
  return createRegistryObject(snapshot, registry.settings);
}
