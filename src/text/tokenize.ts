import { foldText } from './fold-text.js';

/** One word of a text, as the matcher and the ranker see it. */
export interface TextToken {
  /**
   * The word in lowercase with its joiners removed and its symbols kept: `To-Do` → `todo`,
   * `Node.js` → `nodejs`, `getAgenda` → `getagenda`, `C++` → `c++`, `C#` → `c#`.
   */
  text: string;
  /**
   * The sub-words of a compound, lowercase: split on `-` `_` `.`, camelCase and letter/digit
   * boundaries (`get_agenda` → `get`, `agenda`; `HTMLParser` → `html`, `parser`). Empty for a
   * simple word.
   */
  parts: readonly string[];
}

const NO_PARTS: readonly string[] = Object.freeze([]);

const HYPHEN = 0x2d;
const UNDERSCORE = 0x5f;
const DOT = 0x2e;
const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;
const UNICODE_HYPHEN = 0x2010;
const PLUS = 0x2b;
const HASH = 0x23;

const NON_ASCII_WORD = /^[\p{L}\p{N}\p{M}]$/u;
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
// classification of non-ASCII code points is cached: 0 other, 1 word, 2 CJK (one token each)
const nonAsciiKinds = new Map<number, number>();

const OTHER = 0;
const WORD = 1;
const IDEOGRAPH = 2;

function kindOf(code: number): number {
  if (code < 0x80) {
    return (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x30 && code <= 0x39)
      ? WORD
      : OTHER;
  }
  let kind = nonAsciiKinds.get(code);
  if (kind === undefined) {
    const char = String.fromCodePoint(code);
    kind = CJK.test(char) ? IDEOGRAPH : NON_ASCII_WORD.test(char) ? WORD : OTHER;
    if (nonAsciiKinds.size < 65_536) nonAsciiKinds.set(code, kind);
  }
  return kind;
}

function isJoiner(code: number): boolean {
  return (
    code === HYPHEN ||
    code === UNDERSCORE ||
    code === DOT ||
    code === APOSTROPHE ||
    code === RIGHT_QUOTE ||
    code === UNICODE_HYPHEN
  );
}

function isApostrophe(code: number): boolean {
  return code === APOSTROPHE || code === RIGHT_QUOTE;
}

function codeAt(text: string, index: number): number {
  return index < text.length ? text.codePointAt(index)! : -1;
}

function isWordAt(text: string, index: number): boolean {
  const code = codeAt(text, index);
  return code >= 0 && kindOf(code) === WORD;
}

function isLetterCode(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code >= 0x80;
}

