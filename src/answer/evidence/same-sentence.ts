/**
 * Whether two quotes are the same sentence of a document: overlapping chunks hold the same sentence,
 * and a chunk may start mid-sentence, so equal words or one quote inside the other both count.
 * Shared by the extractive generator (never quote a sentence twice) and the citation builder
 * (never cite it twice).
 */

/** A quote's words only (case, spacing, punctuation and a shortening "…" aside), to compare quotes by. */
export function quoteKey(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Below this many letters and digits, a quote inside another is a coincidence, not the same sentence. */
const MIN_CONTAINED_QUOTE = 20;

export function isSameSentence(left: string, right: string): boolean {
  const [shorter, longer] = [quoteKey(left), quoteKey(right)].sort((a, b) => a.length - b.length) as [string, string];
  if (shorter === longer) return true;
  return shorter.length >= MIN_CONTAINED_QUOTE && longer.includes(shorter);
}
