import { describe, expect, it } from 'vitest';
import { deletionVariants, isWithinOneEdit } from '../../src/text/typo-distance.js';
import { isTypoCandidate, TypoIndex } from '../../src/text/typo-index.js';

describe('isWithinOneEdit (Damerau-Levenshtein ≤ 1)', () => {
  it.each([
    ['schedule', 'schedule', true],
    ['schedule', 'shedule', true],
    ['schedule', 'schedulle', true],
    ['schedule', 'schedyle', true],
    ['schedule', 'shcedule', true],
    ['schedule', 'schedlue', true],
    ['schedule', 'shedulle', false],
    ['schedule', 'sch', false],
    ['abcd', 'badc', false],
    ['meeting', 'meetign', true],
    ['', 'a', true],
  ])('%s ~ %s → %s', (a, b, expected) => {
    expect(isWithinOneEdit(a, b)).toBe(expected);
    expect(isWithinOneEdit(b, a)).toBe(expected);
  });

  it('lists one-character deletions', () => {
    expect(deletionVariants('abc')).toEqual(['bc', 'ac', 'ab']);
  });
});

describe('TypoIndex', () => {
  it('finds words one edit away, never the word itself', () => {
    const index = new TypoIndex<number>();
    index.add('schedule', 1);
    index.add('meeting', 2);
    index.add('schedule', 1);
    expect(index.lookup('shedule')).toEqual([{ word: 'schedule', value: 1 }]);
    expect(index.lookup('schedlue')).toEqual([{ word: 'schedule', value: 1 }]);
    expect(index.lookup('meetign')).toEqual([{ word: 'meeting', value: 2 }]);
    expect(index.lookup('schedule')).toEqual([]);
    expect(index.lookup('shedulle')).toEqual([]);
  });

  it('applies only to plain words of five letters or more', () => {
    expect(isTypoCandidate('tasks')).toBe(true);
    expect(isTypoCandidate('task')).toBe(false);
    expect(isTypoCandidate('c++++')).toBe(false);
    const index = new TypoIndex<number>();
    index.add('task', 1);
    index.add('tasks', 2);
    expect(index.lookup('tsak')).toEqual([]);
    expect(index.lookup('taskz')).toEqual([{ word: 'tasks', value: 2 }]);
  });
});