function isUpperAscii(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * Splits text into words for keyword matching and ranking. Never builds a regex from user text.
 * The text is Unicode-folded first (NFKC, accents removed). A word is a run of letters and
 * digits; `-` `_` `.` and apostrophes inside a word join it into one compound (`to-do`,
 * `e-mail`, `node.js`, `create_event`, `don't`); a trailing `++`, `+` or `#` stays part of the
 * word (`c++`, `c#`) and so does a leading dot (`.net`). Han, Hiragana and Katakana characters
 * are one token each, so CJK keywords match as consecutive characters.
 */
export function tokenize(text: string): TextToken[] {
  const folded = foldText(text);
  const tokens: TextToken[] = [];
  const length = folded.length;
  let index = 0;
  while (index < length) {
    const unit = folded.charCodeAt(index);
    // fast path for the common case, a lowercase or capitalized ASCII word (`create`, `The`)
    // ended by a space or punctuation that joins nothing: one segment, so exactly what
    // readWord would return
    const upper = unit >= 0x41 && unit <= 0x5a;
    if (upper || (unit >= 0x61 && unit <= 0x7a)) {
      let end = index + 1;
      let next = folded.charCodeAt(end);
      while (next >= 0x61 && next <= 0x7a) next = folded.charCodeAt(++end);
      if (end === length || isPlainWordEnd(next)) {
        const word = folded.slice(index, end);
        tokens.push({ text: upper ? word.toLowerCase() : word, parts: NO_PARTS });
        index = end;
        continue;
      }
    } else if (unit === 0x20) {
      index++;
      continue;
    }
    const code = folded.codePointAt(index)!;
    const width = code > 0xffff ? 2 : 1;
    const kind = kindOf(code);
    if (kind === IDEOGRAPH) {
      tokens.push({ text: String.fromCodePoint(code), parts: NO_PARTS });
      index += width;
      continue;
    }
    const leadingDot =
      code === DOT && isWordAt(folded, index + 1) && (index === 0 || !isWordAt(folded, index - 1));
    if (kind !== WORD && !leadingDot) {
      index += width;
      continue;
    }
    index = readWord(folded, index, leadingDot, tokens);
  }
  return tokens;
}

/**
 * Whether an ASCII lowercase word followed by `code` ends there with no suffix or join: not a
 * letter, digit, joiner, `+` or `#` (anything non-ASCII takes the general path).
 */
function isPlainWordEnd(code: number): boolean {
  if (code >= 0x80 || kindOf(code) === WORD) return false;
  return !isJoiner(code) && code !== PLUS && code !== HASH;
}

/** Reads the word starting at `start`, pushes it, returns the index after it. */
function readWord(text: string, start: number, leadingDot: boolean, tokens: TextToken[]): number {
  let index = leadingDot ? start + 1 : start;
  let compound = false;
  let simpleLower = true;
  for (;;) {
    const code = codeAt(text, index);
    if (code < 0) break;
    const kind = kindOf(code);
    if (kind === WORD) {
      if (code < 0x61 || code > 0x7a) simpleLower = false;
      index += code > 0xffff ? 2 : 1;
      continue;
    }
    if (isJoiner(code) && isWordAt(text, index + 1)) {
      compound = true;
      index += 1;
      continue;
    }
    break;
  }
  const end = index;
  let suffix = '';
  const next = codeAt(text, end);
  if (next === PLUS && codeAt(text, end + 1) === PLUS && !isWordAt(text, end + 2)) suffix = '++';
  else if (next === HASH && !isWordAt(text, end + 1)) suffix = '#';
  else if (next === PLUS && codeAt(text, end + 1) !== PLUS && !isWordAt(text, end + 1))
    suffix = '+';
  const prefix = leadingDot ? '.' : '';
  const wordStart = leadingDot ? start + 1 : start;

  if (!compound && simpleLower) {
    tokens.push({ text: prefix + text.slice(wordStart, end) + suffix, parts: NO_PARTS });
    return end + suffix.length;
  }
  const segments = splitSegments(text, wordStart, end);
  const joined = segments.joined;
  const parts =
    suffix === '' && prefix === '' && segments.parts.length > 1 ? segments.parts : NO_PARTS;
  tokens.push({ text: prefix + joined + suffix, parts });
  return end + suffix.length;
}

/** Lowercase joined form and sub-words of `text[start, end)`. */
function splitSegments(
  text: string,
  start: number,
  end: number,
): { joined: string; parts: readonly string[] } {
  const parts: string[] = [];
  let joined = '';
  let segment = '';
  let previous = -1;
  const flush = () => {
    if (segment !== '') {
      const lower = segment.toLowerCase();
      parts.push(lower);
      joined += lower;
    }
    segment = '';
  };
  for (let index = start; index < end; ) {
    const code = text.codePointAt(index)!;
    const width = code > 0xffff ? 2 : 1;
    if (isApostrophe(code)) {
      // "don't" → "dont", "user's" → "users": no boundary
      index += width;
      continue;
    }
    if (isJoiner(code)) {
      flush();
      previous = -1;
      index += width;
      continue;
    }
    if (previous >= 0 && segment !== '') {
      const nextCode = codeAt(text, index + width);
      const camel = isUpperAscii(code) && !isUpperAscii(previous) && isLetterCode(previous);
      const acronymEnd =
        isUpperAscii(code) && isUpperAscii(previous) && nextCode >= 0x61 && nextCode <= 0x7a;
      const digitBoundary =
        (isDigitCode(code) && isLetterCode(previous)) ||
        (isLetterCode(code) && isDigitCode(previous));
      if (camel || acronymEnd || digitBoundary) flush();
    }
    segment += String.fromCodePoint(code);
    previous = code;
    index += width;
  }
  flush();
  return { joined, parts };
}
