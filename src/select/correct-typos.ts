import type { TypoIndex } from '../text/typo-index.js';
import type { AnalyzedTurn } from './analyze-turn.js';
import { compareStrings } from './keyword-index.js';
import type { SelectionIndex } from './selection-index.js';

/**
 * Typo tolerance, one rule for `select` (keyword matching, relevance and fallback ranking) and
 * `search`: each word of `text` (a word, or a part of a compound) that is not a stopword and
 * that no tool's text and no keyword contains is corrected to every known term one edit away
 * from the word or from its stem, comparing with the words of the tools' text and of the
 * keywords both as written and stemmed (words of 5+ plain letters; see `TypoIndex`). A
 * correction joins the word's position in `turn` (so keywords match through it, reported as
 * typos) and the ranking query as `word~correction`, in place of the unknown word. `turn` is
 * `analyzeTurn(text)`, changed in place.
 */
export function correctTypos(index: SelectionIndex, text: string, turn: AnalyzedTurn): void {
  const typos = index.typos();
  const words = index.words();
  const { ids, starts, typoWords } = turn;
  const newIds: number[] = [];
  const newStarts: number[] = [];
  const newTypoWords: (string | undefined)[] = [];
  words.tokenize(text).forEach((token, position) => {
    newStarts.push(newIds.length);
    for (let slot = starts[position]!; slot < starts[position + 1]!; slot++) {
      newIds.push(ids[slot]!);
      newTypoWords.push(typoWords[slot]);
    }
    for (const word of [token.text, ...token.parts]) {
      const found = correctionsOf(index, typos, word);
      if (found.length === 0) continue;
      for (const id of found) {
        newIds.push(id);
        newTypoWords.push(word);
        if (!turn.queryIds.includes(id)) {
          turn.queryIds.push(id);
          turn.queryWords.push(`${word}~${index.vocabulary.wordOf(id)}`);
        }
      }
      const term = words.term(word);
      const unknown = turn.unknown.findIndex((entry) => entry.term === term);
      if (unknown >= 0) turn.unknown.splice(unknown, 1);
    }
  });
  newStarts.push(newIds.length);
  ids.splice(0, ids.length, ...newIds);
  starts.splice(0, starts.length, ...newStarts);
  typoWords.splice(0, typoWords.length, ...newTypoWords);
}

/** The term ids `word` is corrected to, in term order (none when it is known or a stopword). */
function correctionsOf(index: SelectionIndex, typos: TypoIndex<number>, word: string): number[] {
  const words = index.words();
  const code = words.code(word);
  // a stopword or a single character, or a word some tool or keyword contains
  if ((code & 1) === 1 || code >> 1 > 0) return [];
  const found: number[] = [];
  for (const candidate of [word, words.term(word)]) {
    for (const entry of typos.lookup(candidate)) {
      if (!found.includes(entry.value)) found.push(entry.value);
    }
  }
  // in term order, so results never depend on the typo index's internal order
  const { vocabulary } = index;
  return found.sort((a, b) => compareStrings(vocabulary.termOf(a), vocabulary.termOf(b)));
}
