import { describe, expect, it } from 'vitest';
import { planPropertyRenames } from '../../src/json-schema/plan-property-renames.js';
import { ANTHROPIC_PROPERTY_NAMES } from '../../src/providers/anthropic-prepare-tools.js';

const plan = (names: string[]) =>
  Object.fromEntries(planPropertyRenames(names, ANTHROPIC_PROPERTY_NAMES));

describe('planPropertyRenames', () => {
  it('renames only the keys the rule rejects, as tool names are converted', () => {
    expect(
      plan([
        'filter[id]',
        'Account Number',
        '$top',
        '@odata.type',
        'café',
        'x-trace.id',
        'query',
        '2fa',
      ]),
    ).toEqual({
      'filter[id]': 'filter_id',
      'Account Number': 'Account_Number',
      $top: 'top',
      '@odata.type': 'odata_type',
      café: 'cafe',
    });
  });

  it('suffixes a new name another key has, or an earlier new name, with _2, _3, ...', () => {
    expect(plan(['filter_id', 'filter[id]', 'filter(id)', 'filter_id_2', 'filter id'])).toEqual({
      'filter[id]': 'filter_id_3',
      'filter(id)': 'filter_id_4',
      'filter id': 'filter_id_5',
    });
  });

  it('cuts a key over 64 characters to 64 with a hash of the whole key', () => {
    const first = `${'account_'.repeat(10)}one`;
    const second = `${'account_'.repeat(10)}two`;
    const renames = plan([first, second]);
    expect(renames[first]).toMatch(/^(account_){6}account_[0-9a-f]{8}$/);
    expect(renames[first]).toHaveLength(64);
    // the hash keeps keys with the same first 55 characters apart
    expect(renames[second]).not.toBe(renames[first]);
    expect(renames[second]!.slice(0, 54)).toBe(renames[first]!.slice(0, 54));
  });

  it('names a key with nothing usable left param_ plus its hash', () => {
    const renames = plan(['日本', '東京', '!!!']);
    expect(renames.日本).toMatch(/^param_[0-9a-f]{8}$/);
    expect(new Set(Object.values(renames)).size).toBe(3);
  });

  it('keeps a suffixed long name within 64 characters', () => {
    const long = 'b'.repeat(70);
    const taken = plan([long]);
    const renames = plan([taken[long]!, long]);
    expect(renames[long]).toBe(`${taken[long]!.slice(0, 62)}_2`);
    expect(renames[long]).toMatch(ANTHROPIC_PROPERTY_NAMES.pattern);
  });

  it('gives the same names on every run', () => {
    const names = ['$top', 'top', '$select', 'a'.repeat(90), '日本', 'filter[id]'];
    expect(plan(names)).toEqual(plan([...names]));
    expect(plan(names)).toEqual({
      $top: 'top_2',
      $select: 'select',
      ['a'.repeat(90)]: `${'a'.repeat(55)}_afc0776f`,
      日本: 'param_5ffcbea4',
      'filter[id]': 'filter_id',
    });
  });
});
