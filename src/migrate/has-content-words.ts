import { getDefaultTextAnalyzer } from '../text/text-analyzer.js';

/**
 * Words of a reply that confirms what the assistant proposed ("go ahead", "sounds good",
 * "yep, do it"), beside the analyzer's stopwords ("yes", "ok", "sure", "please", "thanks"):
 * alone they say nothing about which tool is wanted.
 */
const CONFIRMATION_WORDS: ReadonlySet<string> = new Set([
  'absolutely',
  'agree',
  'agreed',
  'ahead',
  'alright',
  'approve',
  'approved',
  'awesome',
  'confirm',
  'confirmed',
  'continue',
  'cool',
  'correct',
  'course',
  'done',
  'exactly',
  'fine',
  'go',
  'good',
  'great',
  'indeed',
  'lgtm',
  'looks',
  'nice',
  'perfect',
  'proceed',
  'right',
  'sounds',
  'thx',
  'ty',
  'works',
  'ya',
  'yep',
  'yup',
]);

const DIGITS = /^\p{N}+$/u;

/**
 * Whether `text` holds a word that can say what a request is about: not a stopword of the
 * default analyzer, not a confirmation word, not a bare number ("2" picks an option the
 * assistant listed). "refund order 123" has some; "yes go ahead", "ok do it" and "sure, thanks!"
 * have none. A compound counts when one of its parts does (`go-ahead` does not).
 */
export function hasContentWords(text: string): boolean {
  const analyzer = getDefaultTextAnalyzer();
  const isContent = (word: string) =>
    !analyzer.isStopword(word) && !CONFIRMATION_WORDS.has(word) && !DIGITS.test(word);
  return analyzer
    .tokenize(text)
    .some((token) =>
      token.parts.length > 0 ? token.parts.some(isContent) : isContent(token.text),
    );
}
