import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

let natural: { stem(word: string): string } | undefined;

const PLAIN_LOWERCASE = /^[a-z]+$/;

/**
 * English Porter stemming, exactly as natural's `PorterStemmer.stem` (quirks included:
 * fractional measures, several step-2 rules applying in a row). `appointments` → `appoint`,
 * `scheduling` → `schedul`. Lowercase a-z words (all the analyzer stems) take a port of
 * natural's algorithm on character codes: natural's version builds about sixty regexes,
 * which made stemming the largest part of CLI start-up and of index builds. Any other string
 * goes to natural's submodule, loaded on first use (never the natural index, which costs
 * ~300 ms and prints dotenv notices). A test checks both agree on large word lists.
 */
export function porterStem(word: string): string {
  if (word.length < 3) return word;
  if (!PLAIN_LOWERCASE.test(word)) {
    natural ??= require('natural/lib/natural/stemmers/porter_stemmer.js') as {
      stem(word: string): string;
    };
    return natural.stem(word);
  }
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(word))))))));
}

const A = 97;
const E = 101;
const I = 105;
const O = 111;
const U = 117;
const Y = 121;

/** a, e, i, o, u (natural's `[aeiou]`; `y` is decided by its neighbour). */
function isVowel(code: number): boolean {
  return code === A || code === E || code === I || code === O || code === U;
}

/** Whether the character at `index` counts as a vowel: a-e-i-o-u, or y after a consonant. */
function isVowelAt(token: string, index: number): boolean {
  const code = token.charCodeAt(index);
  if (isVowel(code)) return true;
  if (code !== Y || index === 0) return false;
  const previous = token.charCodeAt(index - 1);
  return !isVowel(previous) && previous !== Y;
}

/**
 * natural's `categorizeGroups` counted instead of spelled out: runs of vowels are one `V`
 * group, runs of consonants one `C`, and a `y` after a consonant is a `V` group of its own (a
 * vowel run right after it is another: `skye` → `CVV`). Returns the number of groups, whether
 * the first is a `C` and whether the last is a `V`, packed as `groups * 4 + firstC * 2 + lastV`.
 */
function countGroups(token: string): number {
  let groups = 0;
  let firstIsConsonant = 0;
  let previous = 0; // 1 consonant run, 2 vowel run, 3 a y-vowel
  for (let index = 0; index < token.length; index++) {
    const code = token.charCodeAt(index);
    let kind: number;
    if (isVowel(code)) kind = 2;
    else if (isVowelAt(token, index)) kind = 3;
    else kind = 1;
    if (kind !== previous || kind === 3) {
      if (groups === 0 && kind === 1) firstIsConsonant = 1;
      groups++;
    }
    previous = kind;
  }
  return groups * 4 + firstIsConsonant * 2 + (previous >= 2 ? 1 : 0);
}

/** Whether natural's `categorizeGroups(token)` contains a `V`. */
function hasVowelGroup(token: string): boolean {
  for (let index = 0; index < token.length; index++) if (isVowelAt(token, index)) return true;
  return false;
}

/** natural's `categorizeChars`: one `C` or `V` per character. */
function categorizeChars(token: string): string {
  let chars = '';
  for (let index = 0; index < token.length; index++) chars += isVowelAt(token, index) ? 'V' : 'C';
  return chars;
}

/** The measure m of natural: VC sequences, as (groups - leading C - trailing V) / 2. */
function measure(token: string | null): number {
  if (!token) return -1;
  const packed = countGroups(token);
  const groups = packed >> 2;
  const leadingC = (packed >> 1) & 1;
  // natural strips a trailing V only after the leading C is gone: "C" alone measures 0
  const trailingV = groups > leadingC ? packed & 1 : 0;
  return (groups - leadingC - trailingV) / 2;
}

/** Ends with a doubled letter other than a vowel (natural's `([^aeiou])\1$`; y counts). */
function endsWithDoubleConsonant(token: string): boolean {
  const length = token.length;
  if (length < 2) return false;
  const last = token.charCodeAt(length - 1);
  return last === token.charCodeAt(length - 2) && !isVowel(last);
}

/** `token` with `suffix` replaced by `replacement`, or null when it does not end with it. */
function replaceSuffix(token: string, suffix: string, replacement: string): string | null {
  return token.endsWith(suffix) ? token.slice(0, token.length - suffix.length) + replacement : null;
}

type Rule = readonly [suffix: string, replacement: string];

/**
 * natural's `attemptReplacePatterns`: every rule whose suffix the ORIGINAL token has (and whose
 * stem's measure exceeds `threshold`, when given) is applied to the result so far.
 */
function replaceRules(token: string, rules: readonly Rule[], threshold?: number): string {
  let result = token;
  for (const [suffix, replacement] of rules) {
    if (threshold === undefined || measure(replaceSuffix(token, suffix, '')) > threshold) {
      result = replaceSuffix(result, suffix, replacement) || result;
    }
  }
  return result;
}

function step1a(token: string): string {
  if (token.endsWith('sses') || token.endsWith('ies')) return token.slice(0, -2);
  const length = token.length;
  if (token.charCodeAt(length - 1) === 115 && token.charCodeAt(length - 2) !== 115 && length > 2) {
    return token.slice(0, -1);
  }
  return token;
}

