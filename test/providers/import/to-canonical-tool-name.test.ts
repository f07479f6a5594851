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
    ['-', 'tool'],
    ['', 'tool'],
    ['café.créer', 'cafe_creer'],
    ['搜索', 'tool'],
  ])('%j → %j', (name, expected) => {
    expect(toCanonicalToolName(name)).toBe(expected);
    expect(isValidToolName(toCanonicalToolName(name))).toBe(true);
  });

  it('shortens long names to 64 characters with a hash that keeps distinct names distinct', () => {
    const long = 'a-'.repeat(50);
    const converted = toCanonicalToolName(long);
    expect(converted).toHaveLength(64);
    expect(converted).toMatch(/^a_a_.*_[0-9a-f]{8}$/);
    expect(toCanonicalToolName(`${long}b`)).not.toBe(converted);
    expect(toCanonicalToolName(long)).toBe(converted);
  });
});
