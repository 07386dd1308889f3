/**
 * What every table plan works with: the grid, the question read as an operation, the cells it names
 * (a row in a column, as a number) and the columns a question's periods name in a row. A plan is one
 * worked answer — the rows it used, its sentence and its value — scored by how surely the table holds
 * what the question names.
 */
import type { AnswerValue } from "../../answer-events.js";
import type { UnitScale } from "../table-cells.js";
import type { GridColumn, GridRow, GridValue, TableGrid } from "./table-grid.js";
import { columnForPeriod, defaultColumns, type RowMatch } from "./table-operands.js";
import type { TableQuestion } from "./table-question.js";

export type Reading = {
  grid: TableGrid;
  question: TableQuestion;
  /** A scale for the table's amounts when the table itself states none (its document's unit note). */
  fallbackScale: UnitScale | null;
  /** Words of the sentence that introduces the table in its document's prose ("… were as follows:"). */
  caption: ReadonlySet<string>;
  /** Row labels' meaning matches with the question's measure, when words alone named no row. */
  meaning?: ReadonlyMap<string, number>;
};

export type Cell = { row: GridRow; column: GridColumn; value: GridValue & { number: number } };

export type Plan = { score: number; rows: GridRow[]; write: (n: number) => string; value: AnswerValue };

export type Terms = TableQuestion["terms"];

/** A row match must name at least this much of the question to answer it. */
export const MINIMUM_ROW_SCORE = 1;

/** The best row match when it names enough of the question (and more than operation words). */
export function usableMatch(matches: readonly RowMatch[]): RowMatch | null {
  const best = matches[0];
  return best !== undefined && best.score >= MINIMUM_ROW_SCORE && best.contentMatches > 0 ? best : null;
}

export function cellOf(row: GridRow, column: GridColumn | null | undefined): Cell | null {
  if (column === null || column === undefined) return null;
  const value = row.values[column.index - 1];
  if (value === null || value === undefined || value.number === null) return null;
  return { row, column, value: value as GridValue & { number: number } };
}

/** Oldest first, by the period each column names (its place in the table when none does). */
export function chronological(columns: readonly GridColumn[]): GridColumn[] {
  const key = (column: GridColumn) =>
    column.period === null
      ? -column.index
      : column.period.year * 10_000 +
        (column.period.quarter ?? 0) * 1000 +
        (column.period.month ?? 0) * 40 +
        (column.period.day ?? 0);
  return [...columns].sort((left, right) => key(left) - key(right));
}

const RANGE_OPERATIONS = new Set(["average", "sum", "countPeriods", "values", "whichPeriod"]);

/** The periods' columns for a row, in the order the question names them; null when one is missing. */
export function askedColumns(reading: Reading, row: GridRow, terms: Terms): GridColumn[] | null {
  const { question, grid } = reading;
  if (question.periods.length === 0) return defaultColumns(grid, terms, row);
  // "The average from 2017 to 2019": every period between the two named, not only the two.
  if (question.range && RANGE_OPERATIONS.has(question.operation)) {
    const years = question.periods.map((period) => period.year);
    const [low, high] = [Math.min(...years), Math.max(...years)];
    const inRange = chronological(
      defaultColumns(grid, terms, row).filter(
        (column) => column.period !== null && column.period.year >= low && column.period.year <= high,
      ),
    );
    if (inRange.length >= 2) return inRange;
  }
  const columns: GridColumn[] = [];
  for (const period of question.periods) {
    const column = columnForPeriod(grid, period, terms, row);
    if (column === null) return null;
    if (!columns.includes(column)) columns.push(column);
  }
  return columns;
}

/** The period column before `column` in time, among the row's period columns. */
export function previousColumn(reading: Reading, row: GridRow, column: GridColumn, terms: Terms): GridColumn | null {
  const periodColumns = chronological(
    defaultColumns(reading.grid, terms, row).filter((candidate) => candidate.period !== null),
  );
  const at = periodColumns.indexOf(column);
  return at > 0 ? (periodColumns[at - 1] ?? null) : null;
}

/** The cells of a row in columns, those with a number. */
export function cellsOf(row: GridRow, columns: readonly GridColumn[]): Cell[] {
  return columns.map((column) => cellOf(row, column)).filter((cell): cell is Cell => cell !== null);
}
