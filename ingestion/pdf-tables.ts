/**
 * Finds tables on a PDF page where the layout makes one evident: at least three consecutive lines
 * whose text falls into the same two or more columns, separated by gaps wider than a glyph. PDFs have
 * no table markup, so this is a heuristic, tuned to miss a table rather than to cut prose into cells:
 * two-column page layouts, justified text and lists with long lines are not tables. A detected table
 * is returned with the lines it covers, so the parser can take those lines out of the page's prose.
 */
import type { LineFragment, PdfLine } from "./pdf-lines.js";

/** A gap wider than this many glyph heights between two pieces of text on a line separates cells. */
const cellGapInGlyphs = 1.0;
/** A table needs at least three rows (a header, where it has one, counts). */
const minimumRows = 3;
const maximumColumns = 25;
/** Cells longer than this on average are prose in columns, not a table. */
const maximumMeanCellLength = 40;
/** Lines further apart than this many line heights end a table. */
const maximumRowGapInLines = 2.6;
/** Share of rows (wrapped cells joined) that must fill at least two columns. */
const minimumMultiCellShare = 0.75;

/**
 * What marks a list rather than a table's first column: a bullet glyph, an item number or letter
 * such as "3.", "(b)" or "iv)", a bare line number (code listings), or a citation key ("[Cop87]", "[12]").
 * A real table with a numbered column has a header ("#", "No.") that is none of these.
 */
const listMarker =
  /^(?:[•●○◦▪▫■□‣⁃∙·*o–—\-\uf0a7\uf0b7\uf0d8\uf0fc\uf076]|\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)]|\d{1,4}|\[[^\]\s]{1,16}\])$/i;

type Cell = { x0: number; x1: number; text: string; font: string };
type Row = { lineIndex: number; cells: Cell[] };

export type PdfTable = {
  /** Index of the table's first and last line in the page's lines. */
  firstLine: number;
  lastLine: number;
  header: string[];
  rows: string[][];
  /** Left edge of each column, in PDF units. */
  columnStarts: number[];
  /** Title lines right above the table, top first (they stay in the prose as well). */
  caption: string[];
};

/** A table that ends a page, and one that starts the next, continue each other when their columns line up this closely (PDF units). */
const continuedColumnTolerance = 12;

/** Whether `next` (the first table on a page) goes on with `previous` (the last table on the page before). */
export function continuesTable(previous: PdfTable, next: PdfTable): boolean {
  return (
    previous.columnStarts.length === next.columnStarts.length &&
    previous.columnStarts.every(
      (start, index) =>
        Math.abs(start - (next.columnStarts[index] ?? Number.POSITIVE_INFINITY)) <= continuedColumnTolerance,
    )
  );
}

const currencySymbol = /^[$€£¥]$/;

/** Splits a line into cells at gaps wider than a glyph. */
function lineCells(line: PdfLine): Cell[] {
  const cells: Cell[] = [];
  const gap = Math.max(line.height, 1) * cellGapInGlyphs;
  let current: LineFragment | null = null;
  let currency: Cell | null = null;
  const close = () => {
    if (current === null) return;
    const text = line.text.slice(current.start, current.end).replace(/\s+/g, " ").trim();
    if (text.length === 0) return;
    // Statements set "$" apart from its amount: the symbol belongs to the amount's cell, not a column of its own.
    if (currencySymbol.test(text)) {
      currency = { x0: current.x0, x1: current.x1, text, font: current.font };
      return;
    }
    if (currency !== null) {
      cells.push({ x0: currency.x0, x1: current.x1, text: `${currency.text} ${text}`, font: current.font });
      currency = null;
      return;
    }
    cells.push({ x0: current.x0, x1: current.x1, text, font: current.font });
  };
  for (const fragment of line.fragments) {
    if (line.text.slice(fragment.start, fragment.end).trim().length === 0) continue;
    if (current !== null && fragment.x0 - current.x1 <= gap && fragment.x0 >= current.x0) {
      current.x1 = Math.max(current.x1, fragment.x1);
      current.end = fragment.end;
      continue;
    }
    close();
    current = { ...fragment };
  }
  close();
  if (currency !== null) cells.push(currency);
  return cells;
}

