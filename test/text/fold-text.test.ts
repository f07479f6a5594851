import { describe, expect, it } from 'vitest';
import { foldText, isAscii } from '../../src/text/fold-text.js';

describe('foldText', () => {
  it('returns ASCII text unchanged (the fast path)', () => {
    expect(isAscii('Schedule a Meeting, C++ & node.js')).toBe(true);
    expect(foldText('Schedule a Meeting')).toBe('Schedule a Meeting');
  });

  it('removes Latin accents and keeps letter case', () => {
    expect(isAscii('réunion')).toBe(false);
    expect(foldText('Réunion à Genève, naïve façade, Ångström')).toBe(
      'Reunion a Geneve, naive facade, Angstrom',
    );
    expect(foldText('İstanbul')).toBe('Istanbul');
  });

  it('applies NFKC: full-width letters and symbols, ligatures', () => {
    expect(foldText('ＣＯＤＥ Ｃ＃ ﬁle')).toBe('CODE C# file');
  });

  it('spells out letters that do not decompose', () => {
    expect(foldText('Straße Øre Łódź Æther œuvre')).toBe('Strasse Ore Lodz AEther oeuvre');
  });

  it('keeps the marks of scripts where they carry meaning', () => {
    expect(foldText('हिंदी')).toBe('हिंदी');
    expect(foldText('Привет мир')).toBe('Привет мир');
  });
});
