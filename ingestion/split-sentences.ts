/**
 * Sentence boundaries as offsets: after ".", "!" or "?" (optionally followed by closing quotes or
 * brackets) and whitespace, when the next character can start a sentence, and at a blank line before
 * anything but a lower-case letter (a heading, a list item or a footnote ends there even without a
 * full stop; a blank line pdf.js leaves inside a sentence, "the top\n\nk passages", does not end it).
 * Common abbreviations ("e.g.", "Dr.", "No."), decimals and section numbers ("2.", "1.3.") do not
 * end a sentence. Offsets let callers keep exact provenance.
 */
const BOUNDARY = /[.!?]["'”’)\]]*\s+(?=["'“‘([]?[\p{Lu}\p{N}])|\n[ \t]*\n(?=\s*[^\p{Ll}\s])/gu;
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

const OUTLINE_NUMBER = /^(?:\d{1,3}(?:\.\d{1,3})*|[A-Z]|[ivx]{1,4})$/u;

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
    if (match[0].startsWith("\n")) {
      push(start, match.index);
      start = match.index;
      continue;
    }
    const before = text.slice(Math.max(start, match.index - 8), match.index);
    const lastWord = (before.split(/\s/).pop() ?? "").toLowerCase();
    if (text[match.index] === "." && ABBREVIATIONS.has(lastWord)) continue;
    // A section or list number ("2.", "1.3.", "A.") heads its sentence; it does not end one.
    if (text[match.index] === "." && OUTLINE_NUMBER.test(text.slice(start, match.index).trim())) continue;
    const endOfSentence = match.index + match[0].trimEnd().length;
    push(start, endOfSentence);
    start = endOfSentence;
  }
  push(start, text.length);
  return ranges;
}
