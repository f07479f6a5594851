import { describe, expect, it } from 'vitest';
import { diffResolvedSchemas } from '../../src/migrate/diff-resolved-schemas.js';

const options = {
  oldPointer: '/old',
  newPointer: '/new',
  rootLabel: 'input_schema',
  noun: 'parameter',
};
const summarize = (before: unknown, after: unknown) =>
  diffResolvedSchemas(before, after, options).map((change) => [change.kind, change.pointer]);

describe('diffResolvedSchemas', () => {
  const inline = {
    type: 'object',
    properties: { day: { type: 'string', maxLength: 10, description: 'A day.' } },
  };
  const shared = {
    type: 'object',
    $defs: { Day: { type: 'string', maxLength: 10 } },
    properties: { day: { $ref: '#/$defs/Day', description: 'A day.' } },
  };

  it('treats an inline schema and a $ref to an equal one as the same', () => {
    expect(summarize(inline, shared)).toEqual([]);
    expect(summarize(shared, inline)).toEqual([]);
  });

  it('points at a keyword written beside the $ref, else at the $ref itself', () => {
    const after = structuredClone(shared);
    after.properties.day.description = 'The day.';
    after.$defs.Day.maxLength = 8;
    expect(summarize(inline, after)).toEqual([
      ['constraint_tightened', '/new/properties/day'],
      ['schema_description_changed', '/new/properties/day/description'],
    ]);
    // what exists only in OLD points into OLD, at its $ref
    const before = structuredClone(shared);
    (before.$defs.Day as Record<string, unknown>).enum = ['mon', 'tue'];
    const narrowed = structuredClone(inline);
    (narrowed.properties.day as Record<string, unknown>).enum = ['mon'];
    expect(summarize(before, narrowed)).toEqual([['enum_value_removed', '/old/properties/day']]);
  });

  it('compares schemas whose $ref cannot be resolved as written', () => {
    const broken = { type: 'object', properties: { day: { $ref: '#/$defs/Missing' } } };
    expect(summarize(broken, inline).map(([kind]) => kind)).toContain('schema_changed');
  });
});
