/**
 * Turns the lines pdf.js gives for each page of a document into the page text Folio stores, indexes
 * and quotes: running headers, footers and page numbers left out (page-furniture.ts), words broken
 * across lines mended (hyphenation.ts), and footnotes moved after the body with their marks taken out
 * of the words they were glued to (footnotes.ts). Everything is decided on lines, before any text is
 * built, so the page text and the places of its lines and tables come out together and stay exact.
 */
import { cutLine, findFootnotes } from "./footnotes.js";
import { createLineMender } from "./hyphenation.js";
import { findPageFurniture } from "./page-furniture.js";
import { bodyFont, findPageHeadings, type PageHeading } from "./pdf-headings.js";
import { type LineJoin, layoutPageText, type PageLayout, type PdfLine } from "./pdf-lines.js";
import { findTables, type PdfTable } from "./pdf-tables.js";

/** One page as read: its lines, and the text of its filled-in form fields (empty when none). */
export type RawPdfPage = { lines: PdfLine[]; formText: string };

type Span = { start: number; end: number };

export type CleanPdfPage = {
  text: string;
  /** Where the body (the page's prose and tables, then its form values) is in `text`. */
  body: Span;
  /** Where the page's footnotes are in `text`, after the body or before it; null when it has none. */
  notes: Span | null;
  /** The tables found on the body's lines, and where each of those lines is in `text`. */
  tables: PdfTable[];
  lineSpans: PageLayout["lineSpans"];
  /** The section headings on the page's body lines, with where each starts in `text` (pdf-headings.ts). */
  headings: PageHeading[];
};

/** What the cleaning took out or changed, for measurement and logs. */
export type PdfCleanupCounts = {
  furnitureLines: number;
  footnotes: number;
  footnoteMarks: number;
  hyphensDropped: number;
  linesJoined: number;
  /** Pages whose notes went before their body, so a sentence running on to the next page stays whole. */
  notesBeforeBody: number;
};

/** Lines whose type sizes differ more than this ratio are not one paragraph (a heading above body). */
const maxJoinSizeRatio = 1.25;

/** Indices of the lines the tables cover. */
function tableLines(tables: readonly PdfTable[]): Set<number> {
  return new Set(
    tables.flatMap((table) =>
      Array.from({ length: table.lastLine - table.firstLine + 1 }, (_, offset) => table.firstLine + offset),
    ),
  );
}

/** The type size most of the document's characters are set in (its body text). */
function bodyTypeSize(pages: ReadonlyArray<readonly PdfLine[]>, furniture: ReadonlyArray<ReadonlySet<number>>): number {
  const characters = new Map<number, number>();
  pages.forEach((lines, page) => {
    lines.forEach((line, index) => {
      if (furniture[page]?.has(index) || line.size === undefined) return;
      const size = Math.round(line.size * 2) / 2;
      characters.set(size, (characters.get(size) ?? 0) + line.text.replace(/\s+/g, "").length);
    });
  });
  let best = 0;
  let most = -1;
  for (const [size, count] of characters) {
    if (count > most) {
      best = size;
      most = count;
    }
  }
  return best;
}

function sizeOf(line: PdfLine): number {
  return line.size ?? line.height;
}

/** Which lines run on into the next one, over a document's vocabulary; lines in `fixed` never do. */
function lineJoins(
  lines: readonly PdfLine[],
  mend: (left: string, right: string) => LineJoin | null,
  fixed: ReadonlySet<number>,
  counts: PdfCleanupCounts,
): Map<number, LineJoin> {
  const joins = new Map<number, LineJoin>();
  for (let index = 0; index + 1 < lines.length; index += 1) {
    const line = lines[index] as PdfLine;
    const next = lines[index + 1] as PdfLine;
    if (fixed.has(index) || fixed.has(index + 1) || line.rotated || next.rotated) continue;
    const left = line.text.trimEnd();
    const right = next.text.trimStart();
    if (left.length === 0 || right.length === 0) continue;
    const ratio = Math.max(sizeOf(line), sizeOf(next)) / Math.max(Math.min(sizeOf(line), sizeOf(next)), 0.1);
    if (ratio > maxJoinSizeRatio) continue;
    const join = mend(left, right);
    if (join === null) continue;
    joins.set(index, join);
    counts.linesJoined += 1;
    if (join === "drop-hyphen") counts.hyphensDropped += 1;
  }
  return joins;
}

