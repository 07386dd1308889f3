/**
 * Finds a PDF page's footnotes and the marks that point to them, so the parser can set the notes
 * apart from the body text (a note printed at the foot of a page otherwise lands in the middle of the
 * sentence that runs on to the next page) and take the marks out of the words they are glued to
 * ("capability¹" is read "capability1"). A footnote starts with a mark (a superscript, or a number
 * or symbol before its text), is set smaller than the body, has no body text below it in its column,
 * and is pointed to by the same mark set as a superscript in the page's body; the lines after it in
 * the same small type, down the page, belong to it.
 */
import type { PdfLine } from "./pdf-lines.js";

/** Type at most this share of the body's size is note-sized. */
const noteSizeShare = 0.88;
/** Pages with more lines than this are not searched for notes. */
const maximumLines = 4000;
const MARK = /^(?:\d{1,3}|[*†‡§¶]{1,3})$/u;
const LEADING_MARK = /^\s*(\d{1,3}|[*†‡§¶]{1,3})\s+(?=\S)/u;

export type Footnote = {
  /** The mark the note carries ("1", "*"). */
  mark: string;
  /** Indices of the note's lines, in reading order; the first is where the note starts. */
  lines: number[];
  /** Characters of the first line that are the mark (and the space after it). */
  markEnd: number;
};

export type PageFootnotes = {
  notes: Footnote[];
  /** Per body line index, the characters of its text that are marks of these notes (in order). */
  references: Map<number, Range[]>;
};

const isBlank = (line: PdfLine) => line.text.trim().length === 0;

function extent(line: PdfLine): { x0: number; x1: number } {
  const x0 = Math.min(...line.fragments.map((fragment) => fragment.x0));
  const x1 = Math.max(...line.fragments.map((fragment) => fragment.x1));
  return { x0, x1 };
}

/** The mark a line starts with and how many characters it takes, or null. */
function leadingMark(line: PdfLine): { mark: string; end: number } | null {
  const first = line.fragments.find((fragment) => line.text.slice(fragment.start, fragment.end).trim().length > 0);
  if (first?.superscript === true) {
    const mark = line.text.slice(first.start, first.end).trim();
    if (!MARK.test(mark)) return null;
    const end = first.end + (line.text.slice(first.end).length - line.text.slice(first.end).trimStart().length);
    return { mark, end };
  }
  const match = LEADING_MARK.exec(line.text);
  return match ? { mark: match[1] as string, end: match[0].length } : null;
}

type Range = { start: number; end: number };
type MarkAt = { mark: string; range: Range };

/**
 * The superscript marks in the lines' text right after a word or punctuation (a space between is
 * allowed: pdf.js may put one there), each with the characters to take out so that no double space
 * is left ("Reports ¹ from" → "Reports from", "alert,⁵ and" → "alert, and").
 */
function superscriptMarks(lines: readonly PdfLine[], excluded: ReadonlySet<number>): Map<number, MarkAt[]> {
  const marks = new Map<number, MarkAt[]>();
  lines.forEach((line, lineIndex) => {
    if (excluded.has(lineIndex)) return;
    for (const fragment of line.fragments) {
      if (fragment.superscript !== true) continue;
      const raw = line.text.slice(fragment.start, fragment.end);
      const mark = raw.trim();
      if (!MARK.test(mark)) continue;
      const start = fragment.start + raw.indexOf(mark);
      const end = start + mark.length;
      if (!/[\p{L}\p{N}.,;:)\]”’"'%] ?$/u.test(line.text.slice(0, start))) continue;
      const spaceBefore = line.text.charAt(start - 1) === " ";
      const spaceAfter = end === line.text.length || line.text.charAt(end) === " ";
      const range = spaceBefore && spaceAfter ? { start: start - 1, end } : { start, end };
      const lineMarks = marks.get(lineIndex) ?? [];
      lineMarks.push({ mark, range });
      marks.set(lineIndex, lineMarks);
    }
  });
  return marks;
}

