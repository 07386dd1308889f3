/**
 * Answers a question from a table the way a reader would work it out: find the row (or two) and the
 * column(s) the question names (table-operands.ts), do the operation it asks (table-question.ts) on those
 * cells, and write one sentence that states the result first and shows the inputs it came from —
 * "Other fell by 12.6 from 56.7 in 2018 to 44.1 in 2019 (-22.2%) [1]." The cited quote is the row(s)
 * used. Returns null when the table does not hold what the question names.
 */
import type { AnswerValue } from "../answer-events.js";
import type { QuotedPassage } from "../citations.js";
import type { NumberedSource } from "../generator.js";
import type { UnitScale } from "../table-cells.js";
import { describePeriod, periodFit } from "./period-mentions.js";
import {
  average,
  computedDecimals,
  decimalsOf,
  formatAmount,
  formatDigits,
  percentChange,
  plainNumber,
  roundTo,
  type Unit,
} from "./table-arithmetic.js";
import {
  type GridColumn,
  type GridRow,
  type GridValue,
  headerWords,
  readTableGrid,
  type TableGrid,
} from "./table-grid.js";
import {
  columnForPeriod,
  defaultColumns,
  expandedTerms,
  namedColumns,
  type RowMatch,
  scoreRows,
} from "./table-operands.js";
import { readTableQuestion, type TableQuestion } from "./table-question.js";

export type TableAnswer = {
  source: NumberedSource;
  /** How surely the table holds what the question names: the matched row's score. */
  score: number;
  /** The answer's sentence, citing `[n]`. */
  write(n: number): string;
  quote: QuotedPassage;
  value: AnswerValue;
};

/** A row match must name at least this much of the question to answer it. */
const MINIMUM_ROW_SCORE = 1;

type Cell = { row: GridRow; column: GridColumn; value: GridValue & { number: number } };

type Reading = {
  grid: TableGrid;
  question: TableQuestion;
  /** A scale for the table's amounts when the table itself states none (its document's unit note). */
  fallbackScale: UnitScale | null;
};

