/**
 * `tool-capabilities/langchain`: the registry in LangChain.js (`@langchain/core`, an optional
 * peer dependency). Structured tools that run `registry.execute`.
 * @module
 */
export type { AdapterToolOptions } from '../adapters/adapter-options.js';
export {
  createLangChainTools,
  type LangChainToolsOptions,
} from '../adapters/langchain/create-langchain-tools.js';
