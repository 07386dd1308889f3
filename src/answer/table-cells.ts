/**
 * Reads a table passage back into cells: each value with its row label (and the label of the
 * section row above it), its column header, the period that header names and the unit the table
 * states ("(In millions)" as the label column's header, "$ in thousands, except per share" in its
 * caption or section heading). A figure answer is built from one such cell, so it says what the
 * number is, for when, and in what unit — never a bare row of numbers.
 */

import { TABLE_CELL_SEPARATOR } from "../../ingestion/chunker.js";
import type { SearchResult } from "../domain/types.js";
import { namedPeriods, type Period } from "./question-analysis.js";
import { linesOf } from "./text-lines.js";

export type UnitScale = "thousand" | "million" | "billion";

export const SCALE_FACTORS: Record<UnitScale, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

export type TableCell = {
  /** The row's label as printed ("Net income"). */
  label: string;
  /** Labels of the section rows above it, outermost first ("Revenues" over "Total"). */
  parents: string[];
  /** The column header as printed ("2018", "Three Months Ended June 30, 2023"). */
  column: string;
  /** The cell as printed ("$ 1,933", "(6)", "12.4%"). */
  value: string;
  /** The value as a number in the table's unit; null for text or a dash. */
  number: number | null;
  period: Period | null;
  /** The table's scale, unless the row is per share or a percentage. */
  scale: UnitScale | null;
  percent: boolean;
  currency: string | null;
  /** The table's unit note as printed ("(In millions, except per share data)"), when it has one. */
  unitNote: string | null;
  /** Offsets of the cell's row in the passage text (for its page). */
  rowStart: number;
  rowEnd: number;
};

