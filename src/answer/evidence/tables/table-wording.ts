/**
 * How a table answer writes what it read: a row as a subject ("Net income", "Diluted earnings per share";
 * its section otherwise only where another row has the same label), a column as a period ("in 2019", "at December 31, 2019", "(Fair
 * value, 2019)"), a cell as an amount with its unit ("$1,452.4 million", "$558,929 thousand ($558.9
 * million)", "73.2%"), several items as a list, and the rows used as the citation's quote (as printed).
 */
import type { AnswerValue } from "../../answer-events.js";
import type { QuotedPassage } from "../../citations/citations.js";
import { describePeriod, periodMentions } from "./period-mentions.js";
import { decimalsOf, formatAmount, type Unit } from "./table-arithmetic.js";
import { type GridColumn, type GridRow, headerWords, type TableGrid } from "./table-grid.js";
import type { Cell, Reading } from "./table-reading.js";

export const PERCENT_UNIT: Unit = { currency: null, scale: null, percent: true };

/** "Total debt (2)" → "Total debt"; "Revenues:" → "Revenues". */
export function cleanLabel(label: string): string {
  return label
    .replace(/\s*\((?:\d{1,2}|[a-z]|[ivx]+)\)\s*$/i, "")
    .replace(/\s*\[\d+\]\s*$/, "")
    .replace(/[\s:*.]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * A section as the words after a label: "OPERATING EXPENSES" → "operating expenses", "Earnings per share"
 * → "earnings per share"; a name with capitals of its own ("North America") stays as printed.
 */
function asContext(section: string): string {
  const letters = section.replace(/[^\p{L}]/gu, "");
  if (letters.length > 3 && letters === letters.toUpperCase()) return section.toLowerCase();
  return /^\p{Lu}[^\p{Lu}]*$/u.test(section) ? `${section.charAt(0).toLowerCase()}${section.slice(1)}` : section;
}

/** A one-word label names only a part of its section ("Diluted", "Casino", "Federal"): alone it says too little. */
export function namesOnlyAPart(label: string): boolean {
  return !/\s/.test(label.trim());
}

/**
 * The row as a subject: its label as a reader names the measure ("Net income", not "Net income (Other
 * income (expense))" — a section in brackets reads as part of the measure). The section is named only
 * where the label needs it: a one-word label reads with it ("Diluted earnings per share", "Federal
 * deferred"), and a label another row of the grid (when given) shares under another section is told
 * apart by it ("Net income under discontinued operations").
 */
export function subjectOf(row: GridRow, grid?: TableGrid): string {
  const label = cleanLabel(row.label);
  const section = row.section === null ? "" : cleanLabel(row.section);
  if (section === "" || label.toLowerCase().includes(section.toLowerCase())) return label;
  if (namesOnlyAPart(label)) return `${label} ${asContext(section)}`;
  const key = label.toLowerCase();
  const shared = grid?.rows.some(
    (other) => other !== row && other.section !== row.section && cleanLabel(other.label).toLowerCase() === key,
  );
  return shared ? `${label} under ${asContext(section)}` : label;
}

export function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** "a", "a and b", "a, b and c". */
export function listed(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "2019", "December 31, 2019", "Q1 2019": the period a column names, or its header. */
export function periodName(column: GridColumn): string {
  const header = column.header.replace(/\s+/g, " ").trim();
  if (column.period === null) return header;
  // "Years Ended September 30, 2018" is the year 2018; "As of December 31, 2019" the date.
  const isYearEnd = /\b(?:years?|fiscal)\b/i.test(header) && column.period.quarter === undefined;
  return describePeriod(isYearEnd ? { year: column.period.year } : column.period);
}

function samePeriod(left: GridColumn, right: GridColumn): boolean {
  return (
    left.period !== null &&
    right.period !== null &&
    left.period.year === right.period.year &&
    left.period.quarter === right.period.quarter &&
    left.period.month === right.period.month
  );
}

/**
 * "in 2019", "at December 31, 2019", "(Fair value, December 31, 2019)": where a column's value stands. A
 * period column is named by its period alone unless another column of `grid` has the same period.
 */
export function columnPhrase(column: GridColumn, grid?: TableGrid): string {
  const header = column.header.replace(/\s+/g, " ").trim();
  if (header === "") return "";
  const name = periodName(column);
  const shared =
    grid?.columns.some((other) => other !== column && samePeriod(other, column) && !other.percentColumn) ?? true;
  if (column.period !== null && (column.terms.size === 0 || !shared))
    return /^[A-Z][a-z]+ \d{1,2}, \d{4}$/.test(name) ? `at ${name}` : `in ${name}`;
  const mentions = periodMentions(header);
  const withoutPeriods = mentions.reduceRight(
    (text, mention) => text.slice(0, mention.start) + text.slice(mention.end),
    header,
  );
  const words = headerWords(withoutPeriods)
    .replace(/[(),:]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (column.period !== null && words !== "") return `(${words}, ${name})`;
  // "Current $'000" is the column "Current": its unit is written with the value.
  return `(${words === "" ? header : words})`;
}

/** A row of percentages: "(%)", "as a percentage of sales", "Gross margin", "Effective tax rate" (not "Amount at the … rate"). */
const PERCENT_LABEL = /%|\bpercent(?:age)?\b|\b(?:margin|rate|yield)\s*(?:\([^()]*\))?\s*$/i;

function isPercentRow(row: GridRow): boolean {
  return (
    PERCENT_LABEL.test(cleanLabel(row.label)) &&
    !/\b(?:amount|expense|income|cost|revenue|sales|cash)\b/i.test(row.label)
  );
}

/** Rows whose amounts take no scale: per-share amounts, counts of shares, days or people. */
const UNSCALED = /\bper\s+(?:\w+\s+)?share\b|\bper\s+unit\b|\bshares\b|\bnumber\s+of\b|\bdays\b|\bemployees\b/i;
/** Rows that are no money even in a table that prints "$" on its first row: terms, rates, counts, volumes. */
const NOT_MONEY =
  /\b(?:years?|months?|term|life|volatility|yield|ratio|rate|shares|number\s+of|units|employees|headcount|customers|stores|hours|days|tonnes|mwh|kwh|percent(?:age)?)\b|%/i;

export function unitOf(reading: Reading, cell: Cell): Unit {
  const percent = cell.value.percent || cell.column.percentColumn || isPercentRow(cell.row);
  const unscaled = UNSCALED.test(`${cell.row.label} ${cell.row.section ?? ""}`);
  const scale = percent || unscaled ? null : (cell.column.scale ?? reading.grid.scale ?? reading.fallbackScale);
  const tableCurrency = NOT_MONEY.test(cell.row.label) ? null : reading.grid.currency;
  return { currency: percent ? null : (cell.value.currency ?? tableCurrency), scale, percent };
}

/** A cell's amount as printed, with its unit: "$1,452.4 million"; `number` in its place when given (a deduction's size). */
export function written(reading: Reading, cell: Cell, number = cell.value.number): string {
  return formatAmount(number, unitOf(reading, cell), decimalsOf(cell.value.text));
}

const READABLE_SIGNIFICANT_DIGITS = 4;

/**
 * An amount of a million or more in the unit a reader expects, to four significant digits at least and
 * without trailing zeros: 558,929,000 → "$558.9 million", 1,234,567,000 → "$1.235 billion". Null below a
 * million (the printed figure reads well enough). `amount` is in units, its sign written first.
 */
export function inReadableUnit(amount: number, currency: string | null): string | null {
  const magnitude = Math.abs(amount);
  if (!Number.isFinite(magnitude) || magnitude < 1e6) return null;
  const [factor, unit] = magnitude >= 1e9 ? [1e9, "billion"] : [1e6, "million"];
  const value = magnitude / factor;
  const integerDigits = Math.floor(Math.log10(value)) + 1;
  const decimals = Math.max(0, READABLE_SIGNIFICANT_DIGITS - integerDigits);
  const digits = value.toLocaleString("en-US", { maximumFractionDigits: decimals, minimumFractionDigits: 0 });
  return `${amount < 0 ? "-" : ""}${currency ?? ""}${digits} ${unit}`;
}

/**
 * A cell's amount as a direct answer states it: as printed with its unit, and a thousands figure also in
 * a readable unit — "$558,929 thousand ($558.9 million)". The printed figure stays first (and in
 * `Answer.value` and the quote): it is the one a reader finds in the table.
 */
export function writtenForReader(reading: Reading, cell: Cell): string {
  const text = written(reading, cell);
  const unit = unitOf(reading, cell);
  if (unit.percent || unit.scale !== "thousand") return text;
  const readable = inReadableUnit(cell.value.number * 1_000, unit.currency);
  return readable === null ? text : `${text} (${readable})`;
}

export function scaleName(unit: Unit): AnswerValue["scale"] {
  return unit.percent ? "percent" : (unit.scale ?? "");
}

/** The rows used, quoted as the table prints them, each value named by its column. */
export function quoteRows(grid: TableGrid, rows: readonly GridRow[]): QuotedPassage {
  const unique = [...new Set(rows)];
  const text = unique
    .map((row) => {
      const values = grid.columns
        .map((column) => ({ column, value: row.values[column.index - 1] }))
        .filter((entry) => entry.value !== null && entry.value !== undefined)
        .map((entry) =>
          entry.column.header === "" ? entry.value?.text : `${entry.column.header}: ${entry.value?.text}`,
        );
      const section = row.section === null ? "" : `${row.section} › `;
      return `${section}${cleanLabel(row.label)} — ${values.join("; ")}`;
    })
    .join(" / ");
  const start = Math.min(...unique.map((row) => row.start));
  const end = Math.max(...unique.map((row) => row.end));
  return { text, start, end };
}

/** A row that says it is deducted ("Less voyage expenses (141,770)"): its amount is what is deducted. */
const DEDUCTION = /^\s*less\b/i;

/**
 * The numbers an average or a sum is worked from: a row that says it is deducted and prints negative
 * ("Less voyage expenses (141,770)") is averaged as the amounts deducted — "the average voyage expenses"
 * are a cost, not a negative figure; any other row keeps the signs it prints.
 */
export function amountsFor(cells: readonly Cell[]): number[] {
  const numbers = cells.map((cell) => cell.value.number);
  const deductions = cells.every(
    (cell) => cell.value.number < 0 && DEDUCTION.test(`${cell.row.label} ${cell.row.section ?? ""}`),
  );
  return deductions ? numbers.map((number) => Math.abs(number)) : numbers;
}
