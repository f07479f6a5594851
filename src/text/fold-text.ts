/** Latin letters that Unicode does not decompose into a base letter plus a mark. */
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  ı: 'i',
  þ: 'th',
  Þ: 'TH',
  ð: 'd',
  Ð: 'D',
};
const SPECIAL_PATTERN = /[ßẞæÆœŒøØđĐłŁıþÞðÐ]/g;
// only the accents of Latin, Greek and Cyrillic: marks of other scripts (Devanagari vowel
// signs, for instance) carry meaning and stay
const COMBINING_ACCENTS = /[\u0300-\u036f]/g;
const NON_ASCII = /[\u0080-\uffff]/;

/** Whether `text` is plain ASCII (the fast path: nothing to normalize). */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * Unicode-normalizes `text` for matching, keeping letter case (camelCase splitting needs it):
 * NFKC (full-width `Ｃ＃` becomes `C#`, ligatures are split), then Latin/Greek/Cyrillic accents
 * are removed (`réunion` becomes `reunion`) and letters such as `ß` or `ø` are spelled out.
 */
export function foldText(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  const stripped = text.normalize('NFKC').normalize('NFD').replace(COMBINING_ACCENTS, '');
  return stripped.normalize('NFC').replace(SPECIAL_PATTERN, (letter) => SPECIAL_LETTERS[letter]!);
}
