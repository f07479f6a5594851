import {
  createRegistryObject,
  type Registry,
  type RegistrySettings,
  snapshotOf,
} from './registry.js';

/**
 * A copy of `registry` whose execution settings (data dir, services, limits) are replaced by
 * the given ones; tools, groups and diagnostics are shared. Used by the CLI, whose registry
 * options are parsed before its execution options.
 */
export function withExecutionSettings(
  registry: Registry,
  patch: Partial<Pick<RegistrySettings, 'dataDir' | 'services' | 'executionLimits'>>,
): Registry {
  return createRegistryObject(snapshotOf(registry), { ...registry.settings, ...patch });
}
