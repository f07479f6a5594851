import type { AnalyzedToken, TextAnalyzer } from './text-analyzer.js';

/**
 * The term sequences a keyword matches, given its analyzed tokens: its stemmed words in order,
 * and for a multi-word keyword also its one-word spelling ("pull request" matches "pullrequest"
 * and "pull-request"). Empty when the keyword has no words. Two keywords with the same phrases
 * select exactly the same messages.
 */
export function listKeywordPhrases(
  analyzer: TextAnalyzer,
  tokens: readonly AnalyzedToken[],
): string[][] {
  if (tokens.length === 0) return [];
  const phrases = [tokens.map((token) => token.term)];
  if (tokens.length > 1) phrases.push([analyzer.stem(tokens.map((token) => token.word).join(''))]);
  return phrases;
}
