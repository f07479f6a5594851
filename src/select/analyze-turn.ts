import type { TextAnalyzer } from '../text/text-analyzer.js';
import type { TermVocabulary } from './term-vocabulary.js';

/**
 * A message as the selector needs it: for each word position, the ids of the terms it offers
 * (its stem and the stems of its compound parts; -1 when unknown), plus the words.
 */
export interface AnalyzedTurn {
  /** Normalized words, one per position. */
  words: readonly string[];
  /** Term ids of every position, flattened: position `p` owns `ids[starts[p]..starts[p+1])`. */
  ids: number[];
  starts: number[];
  /** For each entry of `ids`, the word it came from when a typo match added it, else undefined. */
  typoWords: (string | undefined)[];
  /** Ranking query: unique term ids of non-stopword terms with their first word. */
  queryIds: number[];
  queryWords: string[];
  /** Ranking words whose terms no tool contains (they count in the score's denominator). */
  unknown: { word: string; term: string }[];
}

// word → term id and stopword flag, as (id + 1) * 2 + flag; cleared when it grows too large
const WORD_CACHE_LIMIT = 50_000;

/**
 * Remembers, per vocabulary, what each word analyzes to, so a turn costs one Map read per word
 * instead of a stem lookup, a stopword lookup and a vocabulary lookup. Create it after the
 * vocabulary is complete (the relevance index is built).
 */
export class WordCache {
  readonly #codes = new Map<string, number>();
  /** The terms of words no tool contains (a turn reports them, so their stems are kept too). */
  readonly #unknownTerms = new Map<string, string>();
  readonly #analyzer: TextAnalyzer;
  readonly #vocabulary: TermVocabulary;

  constructor(analyzer: TextAnalyzer, vocabulary: TermVocabulary) {
    this.#analyzer = analyzer;
    this.#vocabulary = vocabulary;
  }

  /** `(termId + 1) * 2 + (isStopwordOrTooShort ? 1 : 0)` of a normalized word. */
  code(word: string): number {
    let code = this.#codes.get(word);
    if (code === undefined) {
      const term = this.#analyzer.stem(word);
      const id = this.#vocabulary.idOf(term);
      const ignored = this.#analyzer.isStopword(word) || isTooShort(term);
      code = (id + 1) * 2 + (ignored ? 1 : 0);
      if (this.#codes.size >= WORD_CACHE_LIMIT) {
        this.#codes.clear();
        this.#unknownTerms.clear();
      }
      this.#codes.set(word, code);
      if (id < 0 && !ignored) this.#unknownTerms.set(word, term);
    }
    return code;
  }

  /** The stemmed term of a word. */
  term(word: string): string {
    return this.#unknownTerms.get(word) ?? this.#analyzer.stem(word);
  }

  tokenize(text: string) {
    return this.#analyzer.tokenize(text);
  }
}

/** Analyzes `text` for keyword matching and ranking. */
export function analyzeTurn(text: string, words: WordCache): AnalyzedTurn {
  const tokens = words.tokenize(text);
  const turn: AnalyzedTurn = {
    words: [],
    ids: [],
    starts: [],
    typoWords: [],
    queryIds: [],
    queryWords: [],
    unknown: [],
  };
  const positionWords = turn.words as string[];
  for (const token of tokens) {
    turn.starts.push(turn.ids.length);
    positionWords.push(token.text);
    addWord(turn, words, token.text);
    for (const part of token.parts) addWord(turn, words, part);
  }
  turn.starts.push(turn.ids.length);
  return turn;
}

function addWord(turn: AnalyzedTurn, words: WordCache, word: string): void {
  const code = words.code(word);
  const id = (code >> 1) - 1;
  turn.ids.push(id);
  turn.typoWords.push(undefined);
  if ((code & 1) === 1) return;
  if (id < 0) {
    const term = words.term(word);
    if (!turn.unknown.some((entry) => entry.term === term)) turn.unknown.push({ word, term });
    return;
  }
  if (!turn.queryIds.includes(id)) {
    turn.queryIds.push(id);
    turn.queryWords.push(word);
  }
}

/** Single ASCII letters and digits are noise for ranking; a single CJK character is a word. */
export function isTooShort(term: string): boolean {
  return term.length < 2 && term.charCodeAt(0) < 0x80;
}
