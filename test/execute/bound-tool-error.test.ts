import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundToolError, MIN_ERROR_BYTES } from '../../src/execute/bound-tool-error.js';
import type { ToolCallError } from '../../src/execute/types.js';
import { assertProperty } from '../reliability/fuzz-settings.js';

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const NOTE = /… \[cut after (\d+) of (\d+) characters\]$/;

// pieces whose JSON form differs from their UTF-8 form: escapes, wide characters, lone surrogates
const piece = fc.oneof(
  fc.constantFrom('a', '"', '\\', '\n', '\u0001', '\u007f', 'é', '€', '😀', '\ud800', '\udc00'),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const text = fc.array(piece, { maxLength: 3_000, size: 'max' }).map((pieces) => pieces.join(''));

describe('boundToolError', () => {
  it('fits every error in max(maxOutputBytes, 4 KiB), cutting as little as it can', async () => {
    await assertProperty(
      'boundToolError fits and keeps a prefix',
      fc.property(
        text,
        fc.oneof(
          fc.constant({}),
          text.map((blob) => ({ blob })),
        ),
        fc.integer({ min: 1, max: 12_000 }),
        (message, details, limit) => {
          const error: ToolCallError = { code: 'SOME_CODE', message, details };
          const room = Math.max(limit, MIN_ERROR_BYTES);
          const bounded = boundToolError(error, limit);
          if (bytesOf(error) <= room) {
            expect(bounded).toBe(error);
            return;
          }
          expect(bytesOf(bounded)).toBeLessThanOrEqual(room);
          const detailsBytes = bytesOf(details);
          expect(bounded.details).toEqual(
            detailsBytes > room / 2 ? { truncated: true, bytes: detailsBytes } : details,
          );
          if (bounded.message === message) return;
          const match = NOTE.exec(bounded.message);
          expect(match?.[2]).toBe(String(message.length));
          const kept = Number(match?.[1]);
          expect(bounded.message.slice(0, kept)).toBe(message.slice(0, kept));
          // a whole code point is kept or dropped, never half of one
          const splitsPair =
            /[\uD800-\uDBFF]$/.test(message.slice(0, kept)) &&
            /^[\uDC00-\uDFFF]/.test(message.slice(kept));
          expect(splitsPair).toBe(false);
          // nothing more would fit: one more code point (at most 6 bytes) and the note's digits
          const slack = String(message.length).length - String(kept).length;
          expect(bytesOf(bounded)).toBeGreaterThan(room - 6 - slack);
        },
      ),
      200,
    );
  });

  it('summarizes details and cuts the message of a huge error', () => {
    const error = { code: 'BIG', message: 'y'.repeat(3e6), details: { blob: 'z'.repeat(3e6) } };
    const bounded = boundToolError(error, 10_000);
    expect(bounded.details).toEqual({ truncated: true, bytes: 3e6 + 11 });
    expect(bounded.message).toMatch(/^y+… \[cut after \d+ of 3000000 characters\]$/);
    expect(bytesOf(bounded)).toBeLessThanOrEqual(10_000);
  });
});
