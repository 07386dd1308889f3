/**
 * Plans that answer with a table's own items: the periods it covers ("Which years does the table
 * provide information for…?"), the rows under a section the question names ("What are the components of
 * deferred tax assets?") or the columns it names ("What are the regions…?"), how many there are, and
 * which row is highest or lowest in a column ("Which contractual obligation has the highest total?").
 */

import { average, computedDecimals, decimalsOf, formatAmount, plainNumber, roundTo } from "./table-arithmetic.js";
import type { GridColumn, GridRow } from "./table-grid.js";
import { labelTerms, namedColumns, type RowMatch } from "./table-operands.js";
import { askedColumns, type Cell, cellOf, type Plan, type Reading, type Terms } from "./table-reading.js";
import {
  amountsFor,
  capitalized,
  cleanLabel,
  listed,
  periodName,
  scaleName,
  subjectOf,
  unitOf,
  written,
} from "./table-wording.js";

const TOTAL = /^(?:total|net|sub-?total)\b/i;

/** The rows under the section the question names best; null when no section's words are in the question. */
function sectionRows(reading: Reading, terms: Terms): { section: string; rows: GridRow[]; hits: number } | null {
  const asked = new Set(terms.map((term) => term.term));
  const sections = new Map<string, GridRow[]>();
  for (const row of reading.grid.rows) {
    if (row.section === null || TOTAL.test(row.label)) continue;
    sections.set(row.section, [...(sections.get(row.section) ?? []), row]);
  }
  let best: { section: string; rows: GridRow[]; hits: number } | null = null;
  for (const [section, rows] of sections) {
    const words = labelTerms(section);
    const hits = [...words].filter((term) => asked.has(term)).length;
    if (hits * 2 >= words.size && hits > 0 && (best === null || hits > best.hits)) best = { section, rows, hits };
  }
  return best;
}

/** Nouns for things a table sets out as columns rather than rows. */
const COLUMN_NOUNS =
  /\b(?:regions?|segments?|geograph(?:y|ies)|countries|markets?|divisions?|business(?:es)?|categories)\b/i;

/** The items a list question asks for: a named section's rows, the table's category columns, or its rows. */
function listedItems(
  reading: Reading,
  terms: Terms,
): { names: string[]; rows: GridRow[]; where: string; score: number } | null {
  const section = sectionRows(reading, terms);
  if (section !== null)
    return {
      names: section.rows.map((row) => cleanLabel(row.label)),
      rows: section.rows,
      where: `under ${cleanLabel(section.section)}`,
      score: 1 + section.hits,
    };
  const categories = reading.grid.columns.filter(
    (column) => column.period === null && column.header.trim() !== "" && !/^total\b/i.test(column.header.trim()),
  );
  if (COLUMN_NOUNS.test(reading.question.text) && categories.length >= 2)
    return {
      names: categories.map((column) => column.header.trim()),
      rows: reading.grid.rows.slice(0, 1),
      where: "in the table",
      score: 1,
    };
  const rows = reading.grid.rows.filter((row) => !TOTAL.test(row.label));
  if (!/\b(?:table|listed|shown|presented)\b/i.test(reading.question.text) || rows.length === 0) return null;
  return { names: rows.map((row) => cleanLabel(row.label)), rows, where: "in the table", score: 0.8 };
}

export function listItems(reading: Reading, terms: Terms): Plan | null {
  const items = listedItems(reading, terms);
  if (items === null || items.names.length === 0) return null;
  const counting = reading.question.operation === "countItems";
  const sentence = counting
    ? `There are ${items.names.length} ${items.where === "in the table" ? "items in the table" : `items ${items.where}`}: ${listed(items.names)}`
    : `The items ${items.where} are ${listed(items.names)}`;
  return {
    score: items.score,
    rows: items.rows,
    write: (n) => `${sentence} [${n}].`,
    value: counting ? { items: [String(items.names.length)], scale: "" } : { items: items.names, scale: "" },
  };
}

/** The periods the table's columns name, in the table's order. */
export function listPeriods(reading: Reading, terms: Terms): Plan | null {
  const periods: string[] = [];
  const columns: GridColumn[] = [];
  for (const column of reading.grid.columns) {
    if (column.period === null || column.percentColumn) continue;
    const name = periodName(column);
    if (periods.includes(name)) continue;
    periods.push(name);
    columns.push(column);
  }
  if (periods.length === 0) return null;
  // The table the question is about: its rows or its context hold the question's words.
  const asked = new Set(terms.map((term) => term.term));
  const hits = reading.grid.rows.some((row) =>
    [...labelTerms(`${row.label} ${row.section ?? ""}`)].some((term) => asked.has(term)),
  );
  return {
    score: hits ? 1.5 : 1,
    rows: reading.grid.rows.slice(0, 1),
    write: (n) => `The table covers ${listed(periods)} [${n}].`,
    value: { items: columns.map((column) => String(column.period?.year ?? periodName(column))), scale: "" },
  };
}

