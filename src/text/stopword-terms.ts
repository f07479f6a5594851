import { ENGLISH_STOPWORDS } from './stopwords.js';
import { getDefaultTextAnalyzer } from './text-analyzer.js';

/** Default-analyzer term → the English stopword it comes from; built on first use. */
let stopwordsByTerm: ReadonlyMap<string, string> | undefined;

/**
 * The English stopword that the default analyzer turns into `term`, or undefined when none
 * does: keyword matching compares terms, so a keyword whose term is `"up"` (such as `ups`)
 * fires on every "up" of a message. A stopword spelled like the term wins ("up" for `up`).
 */
export function findStopwordOfTerm(term: string): string | undefined {
  if (stopwordsByTerm === undefined) {
    const analyzer = getDefaultTextAnalyzer();
    const byTerm = new Map<string, string>();
    for (const word of ENGLISH_STOPWORDS) {
      const stem = analyzer.stem(word);
      if (stem === word || !byTerm.has(stem)) byTerm.set(stem, word);
    }
    stopwordsByTerm = byTerm;
  }
  return stopwordsByTerm.get(term);
}
