/** The placeholders `redactMessage` writes in place of what it removes. */
export const REDACTION_PLACEHOLDERS = Object.freeze({
  url: '<url>',
  email: '<email>',
  phone: '<phone>',
  number: '<number>',
});

// fixed patterns, never built from user text; each is linear (no nested quantifiers)
const URL = /\b(?:https?|ftp):\/\/[^\s<>"'`]+|\bwww\.[^\s<>"'`]+/gi;
// starts only where a run of address characters starts, so a long run is scanned once
const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// digit groups joined by one space, dot or dash, optionally a +country code and an (area)
const PHONE =
  /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,5}){1,4}(?!\w)/g;
const LONG_DIGITS = /\d{6,}/g;
// what a phone-shaped run must not be: a date such as 2025-03-14 or 14.03.2025
const DATE = /^(?:\d{4}[ .-]\d{1,2}[ .-]\d{1,2}|\d{1,2}[ .-]\d{1,2}[ .-]\d{4})$/;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;
const MIN_PHONE_DIGITS = 7;

/**
 * Replaces what looks like personal or one-off data in a user message with a placeholder: URLs
 * (`<url>`), e-mail addresses (`<email>`), phone numbers (`<phone>`: digit groups with 7 or more
 * digits in all, dates excluded) and runs of 6 or more digits (`<number>`: account, order and
 * card numbers). Example requests teach selection what users ask for, not their data.
 */
export function redactMessage(text: string): string {
  return text
    .replace(URL, (match) => {
      // a sentence's closing punctuation is not part of the address
      const trailing = TRAILING_PUNCTUATION.exec(match)?.[0] ?? '';
      return `${REDACTION_PLACEHOLDERS.url}${trailing}`;
    })
    .replace(EMAIL, REDACTION_PLACEHOLDERS.email)
    .replace(PHONE, (match) => {
      if (DATE.test(match)) return match;
      let digits = 0;
      for (const char of match) if (char >= '0' && char <= '9') digits++;
      return digits >= MIN_PHONE_DIGITS ? REDACTION_PLACEHOLDERS.phone : match;
    })
    .replace(LONG_DIGITS, REDACTION_PLACEHOLDERS.number);
}
