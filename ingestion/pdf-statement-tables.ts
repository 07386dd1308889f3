/**
 * Tables set without rules, as financial statements are, read from where their text stands: rows of a
 * label and figures whose figures line up in columns (pdf-value-columns.ts), the header lines above
 * them placed over the columns they stand over (a period header spanning several columns heads each of
 * them), section and wrapped labels put together (pdf-table-labels.ts). The table ends where a line of
 * prose runs across its columns, where a new header starts another table, or past a wide gap.
 */
import { layoutRows, textFlows } from "./pdf-layout-rows.js";
import type { PdfLine } from "./pdf-lines.js";
import { splitAtColumns } from "./pdf-row-cells.js";
import { headerAbove, maximumHeaderRows, readHeader } from "./pdf-table-header.js";
import { type BodyLine, mergeWrappedLabels } from "./pdf-table-labels.js";
import { inColumns, isProse, namesPeriod, type Row, readRow, readRows, rowText } from "./pdf-table-rows.js";
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

/** Data rows further apart than this many type sizes belong to different tables. */
const maximumDataGap = 6;
/** ...or than this many of the run's closest row spacings. */
const maximumDataGapInRows = 4;

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

/** A data row whose label runs into the figures' area: a sentence that happens to end in a number. */
function labelReachesColumns(row: Row, left: number): boolean {
  if (row.reading.kind !== "data") return false;
  const firstValue = row.reading.values[0];
  return row.cells.some(
    (cell) => cell.kind === "text" && cell.x1 > left + row.size && cell !== firstValue && cell.x0 < left,
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
  const figures: string[] = [];
  for (let index = from; index <= to; index += 1) {
    const row = rows[index] as Row;
    if (row.reading.kind !== "data") continue;
    dataRows += 1;
    if (row.cells[0]?.kind === "text") labelled += 1;
    figures.push(...row.reading.values.map((cell) => cell.text));
  }
  if (columns.length === 0 || dataRows < 2) return false;
  if (columns.length === 1 && listsPages(figures)) return false;
  return columns.length >= 2 || (dataRows >= 3 && labelled >= 3);
}

/**
 * A headerless run of labels with small whole numbers beside them is a table of contents or an index
 * (page numbers, section numbers), not a table of amounts.
 */
function onlyPageNumbers(body: ReadonlyArray<{ values: string[] }>): boolean {
  const values = body.flatMap((row) => row.values.filter((value) => value !== ""));
  return values.length > 0 && values.every((value) => /^(?:\d{1,3}(?:\.\d{1,2})*\.?|[ivxlc]{1,6})$/i.test(value));
}

/**
 * Page numbers, not amounts: whole numbers under a thousand that never go down (a table of contents
 * or an index beside its entries).
 */
function listsPages(figures: readonly string[]): boolean {
  if (!figures.every((figure) => /^\d{1,3}$/.test(figure))) return false;
  return figures.every((figure, index) => index === 0 || Number(figure) >= Number(figures[index - 1]));
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

/** Blocks of one statement stand at most this many type sizes apart (a blank line and a section label or two). */
const maximumBlockGap = 8;

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
    size: rows[from]?.size ?? 10,
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
  if (header.length === 0 && onlyPageNumbers(body)) return null;
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
    const gap = previous === undefined ? 0 : (rows[previous.last]?.y ?? 0) - (rows[entry.first]?.y ?? 0);
    const size = rows[entry.first]?.size ?? 10;
    const goesOn =
      previous !== undefined &&
      gap <= size * maximumBlockGap &&
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
  return textFlows(layoutRows(lines))
    .flatMap((flow) => findInFlow(readRows(flow)))
    .sort((left, right) => (left.lines[0] ?? 0) - (right.lines[0] ?? 0));
}

/** The tables of one block of text, top to bottom. */
function findInFlow(rows: Row[]): StatementTable[] {
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
