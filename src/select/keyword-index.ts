import type { RegisteredGroup } from '../format/types.js';
import { listKeywordPhrases } from '../text/list-keyword-phrases.js';
import type { AnalyzedToken, TextAnalyzer } from '../text/text-analyzer.js';
import type { AnalyzedTurn } from './analyze-turn.js';
import type { TermVocabulary } from './term-vocabulary.js';
import type { TypoMatch } from './types.js';

/** One keyword of one group, as a sequence of term ids (one id for a single word). */
interface KeywordPhrase {
  group: number;
  keyword: string;
  terms: readonly number[];
}

/** What matched a group in one text. */
export interface GroupMatch {
  /** The group's position in the registry. */
  group: number;
  /** Keywords as written in the group file, in message order, without repeats. */
  keywords: string[];
  /** Keywords that matched only through typo tolerance. */
  typos: TypoMatch[];
}

/**
 * The inverted index from normalized keyword terms to groups, built once per registry.
 * Matching a message costs one array read per message term, whatever the number of groups:
 * each term id points at the keywords that start with it; multi-word keywords then check the
 * following positions. No substring tests and no regexes built from keywords.
 */
export class KeywordIndex {
  /**
   * Phrases packed in typed arrays (a phrase object and its term array per keyword would be
   * several pointer hops, each a likely cache miss in a large registry), ordered by first term:
   * the phrases starting with term `t` are `#firstStarts[t]..#firstStarts[t + 1]`, in
   * registration order; phrase `p` belongs to group `#phraseGroup[p]`, spells
   * `#phraseKeyword[p]` and has the terms `#phraseTerms[#termStarts[p]..#termStarts[p + 1])`.
   */
  readonly #firstStarts: Int32Array;
  readonly #phraseGroup: Int32Array;
  readonly #phraseKeyword: string[];
  readonly #termStarts: Int32Array;
  readonly #phraseTerms: Int32Array;
  /** Per group: the `#matchStamp` of the last `matchGroups` call that matched it, and where. */
  readonly #groupStamp: Int32Array;
  readonly #groupMatch: Int32Array;
  #matchStamp = 0;
  readonly #words: { word: string; term: string; id: number }[] = [];

  constructor(
    groups: readonly RegisteredGroup[],
    analyzer: TextAnalyzer,
    vocabulary: TermVocabulary,
  ) {
    const byFirstTerm = new Map<number, KeywordPhrase[]>();
    const addPhrase = (phrase: KeywordPhrase) => {
      const first = phrase.terms[0]!;
      let list = byFirstTerm.get(first);
      if (list === undefined) {
        list = [];
        byFirstTerm.set(first, list);
      }
      // a group's keywords that analyze to the same terms count once, as the first of them
      const duplicate = list.some(
        (other) =>
          other.group === phrase.group &&
          other.terms.length === phrase.terms.length &&
          other.terms.every((term, index) => term === phrase.terms[index]),
      );
      if (duplicate) return;
      list.push(phrase);
    };
    groups.forEach((group, groupIndex) => {
      for (const keyword of group.selection.keywords ?? []) {
        const tokens = analyzeKeyword(analyzer, keyword);
        const [words, ...spellings] = listKeywordPhrases(analyzer, tokens);
        if (words === undefined) continue;
        const terms = words.map((term) => vocabulary.add(term));
        addPhrase({ group: groupIndex, keyword, terms });
        tokens.forEach((token, position) => {
          this.#words.push({ word: token.word, term: token.term, id: terms[position]! });
        });
        // "pull request" also matches the one-word spelling "pullrequest" / "pull-request"
        for (const spelling of spellings) {
          addPhrase({
            group: groupIndex,
            keyword,
            terms: spelling.map((term) => vocabulary.add(term)),
          });
        }
      }
    });

    // pack, by first term
    let firstLimit = 0;
    let phraseCount = 0;
    let termCount = 0;
    for (const [first, list] of byFirstTerm) {
      firstLimit = Math.max(firstLimit, first + 1);
      phraseCount += list.length;
      for (const phrase of list) termCount += phrase.terms.length;
    }
    this.#firstStarts = new Int32Array(firstLimit + 1);
    this.#phraseGroup = new Int32Array(phraseCount);
    this.#phraseKeyword = new Array(phraseCount);
    this.#termStarts = new Int32Array(phraseCount + 1);
    this.#phraseTerms = new Int32Array(termCount);
    for (const [first, list] of byFirstTerm) this.#firstStarts[first + 1] = list.length;
    for (let first = 0; first < firstLimit; first++) {
      this.#firstStarts[first + 1]! += this.#firstStarts[first]!;
    }
    let phrase = 0;
    let term = 0;
    for (let first = 0; first < firstLimit; first++) {
      for (const entry of byFirstTerm.get(first) ?? []) {
        this.#phraseGroup[phrase] = entry.group;
        this.#phraseKeyword[phrase] = entry.keyword;
        this.#termStarts[phrase] = term;
        for (const id of entry.terms) this.#phraseTerms[term++] = id;
        phrase++;
      }
    }
    this.#termStarts[phraseCount] = term;
    this.#groupStamp = new Int32Array(groups.length);
    this.#groupMatch = new Int32Array(groups.length);
  }