/** "Total debt (2)" → "Total debt"; "Revenues:" → "Revenues". */
function cleanLabel(label: string): string {
  return label
    .replace(/\s*\((?:\d{1,2}|[a-z]|[ivx]+)\)\s*$/i, "")
    .replace(/\s*\[\d+\]\s*$/, "")
    .replace(/[:*]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The row as a subject: "Federal" under "Deferred" reads "Federal (Deferred)". */
function subjectOf(row: GridRow): string {
  const label = cleanLabel(row.label);
  const section = row.section === null ? "" : cleanLabel(row.section);
  if (section === "" || label.toLowerCase().includes(section.toLowerCase())) return label;
  return `${label} (${section})`;
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** "2019", "December 31, 2019", "Q1 2019": the period a column names, or its header. */
function periodName(column: GridColumn): string {
  const header = column.header.replace(/\s+/g, " ").trim();
  if (column.period === null) return header;
  // "Years Ended September 30, 2018" is the year 2018; "As of December 31, 2019" the date.
  const isYearEnd = /\b(?:years?|fiscal)\b/i.test(header) && column.period.quarter === undefined;
  return describePeriod(isYearEnd ? { year: column.period.year } : column.period);
}

/** "in 2019", "at December 31, 2019", "(Fair value, 2019)": where a column's value stands. */
function columnPhrase(column: GridColumn): string {
  const header = column.header.replace(/\s+/g, " ").trim();
  if (header === "") return "";
  const name = periodName(column);
  if (column.terms.size === 0 && column.period !== null)
    return /^[A-Z][a-z]+ \d{1,2}, \d{4}$/.test(name) ? `at ${name}` : `in ${name}`;
  const words = headerWords(header)
    .replace(/[(),:]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (column.period !== null && words !== "") return `(${words}, ${name})`;
  return `(${header})`;
}

const PERCENT_LABEL = /%|\bpercent(?:age)?\b|\bmargin\b|\brate\b|\bratio\b/i;

function unitOf(reading: Reading, cell: Cell): Unit {
  const percent = cell.value.percent || cell.column.percentColumn || PERCENT_LABEL.test(cell.row.label);
  const perShare = /\bper\s+(?:\w+\s+)?share\b|\bper\s+unit\b|\bshares\b|\bnumber\s+of\b|\bdays\b|\bemployees\b/i.test(
    `${cell.row.label} ${cell.row.section ?? ""}`,
  );
  const scale = percent || perShare ? null : (cell.column.scale ?? reading.grid.scale ?? reading.fallbackScale);
  return { currency: percent ? null : (cell.value.currency ?? reading.grid.currency), scale, percent };
}

function cellOf(row: GridRow, column: GridColumn | null | undefined): Cell | null {
  if (column === null || column === undefined) return null;
  const value = row.values[column.index - 1];
  if (value === null || value === undefined || value.number === null) return null;
  return { row, column, value: value as GridValue & { number: number } };
}

function written(reading: Reading, cell: Cell): string {
  return formatAmount(cell.value.number, unitOf(reading, cell), decimalsOf(cell.value.text));
}

function scaleName(unit: Unit): AnswerValue["scale"] {
  return unit.percent ? "percent" : (unit.scale ?? "");
}

/** The rows used, quoted as the table prints them, each value named by its column. */
function quoteRows(grid: TableGrid, rows: GridRow[]): QuotedPassage {
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

/** The periods' columns for a row, in the order the question names them; null when one is missing. */
function askedColumns(reading: Reading, row: GridRow, terms: TableQuestion["terms"]): GridColumn[] | null {
  const { question, grid } = reading;
  if (question.periods.length === 0) return defaultColumns(grid, terms, row);
  const columns: GridColumn[] = [];
  for (const period of question.periods) {
    const column = columnForPeriod(grid, period, terms, row);
    if (column === null) return null;
    if (!columns.includes(column)) columns.push(column);
  }
  return columns;
}

/** Oldest first, by the period each column names (its place in the table when none does). */
function chronological(columns: GridColumn[]): GridColumn[] {
  const key = (column: GridColumn) =>
    column.period === null
      ? -column.index
      : column.period.year * 10_000 +
        (column.period.quarter ?? 0) * 1000 +
        (column.period.month ?? 0) * 40 +
        (column.period.day ?? 0);
  return [...columns].sort((left, right) => key(left) - key(right));
}

type Plan = { score: number; rows: GridRow[]; write: (n: number) => string; value: AnswerValue };

function lookup(reading: Reading, match: RowMatch, terms: TableQuestion["terms"]): Plan | null {
  const columns = askedColumns(reading, match.row, terms);
  if (columns === null || columns.length === 0) return null;
  const cells = (reading.question.operation === "values" ? columns : columns.slice(0, 1))
    .map((column) => cellOf(match.row, column))
    .filter((cell) => cell !== null);
  if (cells.length === 0) return null;
  const subject = capitalized(subjectOf(match.row));
  const parts = cells.map((cell) => `${written(reading, cell)} ${columnPhrase(cell.column)}`.trim());
  const joined = parts.length === 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  const first = cells[0] as Cell;
  const single =
    cells.length === 1
      ? `${subject} ${columnPhrase(first.column)} was ${written(reading, first)}`.replace(/\s+/g, " ")
      : `${subject} was ${joined}`;
  return {
    score: match.score,
    rows: [match.row],
    write: (n) => `${single} [${n}].`,
    value: { items: cells.map((cell) => cell.value.text), scale: scaleName(unitOf(reading, first)) },
  };
}

function change(reading: Reading, match: RowMatch, terms: TableQuestion["terms"]): Plan | null {
  let columns = askedColumns(reading, match.row, terms);
  if (columns === null) return null;
  if (reading.question.periods.length < 2) {
    // "What was the change in X?" with no periods: the latest period against the one before it.
    const periodColumns = chronological(
      defaultColumns(reading.grid, terms, match.row).filter((column) => column.period !== null),
    );
    const latest = reading.question.periods.length === 1 ? columns[0] : periodColumns.at(-1);
    const latestAt = latest === undefined ? -1 : periodColumns.indexOf(latest);
    const previous = latestAt > 0 ? periodColumns[latestAt - 1] : undefined;
    if (latest === undefined || previous === undefined) return null;
    columns = [previous, latest];
  }
  const ordered = chronological(columns);
  const from = cellOf(match.row, ordered[0]);
  const to = cellOf(match.row, ordered.at(-1));
  if (from === null || to === null || from === to) return null;
  const unit = unitOf(reading, to);
  const decimals = Math.max(decimalsOf(from.value.text), decimalsOf(to.value.text));
  const difference = roundTo(to.value.number - from.value.number, decimals);
  const ratio = percentChange(from.value.number, to.value.number);
  const subject = capitalized(subjectOf(match.row));
  const direction = difference > 0 ? "rose" : difference < 0 ? "fell" : "was unchanged";
  const fromPhrase = `${written(reading, from)} ${columnPhrase(from.column)}`;
  const toPhrase = `${written(reading, to)} ${columnPhrase(to.column)}`;
  const percentText =
    ratio === null
      ? ""
      : `${formatAmount(ratio, { currency: null, scale: null, percent: true }, computedDecimals(ratio))}`;
  const asksPercent = reading.question.operation === "percentChange";
  if (asksPercent && ratio === null) return null;
  const amount = formatAmount(difference, unit, decimals, false);
  const sentence =
    difference === 0
      ? `${subject} was unchanged, ${fromPhrase} and ${toPhrase}`
      : asksPercent
        ? `${subject} ${direction} by ${percentText.replace(/^-/, "")}, from ${fromPhrase} to ${toPhrase} (a change of ${difference < 0 ? "-" : "+"}${amount})`
        : `${subject} ${direction} by ${amount}, from ${fromPhrase} to ${toPhrase}${percentText === "" ? "" : ` (${difference < 0 || (ratio ?? 0) < 0 ? "" : "+"}${percentText})`}`;
  const value = asksPercent ? (ratio as number) : difference;
  return {
    score: match.score,
    rows: [match.row],
    write: (n) => `${sentence.replace(/\s+/g, " ").replace(/ ,/g, ",")} [${n}].`,
    value: { items: [plainNumber(value)], scale: asksPercent ? "percent" : scaleName(unit) },
  };
}

/** The period column before `column` in time, among the row's period columns. */
function previousColumn(
  reading: Reading,
  row: GridRow,
  column: GridColumn,
  terms: TableQuestion["terms"],
): GridColumn | null {
  const periodColumns = chronological(
    defaultColumns(reading.grid, terms, row).filter((candidate) => candidate.period !== null),
  );
  const at = periodColumns.indexOf(column);
  return at > 0 ? (periodColumns[at - 1] ?? null) : null;
}

function aggregate(reading: Reading, match: RowMatch, terms: TableQuestion["terms"]): Plan | null {
  let columns = askedColumns(reading, match.row, terms);
  if (columns === null) return null;
  // "The 2019 average X": the average over 2019, of its closing and opening balances (2019's and 2018's).
  if (reading.question.operation === "average" && reading.question.periods.length === 1 && columns.length === 1) {
    const previous = previousColumn(reading, match.row, columns[0] as GridColumn, terms);
    if (previous !== null) columns = [columns[0] as GridColumn, previous];
  }
  const cells = columns.map((column) => cellOf(match.row, column)).filter((cell) => cell !== null);
  if (cells.length < 2) return null;
  const unit = unitOf(reading, cells[0] as Cell);
  const numbers = cells.map((cell) => cell.value.number);
  const isAverage = reading.question.operation === "average";
  const result = isAverage ? average(numbers) : numbers.reduce((sum, value) => sum + value, 0);
  const decimals = isAverage ? computedDecimals(result) : Math.max(...cells.map((cell) => decimalsOf(cell.value.text)));
  const inputs = cells.map((cell) =>
    formatDigits(cell.value.number, decimalsOf(cell.value.text)).replace(/^/, cell.value.number < 0 ? "-" : ""),
  );
  const periods = cells.map((cell) => periodName(cell.column));
  const periodList =
    periods.length === 2
      ? `${periods[0]} and ${periods[1]}`
      : `${periods.slice(0, -1).join(", ")} and ${periods.at(-1)}`;
  const subject = subjectOf(match.row);
  const formula = isAverage ? `(${inputs.join(" + ")}) / ${inputs.length}` : inputs.join(" + ");
  const sentence = isAverage
    ? `The average ${subject} over ${periodList} was ${formatAmount(roundTo(result, decimals), unit, decimals)} (${formula})`
    : `${capitalized(subject)} for ${periodList} adds up to ${formatAmount(roundTo(result, decimals), unit, decimals)} (${formula})`;
  return {
    score: match.score,
    rows: [match.row],
    write: (n) => `${sentence} [${n}].`,
    value: { items: [plainNumber(result)], scale: scaleName(unit) },
  };
}

/** Two rows the question names, in the order it names them, each with the term positions it takes. */
function twoRows(matches: RowMatch[]): [RowMatch, RowMatch] | null {
  const [first, ...rest] = matches.filter((match) => match.score >= MINIMUM_ROW_SCORE && match.contentMatches > 0);
  if (first === undefined) return null;
  const second = rest.find(
    (match) =>
      match.row !== first.row &&
      [...match.matched].some((index) => !first.matched.has(index)) &&
      ![...match.matched].every((index) => first.matched.has(index)),
  );
  if (second === undefined) return null;
  return first.firstAt <= second.firstAt ? [first, second] : [second, first];
}

/** The one column a two-item question reads both items in. */
function sharedColumn(reading: Reading, rows: GridRow[], terms: TableQuestion["terms"]): GridColumn | null {
  const period = reading.question.periods[0];
  const candidates = rows.map((row) =>
    period === undefined
      ? (defaultColumns(reading.grid, terms, row)[0] ?? null)
      : columnForPeriod(reading.grid, period, terms, row),
  );
  const [first] = candidates;
  return first !== null && first !== undefined && candidates.every((column) => column === first) ? first : null;
}

/** Two columns the question names by their headers' words ("domestic and international"), in its order. */
function twoColumns(reading: Reading, row: GridRow, terms: TableQuestion["terms"]): [GridColumn, GridColumn] | null {
  const named = namedColumns(reading.grid, terms).filter((entry) => row.values[entry.column.index - 1]?.number != null);
  const period = reading.question.periods[0];
  const inPeriod =
    period === undefined
      ? named
      : named.filter((entry) => entry.column.period !== null && periodFit(period, entry.column.period) > 0);
  const [first, ...rest] = inPeriod;
  if (first === undefined) return null;
  const second = rest.find((entry) => [...entry.matched].some((index) => !first.matched.has(index)));
  if (second === undefined) return null;
  return first.firstAt <= second.firstAt ? [first.column, second.column] : [second.column, first.column];
}

/** The two cells a two-item question names: two rows in one column, or one row in two named columns. */
function twoCells(
  reading: Reading,
  matches: RowMatch[],
  terms: TableQuestion["terms"],
): { a: Cell; b: Cell; score: number; column: GridColumn | null } | null {
  const pair = twoRows(matches);
  if (pair !== null) {
    const column = sharedColumn(
      reading,
      pair.map((match) => match.row),
      terms,
    );
    const [a, b] = pair.map((match) => cellOf(match.row, column));
    if (a && b) return { a, b, score: Math.min(pair[0].score, pair[1].score), column };
  }
  const best = matches[0];
  if (best === undefined || best.score < MINIMUM_ROW_SCORE) return null;
  const columns = twoColumns(reading, best.row, terms);
  if (columns === null) return null;
  const [a, b] = columns.map((column) => cellOf(best.row, column));
  return a && b ? { a, b, score: best.score, column: null } : null;
}

function twoItems(reading: Reading, matches: RowMatch[], terms: TableQuestion["terms"]): Plan | null {
  const found = twoCells(reading, matches, terms);
  if (found === null) return null;
  const { a, b, column } = found;
  const score = found.score;
  // Two rows are named by their labels; two columns of one row by the row and each column.
  const itemName = (cell: Cell) =>
    a.row !== b.row ? subjectOf(cell.row) : `${subjectOf(cell.row)} ${columnPhrase(cell.column)}`;
  const unit = unitOf(reading, a);
  const when = column === null ? "" : ` ${columnPhrase(column)}`;
  const operation = reading.question.operation;
  const nameA = itemName(a);
  const nameB = itemName(b);
  if (operation === "ratio") {
    const [numerator, denominator] = reading.question.denominatorFirst ? [b, a] : [a, b];
    if (denominator.value.number === 0) return null;
    const ratio = numerator.value.number / denominator.value.number;
    const percent = ratio * 100;
    const inputs = `${written(reading, numerator)} / ${written(reading, denominator)}`;
    const sentence = reading.question.asPercent
      ? `${capitalized(itemName(numerator))} was ${formatAmount(percent, { currency: null, scale: null, percent: true }, computedDecimals(percent))} of ${itemName(denominator)}${when} (${inputs})`
      : `The ratio of ${itemName(numerator)} to ${itemName(denominator)}${when} was ${formatDigits(ratio, computedDecimals(ratio))} (${inputs}, or ${formatAmount(percent, { currency: null, scale: null, percent: true }, computedDecimals(percent))})`;
    return {
      score,
      rows: [numerator.row, denominator.row],
      write: (n) => `${sentence} [${n}].`,
      value: reading.question.asPercent
        ? { items: [plainNumber(percent)], scale: "percent" }
        : { items: [plainNumber(ratio)], scale: "" },
    };
  }
  const decimals = Math.max(decimalsOf(a.value.text), decimalsOf(b.value.text));
  if (operation === "sum" || operation === "average") {
    const total = a.value.number + b.value.number;
    const result = operation === "average" ? total / 2 : total;
    const places = operation === "average" ? computedDecimals(result) : decimals;
    const formula =
      operation === "average"
        ? `(${written(reading, a)} + ${written(reading, b)}) / 2`
        : `${written(reading, a)} + ${written(reading, b)}`;
    const sentence =
      operation === "average"
        ? `The average of ${nameA} and ${nameB}${when} was ${formatAmount(result, unit, places)} (${formula})`
        : `${capitalized(nameA)} and ${nameB}${when} add up to ${formatAmount(result, unit, places)} (${formula})`;
    return {
      score,
      rows: [a.row, b.row],
      write: (n) => `${sentence} [${n}].`,
      value: { items: [plainNumber(result)], scale: scaleName(unit) },
    };
  }
  const difference = roundTo(a.value.number - b.value.number, decimals);
  const relation = difference >= 0 ? "more than" : "less than";
  const sentence = `${capitalized(nameA)}${when} was ${formatAmount(difference, unit, decimals, false)} ${relation} ${nameB} (${written(reading, a)} against ${written(reading, b)})`;
  return {
    score,
    rows: [a.row, b.row],
    write: (n) => `${sentence} [${n}].`,
    value: { items: [plainNumber(difference)], scale: scaleName(unit) },
  };
}

function ratioOfPeriods(reading: Reading, match: RowMatch, terms: TableQuestion["terms"]): Plan | null {
  const columns = askedColumns(reading, match.row, terms);
  if (columns === null || columns.length !== 2) return null;
  const [a, b] = columns.map((column) => cellOf(match.row, column));
  if (!a || !b || b.value.number === 0) return null;
  const ratio = a.value.number / b.value.number;
  const subject = subjectOf(match.row);
  const sentence = `The ratio of ${subject} ${columnPhrase(a.column)} to ${columnPhrase(b.column)} was ${formatDigits(ratio, computedDecimals(ratio))} (${written(reading, a)} / ${written(reading, b)})`;
  return {
    score: match.score,
    rows: [match.row],
    write: (n) => `${sentence} [${n}].`,
    value: { items: [plainNumber(ratio)], scale: "" },
  };
}

function whichPeriod(reading: Reading, match: RowMatch, terms: TableQuestion["terms"]): Plan | null {
  const columns = askedColumns(reading, match.row, terms);
  if (columns === null) return null;
  const cells = columns
    .map((column) => cellOf(match.row, column))
    .filter((cell): cell is Cell => cell !== null && cell.column.period !== null);
  if (cells.length < 2) return null;
  const wantMax = reading.question.extreme !== "min";
  const sorted = [...cells].sort((left, right) =>
    wantMax ? right.value.number - left.value.number : left.value.number - right.value.number,
  );
  const best = sorted[0] as Cell;
  if (sorted[1] !== undefined && sorted[1].value.number === best.value.number) return null;
  const subject = capitalized(subjectOf(match.row));
  const others = sorted.slice(1).map((cell) => `${written(reading, cell)} in ${periodName(cell.column)}`);
  const word = cells.length === 2 ? (wantMax ? "higher" : "lower") : wantMax ? "highest" : "lowest";
  const bestName = periodName(best.column);
  const sentence = `${subject} was ${word} in ${bestName}: ${written(reading, best)}, against ${others.join(" and ")}`;
  return {
    score: match.score,
    rows: [match.row],
    write: (n) => `${sentence} [${n}].`,
    value: { items: [String(best.column.period?.year ?? bestName)], scale: "" },
  };
}

function countPeriods(reading: Reading, match: RowMatch, terms: TableQuestion["terms"]): Plan | null {
  const threshold = reading.question.threshold;
  if (threshold === null) return null;
  const columns = askedColumns(reading, match.row, terms);
  if (columns === null) return null;
  const cells = columns
    .map((column) => cellOf(match.row, column))
    .filter((cell): cell is Cell => cell !== null && cell.column.period !== null);
  if (cells.length < 2) return null;
  const unit = unitOf(reading, cells[0] as Cell);
  const factor = { thousand: 1e3, million: 1e6, billion: 1e9 }[unit.scale ?? "thousand"] ?? 1;
  // "exceed $200,000 thousand" of a table in thousands is 200,000; "$2 million" of the same table is 2,000.
  const limit =
    unit.scale === null || threshold.scale === 1 ? threshold.value : (threshold.value * threshold.scale) / factor;
  const above = reading.question.extreme !== "min";
  const passing = cells.filter((cell) => (above ? cell.value.number > limit : cell.value.number < limit));
  const names = passing.map((cell) => periodName(cell.column));
  const subject = subjectOf(match.row);
  const list = names.length === 0 ? "" : ` (${names.join(", ")})`;
  const sentence = `${capitalized(subject)} was ${above ? "above" : "below"} ${threshold.text.replace(/^\w+(?:\s+than)?\s+/i, "")} in ${passing.length} of the ${cells.length} periods shown${list}`;
  return {
    score: match.score,
    rows: [match.row],
    write: (n) => `${sentence} [${n}].`,
    value: { items: [String(passing.length)], scale: "" },
  };
}

/** Rows under a section the question names ("How many components are there under deferred tax assets?"). */
function countItems(reading: Reading, terms: TableQuestion["terms"]): Plan | null {
  const sections = new Map<string, GridRow[]>();
  for (const row of reading.grid.rows) {
    if (row.section === null || /^total\b/i.test(row.label)) continue;
    sections.set(row.section, [...(sections.get(row.section) ?? []), row]);
  }
  let best: { section: string; rows: GridRow[]; hits: number } | null = null;
  for (const [section, rows] of sections) {
    const words = new Set(terms.map((term) => term.term));
    const hits =
      [...expandedTerms([])].length +
      [...new Set(section.toLowerCase().split(/\W+/))].filter((word) => words.has(word)).length;
    if (hits > 0 && (best === null || hits > best.hits)) best = { section, rows, hits };
  }
  const rows = best?.rows ?? reading.grid.rows.filter((row) => !/^total\b/i.test(row.label));
  if (rows.length === 0) return null;
  const names = rows.map((row) => cleanLabel(row.label));
  const where = best === null ? "in the table" : `under ${cleanLabel(best.section)}`;
  const sentence = `There are ${rows.length} items ${where}: ${names.join("; ")}`;
  return {
    score: best === null ? 0.5 : 1 + best.hits,
    rows,
    write: (n) => `${sentence} [${n}].`,
    value: { items: [String(rows.length)], scale: "" },
  };
}

function planFor(reading: Reading): Plan | null {
  const { question, grid } = reading;
  const terms = expandedTerms(question.terms);
  if (question.operation === "countItems") return countItems(reading, terms);
  const matches = scoreRows(grid, question, terms);
  const best = matches[0];
  const usable = best !== undefined && best.score >= MINIMUM_ROW_SCORE && best.contentMatches > 0 ? best : null;
  switch (question.operation) {
    case "lookup":
    case "values":
      return usable === null ? null : lookup(reading, usable, terms);
    case "change":
    case "percentChange":
      // "How much more A than B in 2019?": two items in one period; "the change in A from 2018 to 2019": one item, two periods.
      if (question.periods.length <= 1 && question.operation === "change") {
        const items = twoItems({ ...reading, question: { ...question, operation: "difference" } }, matches, terms);
        if (items !== null && (usable === null || items.score >= usable.score - 0.5)) return items;
      }
      return usable === null ? null : change(reading, usable, terms);
    case "average":
    case "sum": {
      const single = usable === null ? null : aggregate(reading, usable, terms);
      if (single !== null) return single;
      return twoItems(reading, matches, terms);
    }
    case "ratio": {
      const items = twoItems(reading, matches, terms);
      if (items !== null) return items;
      return usable === null ? null : ratioOfPeriods(reading, usable, terms);
    }
    case "difference":
      return twoItems(reading, matches, terms);
    case "whichPeriod":
      return usable === null ? null : whichPeriod(reading, usable, terms);
    case "countPeriods":
      return usable === null ? null : countPeriods(reading, usable, terms);
  }
}

/**
 * The best answer any of the table passages among `sources` gives to `question`; null when none holds
 * what it names. `scaleOf` gives a document's unit note when its table states none.
 */
export function answerFromTables(
  questionText: string,
  sources: readonly NumberedSource[],
  scaleOf: (source: NumberedSource) => UnitScale | null = () => null,
): TableAnswer | null {
  const question = readTableQuestion(questionText);
  let best: TableAnswer | null = null;
  for (const [rank, source] of sources.entries()) {
    const grid = readTableGrid(source.result);
    if (grid === null) continue;
    const plan = planFor({ grid, question, fallbackScale: scaleOf(source) });
    if (plan === null) continue;
    const score = plan.score - 0.05 * rank;
    if (best === null || score > best.score)
      best = { source, score, write: plan.write, quote: quoteRows(grid, plan.rows), value: plan.value };
  }
  return best;
}