/** The row with the highest (lowest) value in the asked column, among the rows that are not totals. */
export function whichItem(reading: Reading, matches: readonly RowMatch[], terms: Terms): Plan | null {
  // A turned table's rows are measures, not the items a "which …" question compares.
  if (reading.grid.turned) return null;
  const section = sectionRows(reading, terms);
  const candidates = (section?.rows ?? reading.grid.rows).filter((row) => !TOTAL.test(row.label));
  const first = candidates[0];
  if (first === undefined || candidates.length < 2) return null;
  const named = namedColumns(reading.grid, terms)[0]?.column;
  const columns = named === undefined ? askedColumns(reading, first, terms) : [named];
  const column = columns?.[0];
  if (column === undefined) return null;
  const cells = candidates.map((row) => cellOf(row, column)).filter((cell): cell is Cell => cell !== null);
  if (cells.length < 2) return null;
  const wantMax = reading.question.extreme !== "min";
  const sorted = [...cells].sort((left, right) =>
    wantMax ? right.value.number - left.value.number : left.value.number - right.value.number,
  );
  const best = sorted[0] as Cell;
  if (sorted[1]?.value.number === best.value.number) return null;
  const others = sorted.slice(1, 3).map((cell) => `${subjectOf(cell.row, reading.grid)} (${written(reading, cell)})`);
  const word = cells.length === 2 ? (wantMax ? "higher" : "lower") : wantMax ? "highest" : "lowest";
  const sentence = `${capitalized(subjectOf(best.row, reading.grid))} had the ${word} value ${column.header.trim() === "" ? "" : `in ${column.header.trim()} `}(${written(reading, best)}), against ${listed(others)}`;
  return {
    score: 1 + (matches.length > 0 ? 0.5 : 0),
    rows: [best.row],
    write: (n) => `${sentence.replace(/\s+/g, " ")} [${n}].`,
    value: { items: [cleanLabel(best.row.label)], scale: "" },
  };
}

/** The column a section's amounts are read in: the asked period's, else the one printing most amounts ("$39,784"). */
function amountColumn(reading: Reading, rows: readonly GridRow[], terms: Terms): GridColumn | null {
  const first = rows[0];
  if (first === undefined) return null;
  if (reading.question.periods.length > 0) return askedColumns(reading, first, terms)?.[0] ?? null;
  const printed = (column: GridColumn) =>
    rows.filter((row) => /[$€£¥,]/.test(row.values[column.index - 1]?.text ?? "")).length;
  const ranked = [...reading.grid.columns].sort(
    (left, right) => printed(right) - printed(left) || right.index - left.index,
  );
  return ranked[0] ?? null;
}

/** "The sum of all tax credit carryforwards": every row under the section the question names, added up (or averaged). */
export function sectionTotal(reading: Reading, terms: Terms): Plan | null {
  const section = sectionRows(reading, terms);
  if (section === null || section.rows.length < 2) return null;
  const column = amountColumn(reading, section.rows, terms);
  const cells = section.rows.map((row) => cellOf(row, column)).filter((cell): cell is Cell => cell !== null);
  const first = cells[0];
  if (first === undefined || cells.length < 2) return null;
  const numbers = amountsFor(cells);
  const isAverage = reading.question.operation === "average";
  const result = isAverage ? average(numbers) : numbers.reduce((sum, value) => sum + value, 0);
  const places = isAverage ? computedDecimals(result) : Math.max(...cells.map((cell) => decimalsOf(cell.value.text)));
  const unit = unitOf(reading, first);
  const total = formatAmount(roundTo(result, places), unit, places);
  const inputs = cells.map((cell, index) => written(reading, cell, numbers[index]));
  const name = cleanLabel(section.section);
  const sentence = isAverage
    ? `The average of the ${cells.length} items under ${name} was ${total} ((${inputs.join(" + ")}) / ${cells.length})`
    : `The ${cells.length} items under ${name} add up to ${total} (${inputs.join(" + ")})`;
  return {
    score: 1 + section.hits,
    rows: cells.map((cell) => cell.row),
    write: (n) => `${sentence} [${n}].`,
    value: { items: [plainNumber(result)], scale: scaleName(unit) },
  };
}
