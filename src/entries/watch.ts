/**
 * `tool-capabilities/watch`: hot reload. Serve a registry that swaps atomically when group
 * files change, never serving a broken edit.
 * @module
 */
export {
  type RegistryChange,
  type RegistryChangeListener,
  type RegistryWatcher,
  type WatchRegistryOptions,
  watchRegistry,
} from '../watch/watch-registry.js';
