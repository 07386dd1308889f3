/**
 * Reads a table passage back into cells: each value with its row label (and the label of the
 * section row above it), its column header, the period that header names and the unit the table
 * states ("(In millions)" as the label column's header, "$ in thousands, except per share" in its
 * caption or section heading). A figure answer is built from one such cell, so it says what the
 * number is, for when, and in what unit — never a bare row of numbers.
 */

import { TABLE_CELL_SEPARATOR } from "../../../ingestion/chunker.js";
import type { SearchResult } from "../../domain/types.js";
import { namedPeriods, type Period } from "../question/question-analysis.js";
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

/** A column of part of a year that is not a quarter: no question's year or quarter is read from it. */
const PART_OF_YEAR =
  /\b(?:six|nine|6|9|twenty[- ]six|thirty[- ]nine|26|39)[- ](?:months?|weeks?)\b|\bhalf[- ]year\b|\bytd\b|\byear[- ]to[- ]date\b/i;
const QUARTER_LENGTH = /\b(?:three|3)[- ]months?\b|\b(?:thirteen|fourteen|13|14)[- ]weeks?\b|\bquarter\b/i;
const JANUARY_OR_FEBRUARY_END = /\b(?:jan(?:uary)?|feb(?:ruary)?)\.?\s+\d{1,2},?\s+((?:19|20)\d{2})\b/i;
/** A fiscal year named by its number ("Fiscal 2022", "FY2022"), not "Fiscal Year Ended …". */
const FISCAL_YEAR_NUMBER = /\b(?:fiscal(?:\s+year)?\s+|FY\s?)(?:19|20)\d{2}\b/i;

/**
 * The period a column header names: "2018", "Fiscal 2018", "Q1 2023", "Three Months Ended March 31, 2023".
 * A period ending in January or February ("52 Weeks Ended January 28, 2023") belongs to the fiscal year
 * its document names it by: `januaryYearShift` is that year less the calendar year it ends in (-1 for a
 * retailer whose "fiscal 2022" ends in January 2023), null when the document does not say (no period).
 */
export function periodOfColumn(header: string, januaryYearShift: number | null = null): Period | null {
  const periods = namedPeriods(header);
  if (periods.length !== 1 || PART_OF_YEAR.test(header)) return null;
  const period = periods[0] as Period;
  const januaryEnd = JANUARY_OR_FEBRUARY_END.exec(header);
  if (januaryEnd !== null && !FISCAL_YEAR_NUMBER.test(header)) {
    if (januaryYearShift === null) return null;
    const year = Number(januaryEnd[1]) + januaryYearShift;
    // A fiscal year that ends in January ends its fourth quarter there too.
    return QUARTER_LENGTH.test(header) ? { year, quarter: 4 } : { year };
  }
  if (period.quarter === undefined && QUARTER_LENGTH.test(header)) {
    const month = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.exec(header)?.[1]?.toLowerCase();
    const calendarQuarter: Record<string, number> = { mar: 1, jun: 2, sep: 3, dec: 4 };
    const quarter = month === undefined ? undefined : calendarQuarter[month];
    // A quarter whose place in the year cannot be read is no year's figure either.
    return quarter === undefined ? null : { ...period, quarter };
  }
  return period;
}

/** The calendar year a column's period ends in, whatever its length ("Six Months Ended June 30, 2023" → 2023). */
export function yearColumnEnds(header: string): number | null {
  const years = namedPeriods(header);
  return years.length === 1 ? (years[0] as Period).year : null;
}

const MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
const FULL_DATE = new RegExp(`\\b${MONTH}\\s+\\d{1,2},?\\s+(?:19|20)\\d{2}\\b`, "gi");
const MONTH_DAY = new RegExp(`\\b${MONTH}\\s+\\d{1,2}\\b,?`, "gi");
const YEAR_ONLY = /\b(?:19|20)\d{2}\b/g;

/**
 * The columns a grouped header spans, when a PDF's table reader kept them as one: "Three Months Ended
 * December 31, 2022 December 31, 2021" is two columns, "13 Weeks Ended January 28, January 29, 2023
 * 2022" two, "2023 2022 2021" three. A header naming one period or none is one column.
 */
