import { resolve } from 'node:path';
import { resolveLoadLimits } from '../format/limits.js';
import { assembleRegistry } from '../registry/assemble-registry.js';
import { resolveTextAnalyzer } from '../text/text-analyzer.js';
import { resolveExecutionSettings } from './execution-settings.js';
import type { LoadRegistryOptions } from './load-registry.js';
import type { Registry } from './registry.js';

/** Options of `createRegistry`: the `loadRegistry` options that do not involve files. */
export type CreateRegistryOptions = Omit<
  LoadRegistryOptions,
  'dirs' | 'strict' | 'toolsDirs' | 'externalGroup'
>;

/**
 * An in-memory registry with no group files, to be filled with `register()` (or holding only
 * code-defined fallback tools).
 */
export function createRegistry(options: CreateRegistryOptions = {}): Registry {
  const cwd = options.cwd ?? process.cwd();
  return assembleRegistry({
    candidates: [],
    diagnostics: [],
    settings: {
      limits: resolveLoadLimits(options.limits),
      contextChecks: new Map(Object.entries(options.contextChecks ?? {})),
      handlerDirs: (options.handlers ?? ['handlers']).map((dir) => resolve(cwd, dir)),
      fallbackImplementations: new Map(),
      ...resolveExecutionSettings(options, cwd),
      ...(options.analyzer !== undefined
        ? { analyzer: resolveTextAnalyzer(options.analyzer) }
        : {}),
    },
    ...(options.pins !== undefined ? { pins: options.pins } : {}),
    ...(options.fallbackTools !== undefined ? { fallbackTools: options.fallbackTools } : {}),
  });
}
