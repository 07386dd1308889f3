/**
 * Plans over several items the question names in one period: two or more rows ("the sum of consolidated
 * net revenues and in-game net revenues in 2018"), or one row in two or more columns named by their
 * headers ("the difference between the domestic and international discount rates"). Their values, their
 * sum or average, the difference of the first two, or the ratio of one to the other.
 */

import { periodFit } from "./period-mentions.js";
import {
  average,
  computedDecimals,
  decimalsOf,
  formatAmount,
  formatDigits,
  plainNumber,
  roundTo,
} from "./table-arithmetic.js";
import type { GridColumn, GridRow } from "./table-grid.js";
import { columnForPeriod, defaultColumns, namedColumns, type RowMatch } from "./table-operands.js";
import { type Cell, cellOf, MINIMUM_ROW_SCORE, type Plan, type Reading, type Terms } from "./table-reading.js";
import {
  amountsFor,
  capitalized,
  columnPhrase,
  listed,
  PERCENT_UNIT,
  scaleName,
  subjectOf,
  unitOf,
  written,
} from "./table-wording.js";

/** Rows the question names one after another, each adding words of its own, in the order it names them. */
export function namedRows(matches: readonly RowMatch[]): RowMatch[] {
  const accepted: RowMatch[] = [];
  const covered = new Set<number>();
  for (const match of matches) {
    if (match.score < MINIMUM_ROW_SCORE || match.labelContent === 0) continue;
    if (accepted.some((other) => other.row === match.row)) continue;
    const fresh = [...match.matched].filter((index) => !covered.has(index));
    if (accepted.length > 0 && fresh.length === 0) continue;
    accepted.push(match);
    for (const index of match.matched) covered.add(index);
  }
  return accepted.sort((left, right) => left.firstAt - right.firstAt);
}

/** The one column every named row is read in: the asked period's, else the first column they share. */
function sharedColumn(reading: Reading, rows: readonly GridRow[], terms: Terms): GridColumn | null {
  const period = reading.question.periods[0];
  const candidates = rows.map((row) =>
    period === undefined
      ? (defaultColumns(reading.grid, terms, row)[0] ?? null)
      : columnForPeriod(reading.grid, period, terms, row),
  );
  const [first] = candidates;
  return first !== null && first !== undefined && candidates.every((column) => column === first) ? first : null;
}

/** Columns the question names by their headers' words ("domestic and international"), in its order. */
function columnsNamed(reading: Reading, row: GridRow, terms: Terms): GridColumn[] {
  const named = namedColumns(reading.grid, terms).filter((entry) => row.values[entry.column.index - 1]?.number != null);
  const period = reading.question.periods[0];
  const inPeriod =
    period === undefined || named.every((entry) => entry.column.period === null)
      ? named
      : named.filter((entry) => entry.column.period !== null && periodFit(period, entry.column.period) > 0);
  const accepted: typeof inPeriod = [];
  const covered = new Set<number>();
  for (const entry of inPeriod) {
    const fresh = [...entry.matched].filter((index) => !covered.has(index));
    if (accepted.length > 0 && fresh.length === 0) continue;
    accepted.push(entry);
    for (const index of entry.matched) covered.add(index);
  }
  return accepted.sort((left, right) => left.firstAt - right.firstAt).map((entry) => entry.column);
}

type Items = { cells: Cell[]; score: number; column: GridColumn | null };

/** The cells of the items a question names: several rows in one column, or one row in several named columns. */
export function namedItems(reading: Reading, matches: readonly RowMatch[], terms: Terms): Items | null {
  const rows = namedRows(matches);
  if (rows.length >= 2) {
    const column = sharedColumn(
      reading,
      rows.map((match) => match.row),
      terms,
    );
    const cells = rows.map((match) => cellOf(match.row, column));
    if (cells.every((cell) => cell !== null))
      return { cells: cells as Cell[], score: Math.min(...rows.map((match) => match.score)), column };
  }
  const best = matches[0];
  if (best === undefined || best.score < MINIMUM_ROW_SCORE) return null;
  const columns = columnsNamed(reading, best.row, terms);
  if (columns.length < 2) return null;
  const cells = columns.map((column) => cellOf(best.row, column)).filter((cell): cell is Cell => cell !== null);
  return cells.length >= 2 ? { cells, score: best.score, column: null } : null;
}