const STEP_1B_RULES: readonly Rule[] = [
  ['at', 'ate'],
  ['bl', 'ble'],
  ['iz', 'ize'],
];

function step1b(token: string): string {
  if (token.endsWith('eed')) {
    return measure(token.slice(0, -3)) > 0 ? token.slice(0, -1) : token;
  }
  const stem = token.endsWith('ed')
    ? token.slice(0, -2)
    : token.endsWith('ing')
      ? token.slice(0, -3)
      : undefined;
  // natural skips an empty stem ("ing") and stems without a vowel group
  if (!stem || !hasVowelGroup(stem)) return token;
  const replaced = replaceRules(stem, STEP_1B_RULES);
  if (replaced !== stem) return replaced;
  if (endsWithDoubleConsonant(stem)) {
    const last = stem.charCodeAt(stem.length - 1);
    if (last !== 108 && last !== 115 && last !== 122) return stem.slice(0, -1); // not l, s, z
  }
  if (measure(stem) === 1 && categorizeChars(stem).endsWith('CVC')) {
    const last = stem.charCodeAt(stem.length - 1);
    if (last !== 119 && last !== 120 && last !== Y) return `${stem}e`; // not w, x, y
  }
  return stem;
}

function step1c(token: string): string {
  if (token.charCodeAt(token.length - 1) !== Y) return token;
  // natural: a V among the groups but the last. Groups alternate after a C (CC never occurs),
  // so that is three groups or more, or two starting with a V
  const packed = countGroups(token);
  const groups = packed >> 2;
  const firstIsConsonant = (packed >> 1) & 1;
  return groups >= 3 || (groups === 2 && firstIsConsonant === 0) ? `${token.slice(0, -1)}i` : token;
}

const STEP_2_RULES: readonly Rule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['abli', 'able'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

/**
 * Rules by the last letter of their suffix, in list order. With a measure threshold only rules
 * whose suffix the original token ends with can apply, so the others need not be tried.
 */
function byLastLetter(rules: readonly Rule[]): ReadonlyMap<number, readonly Rule[]> {
  const map = new Map<number, Rule[]>();
  for (const rule of rules) {
    const last = rule[0].charCodeAt(rule[0].length - 1);
    const list = map.get(last);
    if (list === undefined) map.set(last, [rule]);
    else list.push(rule);
  }
  return map;
}

const STEP_2_BY_LAST_LETTER = byLastLetter(STEP_2_RULES);

function step2(token: string): string {
  const rules = STEP_2_BY_LAST_LETTER.get(token.charCodeAt(token.length - 1));
  return rules === undefined ? token : replaceRules(token, rules, 0);
}

const STEP_3_RULES: readonly Rule[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP_3_BY_LAST_LETTER = byLastLetter(STEP_3_RULES);

function step3(token: string): string {
  const rules = STEP_3_BY_LAST_LETTER.get(token.charCodeAt(token.length - 1));
  return rules === undefined ? token : replaceRules(token, rules, 0);
}

const STEP_4_SUFFIXES: ReadonlySet<string> = new Set([
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
]);
const LONGEST_STEP_4_SUFFIX = 5;
const STEP_4_LAST_LETTERS: ReadonlySet<number> = new Set(
  [...STEP_4_SUFFIXES].map((suffix) => suffix.charCodeAt(suffix.length - 1)),
);

function step4(token: string): string {
  // natural's /^(.+?)(al|ance|...)$/: the longest listed suffix that leaves a non-empty stem
  const length = token.length;
  const ending = STEP_4_LAST_LETTERS.has(token.charCodeAt(length - 1));
  for (let start = Math.max(1, length - LONGEST_STEP_4_SUFFIX); ending && start < length; start++) {
    if (!STEP_4_SUFFIXES.has(token.slice(start))) continue;
    const stem = token.slice(0, start);
    if (measure(stem) > 1) return stem;
    break;
  }
  // natural's /^(.+?)(s|t)(ion)$/, keeping the s or t
  if (length >= 5 && token.endsWith('ion')) {
    const letter = token.charCodeAt(length - 4);
    if (letter === 115 || letter === 116) {
      const stem = token.slice(0, -3);
      if (measure(stem) > 1) return stem;
    }
  }
  return token;
}

function step5a(token: string): string {
  const endsWithE = token.charCodeAt(token.length - 1) === E;
  const stem = endsWithE ? token.slice(0, -1) : token;
  const m = measure(stem);
  if (m > 1 || (m === 1 && !endsWithCvcBeforeLast(token))) return stem;
  return token;
}

/** natural: `categorizeChars(token).substr(-4, 3) === 'CVC' && token.match(/[^wxy].$/)`. */
function endsWithCvcBeforeLast(token: string): boolean {
  const length = token.length;
  const start = Math.max(0, length - 4);
  if (categorizeChars(token).slice(start, start + 3) !== 'CVC') return false;
  if (length < 2) return false;
  const beforeLast = token.charCodeAt(length - 2);
  return beforeLast !== 119 && beforeLast !== 120 && beforeLast !== Y;
}

function step5b(token: string): string {
  return measure(token) > 1 && token.endsWith('ll') ? token.slice(0, -1) : token;
}
