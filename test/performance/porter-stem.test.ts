import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { porterStem } from '../../src/text/porter-stem.js';

// the port in src/text/porter-stem.ts must stem exactly as natural's PorterStemmer, quirks
// included: it replaced natural on the start-up path for speed, not to change any term
const natural = createRequire(import.meta.url)(
  'natural/lib/natural/stemmers/porter_stemmer.js',
) as {
  stem(word: string): string;
};
const ROOT = join(import.meta.dirname, '../..');

function wordsOf(text: string, into: Set<string>): void {
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) into.add(word);
}

function mismatches(words: Iterable<string>): string[] {
  const found: string[] = [];
  for (const word of words) {
    if (porterStem(word) !== natural.stem(word)) found.push(word);
  }
  return found;
}

const SUFFIXES = [
  'ational',
  'tional',
  'enci',
  'anci',
  'izer',
  'abli',
  'bli',
  'alli',
  'entli',
  'eli',
  'ousli',
  'ization',
  'ation',
  'ator',
  'alism',
  'iveness',
  'fulness',
  'ousness',
  'aliti',
  'iviti',
  'biliti',
  'logi',
  'icate',
  'ative',
  'alize',
  'iciti',
  'ical',
  'ful',
  'ness',
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'sion',
  'tion',
  'eed',
  'ed',
  'ing',
  'ies',
  'sses',
  's',
  'ss',
  'y',
  'e',
  'll',
  'at',
  'bl',
  'iz',
  'yy',
  'ey',
];

describe('porterStem', () => {
  it('stems like natural on every word of the evaluation data and the bundled schemas', () => {
    const words = new Set<string>();
    const data = join(ROOT, 'eval/data');
    wordsOf(readFileSync(join(data, 'metatool/all_clean_data.csv'), 'utf8'), words);
    wordsOf(readFileSync(join(data, 'metatool/plugin_des.json'), 'utf8'), words);
    for (const file of readdirSync(join(data, 'bfcl'))) {
      if (file.endsWith('.json')) wordsOf(readFileSync(join(data, 'bfcl', file), 'utf8'), words);
    }
    for (const file of readdirSync(join(ROOT, 'schemas'))) {
      wordsOf(readFileSync(join(ROOT, 'schemas', file), 'utf8'), words);
    }
    expect(words.size).toBeGreaterThan(10_000);
    expect(mismatches(words)).toEqual([]);
  });

  it('stems like natural on generated words with stacked suffixes', () => {
    const letters = fc.constantFrom(...'aeiouybcdlmnrstgzwxp');
    const word = fc
      .tuple(
        fc.array(letters, { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom(...SUFFIXES), { maxLength: 3 }),
      )
      .map(([stem, suffixes]) => stem.join('') + suffixes.join(''));
    fc.assert(
      fc.property(word, (text) => porterStem(text) === natural.stem(text)),
      { numRuns: 20_000 },
    );
  });

  it('hands other strings to natural', () => {
    for (const text of ['Appointments', 'e-mail', 'c++', 'ab', '', 'naïve']) {
      expect(porterStem(text)).toBe(natural.stem(text));
    }
  });
});