/** Spans of cells, overlapping ones merged, left to right. */
function mergedSpans(cells: Cell[]): Array<{ x0: number; x1: number }> {
  const spans = cells.map((cell) => ({ x0: cell.x0, x1: cell.x1 })).sort((left, right) => left.x0 - right.x0);
  const columns: Array<{ x0: number; x1: number }> = [];
  for (const span of spans) {
    const last = columns.at(-1);
    if (last !== undefined && span.x0 <= last.x1) last.x1 = Math.max(last.x1, span.x1);
    else columns.push({ ...span });
  }
  return columns;
}

/** A header cell this close (PDF units) to a body column heads it, though centred over right-aligned numbers. */
const headerSnapDistance = 12;

/**
 * Column extents of a run of rows: the union of their cells' extents, overlapping ones merged. The
 * first row's cells that overlap no body column but sit right next to one (a year centred over
 * right-aligned amounts) widen that column instead of making a column of their own.
 */
function columnsOf(rows: Row[]): Array<{ x0: number; x1: number }> {
  const [first, ...body] = rows;
  const bodyColumns = mergedSpans(body.flatMap((row) => row.cells));
  const headerCells: Cell[] = [];
  for (const cell of first?.cells ?? []) {
    const overlaps = bodyColumns.some((column) => cell.x0 <= column.x1 && cell.x1 >= column.x0);
    const distance = (column: { x0: number; x1: number }) => Math.max(column.x0 - cell.x1, cell.x0 - column.x1);
    const nearest = [...bodyColumns].sort((left, right) => distance(left) - distance(right))[0];
    if (!overlaps && nearest !== undefined && distance(nearest) <= headerSnapDistance) {
      nearest.x0 = Math.min(nearest.x0, cell.x0);
      nearest.x1 = Math.max(nearest.x1, cell.x1);
    } else {
      headerCells.push(cell);
    }
  }
  return mergedSpans([...bodyColumns.map((column) => ({ ...column, text: "", font: "" })), ...headerCells]);
}

function columnIndex(columns: Array<{ x0: number; x1: number }>, cell: Cell): number {
  return columns.findIndex((column) => cell.x0 >= column.x0 - 0.01 && cell.x0 <= column.x1 + 0.01);
}

/** The rows as cell strings, one per column; a line that fills only later columns continues the row above. */
function toCellRows(rows: Row[], columns: Array<{ x0: number; x1: number }>): string[][] {
  const table: string[][] = [];
  for (const row of rows) {
    const cells = columns.map(() => "");
    for (const cell of row.cells) {
      const index = columnIndex(columns, cell);
      cells[index] = cells[index] ? `${cells[index]} ${cell.text}` : cell.text;
    }
    const previous = table.at(-1);
    const continuesPrevious = previous !== undefined && row.cells.length === 1 && cells[0] === "";
    if (continuesPrevious) {
      cells.forEach((text, index) => {
        if (text) previous[index] = previous[index] ? `${previous[index]} ${text}` : text;
      });
    } else {
      table.push(cells);
    }
  }
  return table;
}

const numericCell = /^[-+(]?[$€£¥]?\s?[\d.,]+\s?%?\)?$/;

/**
 * Whether the first row is a header rather than the first entry of a headerless list (a glossary, a
 * continued table): taking an entry for a header would name every later cell after it. Evident when
 * most of the first row is set in another font than the body (bold), labels a column the body fills with
 * numbers, or leaves empty a first column the body fills (a matrix's corner).
 */
function headerIsEvident(first: string[], body: string[][], rows: Row[]): boolean {
  const fontCounts = new Map<string, number>();
  for (const row of rows.slice(1))
    for (const cell of row.cells) fontCounts.set(cell.font, (fontCounts.get(cell.font) ?? 0) + 1);
  const bodyFont = [...fontCounts].sort((left, right) => right[1] - left[1])[0]?.[0];
  const firstCells = rows[0]?.cells ?? [];
  // Most of the first row, not all: a header cell may share the body's font (a plain "No." over numbers).
  const inOtherFont = firstCells.filter((cell) => cell.font !== bodyFont).length;
  if (bodyFont !== undefined && bodyFont !== "" && inOtherFont * 2 > firstCells.length) return true;
  const labelsNumbers = first.some((label, column) => {
    if (label.length === 0 || numericCell.test(label)) return false;
    const values = body.map((row) => row[column] ?? "").filter((value) => value.length > 0);
    return values.length > 0 && values.filter((value) => numericCell.test(value)).length >= 0.6 * values.length;
  });
  if (labelsNumbers) return true;
  const bodyFillsFirstColumn = body.filter((row) => (row[0] ?? "").length > 0).length >= 0.8 * body.length;
  return (first[0] ?? "") === "" && bodyFillsFirstColumn;
}

