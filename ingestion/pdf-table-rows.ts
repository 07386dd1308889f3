/**
 * The rows of a page as a table reader sees them: each row's cells (pdf-row-cells.ts) and what the row
 * is on its own — figures after a label (data), a line of years (a header), or anything else — with the
 * tests the table reader asks of a row: does it reach into the columns, is it prose, does it name a period.
 */
import type { LayoutRow } from "./pdf-layout-rows.js";
import { type RowCell, rowCells } from "./pdf-row-cells.js";

export type CellRow = { y: number; size: number; cells: RowCell[]; lines: number[] };

/** What a row is, read alone: figures after a label, a row of years (a header), or neither. */
export type RowReading = { kind: "data"; values: RowCell[] } | { kind: "years" } | { kind: "other" };

export type Row = CellRow & { reading: RowReading };

/** Text after the first figure of a data row may be a short mark ("NM", "n/a"), never a phrase. */
const maximumTrailingText = 12;
/** A label longer than this is a sentence, not a row label. */
const maximumLabelLength = 160;
/** Text longer than this reaching into the columns is prose, not a header or a label. */
const maximumHeaderCellLength = 60;

export function readRow(row: CellRow): RowReading {
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
export function readRows(rows: readonly LayoutRow[]): Row[] {
  return rows.map((row) => {
    const cellRow: CellRow = { y: row.y, size: row.size, cells: rowCells(row), lines: row.lines };
    return { ...cellRow, reading: readRow(cellRow) };
  });
}

/** Cells of a row that stand in the columns' area (not in the label column). */
export function inColumns(row: CellRow, left: number): RowCell[] {
  return row.cells.filter((cell) => cell.x1 > left - row.size * 0.3);
}

/** A line of prose: text reaching into the columns, longer than any header or label cell. */
export function isProse(row: CellRow, left: number): boolean {
  return inColumns(row, left).some((cell) => cell.kind === "text" && cell.text.length > maximumHeaderCellLength);
}

export const PERIOD_WORDS =
  /\b(?:(?:19|20)\d{2}|fy\s?\d{2}|q[1-4]|quarters?|months?|weeks?|years?|ended|ending|fiscal|as of|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b/i;

/** Whether a row names a period (a header row does: "2019", "Three months ended", "December 31,"). */
export function namesPeriod(row: Row): boolean {
  return row.reading.kind === "years" || PERIOD_WORDS.test(rowText(row));
}

export function rowText(row: CellRow): string {
  return row.cells.map((cell) => cell.text).join(" ");
}
