/**
 * Plans that read one row the question names across the columns of its periods: its value (or values),
 * the change or percentage change between two periods, an average or a sum over several, the ratio of
 * two periods', the period in which it was highest or lowest (or past a threshold), and how many periods
 * it passed a threshold in.
 */
import {
  average,
  computedDecimals,
  decimalsOf,
  formatAmount,
  formatDigits,
  percentChange,
  plainNumber,
  roundTo,
} from "./table-arithmetic.js";
import type { GridColumn } from "./table-grid.js";
import { defaultColumns, type RowMatch } from "./table-operands.js";
import {
  askedColumns,
  type Cell,
  cellsOf,
  chronological,
  type Plan,
  previousColumn,
  type Reading,
  type Terms,
} from "./table-reading.js";
import {
  amountsFor,
  capitalized,
  columnPhrase,
  listed,
  PERCENT_UNIT,
  periodName,
  scaleName,
  subjectOf,
  unitOf,
  written,
  writtenForReader,
} from "./table-wording.js";

function plan(match: RowMatch, sentence: string, value: Plan["value"]): Plan {
  return {
    score: match.score,
    rows: [match.row],
    write: (n) => `${sentence.replace(/\s+/g, " ").replace(/ ,/g, ",")} [${n}].`,
    value,
  };
}

/** The row's value in the asked column, or (several periods, "respectively") in each asked column. */
export function lookup(reading: Reading, match: RowMatch, terms: Terms): Plan | null {
  const columns = askedColumns(reading, match.row, terms);
  if (columns === null || columns.length === 0) return null;
  const several = reading.question.operation === "values" && columns.length > 1;
  const cells = cellsOf(match.row, several ? columns : columns.slice(0, 1));
  const first = cells[0];
  if (first === undefined) return null;
  const subject = capitalized(subjectOf(match.row, reading.grid));
  const sentence =
    cells.length === 1
      ? `${subject} ${columnPhrase(first.column, reading.grid)} was ${writtenForReader(reading, first)}`
      : `${subject} was ${listed(cells.map((cell) => `${writtenForReader(reading, cell)} ${columnPhrase(cell.column, reading.grid)}`))}`;
  return plan(match, sentence, {
    items: cells.map((cell) => cell.value.text),
    scale: scaleName(unitOf(reading, first)),
  });
}

/** The two columns a change is read between: those the question names, or the latest and the one before. */
function changeColumns(reading: Reading, match: RowMatch, terms: Terms): [GridColumn, GridColumn] | null {
  const columns = askedColumns(reading, match.row, terms);
  if (columns === null) return null;
  if (reading.question.periods.length >= 2) {
    const ordered = chronological(columns);
    const [from, to] = [ordered[0], ordered.at(-1)];
    return from === undefined || to === undefined || from === to ? null : [from, to];
  }
  const periodColumns = chronological(
    defaultColumns(reading.grid, terms, match.row).filter((column) => column.period !== null),
  );
  const latest = reading.question.periods.length === 1 ? columns[0] : periodColumns.at(-1);
  const previous = latest === undefined ? null : previousColumn(reading, match.row, latest, terms);
  return latest === undefined || previous === null ? null : [previous, latest];
}

