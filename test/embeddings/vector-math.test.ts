import { describe, expect, it } from 'vitest';
import { dotProduct, normalizeVector } from '../../src/embeddings/vector-math.js';

describe('vector math', () => {
  it('normalizes to unit length, as float32', () => {
    const unit = normalizeVector([3, 4]);
    expect(unit).toBeInstanceOf(Float32Array);
    expect([...unit]).toEqual([Math.fround(0.6), Math.fround(0.8)]);
  });

  it('leaves a zero vector zero, and returns a fresh array', () => {
    const input = new Float32Array([0, 0, 0]);
    const unit = normalizeVector(input);
    expect([...unit]).toEqual([0, 0, 0]);
    expect(unit).not.toBe(input);
  });

  it('takes the dot product with an offset into a packed table', () => {
    expect(dotProduct([1, 2], [9, 9, 3, 4], 2)).toBe(11);
    expect(dotProduct([1, 2], [3, 4])).toBe(11);
  });

  it('gives cosines of unit vectors', () => {
    const a = normalizeVector([1, 0]);
    const b = normalizeVector([1, 1]);
    expect(dotProduct(a, b)).toBeCloseTo(Math.SQRT1_2, 6);
  });
});
