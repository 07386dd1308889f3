/**
 * Sentence boundaries as offsets: after ".", "!" or "?" (optionally followed by closing quotes or
 * brackets) and whitespace, when the next character can start a sentence. Common abbreviations
 * ("e.g.", "Dr.", "No.") and decimals do not end a sentence. Offsets let callers keep exact provenance.
 */
const BOUNDARY = /[.!?]["'”’)\]]*\s+(?=["'“‘([]?[\p{Lu}\p{N}])/gu;
const ABBREVIATIONS = new Set([
  "e.g",
  "i.e",
  "etc",
  "vs",
  "dr",
  "mr",
  "mrs",
  "ms",
  "no",
  "fig",
  "approx",
  "inc",
  "ltd",
  "st",
  "p",
  "pp",
  "sec",
  "art",
]);

export type SentenceRange = { start: number; end: number };

export function splitSentences(text: string): SentenceRange[] {
  const ranges: SentenceRange[] = [];
  let start = 0;
  const push = (from: number, to: number) => {
    const slice = text.slice(from, to);
    const leading = slice.length - slice.trimStart().length;
    const trimmed = slice.trim();
    if (trimmed.length > 0) ranges.push({ start: from + leading, end: from + leading + trimmed.length });
  };
  for (const match of text.matchAll(BOUNDARY)) {
    const before = text.slice(Math.max(start, match.index - 8), match.index);
    const lastWord = (before.split(/\s/).pop() ?? "").toLowerCase();
    if (text[match.index] === "." && ABBREVIATIONS.has(lastWord)) continue;
    const endOfSentence = match.index + match[0].trimEnd().length;
    push(start, endOfSentence);
    start = endOfSentence;
  }
  push(start, text.length);
  return ranges;
}
