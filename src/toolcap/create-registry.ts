import { inferToolCategory } from '../migrate/infer-category.js';
import { assembleSnapshot } from '../registry/assemble-registry.js';
import { checkOptions } from '../util/check-options.js';
import { createRegistryObject, type Registry } from './registry.js';
import {
  CREATE_REGISTRY_OPTIONS,
  type CreateRegistryOptions,
  checkPinRanges,
  resolveRegistrySettings,
} from './registry-options.js';

/**
 * An in-memory registry with no group files, to be filled with `register()` (or holding only
 * code-defined fallback tools). Its `pins` apply to the groups `register()` adds.
 */
export function createRegistry(options: CreateRegistryOptions = {}): Registry {
  checkOptions('createRegistry', options, CREATE_REGISTRY_OPTIONS);
  checkPinRanges(options.pins);
  const cwd = options.cwd ?? process.cwd();
  const settings = resolveRegistrySettings(options, cwd, new Map());
  const { snapshot, fallbackImplementations } = assembleSnapshot({
    candidates: [],
    diagnostics: [],
    limits: settings.limits,
    ...(options.fallbackTools !== undefined ? { fallbackTools: options.fallbackTools } : {}),
    inferFallbackCategory: inferToolCategory,
  });
  return createRegistryObject(snapshot, { ...settings, fallbackImplementations });
}
