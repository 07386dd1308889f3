/**
 * Tables set without rules, as financial statements are, read from where their text stands: rows of a
 * label and figures whose figures line up in columns (pdf-value-columns.ts), the header lines above
 * them placed over the columns they stand over (a period header spanning several columns heads each of
 * them), section and wrapped labels put together (pdf-table-labels.ts). The table ends where a line of
 * prose runs across its columns, where a new header starts another table, or past a wide gap.
 */
import { type LayoutRow, layoutRows } from "./pdf-layout-rows.js";
import type { PdfLine } from "./pdf-lines.js";
import { type RowCell, rowCells, splitAtColumns } from "./pdf-row-cells.js";
import { type BodyLine, mergeWrappedLabels } from "./pdf-table-labels.js";
import { columnOf, type PlacedFigure, type ValueColumn, valueColumns, wordColumns } from "./pdf-value-columns.js";

export type StatementTable = {
  /** Page lines the table is read from (header and body). */
  lines: number[];
  header: string[];
  rows: string[][];
  /** Left edge of the label column, then the right edge of each value column (PDF units). */
  anchors: number[];
  /** Left edge of each column, the label column first. */
  columnStarts: number[];
};

type CellRow = { y: number; size: number; cells: RowCell[]; lines: number[] };

/** What a row is, read alone: figures after a label, a row of years (a header), or neither. */
type RowReading = { kind: "data"; values: RowCell[] } | { kind: "years" } | { kind: "other" };

/** Text after the first figure of a data row may be a short mark ("NM", "n/a"), never a phrase. */
const maximumTrailingText = 12;
/** A label longer than this is a sentence, not a row label. */
const maximumLabelLength = 160;
/** Data rows further apart than this many type sizes belong to different tables. */
const maximumDataGap = 6;
/** ...or than this many of the run's closest row spacings. */
const maximumDataGapInRows = 4;
/** Header lines further above the table (or each other) than this many type sizes are not its header. */
const maximumHeaderGap = 3.2;
const maximumHeaderRows = 6;
/** Text longer than this reaching into the columns is prose, not a header or a label. */
const maximumHeaderCellLength = 60;

function readRow(row: CellRow): RowReading {
  const cells = row.cells;
  const firstFigure = cells.findIndex((cell) => cell.kind === "figure");
  if (firstFigure < 0) return { kind: "other" };
  let start = firstFigure;
  // A figure leading words ("1. Introduction", "2019 was a year …") numbers or starts a sentence.
  if (firstFigure === 0 && cells[1]?.kind === "text" && (cells[1]?.text.length ?? 0) > maximumTrailingText) {
    start = cells.findIndex((cell, index) => index > 1 && cell.kind === "figure");
    if (start < 0) return { kind: "other" };
  }
  const label = cells
    .slice(0, start)
    .map((cell) => cell.text)
    .join(" ");
  if (label.length > maximumLabelLength) return { kind: "other" };
  const after = cells.slice(start);
  if (after.some((cell) => cell.kind === "text" && cell.text.length > maximumTrailingText)) return { kind: "other" };
  const values = after.filter((cell) => cell.kind === "figure");
  // Years and words over the columns ("Total | 2020 | 2021-2022 | Thereafter") head them.
  if (values.every((cell) => cell.year)) return { kind: "years" };
  return { kind: "data", values };
}

/** The rows of a page with their cells and readings. */
function readRows(rows: readonly LayoutRow[]): Array<CellRow & { reading: RowReading }> {
  return rows.map((row) => {
    const cellRow: CellRow = { y: row.y, size: row.size, cells: rowCells(row), lines: row.lines };
    return { ...cellRow, reading: readRow(cellRow) };
  });
}

type Row = CellRow & { reading: RowReading };