/** A page's lines split into body (marks cut out) and notes (each note's mark cut, a blank line before it). */
function separateNotes(
  lines: readonly PdfLine[],
  bodySize: number,
  furniture: ReadonlySet<number>,
  counts: PdfCleanupCounts,
): { body: PdfLine[]; notes: PdfLine[] } {
  const { notes, references } = findFootnotes(lines, bodySize, furniture);
  const noteLines = new Set(notes.flatMap((note) => note.lines));
  const body: PdfLine[] = [];
  lines.forEach((line, index) => {
    if (furniture.has(index) || noteLines.has(index)) return;
    const marks = references.get(index) ?? [];
    counts.footnoteMarks += marks.length;
    body.push(cutLine(line, marks));
  });
  const blank: PdfLine = { text: "", fragments: [], y: 0, height: 0 };
  const noteText: PdfLine[] = notes.flatMap((note) =>
    note.lines.map((index, position) => {
      const line = lines[index] as PdfLine;
      return position === 0 ? cutLine(line, [{ start: 0, end: note.markEnd }]) : line;
    }),
  );
  // Each note its own paragraph, so none runs into the next.
  const spaced: PdfLine[] = [];
  let cursor = 0;
  for (const note of notes) {
    if (spaced.length > 0) spaced.push(blank);
    spaced.push(...noteText.slice(cursor, cursor + note.lines.length));
    cursor += note.lines.length;
  }
  counts.footnotes += notes.length;
  return { body, notes: spaced };
}

/**
 * The clean text of every page of a document (in order), with the tables found on each and the place
 * of their lines, and counts of what was cleaned.
 */
export function cleanPdfPages(pages: readonly RawPdfPage[]): { pages: CleanPdfPage[]; counts: PdfCleanupCounts } {
  const counts: PdfCleanupCounts = {
    furnitureLines: 0,
    footnotes: 0,
    footnoteMarks: 0,
    hyphensDropped: 0,
    linesJoined: 0,
    notesBeforeBody: 0,
  };
  const lineSets = pages.map((page) => page.lines);
  const furniture = findPageFurniture(
    lineSets,
    lineSets.map((lines) => tableLines(findTables(lines))),
  );
  counts.furnitureLines = furniture.reduce((sum, lines) => sum + lines.size, 0);
  const bodySize = bodyTypeSize(lineSets, furniture);
  const separated = pages.map((page, index) =>
    separateNotes(page.lines, bodySize, furniture[index] ?? new Set(), counts),
  );
  const mend = createLineMender(separated.map(({ body, notes }) => [...body, ...notes].map((line) => line.text)));
  const texts = separated.map(({ body, notes }, index) => {
    const tables = findTables(body);
    const layout = layoutPageText(body, lineJoins(body, mend, tableLines(tables), counts));
    const formText = pages[index]?.formText ?? "";
    const bodyText = [layout.text, formText].filter((text) => text.length > 0).join("\n\n");
    const notesText = layoutPageText(notes, lineJoins(notes, mend, new Set(), counts)).text;
    return { body, tables, layout, bodyText, notesText };
  });
  const tableLineSets = texts.map(({ tables }) => tableLines(tables));
  const style = {
    font: bodyFont(texts.map(({ body }, index) => ({ lines: body, tableLines: tableLineSets[index] ?? new Set() }))),
    size: bodySize,
  };
  // A page's notes go after its body, unless the body runs on into the next page mid-sentence: then
  // they go before it, so the sentence stays whole across the break (unless the body before also runs
  // on into this one; a break can only be kept whole on one side of a page's notes).
  const runsOn = (index: number) =>
    (texts[index + 1]?.bodyText.length ?? 0) > 0 && /[\p{L}\p{N},\-\u2010]$/u.test(texts[index]?.bodyText ?? "");
  const cleaned = texts.map(({ body, tables, layout, bodyText, notesText }, index): CleanPdfPage => {
    const headings = findPageHeadings(body, layout, tableLineSets[index] ?? new Set(), style);
    if (notesText.length === 0) {
      return {
        text: bodyText,
        body: { start: 0, end: bodyText.length },
        notes: null,
        tables,
        lineSpans: layout.lineSpans,
        headings,
      };
    }
    if (bodyText.length === 0) {
      return {
        text: notesText,
        body: { start: 0, end: 0 },
        notes: { start: 0, end: notesText.length },
        tables,
        lineSpans: layout.lineSpans,
        headings,
      };
    }
    if (!runsOn(index) || (index > 0 && runsOn(index - 1))) {
      const notesStart = bodyText.length + 2;
      return {
        text: `${bodyText}\n\n${notesText}`,
        body: { start: 0, end: bodyText.length },
        notes: { start: notesStart, end: notesStart + notesText.length },
        tables,
        lineSpans: layout.lineSpans,
        headings,
      };
    }
    const bodyStart = notesText.length + 2;
    counts.notesBeforeBody += 1;
    return {
      text: `${notesText}\n\n${bodyText}`,
      body: { start: bodyStart, end: bodyStart + bodyText.length },
      notes: { start: 0, end: notesText.length },
      tables,
      lineSpans: layout.lineSpans.map((span) =>
        span === null ? null : { start: span.start + bodyStart, end: span.end + bodyStart },
      ),
      headings: headings.map((heading) => ({ ...heading, start: heading.start + bodyStart })),
    };
  });
  return { pages: cleaned, counts };
}
