import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchema, patternInputLimit } from '../../src/json-schema/compile-schema.js';
import { findCatastrophicBacktracking } from '../../src/json-schema/find-catastrophic-backtracking.js';
import { assertProperty } from './fuzz-settings.js';

/** Generous: accepted patterns cost about 0.1 s at most; a miss costs minutes or forever. */
const MAX_VALIDATION_MS = 2_000;

const atom = fc.constantFrom('a', 'b', '\\d', '.', '[ab]', '\\s', '\\w', '[^b]', '-');
const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '*?');
const { pattern } = fc.letrec<{ pattern: string; term: string }>((tie) => ({
  term: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(atom, quantifier).map(([a, q]) => a + q),
    fc.tuple(tie('pattern'), quantifier).map(([inner, q]) => `(?:${inner})${q}`),
    fc
      .tuple(tie('pattern'), tie('pattern'), quantifier)
      .map(([left, right, q]) => `(?:${left}|${right})${q}`),
  ),
  pattern: fc.array(tie('term'), { minLength: 1, maxLength: 4 }).map((terms) => terms.join('')),
}));

const anchoredPattern = fc
  .tuple(pattern, fc.boolean(), fc.boolean())
  .map(([body, start, end]) => `${start ? '^' : ''}${body}${end ? '$' : ''}`);

describe('ReDoS fuzzing: accepted patterns validate quickly on hostile input', () => {
  it('random patterns the analysis accepts stay fast at their input limit', async () => {
    await assertProperty(
      'redos: accepted random patterns on hostile strings',
      fc.property(
        anchoredPattern,
        fc.constantFrom('a', '1', 'ab', ' ', 'a-', '1a'),
        fc.constantFrom('!', 'b', '', '\n'),
        (source, fill, tail) => {
          try {
            new RegExp(source, 'u');
          } catch {
            return;
          }
          if (findCatastrophicBacktracking(source) !== undefined) {
            expect(() => compileSchema({ type: 'string', pattern: source })).toThrow();
            return;
          }
          const validate = compileSchema({ type: 'string', pattern: source });
          const limit = patternInputLimit(source);
          const text = fill.repeat(Math.ceil(limit / fill.length)).slice(0, limit - tail.length);
          const started = performance.now();
          validate(text + tail);
          expect(performance.now() - started, source).toBeLessThan(MAX_VALIDATION_MS);
        },
      ),
      40,
    );
  });
});
