import { describe, expect, it } from 'vitest';
import {
  annotationsBeyondCategory,
  categoryFromName,
  inferCategory,
} from '../../../src/providers/import/infer-category.js';

describe('categoryFromName', () => {
  it.each([
    ['get_user', 'retrieval'],
    ['listFiles', 'retrieval'],
    ['search_papers', 'analysis'],
    ['file_edit', 'mutation'],
    ['create-event', 'creation'],
    ['lol.champion.leaderboard', undefined],
  ])('%s → %s', (name, category) => {
    expect(categoryFromName(name)).toBe(category);
  });
});

describe('inferCategory', () => {
  it('prefers MCP hints, then the verb, then the fallback', () => {
    expect(inferCategory('search_docs', { readOnlyHint: true }, 'mutation')).toBe('analysis');
    expect(inferCategory('docs', { readOnlyHint: true }, 'mutation')).toBe('retrieval');
    expect(inferCategory('get_x', { destructiveHint: true }, 'retrieval')).toBe('mutation');
    expect(inferCategory('write_note', { destructiveHint: false }, 'retrieval')).toBe('creation');
    expect(inferCategory('complete_task', { destructiveHint: false }, 'retrieval')).toBe(
      'mutation',
    );
    expect(inferCategory('frobnicate', { destructiveHint: false }, 'retrieval')).toBe('creation');
    expect(inferCategory('frobnicate', undefined, 'analysis')).toBe('analysis');
    expect(inferCategory('delete_file', { openWorldHint: true }, 'analysis')).toBe('mutation');
  });
});

describe('annotationsBeyondCategory', () => {
  it('keeps only what the category does not imply', () => {
    expect(annotationsBeyondCategory({ readOnlyHint: true }, 'retrieval')).toBeUndefined();
    expect(
      annotationsBeyondCategory({ destructiveHint: true, idempotentHint: true }, 'mutation'),
    ).toEqual({ idempotentHint: true });
    expect(annotationsBeyondCategory({ destructiveHint: false }, 'mutation')).toEqual({
      destructiveHint: false,
    });
    expect(annotationsBeyondCategory(undefined, 'creation')).toBeUndefined();
  });
});