  /** Every keyword's words, as written and as terms, with their term ids (for typo tolerance). */
  keywordWords(): readonly { word: string; term: string; id: number }[] {
    return this.#words;
  }

  /**
   * Groups whose keywords occur in `turn` as whole words (single-word keywords) or as
   * consecutive words (multi-word keywords), after normalization and stemming; in the order
   * of their first match.
   */
  matchGroups(turn: AnalyzedTurn): GroupMatch[] {
    const { ids, starts, typoWords } = turn;
    const firstStarts = this.#firstStarts;
    const termStarts = this.#termStarts;
    const phraseTerms = this.#phraseTerms;
    const groupStamp = this.#groupStamp;
    const groupMatch = this.#groupMatch;
    const limit = firstStarts.length - 1;
    const matches: GroupMatch[] = [];
    // wraps long before 2^31 turns matter; 0 is never a live stamp
    const stamp = this.#matchStamp === 0x7fffffff ? 1 : this.#matchStamp + 1;
    if (stamp === 1) groupStamp.fill(0);
    this.#matchStamp = stamp;
    const positions = starts.length - 1;
    for (let position = 0; position < positions; position++) {
      for (let slot = starts[position]!; slot < starts[position + 1]!; slot++) {
        const id = ids[slot]!;
        if (id < 0 || id >= limit) continue;
        const end = firstStarts[id + 1]!;
        for (let phrase = firstStarts[id]!; phrase < end; phrase++) {
          let typo = typoWords[slot];
          const termEnd = termStarts[phrase + 1]!;
          let matched = true;
          for (let at = termStarts[phrase]! + 1, next = position + 1; at < termEnd; at++, next++) {
            if (next >= positions) {
              matched = false;
              break;
            }
            const found = findSlot(ids, starts[next]!, starts[next + 1]!, phraseTerms[at]!);
            if (found < 0) {
              matched = false;
              break;
            }
            typo ??= typoWords[found];
          }
          if (!matched) continue;
          const group = this.#phraseGroup[phrase]!;
          const keyword = this.#phraseKeyword[phrase]!;
          let match: GroupMatch;
          if (groupStamp[group] === stamp) {
            match = matches[groupMatch[group]!]!;
          } else {
            groupStamp[group] = stamp;
            groupMatch[group] = matches.length;
            match = { group, keywords: [], typos: [] };
            matches.push(match);
          }
          if (!match.keywords.includes(keyword)) {
            match.keywords.push(keyword);
            if (typo !== undefined) match.typos.push({ keyword, word: typo });
          } else if (typo === undefined && match.typos.length > 0) {
            // matched exactly elsewhere: not a typo match after all
            match.typos = match.typos.filter((entry) => entry.keyword !== keyword);
          }
        }
      }
    }
    return matches;
  }
}

/** Code-unit order: the same everywhere, whatever the locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function findSlot(ids: readonly number[], start: number, end: number, id: number): number {
  for (let slot = start; slot < end; slot++) if (ids[slot] === id) return slot;
  return -1;
}

// analyzed keywords per analyzer: registering groups one by one rebuilds the index of every
// new snapshot, and this keeps each rebuild to Map lookups
const analyzedKeywords = new WeakMap<TextAnalyzer, Map<string, AnalyzedToken[]>>();

function analyzeKeyword(analyzer: TextAnalyzer, keyword: string): AnalyzedToken[] {
  let cache = analyzedKeywords.get(analyzer);
  if (cache === undefined) {
    cache = new Map();
    analyzedKeywords.set(analyzer, cache);
  }
  let tokens = cache.get(keyword);
  if (tokens === undefined) {
    tokens = analyzer.analyze(keyword);
    if (cache.size >= 100_000) cache.clear();
    cache.set(keyword, tokens);
  }
  return tokens;
}