export function columnsOfHeader(header: string): string[] {
  const text = header.replace(/\s+/g, " ").trim();
  const years = [...text.matchAll(YEAR_ONLY)];
  if (years.length < 2) return [header];
  const dates = [...text.matchAll(FULL_DATE)];
  const monthDays = [...text.matchAll(MONTH_DAY)];
  const prefix = text.slice(0, Math.min(years[0]?.index ?? 0, monthDays[0]?.index ?? text.length)).trim();
  // "December 31, 2022 December 31, 2021": each date whole.
  if (dates.length === years.length && monthDays.length === years.length)
    return dates.map((date) => `${prefix} ${date[0]}`.trim());
  // "January 28, January 29, 2023 2022": the days, then their years, in the same order; "May 31, 2018 2017": one day for all.
  if (monthDays.length !== years.length && monthDays.length > 1) return [header];
  return years.map((year, index) => {
    const monthDay = (monthDays.length === 1 ? monthDays[0] : monthDays[index])?.[0].replace(/,?$/, ",") ?? "";
    return `${prefix} ${monthDay} ${year[0]}`.replace(/\s+/g, " ").trim();
  });
}

/** "$ 1,548,762 $ 1,527,818" → its two amounts; "—" is a value too. */
const VALUE_TOKEN = /[$€£¥]?\s*\(?\s*[$€£¥]?\s*[-−]?\d[\d,]*(?:\.\d+)?\s*%?\s*\)?%?|[—–]/g;

function valueTokens(text: string): string[] {
  return [...text.matchAll(VALUE_TOKEN)].map((match) => match[0].replace(/\s+/g, " ").trim());
}

/**
 * A row's values, each with its column. Most rows have one value per header cell. A PDF row read with
 * several amounts in a cell (two periods' amounts under one grouped header, or a "% of sales" beside
 * each amount that the header does not name) is read as its amounts in order, when they are exactly as
 * many as the columns the header spans; otherwise each cell keeps its header cell.
 */
function alignValues(values: string[], headerCells: string[]): Array<{ value: string; column: string }> {
  const byCell = values.map((value, index) => ({ value, column: (headerCells[index] ?? "").trim() }));
  const oneValueEach = values.every((value) => valueTokens(value).length <= 1);
  if (oneValueEach && values.length <= headerCells.length) return byCell;
  const joined = values.join(" ");
  if (joined.replace(VALUE_TOKEN, "").replace(/[\s$€£¥]/g, "") !== "") return byCell;
  const columns = headerCells.flatMap(columnsOfHeader).map((column) => column.trim());
  if (columns.length < 2) return byCell;
  const tokens = valueTokens(joined);
  const amounts = columns.some((column) => column.includes("%"))
    ? tokens
    : tokens.filter((token) => !token.includes("%"));
  for (const candidate of [tokens, amounts])
    if (candidate.length === columns.length)
      return candidate.map((value, index) => ({ value, column: columns[index] ?? "" }));
  return byCell;
}

/** "Three Months Ended", "52 Weeks Ended": how long a table's periods are, when its caption says it once. */
const PERIOD_LENGTH =
  /\b(?:three|six|nine|twelve|thirteen|fourteen|fifty[- ]two|fifty[- ]three|\d{1,2})[- ](?:months?|weeks?)\s+ended\b|\b(?:fiscal\s+)?years?\s+ended\b/gi;

/** How to read a table's periods: see periodOfColumn. */
export type TableReading = { januaryYearShift?: number | null };

