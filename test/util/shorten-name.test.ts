import { describe, expect, it } from 'vitest';
import { MAX_QUOTED_NAME_LENGTH, shortenName } from '../../src/util/shorten-name.js';

describe('shortenName', () => {
  it('keeps names up to the limit and cuts longer ones with an ellipsis and their length', () => {
    const exact = 'n'.repeat(MAX_QUOTED_NAME_LENGTH);
    expect(shortenName(exact)).toBe(exact);
    expect(shortenName(`${exact}x`)).toBe(`${exact}… (65 characters)`);
    expect(shortenName('x'.repeat(100_000))).toBe(
      `${'x'.repeat(MAX_QUOTED_NAME_LENGTH)}… (100000 characters)`,
    );
  });

  it('never cuts a character written as a surrogate pair in half', () => {
    const name = `${'a'.repeat(MAX_QUOTED_NAME_LENGTH - 1)}😀tail`;
    expect(shortenName(name)).toBe(
      `${'a'.repeat(MAX_QUOTED_NAME_LENGTH - 1)}… (${name.length} characters)`,
    );
  });
});
