import { describe, expect, it } from 'vitest';
import { isValidToolName } from '../../../src/format/names.js';
import { toCanonicalToolName } from '../../../src/providers/import/to-canonical-tool-name.js';

describe('toCanonicalToolName', () => {
  it.each([
    ['get_user', 'get_user'],
    ['get-user', 'get_user'],
    ['math.factorial', 'math_factorial'],
    ['github/create issue', 'github_create_issue'],
    ['server__tool', 'server__tool'],
    ['a..b', 'a_b'],
    ['3d-render', '_3d_render'],
    ['tool-', 'tool'],
    ['café.créer', 'cafe_creer'],
  ])('%j → %j', (name, expected) => {
    expect(toCanonicalToolName(name)).toBe(expected);
    expect(isValidToolName(toCanonicalToolName(name))).toBe(true);
  });

  it.each([
    ['日本語ツール', 'tool_ef0ccef7'],
    ['天気', 'tool_4ad35069'],
    ['получить_погоду', 'tool_b064bc8d'],
    ['搜索', 'tool_0b6efa3b'],
    ['---', 'tool_c4e4dc86'],
    ['-', 'tool_280c9438'],
    ['', 'tool_811c9dc5'],
  ])('%j, with no Latin letter or digit, → "tool_" + the FNV-1a hash of the name: %j', (name, expected) => {
    expect(toCanonicalToolName(name)).toBe(expected);
    expect(isValidToolName(expected)).toBe(true);
  });

  it('keeps names with no Latin letter or digit distinct from each other', () => {
    const names = ['日本語ツール', '天気', 'получить_погоду', '---', '搜索', '検索'];
    expect(new Set(names.map(toCanonicalToolName)).size).toBe(names.length);
  });

  it('shortens long names to 64 characters with a hash that keeps distinct names distinct', () => {
    const long = 'a-'.repeat(50);
    const converted = toCanonicalToolName(long);
    expect(converted).toHaveLength(64);
    // pinned: names imported before must keep their converted form
    expect(converted).toBe('a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_2ce21e61');
    expect(toCanonicalToolName(`${long}b`)).not.toBe(converted);
    expect(toCanonicalToolName(long)).toBe(converted);
  });
});
