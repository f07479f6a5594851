/**
 * `values` scaled to unit length, as 32-bit floats (the precision embeddings carry); a zero
 * vector stays zero, so its cosine with anything is 0.
 */
export function normalizeVector(values: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let index = 0; index < values.length; index++) sum += values[index]! * values[index]!;
  const length = Math.sqrt(sum);
  const unit = new Float32Array(values.length);
  if (length === 0 || !Number.isFinite(length)) return unit;
  for (let index = 0; index < values.length; index++) unit[index] = values[index]! / length;
  return unit;
}

/**
 * The dot product of `a` and `b[offset..offset + a.length)` (the cosine when both are unit
 * vectors), summed in 64-bit floats in index order.
 */
export function dotProduct(a: ArrayLike<number>, b: ArrayLike<number>, offset = 0): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[offset + index]!;
  return sum;
}