/** Whether a run of lines reads as a table, and the table if so. */
function tableFrom(rows: Row[]): PdfTable | null {
  if (rows.filter((row) => row.cells.length >= 2).length < minimumRows) return null;
  const columns = columnsOf(rows);
  if (columns.length < 2 || columns.length > maximumColumns) return null;
  const cells = rows.flatMap((row) => row.cells);
  const meanLength = cells.reduce((sum, cell) => sum + cell.text.length, 0) / cells.length;
  if (meanLength > maximumMeanCellLength) return null;
  // Every column must be used by more than one row, or a stray word made it.
  const uses = columns.map(() => 0);
  for (const row of rows)
    for (const cell of row.cells) {
      const column = columnIndex(columns, cell);
      uses[column] = (uses[column] ?? 0) + 1;
    }
  if (uses.some((count) => count < 2)) return null;
  const cellRows = toCellRows(rows, columns);
  const filledRows = cellRows.filter((row) => row.filter((cell) => cell.length > 0).length >= 2);
  if (filledRows.length / cellRows.length < minimumMultiCellShare) return null;
  // Bullets or item numbers set apart from their text make a list, not a two-column table.
  if (cellRows.every((row) => listMarker.test(row[0] ?? ""))) return null;
  const [first, ...body] = cellRows;
  if (first === undefined || body.length < minimumRows - 1) return null;
  const hasHeader = headerIsEvident(first, body, rows);
  return {
    firstLine: rows[0]?.lineIndex ?? 0,
    lastLine: rows.at(-1)?.lineIndex ?? 0,
    header: hasHeader ? first : [],
    rows: hasHeader ? body : cellRows,
    columnStarts: columns.map((column) => column.x0),
    caption: [],
  };
}

/**
 * A table with no header of its own that follows one with a header across nothing but white space goes
 * on with it: a statement set in blocks ("Gross profit", a blank line, then "Selling, general and
 * administrative expenses … Net income") is one table, and its later rows keep the columns' periods.
 */
function joinHeaderlessContinuations(found: Array<{ table: PdfTable; rows: Row[] }>, lines: readonly PdfLine[]) {
  const joined: Array<{ table: PdfTable; rows: Row[] }> = [];
  for (const entry of found) {
    const previous = joined.at(-1);
    const onlySpaceBetween =
      previous !== undefined &&
      lines.slice(previous.table.lastLine + 1, entry.table.firstLine).every((line) => lineCells(line).length === 0);
    if (
      previous !== undefined &&
      onlySpaceBetween &&
      entry.table.header.length === 0 &&
      previous.table.header.length > 0
    ) {
      const rows = [...previous.rows, ...entry.rows];
      const table = tableFrom(rows);
      if (table !== null && table.header.length > 0) {
        joined[joined.length - 1] = { table, rows };
        continue;
      }
    }
    joined.push(entry);
  }
  return joined.map((entry) => entry.table);
}

/** The tables on a page, in reading order. */
export function findTables(lines: readonly PdfLine[]): PdfTable[] {
  const found: Array<{ table: PdfTable; rows: Row[] }> = [];
  let run: Row[] = [];
  let previous: PdfLine | null = null;
  const finishRun = () => {
    // A run may end in prose lines that were let in as continuations; a table ends at its last multi-cell row.
    while (run.length > 0 && (run.at(-1)?.cells.length ?? 0) < 2) run.pop();
    const table = tableFrom(run);
    if (table !== null) found.push({ table, rows: run });
    run = [];
  };
  lines.forEach((line, lineIndex) => {
    const cells = lineCells(line);
    const lineGap = previous === null ? 0 : Math.abs(previous.y - line.y);
    const tooFar = previous !== null && lineGap > Math.max(previous.height, line.height, 1) * maximumRowGapInLines;
    if (cells.length === 0) return;
    if (tooFar) finishRun();
    if (cells.length >= 2 || run.length > 0) run.push({ lineIndex, cells });
    previous = line;
  });
  finishRun();
  const tables = joinHeaderlessContinuations(found, lines);
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
