/**
 * A1-style cell and range references as a worksheet's XML writes them ("B7", "$A$1", "A10:XFD1048576",
 * whole columns "C:C" or rows "3:5"), turned into numbers without building anything per cell.
 */
import { EXCEL_MAX_COLUMNS, EXCEL_MAX_ROWS } from "./questionnaire-read-limits.js";

/** 1-based rows and columns, inclusive. */
export type CellRange = { top: number; left: number; bottom: number; right: number };

/** "A" -> 1, "XFD" -> 16384; NaN for anything but letters. */
export function columnNumber(letters: string): number {
  if (!/^[A-Za-z]{1,7}$/.test(letters)) return Number.NaN;
  let number = 0;
  for (const letter of letters.toUpperCase()) number = number * 26 + letter.charCodeAt(0) - 64;
  return number;
}

/** 1 -> "A", 16384 -> "XFD". */
export function columnLetters(column: number): string {
  let letters = "";
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

/** "XFD3001" -> {row: 3001, column: 16384}; null when it is no cell reference. */
export function parseCellReference(reference: string): { row: number; column: number } | null {
  const match = /^\$?([A-Za-z]{1,7})\$?(\d{1,9})$/.exec(reference);
  if (!match) return null;
  const column = columnNumber(match[1] ?? "");
  const row = Number(match[2]);
  return row >= 1 && Number.isFinite(column) ? { row, column } : null;
}

/** One range of a `ref` or `sqref` ("A1", "A1:B2", "C:C", "3:5"); null when it reads as none. */
export function parseRange(reference: string): CellRange | null {
  const [first, second, extra] = reference.split(":");
  if (first === undefined || extra !== undefined) return null;
  if (second === undefined) {
    const cell = parseCellReference(first);
    return cell ? { top: cell.row, left: cell.column, bottom: cell.row, right: cell.column } : null;
  }
  const start = parseCellReference(first);
  const end = parseCellReference(second);
  if (start && end) {
    return {
      top: Math.min(start.row, end.row),
      left: Math.min(start.column, end.column),
      bottom: Math.max(start.row, end.row),
      right: Math.max(start.column, end.column),
    };
  }
  const columns = [first, second].map((part) => columnNumber(part.replace(/\$/g, "")));
  if (columns.every(Number.isFinite)) {
    const [a = 1, b = 1] = columns;
    return { top: 1, left: Math.min(a, b), bottom: EXCEL_MAX_ROWS, right: Math.max(a, b) };
  }
  const rows = [first, second].map((part) => (/^\$?\d{1,9}$/.test(part) ? Number(part.replace("$", "")) : Number.NaN));
  if (rows.every((row) => Number.isFinite(row) && row >= 1)) {
    const [a = 1, b = 1] = rows;
    return { top: Math.min(a, b), left: 1, bottom: Math.max(a, b), right: EXCEL_MAX_COLUMNS };
  }
  return null;
}

/** "A1:XFD1048576" (or "B7" for one cell), for messages. */
export function describeRange(range: CellRange): string {
  const start = `${columnLetters(range.left)}${range.top}`;
  return range.top === range.bottom && range.left === range.right
    ? start
    : `${start}:${columnLetters(range.right)}${range.bottom}`;
}

/** Cells a range covers (a float: a whole sheet is 17 billion). */
export function rangeArea(range: CellRange): number {
  return (range.bottom - range.top + 1) * (range.right - range.left + 1);
}
