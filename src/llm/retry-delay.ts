/**
 * How long to wait before trying an HTTP request again: the server's Retry-After when it sends one,
 * else exponential backoff with jitter so many clients that failed together do not retry together.
 */

/** Milliseconds from a Retry-After header (delay-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (1 for the first retry): base·2^(retry−1), capped, then drawn
 * uniformly from its upper half ("equal jitter"), so the wait still grows with every failure.
 */
export function backoffDelay(retry: number, options: { baseMs: number; maxMs: number; random?: () => number }): number {
  const random = options.random ?? Math.random;
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
