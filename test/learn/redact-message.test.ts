import { describe, expect, it } from 'vitest';
import { redactMessage } from '../../src/migrate/redact-message.js';

describe('redactMessage', () => {
  it.each([
    ['mail bob.smith+x@example.co.uk the notes', 'mail <email> the notes'],
    ['open https://example.com/a?b=1&c=2. Then stop', 'open <url>. Then stop'],
    ['see www.example.org/page, thanks', 'see <url>, thanks'],
    ['the file is at ftp://files.example.net/x.zip', 'the file is at <url>'],
    ['call +1 (555) 123-4567 now', 'call <phone> now'],
    ['ring 555-123-4567 or 555.123.4567', 'ring <phone> or <phone>'],
    ['my London number is +44 20 7946 0958', 'my London number is <phone>'],
    ['order 123456789 has not arrived', 'order <number> has not arrived'],
    ['my number is 0612345678', 'my number is <number>'],
    ['dial 555-1234 for the desk', 'dial <phone> for the desk'],
    ['ticket 123456 is still open', 'ticket <number> is still open'],
    ['write to a@b.io about http://x.io/a@b.io', 'write to <email> about <url>'],
  ])('%s', (input, expected) => {
    expect(redactMessage(input)).toBe(expected);
  });

  it.each([
    'meeting on 2025-03-14 at 10:30 in room 12',
    'due 14.03.2025, zip 94110, year 2024',
    'upgrade to version 1.2.3',
    'call extension 5512',
    'a table for 4 at 19:30',
    'room 55-1234 is six digits in all',
    'ticket 12345 is still open',
  ])('keeps dates, times, versions and short numbers: %s', (input) => {
    expect(redactMessage(input)).toBe(input);
  });

  it('is linear on long adversarial input', () => {
    // no nested quantifiers: a long run that almost matches must not backtrack exponentially
    const text = `${'1 '.repeat(50_000)}x ${'a.'.repeat(50_000)}@ ${'12345 '.repeat(20_000)}`;
    expect(redactMessage(text)).toContain('x');
  });
});
