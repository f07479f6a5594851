import { describe, expect, it } from 'vitest';
import { hasContentWords } from '../../src/migrate/has-content-words.js';

describe('hasContentWords', () => {
  it.each([
    'yes go ahead',
    'Yes, please!',
    'ok do it',
    'sure, thanks!',
    'Sounds good 👍',
    'yep, go-ahead',
    'Perfect, thank you.',
    '2',
    '!!!',
  ])('%j has none: a confirmation says nothing about the tool', (text) => {
    expect(hasContentWords(text)).toBe(false);
  });

  it.each([
    'refund order 123',
    'yes, but to Oslo',
    'go ahead and share the report',
    'ok, cancel-meeting',
    'And tomorrow?',
  ])('%j has some', (text) => {
    expect(hasContentWords(text)).toBe(true);
  });
});
