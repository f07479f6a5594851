import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../src/format/limits.js';
import { validateGroupDocument } from '../../src/load/validate-group-file.js';
import { findStopwordOfTerm } from '../../src/text/stopword-terms.js';
import { ENGLISH_STOPWORDS } from '../../src/text/stopwords.js';
import { group, keywordGroup, registryOf, selectedGroups, tool } from '../select/fixtures.js';

describe('findStopwordOfTerm', () => {
  it('names the common word a term comes from, preferring the word spelled like the term', () => {
    expect(findStopwordOfTerm('up')).toBe('up');
    expect(findStopwordOfTerm('help')).toBe('help');
    expect(findStopwordOfTerm('interest')).toBe('interested');
    expect(findStopwordOfTerm('shipment')).toBeUndefined();
    expect(findStopwordOfTerm('share')).toBeUndefined();
  });
});

describe('keywords that stem to a common word', () => {
  it('"ups" fires on every "up"; "ups tracking" only on the phrase', () => {
    const registry = registryOf([
      keywordGroup('carrier', ['ups']),
      keywordGroup('tracking', ['ups tracking']),
    ]);
    // why validate reports "ups": its stem is "up"
    expect(selectedGroups(registry, 'set up a meeting')).toEqual(['carrier']);
    expect(selectedGroups(registry, 'can you follow up with Dana')).toEqual(['carrier']);
    expect(selectedGroups(registry, 'sign-up form')).toEqual(['carrier']);
    expect(selectedGroups(registry, 'where is my UPS tracking number')).toEqual([
      'carrier',
      'tracking',
    ]);
    expect(selectedGroups(registry, 'tracking the ups parcel')).toEqual(['carrier']);
  });
});

describe('content words are not stopwords', () => {
  it('"share" names a tool action: search finds it, and it is a fine keyword', () => {
    const registry = registryOf([
      group('files', { strategy: 'keyword', keywords: ['share'] }, [
        tool('share_file', { description: 'Share a file or folder' }),
      ]),
      group('notes', { strategy: 'always' }, [tool('write_note', { description: 'Write a note' })]),
    ]);
    expect(registry.search('share').map((result) => result.tool.name)).toEqual(['share_file']);
    expect(selectedGroups(registry, 'share the report with Dana')).toEqual(['files', 'notes']);
    const problems = validateGroupDocument(
      group('files', { strategy: 'keyword', keywords: ['share'] }, [tool('share_file')]),
      { limits: DEFAULT_LOAD_LIMITS },
    ).problems;
    expect(problems).toEqual([]);
    expect(ENGLISH_STOPWORDS.has('share')).toBe(false);
  });
});