/** Runs of data rows close to each other (rows between them kept), as [first, last] row indices. */
function dataRuns(rows: readonly Row[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let first = -1;
  let last = -1;
  let pitch = 0;
  rows.forEach((row, index) => {
    if (row.reading.kind !== "data") return;
    const previous = rows[last];
    const gap = previous === undefined ? Number.POSITIVE_INFINITY : previous.y - row.y;
    // Rows set far apart (a table printed with tall rows) may have a section of a few lines between them.
    const reach = Math.max(Math.max(previous?.size ?? 0, row.size) * maximumDataGap, pitch * maximumDataGapInRows);
    if (gap <= reach) {
      pitch = pitch === 0 ? gap : Math.min(pitch, gap);
      last = index;
      return;
    }
    if (first >= 0) runs.push([first, last]);
    first = index;
    last = index;
    pitch = 0;
  });
  if (first >= 0) runs.push([first, last]);
  return runs;
}

function columnsFor(rows: readonly Row[], from: number, to: number): ValueColumn[] {
  const figures: PlacedFigure[] = [];
  const size = rows[from]?.size ?? 10;
  for (let index = from; index <= to; index += 1) {
    const reading = rows[index]?.reading;
    if (reading?.kind === "data") for (const cell of reading.values) figures.push({ row: index, cell });
  }
  const columns = valueColumns(figures, size);
  const dataRows = new Set(figures.map((figure) => figure.row)).size;
  // A column only one row fills is a stray figure, unless the table is that short.
  return dataRows <= 3 ? columns : columns.filter((column) => column.rows.size >= 2);
}

/** The left edge of the figures: text reaching past it is in the columns' area. */
function valueLeft(columns: readonly ValueColumn[]): number {
  return Math.min(...columns.map((column) => column.coreX0));
}

/** Cells of a row that stand in the columns' area (not in the label column). */
function inColumns(row: CellRow, left: number): RowCell[] {
  return row.cells.filter((cell) => cell.x1 > left - row.size * 0.3);
}

/** A line of prose: text reaching into the columns, longer than any header or label cell. */
function isProse(row: CellRow, left: number): boolean {
  return inColumns(row, left).some((cell) => cell.kind === "text" && cell.text.length > maximumHeaderCellLength);
}

/**
 * Where a run of rows breaks into tables: before a line of prose (left out) and before a header that
 * starts another table (a row without figures that puts text or years over the columns).
 */
function splitRun(rows: Row[], from: number, to: number): Array<[number, number]> {
  const columns = columnsFor(rows, from, to);
  if (columns.length === 0) return [];
  const left = valueLeft(columns);
  for (let index = Math.max(0, from - maximumHeaderRows); index <= to; index += 1) {
    const row = rows[index] as Row;
    const cells = row.cells.flatMap((cell) => splitAtColumns(cell, left, row.size));
    if (cells.length !== row.cells.length) rows[index] = { ...row, cells, reading: readRow({ ...row, cells }) };
  }
  const pieces: Array<[number, number]> = [];
  let start = from;
  let lastData = from;
  for (let index = from + 1; index <= to; index += 1) {
    const row = rows[index] as Row;
    const prose = isProse(row, left) || (row.reading.kind === "data" && labelReachesColumns(row, left));
    // Text over the columns that names no period groups the rows below it ("Consolidated Balance
    // Sheets Data:"); one that names periods heads another table.
    const header = row.reading.kind !== "data" && !prose && inColumns(row, left).length > 0 && namesPeriod(row);
    if (prose || header) {
      pieces.push([start, lastData]);
      start = index;
      // The next table starts at its first data row; its header is found again going up from there.
      while (start <= to && rows[start]?.reading.kind !== "data") start += 1;
      lastData = start;
      index = start;
      continue;
    }
    if (row.reading.kind === "data") lastData = index;
  }
  if (start <= to) pieces.push([start, lastData]);
  return pieces.filter(([first, last]) => first <= last && rows[first]?.reading.kind === "data");
}

const PERIOD_WORDS =
  /\b(?:(?:19|20)\d{2}|fy\s?\d{2}|q[1-4]|quarters?|months?|weeks?|years?|ended|ending|fiscal|as of|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b/i;

/** Whether a row names a period (a header row does: "2019", "Three months ended", "December 31,"). */
function namesPeriod(row: Row): boolean {
  return row.reading.kind === "years" || PERIOD_WORDS.test(rowText(row));
}

/** A data row whose label runs into the figures' area: a sentence that happens to end in a number. */
function labelReachesColumns(row: Row, left: number): boolean {
  if (row.reading.kind !== "data") return false;
  const firstValue = row.reading.values[0];
  return row.cells.some(
    (cell) => cell.kind === "text" && cell.x1 > left + row.size && cell !== firstValue && cell.x0 < left,
  );
}

/** Header lines above the first stand at most this many type sizes apart... */
const headerRowGap = 1.6;
/** ...or this share of the table's row pitch (tables printed with tall rows). */
const headerPitchShare = 1.25;

/**
 * A title line above a table, not a header: text that runs into the columns from the left but is
 * centred left of them ("CONSOLIDATED STATEMENTS OF OPERATIONS" centred on the page), or that runs well
 * past the last column ("Corning Incorporated and Subsidiary Companies" set flush right). A header is
 * centred over the columns it heads, or stands in the label column.
 */
function isTitle(row: CellRow, area: { left: number; right: number }): boolean {
  const centredLeft = (cell: RowCell) =>
    cell.x1 > area.left + row.size && (cell.x0 + cell.x1) / 2 < area.left - row.size * 2;
  const pastRight = (cell: RowCell) => cell.x1 > area.right + row.size * 2;
  // A header line may run a label column's header into the first column's ("Currency Weightage (%)")
  // beside other headers; a title stands alone on its line.
  const overColumns = row.cells.filter((cell) => cell.x1 > area.left + row.size);
  return row.cells.some(pastRight) || (row.cells.some(centredLeft) && overColumns.length === 1);
}

/** Lines of one header cell stand closer than this many type sizes (a label header centred beside two lines of dates). */
const headerLineShare = 0.8;

/**
 * Header rows above the first data row (top first) and section rows between them and it. Rows that put
 * text or years over the columns are the header; a label-column line set between or right beside them
 * belongs to it ("(In millions, except" beside "April 27,"); label lines further down are sections.
 */
function headerAbove(
  rows: readonly Row[],
  first: number,
  floor: number,
  area: { left: number; right: number; pitch: number },
): { headerRows: number[]; sectionRows: number[] } {
  const { left } = area;
  const candidates: number[] = [];
  let below = rows[first] as Row;
  let overColumnsSeen = false;
  for (let index = first - 1; index >= floor && candidates.length < maximumHeaderRows * 2; index -= 1) {
    const row = rows[index] as Row;
    // Header lines stand as close as the table's rows; a title stands further off.
    const reach = overColumnsSeen
      ? Math.max(row.size * headerRowGap, area.pitch * headerPitchShare)
      : Math.max(row.size, below.size) * maximumHeaderGap;
    if (row.y - below.y > reach) break;
    if (row.reading.kind === "data" || isProse(row, left) || isTitle(row, area)) break;
    candidates.unshift(index);
    overColumnsSeen ||= inColumns(row, left).length > 0;
    below = row;
  }
  const overColumns = candidates.filter((index) => inColumns(rows[index] as Row, left).length > 0);
  const top = overColumns[0];
  const bottom = overColumns.at(-1);
  if (top === undefined || bottom === undefined) {
    // Without a header, lines above are a title rather than sections, unless they end as a section does.
    const sections = [...candidates];
    while (sections.length > 0 && !/:$/.test(rowText(rows[sections[0] as number] as Row))) sections.shift();
    return { headerRows: [], sectionRows: sections };
  }
  const near = (index: number, other: number) =>
    Math.abs((rows[index] as Row).y - (rows[other] as Row).y) <= (rows[index] as Row).size * headerLineShare;
  let start = candidates.indexOf(top);
  while (start > 0 && near(candidates[start - 1] as number, candidates[start] as number)) start -= 1;
  let end = candidates.indexOf(bottom);
  while (end + 1 < candidates.length && near(candidates[end + 1] as number, candidates[end] as number)) end += 1;
  const headerRows = candidates.slice(start, end + 1);
  if (headerRows.length > maximumHeaderRows * 2) return { headerRows: [], sectionRows: [] };
  return { headerRows, sectionRows: candidates.slice(end + 1) };
}

function rowText(row: CellRow): string {
  return row.cells.map((cell) => cell.text).join(" ");
}

/** The columns a header cell heads: those it covers the middle or most of, else the nearest one. */
function headedColumns(cell: RowCell, columns: readonly ValueColumn[], size: number): number[] {
  const covered = columns.flatMap((column, index) => {
    const overlap = Math.min(column.x1, cell.x1) - Math.max(column.x0, cell.x0);
    const middle = (column.x0 + column.x1) / 2;
    const width = Math.max(column.x1 - column.x0, 1);
    return (middle >= cell.x0 && middle <= cell.x1) || overlap >= width * 0.5 ? [index] : [];
  });
  if (covered.length > 0) return covered;
  const centre = (cell.x0 + cell.x1) / 2;
  let nearest = -1;
  let nearestDistance = size * 3;
  columns.forEach((column, index) => {
    const distance = Math.max(column.x0 - centre, centre - column.x1, 0);
    if (distance < nearestDistance) {
      nearest = index;
      nearestDistance = distance;
    }
  });
  return nearest >= 0 ? [nearest] : [];
}

const YEARS = /\b(?:19|20)\d{2}\b/g;
/** A split of a header cell must leave each piece within this many type sizes of its column. */
const pieceOverflow = 1;
/** ...and a cell that may span its columns, within this many (its words fall into the columns exactly). */
const exactFit = 0.15;

type Piece = { text: string; columns: number[] };

/** How far pieces of words stick out of their columns: past the right edge, or into the column on the left. */
function overflow(pieces: RowCell["words"][], spanned: readonly number[], columns: readonly ValueColumn[]): number {
  return pieces.reduce((sum, words, index) => {
    const column = columns[spanned[index] as number] as ValueColumn;
    const before = columns[(spanned[index] as number) - 1];
    const first = words[0];
    const last = words.at(-1);
    if (first === undefined || last === undefined) return Number.POSITIVE_INFINITY;
    return sum + Math.max(0, last.x1 - column.x1) + Math.max(0, (before?.x1 ?? Number.NEGATIVE_INFINITY) - first.x0);
  }, 0);
}

/** The cut of `words` into `count` runs that fits the columns best. */
function bestCut(words: RowCell["words"], spanned: readonly number[], columns: readonly ValueColumn[]) {
  let best: { pieces: RowCell["words"][]; cost: number } | null = null;
  const cut = (from: number, pieces: RowCell["words"][]) => {
    if (pieces.length === spanned.length - 1) {
      const all = [...pieces, words.slice(from)];
      const cost = overflow(all, spanned, columns);
      if (best === null || cost < best.cost) best = { pieces: all, cost };
      return;
    }
    for (let end = from + 1; end <= words.length - (spanned.length - 1 - pieces.length); end += 1)
      cut(end, [...pieces, words.slice(from, end)]);
  };
  cut(0, []);
  return best as { pieces: RowCell["words"][]; cost: number } | null;
}

/**
 * The columns a header line above the lowest heads: its own column where it is set flush with it (a
 * wrapped header right-aligned over its figures), else the run of neighbouring columns it is centred
 * over ("December 31," centred over "2016 | 2017"; "Consumer & Community Banking" over three).
 */
function groupedColumns(cell: RowCell, columns: readonly ValueColumn[], size: number): number[] | null {
  const middle = (column: ValueColumn) => (column.x0 + column.x1) / 2;
  const flush = columns.findIndex((column, index) => {
    const before = columns[index - 1];
    return Math.abs(column.x1 - cell.x1) <= size && (before === undefined || cell.x0 > middle(before));
  });
  if (flush >= 0) return [flush];
  const centre = (cell.x0 + cell.x1) / 2;
  // The fewest columns that take the line in and that it is centred over.
  for (let count = 1; count <= columns.length; count += 1) {
    for (let first = 0; first + count <= columns.length; first += 1) {
      const from = columns[first] as ValueColumn;
      const to = columns[first + count - 1] as ValueColumn;
      const centred = Math.abs((middle(from) + middle(to)) / 2 - centre) <= size * 1.5;
      if (centred && from.x0 - size <= cell.x0 && cell.x1 <= to.x1 + size)
        return Array.from({ length: count }, (_, offset) => first + offset);
    }
  }
  let best: number[] | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let count = 1; count <= columns.length; count += 1) {
    for (let first = 0; first + count <= columns.length; first += 1) {
      const from = columns[first] as ValueColumn;
      const to = columns[first + count - 1] as ValueColumn;
      if (cell.x1 < from.x0 || cell.x0 > to.x1) continue;
      const distance = Math.abs((middle(from) + middle(to)) / 2 - centre);
      // A wider run wins only when it is clearly closer: a header over one column is often a little off its middle.
      if (distance < bestDistance - size * 0.5) {
        best = Array.from({ length: count }, (_, offset) => first + offset);
        bestDistance = distance;
      }
    }
  }
  return best;
}

/**
 * A column header over several columns split into one piece per column when that is what it is: two
 * headers printed as one run of text ("Net Sales % of Total", "April 27, 2019 April 28, 2018"), each
 * piece within its own column. Only the header line right above the figures holds such cells; a line
 * above it that spans columns is a group header ("Year Ended December 31,") and heads each of them.
 */
function headerPieces(cell: RowCell, columns: readonly ValueColumn[], size: number, lowest: boolean): Piece[] {
  const spanned = lowest
    ? headedColumns(cell, columns, size)
    : (groupedColumns(cell, columns, size) ?? headedColumns(cell, columns, size));
  const whole = [{ text: cell.text, columns: spanned }];
  if (spanned.length < 2 || cell.words.length > 16) return whole;
  const years = cell.text.match(YEARS)?.length ?? 0;
  const best = bestCut(cell.words, spanned, columns);
  if (best === null) return whole;
  // A cell that may well span its columns ("Year Ended December 31,") is split only where its words
  // fall into the columns exactly; a column header line's cells at the usual tolerance.
  const mayspan = !lowest || (years !== spanned.length && (years > 0 || PERIOD_WORDS.test(cell.text)));
  const tolerance = size * (mayspan ? exactFit : pieceOverflow) * spanned.length;
  if (best.cost > tolerance) return whole;
  const texts = best.pieces.map((words) => words.map((word) => word.text).join(" "));
  if (years === spanned.length && texts.some((text) => text.match(YEARS)?.length !== 1)) return whole;
  return texts.map((text, index) => ({ text, columns: [spanned[index] as number] }));
}

/**
 * A line of group headers that share the columns out evenly ("Consumer & Community Banking |
 * Corporate & Investment Bank | Commercial Banking" over nine columns): each over its run of columns,
 * however short its words (a narrow "Corporate" centred over three columns heads all three).
 */
function evenGroups(cells: readonly RowCell[], columns: readonly ValueColumn[], size: number): number[][] | null {
  const span = columns.length / cells.length;
  if (cells.length < 2 || !Number.isInteger(span) || span < 2) return null;
  const groups = cells.map((_, position) => Array.from({ length: span }, (_, offset) => position * span + offset));
  const fits = cells.every((cell, position) => {
    const group = groups[position] as number[];
    const from = columns[group[0] as number] as ValueColumn;
    const to = columns[group.at(-1) as number] as ValueColumn;
    const centre = (cell.x0 + cell.x1) / 2;
    return centre >= from.x0 - size && centre <= to.x1 + size;
  });
  return fits ? groups : null;
}

/**
 * A column the lowest header line leaves without a header of its own ("$ | %" under "2022 vs. 2021")
 * goes under the neighbouring header when that header is centred over both.
 */
function extendOverUnheaded(
  placed: Piece[][],
  cells: readonly RowCell[],
  columns: readonly ValueColumn[],
  size: number,
) {
  const owned = new Set(placed.flatMap((pieces) => pieces.flatMap((piece) => piece.columns)));
  const middle = (column: ValueColumn) => (column.x0 + column.x1) / 2;
  placed.forEach((pieces, position) => {
    const piece = pieces.length === 1 ? pieces[0] : undefined;
    const cell = cells[position];
    if (piece === undefined || cell === undefined || piece.columns.length === 0) return;
    const centre = (cell.x0 + cell.x1) / 2;
    const first = Math.min(...piece.columns);
    const last = Math.max(...piece.columns);
    const offCentre = (from: number, to: number) =>
      Math.abs((middle(columns[from] as ValueColumn) + middle(columns[to] as ValueColumn)) / 2 - centre);
    for (const [from, to, added] of [
      [first, last + 1, last + 1],
      [first - 1, last, first - 1],
    ] as const) {
      if (added < 0 || added >= columns.length || owned.has(added)) continue;
      if (offCentre(from, to) + size < offCentre(first, last) && offCentre(from, to) <= size * 1.5) {
        piece.columns = [...piece.columns, added].sort((left, right) => left - right);
        owned.add(added);
        return;
      }
    }
  });
}

/** A header cell that runs from the label column into the first column, cut where it crosses ("Currency" | "Weightage (%)"). */
function splitAtLabelEdge(cell: RowCell, left: number): RowCell[] {
  if (cell.x0 >= left || cell.x1 <= left) return [cell];
  const cut = cell.words.findIndex((word) => (word.x0 + word.x1) / 2 >= left);
  if (cut <= 0) return [cell];
  const piece = (words: RowCell["words"]): RowCell => ({
    ...cell,
    text: words.map((word) => word.text).join(" "),
    x0: words[0]?.x0 ?? cell.x0,
    x1: words.at(-1)?.x1 ?? cell.x1,
    coreX0: words[0]?.x0 ?? cell.x0,
    words,
  });
  return [piece(cell.words.slice(0, cut)), piece(cell.words.slice(cut))];
}

/** One header per column: the header lines over it, top to bottom; the label column's from the text left of them. */
function readHeader(
  rows: readonly Row[],
  headerRows: readonly number[],
  columns: readonly ValueColumn[],
  left: number,
) {
  const pieces: string[][] = [[], ...columns.map(() => [])];
  const overColumns = headerRows.filter((index) => inColumns(rows[index] as Row, left).length > 0);
  const lowest = overColumns.at(-1);
  for (const index of headerRows) {
    const row = rows[index] as Row;
    const cells = row.cells.flatMap((whole) => splitAtLabelEdge(whole, left));
    const inLabel = (cell: RowCell) => cell.x1 <= left - row.size * 0.3;
    for (const cell of cells.filter(inLabel)) pieces[0]?.push(cell.text);
    const over = cells.filter((cell) => !inLabel(cell));
    const groups = index === lowest ? null : evenGroups(over, columns, row.size);
    const placed = over.map((cell, position) => {
      const group = groups?.[position];
      return group ? [{ text: cell.text, columns: group }] : headerPieces(cell, columns, row.size, index === lowest);
    });
    if (index === lowest) extendOverUnheaded(placed, over, columns, row.size);
    for (const cellPieces of placed)
      for (const piece of cellPieces) for (const column of piece.columns) pieces[column + 1]?.push(piece.text);
  }
  // A header broken at a hyphen over two lines ("2021-" over "2022") is one word again.
  return pieces.map((texts) =>
    texts
      .join(" ")
      .replace(/(\d)[-–] (\d)/g, "$1-$2")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

/** The body lines of the table: each row's label (text left of the columns) and its cells under the columns. */
function bodyLines(rows: readonly Row[], indices: readonly number[], columns: readonly ValueColumn[], left: number) {
  return indices.map((index): BodyLine => {
    const row = rows[index] as Row;
    const labels: string[] = [];
    const values = columns.map(() => "");
    // A row without figures is a label, wherever its text stands (a section label set over the columns).
    const hasFigures = row.cells.some((cell) => cell.kind === "figure");
    for (const cell of row.cells) {
      const inLabel = !hasFigures || cell.x1 <= left - row.size * 0.3;
      const column = inLabel ? -1 : columnOf(columns, cell, row.size);
      if (column < 0) labels.push(cell.text);
      else values[column] = values[column] ? `${values[column]} ${cell.text}` : cell.text;
    }
    return { label: labels.join(" ").trim(), values, y: row.y, size: row.size };
  });
}

/** Whether the runs of rows make a table: two rows of figures in two columns, or three rows in one. */
function isTable(rows: readonly Row[], from: number, to: number, columns: readonly ValueColumn[]): boolean {
  let dataRows = 0;
  let labelled = 0;
  for (let index = from; index <= to; index += 1) {
    const row = rows[index] as Row;
    if (row.reading.kind !== "data") continue;
    dataRows += 1;
    if (row.cells[0]?.kind === "text") labelled += 1;
  }
  if (columns.length === 0 || dataRows < 2) return false;
  return columns.length >= 2 || (dataRows >= 3 && labelled >= 3);
}

/** The usual distance between the table's rows of figures. */
function dataPitch(rows: readonly Row[], from: number, to: number): number {
  const gaps: number[] = [];
  let previous: Row | null = null;
  for (let index = from; index <= to; index += 1) {
    const row = rows[index] as Row;
    if (row.reading.kind !== "data") continue;
    if (previous !== null) gaps.push(previous.y - row.y);
    previous = row;
  }
  gaps.sort((left, right) => left - right);
  return gaps[Math.floor(gaps.length / 2)] ?? (rows[from]?.size ?? 10) * 1.2;
}

/** The table's columns: columns of words between its labels and figures, then the figures' columns. */
function withWordColumns(rows: readonly Row[], from: number, to: number, figures: ValueColumn[]): ValueColumn[] {
  const left = valueLeft(figures);
  const labelCells = [];
  for (let index = from; index <= to; index += 1) {
    const row = rows[index] as Row;
    if (row.reading.kind !== "data") continue;
    labelCells.push({ row: index, cells: row.cells.filter((cell) => cell.x1 <= left - row.size * 0.3) });
  }
  return [...wordColumns(labelCells), ...figures];
}

type FoundTable = { table: StatementTable; first: number; last: number };

function readTable(rows: readonly Row[], from: number, to: number, floor: number): FoundTable | null {
  const figures = columnsFor(rows, from, to);
  if (!isTable(rows, from, to, figures)) return null;
  const columns = withWordColumns(rows, from, to, figures);
  const left = valueLeft(columns);
  // Headers stand over a column's whole width, its currency signs included ("2022" centred over "$ 34,229").
  const headerLeft = Math.min(left, ...columns.map((column) => column.x0));
  const area = {
    left: headerLeft,
    right: Math.max(...columns.map((column) => column.x1)),
    pitch: dataPitch(rows, from, to),
  };
  const { headerRows, sectionRows } = headerAbove(rows, from, floor, area);
  const bodyIndices = [...sectionRows];
  for (let index = from; index <= to; index += 1) bodyIndices.push(index);
  // The last row's label may go on below its figures ("… common" / "share").
  for (let index = to + 1; index < rows.length && index <= to + 3; index += 1) {
    const row = rows[index] as Row;
    const above = rows[index - 1] as Row;
    const continues =
      row.reading.kind === "other" &&
      inColumns(row, left).length === 0 &&
      above.y - row.y <= Math.max(row.size, above.size) * 1.6 &&
      /^[\p{Ll}(]/u.test(rowText(row));
    if (!continues) break;
    bodyIndices.push(index);
  }
  const body = mergeWrappedLabels(bodyLines(rows, bodyIndices, columns, left));
  const header = headerRows.length > 0 ? readHeader(rows, headerRows, columns, headerLeft) : [];
  const used = [...headerRows, ...bodyIndices];
  const labelStart = Math.min(
    ...bodyIndices.map((index) => rows[index]?.cells[0]?.x0 ?? Number.POSITIVE_INFINITY),
    left,
  );
  const table = {
    lines: [...new Set(used.flatMap((index) => rows[index]?.lines ?? []))].sort((a, b) => a - b),
    header,
    rows: body.map((row) => [row.label, ...row.values]),
    anchors: [labelStart, ...columns.map((column) => column.right)],
    columnStarts: [labelStart, ...columns.map((column) => column.x0)],
  };
  return { table, first: Math.min(...used), last: Math.max(...used) };
}

/** Value columns of two tables end within this many PDF units of each other when one goes on with the other. */
const sameColumnTolerance = 12;

/**
 * A table without a header of its own that follows one with the same columns, with nothing but labels
 * between them ("Liabilities and Equity" after a gap), is the same table going on: a statement set in
 * blocks. The labels between become its section rows.
 */
function joinBlocks(rows: readonly Row[], found: readonly FoundTable[]): StatementTable[] {
  const joined: FoundTable[] = [];
  for (const entry of found) {
    const previous = joined.at(-1);
    const anchors = entry.table.anchors.slice(1);
    const previousAnchors = previous?.table.anchors.slice(1) ?? [];
    const between = previous === undefined ? [] : rows.slice(previous.last + 1, entry.first);
    const valueStart = entry.table.columnStarts[1] ?? Number.POSITIVE_INFINITY;
    const goesOn =
      previous !== undefined &&
      entry.table.header.length === 0 &&
      anchors.length === previousAnchors.length &&
      anchors.every((anchor, index) => Math.abs(anchor - (previousAnchors[index] ?? 0)) <= sameColumnTolerance) &&
      between.every((row) => row.reading.kind === "other" && row.cells.every((cell) => cell.x1 < valueStart));
    if (!goesOn || previous === undefined) {
      joined.push({ ...entry });
      continue;
    }
    const width = entry.table.anchors.length - 1;
    const labels = between.map((row) => [rowText(row), ...Array.from({ length: width }, () => "")]);
    previous.table = {
      ...previous.table,
      rows: [...previous.table.rows, ...labels, ...entry.table.rows],
      lines: [...previous.table.lines, ...between.flatMap((row) => row.lines), ...entry.table.lines].sort(
        (left, right) => left - right,
      ),
    };
    previous.last = entry.last;
  }
  return joined.map((entry) => entry.table);
}

/** The tables of a page set without rules, top to bottom. */
export function findStatementTables(lines: readonly PdfLine[]): StatementTable[] {
  const rows = readRows(layoutRows(lines));
  const found: FoundTable[] = [];
  let floor = 0;
  for (const [first, last] of dataRuns(rows)) {
    for (const [from, to] of splitRun(rows, first, last)) {
      const table = readTable(rows, from, to, floor);
      if (table === null) continue;
      found.push(table);
      floor = to + 1;
    }
  }
  return joinBlocks(rows, found);
}
