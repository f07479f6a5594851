/** Timing helpers: every figure is a median (or percentile) of repeated measurements. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** A full garbage collection, so one measurement does not pay for the previous one's garbage. */
export const collectGarbage = runInNewContext('gc');

/** The `fraction` percentile (0-1) of `values`, nearest rank. */
export function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank];
}

/** The median of `values`. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Times `fn(input)` once per input, `rounds` times over `inputs`, and returns every duration
 * in milliseconds (for percentiles of per-call latency). Results are kept in a sink so the
 * work cannot be optimized away.
 */
export function timeEach(inputs, fn, rounds = 1) {
  const times = [];
  let sink = 0;
  for (let round = 0; round < rounds; round++) {
    for (const input of inputs) {
      const start = performance.now();
      const result = fn(input);
      times.push(performance.now() - start);
      sink += result === undefined ? 0 : 1;
    }
  }
  if (sink < 0) console.log(sink);
  return times;
}

/**
 * Per-call time of a fast operation: `fn()` run `batch` times per sample (one clock read per
 * batch), `samples` samples; returns the median per-call time in milliseconds.
 */
export function timeBatched(fn, { batch = 1000, samples = 15 } = {}) {
  const perCall = [];
  let sink = 0;
  for (let sample = 0; sample < samples; sample++) {
    const start = performance.now();
    for (let index = 0; index < batch; index++) if (fn() !== undefined) sink++;
    perCall.push((performance.now() - start) / batch);
  }
  if (sink < 0) console.log(sink);
  return median(perCall);
}

/** Times an async function `repeats` times after a collection each; returns the durations. */
export async function timeRepeated(fn, repeats) {
  const times = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    collectGarbage();
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

/** A duration in ms as a short human string (µs below 1 ms, s above 1,000 ms). */
export function formatDuration(ms) {
  if (ms === undefined || Number.isNaN(ms)) return '—';
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}