const SCALE_NOTE =
  /\b(?:in|\$|usd|amounts? in|dollars in)\s*(?:\$\s*)?(thousands|millions|billions)\b|\((thousands|millions|billions)\b[^()]*\)|\(\$?(000)'?s?\)/i;
const SCALES: Record<string, UnitScale> = {
  thousands: "thousand",
  "000": "thousand",
  millions: "million",
  billions: "billion",
};
/** Rows whose amounts the table's scale does not apply to. */
const UNSCALED_ROW =
  /\bper\s+(?:common\s+|diluted\s+|basic\s+)?share\b|\beps\b|\bper\s+unit\b|\bratio\b|\b(?:number|count)\s+of\b|\bshares\b|%|\bpercent(?:age)?\b|\bmargin\b|\brate\b|\bdays\b|\bemployees\b|\bheadcount\b/i;
const NUMBER = /^\(?\s*([$€£¥])?\s*\(?\s*(-|−)?([\d,]*\.?\d+)\s*\)?\s*(%)?\s*\)?$/;

/** A cell's number in the table's unit: "$ 1,933" is 1933, "(6)" is -6, "12.4%" is 12.4; null otherwise. */
export function parseCellNumber(value: string): { number: number; currency: string | null; percent: boolean } | null {
  const trimmed = value.trim();
  const match = NUMBER.exec(trimmed);
  if (!match) return null;
  const digits = (match[3] ?? "").replace(/,/g, "");
  if (digits === "" || !/\d/.test(digits)) return null;
  const negative = trimmed.startsWith("(") || trimmed.includes("(") || match[2] !== undefined;
  const number = Number(digits) * (negative ? -1 : 1);
  if (!Number.isFinite(number)) return null;
  return { number, currency: match[1] ?? null, percent: match[4] !== undefined };
}

/** The scale a table states in its unit note, caption or heading. */
export function scaleOf(text: string): UnitScale | null {
  const match = SCALE_NOTE.exec(text);
  if (!match) return null;
  const word = (match[1] ?? match[2] ?? match[3] ?? "").toLowerCase();
  return SCALES[word] ?? null;
}

/**
 * The unit note of the page a table stands on, when the page states exactly one scale ("CONSOLIDATED
 * STATEMENTS OF OPERATIONS (in millions, except per share data)" set above the table, outside it).
 */
export function pageScale(pageText: string): { scale: UnitScale; note: string } | null {
  const notes = [...pageText.matchAll(new RegExp(SCALE_NOTE.source, "gi"))];
  const scales = new Set(notes.map((note) => scaleOf(note[0])));
  const first = notes[0];
  if (first === undefined || scales.size !== 1) return null;
  const scale = scaleOf(first[0]);
  if (scale === null) return null;
  // The note as printed: its parenthesis when it has one ("(in millions, except per share data)").
  const at = first.index ?? 0;
  const open = pageText.lastIndexOf("(", at);
  const close = pageText.indexOf(")", at);
  const inParenthesis = open >= 0 && close > at && !pageText.slice(open, at).includes(")") && close - open < 80;
  const note = inParenthesis ? pageText.slice(open, close + 1) : first[0];
  return { scale, note: note.replace(/\s+/g, " ").trim() };
}

/** Whether a cell's amount takes its table's scale: not a per-share amount, a count or a percentage. */
export function takesTableScale(cell: Pick<TableCell, "label" | "parents" | "percent">): boolean {
  return !cell.percent && ![cell.label, ...cell.parents].some((label) => UNSCALED_ROW.test(label));
}

/** The period a column header names: "2018", "Fiscal 2018", "Q1 2023", "Three Months Ended March 31, 2023". */
export function periodOfColumn(header: string): Period | null {
  const periods = namedPeriods(header);
  if (periods.length !== 1) return null;
  // A year that ends in January or February ("January 28, 2023") is, for most such companies, the
  // fiscal year named after the year before: which year it is cannot be read from the header alone.
  if (/\b(?:jan(?:uary)?|feb(?:ruary)?)\.?\s+\d{1,2},?\s+(?:19|20)\d{2}\b/i.test(header) && !/\bfiscal\b/i.test(header))
    return null;
  const period = periods[0] as Period;
  if (period.quarter === undefined && /\bthree\s+months\b|\bquarter\b/i.test(header)) {
    const month = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.exec(header)?.[1]?.toLowerCase();
    const calendarQuarter: Record<string, number> = { mar: 1, jun: 2, sep: 3, dec: 4 };
    const quarter = month === undefined ? undefined : calendarQuarter[month];
    return quarter === undefined ? period : { ...period, quarter };
  }
  return period;
}

/** The cells of a table passage; none for prose or a table without numbers. */
export function tableCells(result: Pick<SearchResult, "text" | "kind" | "provenance">): TableCell[] {
  if (result.kind !== "table") return [];
  const { rowStart, rowEnd, headingPath } = result.provenance;
  if (rowStart === undefined || rowEnd === undefined) return [];
  const lines = linesOf(result.text);
  // Every piece of a table repeats its header row; a row range that leaves no line for it (a PDF table
  // whose header the detector counted as a row) still has it first.
  const rowCount = Math.min(
    rowEnd - rowStart + 1,
    result.provenance.columns === undefined ? lines.length - 1 : lines.length,
  );
  if (rowCount < 1) return [];
  const rows = lines.slice(lines.length - rowCount);
  const above = lines.slice(0, lines.length - rowCount);
  let header = result.provenance.columns ?? above.at(-1)?.text.split(TABLE_CELL_SEPARATOR) ?? [];
  const context = [...above.map((line) => line.text), ...(headingPath ?? [])].join(" \n ");
  const tableScale = scaleOf(context);
  const unitNote = header[0] !== undefined && scaleOf(header[0]) !== null ? header[0].trim() : null;
  // A header without periods ("Year Ended May 31,") may have them in the first row ("| 2018 | 2017").
  let firstDataRow = 0;
  const headerPeriods = header.slice(1).filter((cell) => periodOfColumn(cell) !== null).length;
  const firstRowCells = rows[0]?.text.split(TABLE_CELL_SEPARATOR) ?? [];
  if (
    headerPeriods === 0 &&
    firstRowCells.slice(1).filter((cell) => periodOfColumn(cell) !== null).length >= 1 &&
    firstRowCells.slice(1).every((cell) => cell.trim() === "" || periodOfColumn(cell) !== null)
  ) {
    header = header.map((cell, index) =>
      index === 0 ? cell : `${cell} ${firstRowCells[index] ?? ""}`.replace(/\s+/g, " ").trim(),
    );
    firstDataRow = 1;
  }
  // Statements print "$" on a column's first and total rows only: the rest of a money table is money too.
  const tableCurrency =
    rows
      .flatMap((row) => row.text.split(TABLE_CELL_SEPARATOR).slice(1))
      .map((cell) => parseCellNumber(cell)?.currency)
      .find(Boolean) ?? null;
  const cells: TableCell[] = [];
  let section: string | null = null;
  for (const row of rows.slice(firstDataRow)) {
    const rowCells = row.text.split(TABLE_CELL_SEPARATOR).map((cell) => cell.trim());
    const label = rowCells[0] ?? "";
    const values = rowCells.slice(1);
    if (label === "") continue;
    if (values.every((value) => value === "")) {
      // A row with a label and no values heads the rows below it ("Revenues:", "Other comprehensive income:").
      section = label.replace(/:$/, "");
      continue;
    }
    // "Diluted" under "Earnings per common share:" is a per-share amount too.
    const unscaled = UNSCALED_ROW.test(label) || (section !== null && UNSCALED_ROW.test(section));
    // A total row sums its section ("Total net sales" after a segment's rows) or the table: it closes the section.
    const parents = section === null || /^total\b/i.test(label) ? [] : [section];
    if (/^total\b/i.test(label)) section = null;
    values.forEach((value, index) => {
      if (value === "") return;
      const parsed = parseCellNumber(value);
      const column = (header[index + 1] ?? "").trim();
      cells.push({
        label,
        parents,
        column,
        value,
        number: parsed?.number ?? null,
        period: periodOfColumn(column),
        scale: unscaled || parsed?.percent ? null : tableScale,
        percent: parsed?.percent ?? false,
        currency: parsed?.currency ?? (unscaled || parsed?.percent ? null : tableCurrency),
        unitNote,
        rowStart: row.start,
        rowEnd: row.end,
      });
    });
  }
  return cells;
}