/** The cells of a table passage; none for prose or a table without numbers. */
export function tableCells(
  result: Pick<SearchResult, "text" | "kind" | "provenance">,
  reading: TableReading = {},
): TableCell[] {
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
  let context = [...above.map((line) => line.text), ...(headingPath ?? [])].join(" \n ");
  const namesPeriods = (cell: string) => namedPeriods(cell).length > 0;
  // A header without periods ("Year Ended May 31,") may have them in the first row ("| 2018 | 2017").
  let firstDataRow = 0;
  const firstRowCells = rows[0]?.text.split(TABLE_CELL_SEPARATOR) ?? [];
  if (
    !header.slice(1).some(namesPeriods) &&
    firstRowCells.slice(1).some(namesPeriods) &&
    firstRowCells.slice(1).every((cell) => cell.trim() === "" || namedPeriods(cell).length === valueTokens(cell).length)
  ) {
    header = header.map((cell, index) =>
      index === 0 ? cell : `${cell} ${firstRowCells[index] ?? ""}`.replace(/\s+/g, " ").trim(),
    );
    context = `${context} \n ${firstRowCells[0] ?? ""}`;
    firstDataRow = 1;
  }
  // "(In thousands) — 13 Weeks Ended" above a header of dates: the length belongs to every column.
  const lengths = [...context.matchAll(PERIOD_LENGTH)];
  if (lengths.length === 1 && !header.slice(1).some((cell) => PERIOD_LENGTH.test(cell) || /\bquarter\b/i.test(cell)))
    header = header.map((cell, index) =>
      index === 0 || cell.trim() === "" ? cell : `${lengths[0]?.[0]} ${cell.trim()}`,
    );
  PERIOD_LENGTH.lastIndex = 0;
  const tableScale = scaleOf(context) ?? (header[0] === undefined ? null : scaleOf(header[0]));
  const unitNote =
    header[0] !== undefined && scaleOf(header[0]) !== null
      ? header[0].trim()
      : firstDataRow === 1 && scaleOf(firstRowCells[0] ?? "") !== null
        ? (firstRowCells[0] ?? "").trim()
        : null;
  // Statements print "$" on a column's first and total rows only: the rest of a money table is money too.
  const tableCurrency =
    rows
      .flatMap((row) => valueTokens(row.text.split(TABLE_CELL_SEPARATOR).slice(1).join(" ")))
      .map((token) => parseCellNumber(token)?.currency)
      .find(Boolean) ?? null;
  const cells: TableCell[] = [];
  let section: string | null = null;
  let sectionRows = 0;
  for (const row of rows.slice(firstDataRow)) {
    const rowCells = row.text.split(TABLE_CELL_SEPARATOR).map((cell) => cell.trim());
    let label = rowCells[0] ?? "";
    const values = rowCells.slice(1);
    if (values.every((value) => value === "")) {
      // A row with a label and no values heads the rows below it ("Revenues:", "Other comprehensive income:").
      if (label !== "") {
        section = label.replace(/:$/, "");
        sectionRows = 0;
      }
      continue;
    }
    if (label === "") {
      // Statements print a section's sum without a label, under its rows: "Revenues" … "| 3,592,216".
      const amountsOnly = values.every((value) => value === "" || valueTokens(value).length > 0);
      if (section === null || sectionRows === 0 || !amountsOnly) continue;
      label = `Total ${section.charAt(0).toLowerCase()}${section.slice(1)}`;
    }
    sectionRows += 1;
    // "Diluted" under "Earnings per common share:" is a per-share amount too.
    const unscaled = UNSCALED_ROW.test(label) || (section !== null && UNSCALED_ROW.test(section));
    // A total row sums its section ("Total net sales" after a segment's rows) or the table: it closes the section.
    const parents = section === null || /^total\b/i.test(label) ? [] : [section];
    if (/^total\b/i.test(label)) section = null;
    for (const { value, column } of alignValues(values, header.slice(1))) {
      if (value === "") continue;
      const parsed = parseCellNumber(value);
      cells.push({
        label,
        parents,
        column,
        value,
        number: parsed?.number ?? null,
        period: periodOfColumn(column, reading.januaryYearShift ?? null),
        scale: unscaled || parsed?.percent ? null : tableScale,
        percent: parsed?.percent ?? false,
        currency: parsed?.currency ?? (unscaled || parsed?.percent ? null : tableCurrency),
        unitNote,
        rowStart: row.start,
        rowEnd: row.end,
      });
    }
  }
  return cells;
}
