import { describe, expect, it } from 'vitest';
import { GrowableFloat64Array, GrowableInt32Array } from '../../src/util/growable-array.js';

describe('growable typed arrays', () => {
  it('keep every pushed value in order across several doublings', () => {
    const values = new GrowableInt32Array(2);
    for (let value = 0; value < 100; value++) values.push(value * 3 - 50);
    expect(values.length).toBe(100);
    expect(values.at(0)).toBe(-50);
    expect(values.at(99)).toBe(247);
    expect(Array.from(values.view())).toEqual(Array.from({ length: 100 }, (_, i) => i * 3 - 50));
    const trimmed = values.trimmed();
    expect(trimmed).toBeInstanceOf(Int32Array);
    expect(trimmed.length).toBe(100);
    expect(trimmed[57]).toBe(121);
  });

  it('return exactly the pushed items, whether or not the buffer is full', () => {
    const full = new GrowableFloat64Array(4);
    for (const value of [0.5, 1.5, 2.5, 3.5]) full.push(value);
    expect(Array.from(full.trimmed())).toEqual([0.5, 1.5, 2.5, 3.5]);
    const partial = new GrowableFloat64Array(4);
    partial.push(0.25);
    expect(Array.from(partial.trimmed())).toEqual([0.25]);
    expect(partial.view().length).toBe(1);
    expect(new GrowableInt32Array(0).trimmed().length).toBe(0);
  });
});
