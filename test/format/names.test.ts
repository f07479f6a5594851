import { describe, expect, it } from 'vitest';
import { formatPointer, getAtPointer, parsePointer } from '../../src/format/json-pointer.js';
import {
  groupNameFromFileName,
  isValidExecutorName,
  isValidToolName,
  normalizeTags,
} from '../../src/format/names.js';

describe('tool, group and executor names', () => {
  it('accepts names valid for every provider and rejects the rest', () => {
    for (const name of ['file_read', '_private', 'A1', 'x'.repeat(64)])
      expect(isValidToolName(name)).toBe(true);
    for (const name of [
      'file-read',
      'file.read',
      '1tool',
      '',
      'x'.repeat(65),
      'has space',
      'emoji😀',
    ]) {
      expect(isValidToolName(name)).toBe(false);
    }
    expect(isValidExecutorName('project_docs')).toBe(true);
    for (const name of ['../x', 'Files', 'a/b', 'a.b', ''])
      expect(isValidExecutorName(name)).toBe(false);
    expect(groupNameFromFileName('project_docs_tools.json')).toBe('project_docs');
    expect(groupNameFromFileName('_tools.json')).toBeUndefined();
    expect(groupNameFromFileName('calendar.json')).toBeUndefined();
  });
});

describe('normalizeTags', () => {
  it('lowercases, trims, collapses whitespace to -, drops other characters, dedupes in order', () => {
    expect(
      normalizeTags(['  Web   Search ', 'web-search', 'C++ & Go', 'a_b.c-d', '!!!', 'Réunion']),
    ).toEqual(['web-search', 'c--go', 'a_b.c-d', 'reunion']);
  });

  it('caps tag length at 64 and the count at 20', () => {
    expect(normalizeTags(['x'.repeat(80)])).toEqual(['x'.repeat(64)]);
    expect(normalizeTags(Array.from({ length: 30 }, (_, index) => `tag${index}`))).toHaveLength(20);
  });
});

describe('JSON pointers', () => {
  it('formats, parses and resolves with escaping and own properties only', () => {
    expect(formatPointer(['tools', 2, 'a/b', 'c~d'])).toBe('/tools/2/a~1b/c~0d');
    expect(parsePointer('/tools/2/a~1b/c~0d')).toEqual(['tools', '2', 'a/b', 'c~d']);
    expect(parsePointer('')).toEqual([]);
    expect(() => parsePointer('tools')).toThrow(/must be empty or start with "\/"/);
    const document = { tools: [{ 'a/b': 1 }] };
    expect(getAtPointer(document, '/tools/0/a~1b')).toBe(1);
    expect(getAtPointer(document, '/tools/01')).toBeUndefined();
    expect(getAtPointer(document, '/tools/0/constructor')).toBeUndefined();
    expect(getAtPointer(document, '/tools/length')).toBeUndefined();
  });
});
