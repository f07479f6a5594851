import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SEMANTIC_WEIGHT,
  fuseScores,
  semanticScore,
} from '../../src/select/fuse-scores.js';
import { combineTurnVectors } from '../../src/select/select-semantic.js';

describe('semanticScore', () => {
  it('is the squared share of the way from the floor to 1', () => {
    expect(semanticScore(0.6, 0.2)).toBeCloseTo(0.25, 12);
    expect(semanticScore(1, 0.2)).toBe(1);
    expect(semanticScore(0.5, 0)).toBe(0.25);
  });

  it('is 0 at or below the floor, and for a floor of 1', () => {
    expect(semanticScore(0.2, 0.2)).toBe(0);
    expect(semanticScore(-0.5, 0.2)).toBe(0);
    expect(semanticScore(1, 1)).toBe(0);
  });
});

describe('fuseScores', () => {
  it('combines the evidence as 1 − (1 − lexical)(1 − weight × semantic)', () => {
    expect(fuseScores(0.5, 0.5, 0.4)).toBeCloseTo(0.6, 12);
    expect(fuseScores(0, 1, 0.3)).toBeCloseTo(0.3, 12);
    expect(fuseScores(0.7, 0, 0.3)).toBeCloseTo(0.7, 12);
  });

  it('stays within 0-1, never below the lexical score', () => {
    expect(fuseScores(1.4, 1, 1)).toBe(1);
    expect(fuseScores(-1, 0, 0.5)).toBe(0);
    for (const lexical of [0, 0.01, 0.3, 0.99]) {
      for (const semantic of [0, 0.5, 1]) {
        const fused = fuseScores(lexical, semantic, DEFAULT_SEMANTIC_WEIGHT);
        expect(fused).toBeGreaterThanOrEqual(lexical);
        expect(fused).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('combineTurnVectors', () => {
  it('adds the mean of the history vectors at historyWeight to the message vector', () => {
    const combined = combineTurnVectors(
      [2, 0],
      [
        [0, 5],
        [0, 1],
        [0, 0],
      ],
      0.5,
    );
    // unit message (1, 0) + 0.5 × mean of unit history ((0, 1), (0, 1)); the zero one is skipped
    expect(combined[0]).toBeCloseTo(1 / Math.hypot(1, 0.5), 6);
    expect(combined[1]).toBeCloseTo(0.5 / Math.hypot(1, 0.5), 6);
  });

  it('is the history alone when the message has no vector', () => {
    expect([...combineTurnVectors([0, 0], [[3, 4]], 0.5)]).toEqual([
      Math.fround(0.6),
      Math.fround(0.8),
    ]);
  });
});
