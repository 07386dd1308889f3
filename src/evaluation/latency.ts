/**
 * Latency summaries for evaluation and benchmarks: percentiles of measured durations in milliseconds.
 */

/**
 * The p-th percentile (0–100) by linear interpolation between the closest ranks (numpy's default), so
 * p50 of an even-sized sample is the mean of its two middle values. NaN for an empty sample.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be between 0 and 100, got ${p}`);
  const sorted = [...samples].sort((left, right) => left - right);
  const position = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const lowerValue = sorted[lower] ?? Number.NaN;
  const upperValue = sorted[upper] ?? Number.NaN;
  return lowerValue + (upperValue - lowerValue) * (position - lower);
}

export type LatencySummary = { p50: number; p95: number };

/** p50 and p95 rounded to 0.01 ms, the shape `folio eval retrieval` reports. */
export function summarizeLatency(samplesMs: readonly number[]): LatencySummary {
  const round = (value: number) => Math.round(value * 100) / 100;
  return { p50: round(percentile(samplesMs, 50)), p95: round(percentile(samplesMs, 95)) };
}
