import type { Diagnostic } from '../format/types.js';
import type { FallbackTool } from '../registry/fallback-tools.js';
import { loadRegistry } from './load-registry.js';
import type { LoadRegistryOptions } from './registry-options.js';

/** Where each tool of a half-migrated project is defined: the JSON `migrate status --json` prints. */
export interface MigrationReport {
  /** Defined only in JSON group files: fully migrated. */
  json_only: string[];
  /** Defined only in code: still to migrate (invalid code definitions included). */
  fallback_only: string[];
  /** Defined in both: the JSON definition wins, so the code one is safe to delete. */
  both: string[];
  /** Load problems of the group files and of the code-defined tools. */
  diagnostics: Diagnostic[];
}

/**
 * Loads the group files and the code-defined tools together and reports which tools are
 * JSON-only, fallback-only and both, as `registry.migrationStatus()` does: a code-defined tool
 * that fails validation still counts as fallback-only (it is still to migrate); its problems
 * are in `diagnostics`. A code-defined tool a group file defines under the name `toolcap import`
 * converted it to (its `x-original-name`) counts as both, under the JSON name. Names are sorted.
 */
export async function reportMigration(
  fallbackTools: readonly FallbackTool[],
  options: Omit<LoadRegistryOptions, 'fallbackTools' | 'strict'> = {},
): Promise<MigrationReport> {
  const registry = await loadRegistry({ ...options, fallbackTools });
  const status = registry.migrationStatus();
  return {
    json_only: [...status.jsonOnly],
    fallback_only: [...status.fallbackOnly],
    both: [...status.both],
    diagnostics: [...registry.diagnostics],
  };
}
