import { foldText } from './fold-text.js';
import { porterStem } from './porter-stem.js';
import { ENGLISH_STOPWORDS } from './stopwords.js';
import { type TextToken, tokenize } from './tokenize.js';

/** A word of a compound, normalized and stemmed. */
export interface AnalyzedPart {
  /** Normalized, unstemmed (`agenda`). */
  word: string;
  /** Stemmed index term. */
  term: string;
}

/** One token of an analyzed text. */
export interface AnalyzedToken {
  /** Normalized, unstemmed word: `appointments`, `todo` (from `To-Do`), `c++`. */
  word: string;
  /** The stemmed index term: `appoint`, `todo`, `c++`. */
  term: string;
  /** The sub-words of a compound (`get_agenda` → get, agenda), each stemmed; else empty. */
  parts: readonly AnalyzedPart[];
}

/**
 * Turns text into stemmed tokens. Keyword matching and relevance ranking use the same analyzer,
 * so a keyword and a message word match exactly when their terms are equal.
 */
export interface TextAnalyzer {
  /** Normalized words (lowercase, folded, compounds with parts), not stemmed. */
  tokenize(text: string): TextToken[];
  /** `tokenize`, then each word and part stemmed. */
  analyze(text: string): AnalyzedToken[];
  /** The index term of one normalized word. */
  stem(word: string): string;
  /** Whether relevance ranking ignores `word` (keyword matching never does). */
  isStopword(word: string): boolean;
  /**
   * The language of the index terms, when they are the built-in English Porter stems (`"en"`):
   * ranking then also uses the English lexicon (related words, word commonness). Omit it for
   * other stemmers.
   */
  readonly language?: string;
}

/** A stemmer: `"porter"` (English, the default), `"none"`, or a function of one lowercase word. */
export type StemmerOption = 'porter' | 'none' | ((word: string) => string);

/** How to build a `TextAnalyzer`. */
export interface TextAnalyzerOptions {
  /**
   * Replaces the tokenizer. Return words (strings are Unicode-folded and lowercased) or
   * `TextToken`s with compound parts. Default: `tokenize`.
   */
  tokenizer?: (text: string) => readonly (string | TextToken)[];
  /** Default `"porter"`: English Porter stemming (natural), applied to plain a-z words. */
  stemmer?: StemmerOption;
  /** Words ignored by relevance ranking. Default: a short English list. */
  stopwords?: Iterable<string>;
}

const NO_PARTS: readonly AnalyzedPart[] = Object.freeze([]);
const PLAIN_WORD = /^[a-z]{3,}$/;
const STEM_CACHE_LIMIT = 100_000;

/**
 * Creates an analyzer. Stems are cached per analyzer (the cache is cleared when it reaches
 * 100,000 words, so arbitrary user text cannot grow it without bound).
 */
export function createTextAnalyzer(options: TextAnalyzerOptions = {}): TextAnalyzer {
  const stemWord = resolveStemmer(options.stemmer ?? 'porter');
  const stopwords =
    options.stopwords === undefined ? ENGLISH_STOPWORDS : new Set(options.stopwords);
  const customTokenizer = options.tokenizer;
  const cache = new Map<string, string>();

  const stem = (word: string): string => {
    let term = cache.get(word);
    if (term === undefined) {
      term = stemWord(word);
      if (cache.size >= STEM_CACHE_LIMIT) cache.clear();
      cache.set(word, term);
    }
    return term;
  };

  const analyzeToken = (token: TextToken): AnalyzedToken => {
    if (token.parts.length === 0)
      return { word: token.text, term: stem(token.text), parts: NO_PARTS };
    return {
      word: token.text,
      term: stem(token.text),
      parts: token.parts.map((part) => ({ word: part, term: stem(part) })),
    };
  };

  const tokenizeText = (text: string): TextToken[] => {
    if (customTokenizer === undefined) return tokenize(text);
    return customTokenizer(text).map((token) =>
      typeof token === 'string'
        ? { text: foldText(token).toLowerCase(), parts: [] }
        : {
            text: foldText(token.text).toLowerCase(),
            parts: token.parts.map((part) => foldText(part).toLowerCase()),
          },
    );
  };

  return {
    ...(options.stemmer === undefined || options.stemmer === 'porter' ? { language: 'en' } : {}),
    tokenize: tokenizeText,
    analyze: (text: string): AnalyzedToken[] => tokenizeText(text).map(analyzeToken),
    stem,
    isStopword: (word: string) => stopwords.has(word),
  };
}

function resolveStemmer(option: StemmerOption): (word: string) => string {
  if (option === 'none') return (word) => word;
  if (option === 'porter') return (word) => (PLAIN_WORD.test(word) ? porterStem(word) : word);
  return option;
}

let defaultAnalyzer: TextAnalyzer | undefined;

/** The shared default analyzer: `tokenize`, Porter stemming, English stopwords. */
export function getDefaultTextAnalyzer(): TextAnalyzer {
  defaultAnalyzer ??= createTextAnalyzer();
  return defaultAnalyzer;
}

/** An analyzer as given in options: used as is, or built from `TextAnalyzerOptions`. */
export function resolveTextAnalyzer(value: TextAnalyzer | TextAnalyzerOptions): TextAnalyzer {
  return typeof (value as Partial<TextAnalyzer>).analyze === 'function'
    ? (value as TextAnalyzer)
    : createTextAnalyzer(value as TextAnalyzerOptions);
}
