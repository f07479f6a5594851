import { describe, expect, it } from 'vitest';
import { errorIdentity, errorMessage } from '../../src/util/error-message.js';

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

describe('errorMessage and errorIdentity never throw', () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const throwing = {
    toString() {
      throw new Error('no');
    },
    get code(): string {
      throw new Error('no');
    },
  };

  it('describes values that resist being read', () => {
    for (const value of [throwing, revoked.proxy]) {
      expect(errorMessage(value)).toBe('a thrown value that cannot be described (object)');
      expect(errorIdentity(value)).toEqual({ name: 'object' });
    }
    expect(errorMessage(Symbol('s'))).toBe('Symbol(s)');
    expect(errorIdentity(Symbol('s'))).toEqual({ name: 'symbol' });
  });

  it('gives the name and a string or numeric code, nothing else', () => {
    const system = Object.assign(new TypeError('denied'), { code: 'EACCES' });
    expect(errorIdentity(system)).toEqual({ name: 'TypeError', code: 'EACCES' });
    expect(errorIdentity({ code: 7 })).toEqual({ name: 'object', code: '7' });
    expect(errorIdentity({ code: { nested: true } })).toEqual({ name: 'object' });
    expect(errorIdentity('text')).toEqual({ name: 'string' });
    expect(errorIdentity(null)).toEqual({ name: 'object' });
  });
});
