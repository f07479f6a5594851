/**
 * `tool-capabilities/text`: the analyzer keyword matching and ranking share (tokenizer,
 * stemmer, stopwords), for registries in other languages or with custom tokenization.
 * @module
 */
export {
  type AnalyzedPart,
  type AnalyzedToken,
  createTextAnalyzer,
  type StemmerOption,
  type TextAnalyzer,
  type TextAnalyzerOptions,
} from '../text/text-analyzer.js';
export { type TextToken, tokenize } from '../text/tokenize.js';