/** The row's value in a "% Change" column the table prints, when there is one. */
function printedChange(reading: Reading, match: RowMatch): { text: string; number: number } | null {
  const column = reading.grid.columns.find(
    (candidate) =>
      candidate.period === null &&
      /%\s*change|percent(?:age)?\s+change|change\s*\(?%|%\s*variance/i.test(candidate.header),
  );
  const value = column === undefined ? null : match.row.values[column.index - 1];
  return value?.number == null ? null : { text: value.text.trim(), number: value.number };
}

/** "Other fell by $12.6 million, from $56.7 million in 2018 to $44.1 million in 2019 (-22.2%)." */
export function change(reading: Reading, match: RowMatch, terms: Terms): Plan | null {
  const columns = changeColumns(reading, match, terms);
  if (columns === null) return null;
  const [from, to] = cellsOf(match.row, columns);
  if (from === undefined || to === undefined || from.column === to.column) return null;
  const unit = unitOf(reading, to);
  const decimals = Math.max(decimalsOf(from.value.text), decimalsOf(to.value.text));
  const difference = roundTo(to.value.number - from.value.number, decimals);
  const ratio = percentChange(from.value.number, to.value.number);
  const asksPercent = reading.question.operation === "percentChange";
  if (asksPercent && ratio === null) return null;
  const subject = capitalized(subjectOf(match.row, reading.grid));
  const direction = difference > 0 ? "rose" : "fell";
  const fromPhrase = `${written(reading, from)} ${columnPhrase(from.column, reading.grid)}`;
  const toPhrase = `${written(reading, to)} ${columnPhrase(to.column, reading.grid)}`;
  // A table that prints the row's percentage change is quoted as printed ("31%"), not worked out again (31.3%).
  const printed = asksPercent ? printedChange(reading, match) : null;
  const percentText =
    printed !== null
      ? `${printed.text.replace(/%$/, "")}%`
      : ratio === null
        ? ""
        : formatAmount(ratio, PERCENT_UNIT, computedDecimals(ratio));
  const amount = formatAmount(difference, unit, decimals, false);
  const sign = difference < 0 ? "-" : "+";
  const sentence =
    difference === 0
      ? `${subject} was unchanged: ${fromPhrase} and ${toPhrase}`
      : asksPercent
        ? `${subject} ${direction} by ${percentText.replace(/^-/, "")}, from ${fromPhrase} to ${toPhrase} (a change of ${sign}${amount})`
        : `${subject} ${direction} by ${amount}, from ${fromPhrase} to ${toPhrase}${percentText === "" ? "" : ` (${ratio !== null && ratio > 0 ? "+" : ""}${percentText})`}`;
  const value = asksPercent ? (printed?.number ?? ratio ?? 0) : difference;
  return plan(match, sentence, {
    items: [plainNumber(value)],
    scale: asksPercent ? "percent" : scaleName(unit),
  });
}

/** The average or the sum of the row over the asked periods ("the 2019 average": 2019's and 2018's). */
export function aggregate(reading: Reading, match: RowMatch, terms: Terms): Plan | null {
  let columns = askedColumns(reading, match.row, terms);
  if (columns === null) return null;
  const isAverage = reading.question.operation === "average";
  const only = columns[0];
  if (isAverage && reading.question.periods.length === 1 && columns.length === 1 && only !== undefined) {
    const previous = previousColumn(reading, match.row, only, terms);
    if (previous !== null) columns = [only, previous];
  }
  const cells = cellsOf(match.row, columns);
  const first = cells[0];
  if (first === undefined || cells.length < 2) return null;
  const unit = unitOf(reading, first);
  const numbers = amountsFor(cells);
  const result = isAverage ? average(numbers) : numbers.reduce((sum, value) => sum + value, 0);
  const decimals = isAverage ? computedDecimals(result) : Math.max(...cells.map((cell) => decimalsOf(cell.value.text)));
  const inputs = cells.map(
    (cell, index) =>
      `${(numbers[index] ?? 0) < 0 ? "-" : ""}${formatDigits(numbers[index] ?? 0, decimalsOf(cell.value.text))}`,
  );
  const periods = listed(cells.map((cell) => periodName(cell.column)));
  const subject = subjectOf(match.row, reading.grid);
  const total = formatAmount(roundTo(result, decimals), unit, decimals);
  const sentence = isAverage
    ? `The average ${subject} over ${periods} was ${total} ((${inputs.join(" + ")}) / ${inputs.length})`
    : `${capitalized(subject)} for ${periods} adds up to ${total} (${inputs.join(" + ")})`;
  return plan(match, sentence, { items: [plainNumber(result)], scale: scaleName(unit) });
}

/** One period's value as a ratio (or percentage) of another's. */
export function ratioOfPeriods(reading: Reading, match: RowMatch, terms: Terms): Plan | null {
  const columns = askedColumns(reading, match.row, terms);
  if (columns === null || columns.length !== 2) return null;
  const [a, b] = cellsOf(match.row, columns);
  if (a === undefined || b === undefined || b.value.number === 0) return null;
  const ratio = a.value.number / b.value.number;
  const percent = ratio * 100;
  const subject = subjectOf(match.row, reading.grid);
  const inputs = `${written(reading, a)} / ${written(reading, b)}`;
  const sentence = reading.question.asPercent
    ? `${capitalized(subject)} ${columnPhrase(a.column, reading.grid)} was ${formatAmount(percent, PERCENT_UNIT, computedDecimals(percent))} of its value ${columnPhrase(b.column, reading.grid)} (${inputs})`
    : `The ratio of ${subject} ${columnPhrase(a.column, reading.grid)} to ${columnPhrase(b.column, reading.grid)} was ${formatDigits(ratio, computedDecimals(ratio))} (${inputs})`;
  return plan(
    match,
    sentence,
    reading.question.asPercent
      ? { items: [plainNumber(percent)], scale: "percent" }
      : { items: [plainNumber(ratio)], scale: "" },
  );
}

/** The threshold a question compares with, in the row's unit: "$200,000 thousand" of a table in thousands is 200,000. */
function limitIn(reading: Reading, cell: Cell): number | null {
  const threshold = reading.question.threshold;
  if (threshold === null) return null;
  const unit = unitOf(reading, cell);
  const factor = unit.scale === null ? 1 : { thousand: 1e3, million: 1e6, billion: 1e9 }[unit.scale];
  return unit.scale === null || threshold.scale === 1 ? threshold.value : (threshold.value * threshold.scale) / factor;
}

function passes(reading: Reading, cell: Cell, limit: number): boolean {
  return reading.question.extreme === "min" ? cell.value.number < limit : cell.value.number > limit;
}

/** The period the row was highest (lowest) in; with a threshold, the periods it passed it in. */
export function whichPeriod(reading: Reading, match: RowMatch, terms: Terms): Plan | null {
  const columns = askedColumns(reading, match.row, terms);
  if (columns === null) return null;
  const cells = cellsOf(match.row, columns).filter((cell) => cell.column.period !== null);
  const first = cells[0];
  if (first === undefined || cells.length < 2) return null;
  const subject = capitalized(subjectOf(match.row, reading.grid));
  const limit = limitIn(reading, first);
  if (limit !== null) {
    const passing = cells.filter((cell) => passes(reading, cell, limit));
    if (passing.length === 0) return null;
    const threshold = reading.question.threshold?.text ?? "";
    const sentence = `${listed(passing.map((cell) => periodName(cell.column)))}: ${subject} was ${listed(passing.map((cell) => written(reading, cell)))}, ${reading.question.extreme === "min" ? "below" : "above"} ${threshold.replace(/^\w+(?:\s+than)?\s+/i, "")}`;
    return plan(match, sentence, {
      items: passing.map((cell) => String(cell.column.period?.year ?? periodName(cell.column))),
      scale: "",
    });
  }
  const wantMax = reading.question.extreme !== "min";
  const sorted = [...cells].sort((left, right) =>
    wantMax ? right.value.number - left.value.number : left.value.number - right.value.number,
  );
  const best = sorted[0] as Cell;
  if (sorted[1] !== undefined && sorted[1].value.number === best.value.number) return null;
  const others = sorted.slice(1).map((cell) => `${written(reading, cell)} in ${periodName(cell.column)}`);
  const word = cells.length === 2 ? (wantMax ? "higher" : "lower") : wantMax ? "highest" : "lowest";
  const sentence = `${subject} was ${word} in ${periodName(best.column)}: ${written(reading, best)}, against ${listed(others)}`;
  return plan(match, sentence, {
    items: [String(best.column.period?.year ?? periodName(best.column))],
    scale: "",
  });
}

/** In how many of the asked (or shown) periods the row passed the threshold. */
export function countPeriods(reading: Reading, match: RowMatch, terms: Terms): Plan | null {
  const columns = askedColumns(reading, match.row, terms);
  if (columns === null) return null;
  const cells = cellsOf(match.row, columns).filter((cell) => cell.column.period !== null);
  const first = cells[0];
  if (first === undefined || cells.length < 2) return null;
  const limit = limitIn(reading, first);
  if (limit === null) return null;
  const passing = cells.filter((cell) => passes(reading, cell, limit));
  const names = passing.map((cell) => periodName(cell.column));
  const threshold = (reading.question.threshold?.text ?? "").replace(/^\w+(?:\s+than)?\s+/i, "");
  const which = names.length === 0 ? "" : ` (${listed(names)})`;
  const sentence = `${capitalized(subjectOf(match.row, reading.grid))} was ${reading.question.extreme === "min" ? "below" : "above"} ${threshold} in ${passing.length} of the ${cells.length} periods shown${which}`;
  return plan(match, sentence, { items: [String(passing.length)], scale: "" });
}