export function itemsPlan(reading: Reading, matches: readonly RowMatch[], terms: Terms): Plan | null {
  const items = namedItems(reading, matches, terms);
  if (items === null) return null;
  const { cells, column } = items;
  const [a, b] = cells as [Cell, Cell];
  const sameRow = cells.every((cell) => cell.row === a.row);
  // Rows are named by their labels; columns of one row by the row and each column.
  const nameOf = (cell: Cell) =>
    sameRow
      ? `${subjectOf(cell.row, reading.grid)} ${columnPhrase(cell.column, reading.grid)}`
      : subjectOf(cell.row, reading.grid);
  const unit = unitOf(reading, a);
  const when = column === null ? "" : ` ${columnPhrase(column, reading.grid)}`;
  const operation = reading.question.operation;
  const rows = [...new Set(cells.map((cell) => cell.row))];
  const finish = (sentence: string, value: Plan["value"]): Plan => ({
    score: items.score,
    rows,
    write: (n) => `${sentence.replace(/\s+/g, " ")} [${n}].`,
    value,
  });
  if (operation === "values" || operation === "lookup") {
    const parts = cells.map((cell) => `${written(reading, cell)} for ${nameOf(cell)}`);
    return finish(`${capitalized(listed(parts))}${when}`, {
      items: cells.map((cell) => cell.value.text),
      scale: scaleName(unit),
    });
  }
  if (operation === "ratio") {
    const [numerator, denominator] = reading.question.denominatorFirst ? [b, a] : [a, b];
    if (denominator.value.number === 0) return null;
    const ratio = numerator.value.number / denominator.value.number;
    const percent = ratio * 100;
    const percentText = formatAmount(percent, PERCENT_UNIT, computedDecimals(percent));
    const inputs = `${written(reading, numerator)} / ${written(reading, denominator)}`;
    return reading.question.asPercent
      ? finish(`${capitalized(nameOf(numerator))} was ${percentText} of ${nameOf(denominator)}${when} (${inputs})`, {
          items: [plainNumber(percent)],
          scale: "percent",
        })
      : finish(
          `The ratio of ${nameOf(numerator)} to ${nameOf(denominator)}${when} was ${formatDigits(ratio, computedDecimals(ratio))} (${inputs}, or ${percentText})`,
          { items: [plainNumber(ratio)], scale: "" },
        );
  }
  if (operation === "sum" || operation === "average") {
    const numbers = amountsFor(cells);
    const isAverage = operation === "average";
    const result = isAverage ? average(numbers) : numbers.reduce((sum, value) => sum + value, 0);
    const places = isAverage ? computedDecimals(result) : Math.max(...cells.map((cell) => decimalsOf(cell.value.text)));
    const inputs = cells.map((cell, index) => written(reading, cell, numbers[index]));
    const names = listed(cells.map(nameOf));
    const total = formatAmount(roundTo(result, places), unit, places);
    return finish(
      isAverage
        ? `The average of ${names}${when} was ${total} ((${inputs.join(" + ")}) / ${inputs.length})`
        : `${capitalized(names)}${when} add up to ${total} (${inputs.join(" + ")})`,
      { items: [plainNumber(result)], scale: scaleName(unit) },
    );
  }
  const decimals = Math.max(decimalsOf(a.value.text), decimalsOf(b.value.text));
  const difference = roundTo(a.value.number - b.value.number, decimals);
  const value = { items: [plainNumber(difference)], scale: scaleName(unit) };
  // "How much more A than B?" is answered by how much more.
  if (/\b(?:more|less|higher|lower|greater|smaller|larger|bigger)\b/i.test(reading.question.text)) {
    const relation = difference >= 0 ? "more than" : "less than";
    return finish(
      `${capitalized(nameOf(a))}${when} was ${formatAmount(difference, unit, decimals, false)} ${relation} ${nameOf(b)} (${written(reading, a)} against ${written(reading, b)})`,
      value,
    );
  }
  // "The difference between A and B" is a gap: said as its size, with which of the two is larger.
  const [larger, smaller] = difference >= 0 ? [a, b] : [b, a];
  return finish(
    `The difference between ${nameOf(a)} and ${nameOf(b)}${when} was ${formatAmount(Math.abs(difference), unit, decimals)}: ${nameOf(larger)} (${written(reading, larger)}) against ${nameOf(smaller)} (${written(reading, smaller)})`,
    { items: [plainNumber(Math.abs(difference))], scale: scaleName(unit) },
  );
}
