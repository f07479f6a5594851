import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../src/util/error-message.js';

describe('errorMessage', () => {
  it('gives the message of an Error, of a subclass too', () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage(new TypeError('not a function'))).toBe('not a function');
  });

  it('gives the string form of anything else thrown', () => {
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage({ toString: () => 'custom' })).toBe('custom');
  });
});