/**
 * The footnotes of a page and the marks in its body that point to them. `bodySize` is the type size
 * of the document's body text; `excluded` lines (page furniture) are neither body nor notes.
 */
export function findFootnotes(
  lines: readonly PdfLine[],
  bodySize: number,
  excluded: ReadonlySet<number>,
): PageFootnotes {
  // A page of thousands of lines is a data dump, not prose with notes; comparing its lines pairwise would cost too much.
  if (lines.length > maximumLines) return { notes: [], references: new Map() };
  const isNoteSized = (line: PdfLine) => (line.size ?? line.height) <= bodySize * noteSizeShare;
  const bodyLines = lines
    .filter((line, index) => !excluded.has(index) && !isBlank(line) && line.rotated !== true && !isNoteSized(line))
    .map((line) => ({ y: line.y, ...extent(line) }));
  /** Nothing of the body lies lower on the page in the columns this line spans. */
  const isBelowBody = (line: PdfLine) => {
    const { x0, x1 } = extent(line);
    return !bodyLines.some((body) => body.y < line.y - 1 && body.x0 < x1 && body.x1 > x0);
  };
  const isNoteLine = (line: PdfLine, index: number) =>
    !excluded.has(index) && !isBlank(line) && line.rotated !== true && isNoteSized(line) && isBelowBody(line);

  const marks = superscriptMarks(lines, excluded);
  const notes: Footnote[] = [];
  let current: Footnote | null = null;
  lines.forEach((line, index) => {
    if (isBlank(line) && current !== null) return;
    if (!isNoteLine(line, index)) {
      current = null;
      return;
    }
    const start = leadingMark(line);
    if (start !== null) {
      current = { mark: start.mark, lines: [index], markEnd: start.end };
      notes.push(current);
    } else if (current !== null && line.y <= (lines[current.lines.at(-1) as number] as PdfLine).y + 1) {
      current.lines.push(index);
    } else {
      current = null;
    }
  });

  // A note counts only where the body points to it: a small-type list or table at the foot of a page
  // that happens to start with numbers is no footnote.
  const noteLines = new Set(notes.flatMap((note) => note.lines));
  const pointedTo = new Set<string>();
  for (const [lineIndex, lineMarks] of marks) {
    if (noteLines.has(lineIndex)) continue;
    for (const { mark } of lineMarks) pointedTo.add(mark);
  }
  const kept = notes.filter((note) => pointedTo.has(note.mark));
  const keptMarks = new Set(kept.map((note) => note.mark));
  const keptLines = new Set(kept.flatMap((note) => note.lines));
  const references = new Map<number, Range[]>();
  for (const [lineIndex, lineMarks] of marks) {
    if (keptLines.has(lineIndex)) continue;
    const ranges = lineMarks.filter(({ mark }) => keptMarks.has(mark)).map(({ range }) => range);
    if (ranges.length > 0) references.set(lineIndex, ranges);
  }
  return { notes: kept, references };
}

/**
 * A copy of a line without the given character ranges of its text (sorted, not overlapping);
 * fragments are shortened or dropped to match, so columns stay where they were.
 */
export function cutLine(line: PdfLine, ranges: ReadonlyArray<{ start: number; end: number }>): PdfLine {
  if (ranges.length === 0) return line;
  const removedBefore = (position: number) =>
    ranges.reduce((sum, range) => sum + Math.max(0, Math.min(range.end, position) - range.start), 0);
  let text = "";
  let cursor = 0;
  for (const range of ranges) {
    text += line.text.slice(cursor, range.start);
    cursor = range.end;
  }
  text += line.text.slice(cursor);
  const fragments = line.fragments
    .map((fragment) => ({
      ...fragment,
      start: fragment.start - removedBefore(fragment.start),
      end: fragment.end - removedBefore(fragment.end),
    }))
    .filter((fragment) => fragment.end > fragment.start);
  return { ...line, text, fragments };
}
