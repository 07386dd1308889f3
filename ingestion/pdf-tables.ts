/**
 * The tables of a PDF page: tables of figures set without rules (financial statements: columns
 * aligned by position, headers over them, pdf-statement-tables.ts) first, then tables of words whose
 * columns the gaps between them make evident (pdf-grid-tables.ts) among the lines left; each with the
 * title lines right above it. A detected table is returned with the lines it covers, so the parser can
 * take those lines out of the page's prose.
 */
import { findGridTables, lineCells } from "./pdf-grid-tables.js";
import type { PdfLine } from "./pdf-lines.js";
import { findStatementTables } from "./pdf-statement-tables.js";

export type PdfTable = {
  /** Index of the table's first and last line in the page's lines. */
  firstLine: number;
  lastLine: number;
  header: string[];
  rows: string[][];
  /** Left edge of each column, in PDF units. */
  columnStarts: number[];
  /**
   * Tables of figures: the label column's left edge, then each value column's right edge (figures are
   * set flush right, so these stay put from page to page where left edges move with the widest figure).
   */
  anchors?: number[];
  /** Title lines right above the table, top first (they stay in the prose as well). */
  caption: string[];
};

/** A table that ends a page, and one that starts the next, continue each other when their columns line up this closely (PDF units). */
const continuedColumnTolerance = 12;

/** Whether `next` (the first table on a page) goes on with `previous` (the last table on the page before). */
export function continuesTable(previous: PdfTable, next: PdfTable): boolean {
  const bothHaveAnchors = previous.anchors !== undefined && next.anchors !== undefined;
  const left = bothHaveAnchors ? (previous.anchors ?? []) : previous.columnStarts;
  const right = bothHaveAnchors ? (next.anchors ?? []) : next.columnStarts;
  return (
    left.length === right.length &&
    left.every(
      (position, index) => Math.abs(position - (right[index] ?? Number.POSITIVE_INFINITY)) <= continuedColumnTolerance,
    )
  );
}

/** Finds the tables of a page, in reading order. */
export function findTables(lines: readonly PdfLine[]): PdfTable[] {
  const statements: PdfTable[] = findStatementTables(lines).map((table) => ({
    firstLine: Math.min(...table.lines),
    lastLine: Math.max(...table.lines),
    header: table.header,
    rows: table.rows,
    columnStarts: table.columnStarts,
    anchors: table.anchors,
    caption: [],
  }));
  const covered = new Set(
    statements.flatMap((table) =>
      Array.from({ length: table.lastLine - table.firstLine + 1 }, (_, offset) => table.firstLine + offset),
    ),
  );
  const rest = lines.map((line, index) =>
    covered.has(index) ? { text: "", fragments: [], y: line.y, height: line.height } : line,
  );
  const tables = [...statements, ...findGridTables(rest)].sort((left, right) => left.firstLine - right.firstLine);
  tables.forEach((table, index) => {
    table.caption = captionAbove(lines, table.firstLine, tables[index - 1]?.lastLine ?? -1);
  });
  return tables;
}

/** A caption line is short and stands alone, at most this many glyph heights above the line below it. */
const maximumCaptionLength = 150;
const maximumCaptionGapInLines = 5;
const maximumCaptionLines = 2;

/**
 * A title, not a piece of a paragraph ("…from the incident.", "includes the following:", a line
 * starting in lower case), a page number or a link.
 */
function looksLikeTitle(text: string): boolean {
  if (/^(table|exhibit|figure)\b/i.test(text)) return true;
  if (/^\d+$/.test(text) || /:\/\//.test(text)) return false;
  return !/^\p{Ll}/u.test(text) && !/[.,;:]$/.test(text);
}

/**
 * The title lines right above a table ("2. JAL Group Total Domestic Pax Traffic"), top line first:
 * up to two short one-cell lines, each close to the line below it, none belonging to an earlier table.
 * They stay in the page's prose too; the table's chunks repeat them so its rows can be found by them.
 */
function captionAbove(lines: readonly PdfLine[], firstLine: number, previousTableEnd: number): string[] {
  const caption: string[] = [];
  let below = lines[firstLine];
  for (let index = firstLine - 1; index > previousTableEnd && caption.length < maximumCaptionLines; index--) {
    const line = lines[index];
    if (line === undefined || below === undefined) break;
    const cells = lineCells(line);
    if (cells.length === 0) continue;
    const gap = Math.abs(line.y - below.y);
    const text = cells[0]?.text ?? "";
    const isCaption =
      cells.length === 1 &&
      text.length <= maximumCaptionLength &&
      looksLikeTitle(text) &&
      gap <= Math.max(line.height, below.height, 1) * maximumCaptionGapInLines;
    if (!isCaption) break;
    caption.unshift(text);
    below = line;
  }
  return caption;
}
