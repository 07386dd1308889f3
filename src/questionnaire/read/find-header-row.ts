/**
 * Finds a sheet's header row and question column together: the header is the row whose cells look
 * like column names and under which one column holds the longest question-like texts. Every row near
 * the top that could be a header is tried; for each, each column is scored by the question-likeness
 * of the cells below it (cell-text-kinds.ts), weighed by what the header cell's words say the column
 * holds (column-names.ts: "Question" up, "Response" or "Control ID" down). Title rows, instruction
 * paragraphs, blank rows and merged banners above the header are single long cells, never column
 * names, so they are passed over; a row of labels above the real header (form fields) loses to it on
 * the words it uses. Two header rows — a group name merged over "Yes | No | N/A" — are read as one.
 * Hidden columns never hold the questions.
 */

import type { GridRow, GridSheet } from "../questionnaire.js";
import { isColumnLabel, isIdentifier, questionLikeness } from "./cell-text-kinds.js";
import { normalizeHeader, questionHeaderWeight } from "./column-names.js";

/** Rows (of those with any text) measured for the column scores. */
const SAMPLE_ROWS = 200;
/** Rows (of those with any text) looked at for a header: titles and instructions come first. */
const HEADER_SEARCH_ROWS = 40;
/** A header found lower down must keep this share of the best score (it has fewer rows below it). */
const NEAR_BEST = 0.8;

/** Header labels of columns a respondent marks instead of writing ("Yes | No | N/A" under a group). */
const CHOICE_LABEL =
  /^(yes|no|n\/?a|not applicable|partial(ly)?( compliant)?|compliant|non-compliant|not compliant|in place|not in place|planned|implemented|not implemented|true|false)$/;

export type HeaderChoice = {
  /** Where a filled copy writes its column names: the header row naming the question column, else the first. */
  headerRow: number | null;
  /** Every row of the header (one, or two read as one); empty when the sheet has none. */
  headerRows: number[];
  questionColumn: number;
  /** Each column's header text, two rows joined ("Compliance Yes"); empty strings without a header. */
  headers: string[];
  /** The labels of columns under the header a respondent ticks ("Yes", "No", "N/A"), when there are such. */
  choiceLabels: string[];
};

const filledCells = (row: GridRow) => row.cells.filter((cell) => cell.trim() !== "").length;

/** A row that could be a header: at least two column names and hardly anything else, or one "Question". */
function couldBeHeader(row: GridRow): boolean {
  const filled = row.cells.map((cell) => cell.trim()).filter((cell) => cell !== "");
  if (filled.some((cell) => isIdentifier(cell))) return false;
  const labels = filled.filter((cell) => isColumnLabel(cell));
  // A cell of symbols only ("#", "*") names a column as well as it can.
  const symbols = filled.filter((cell) => !/[\p{L}\p{N}]/u.test(cell));
  if (filled.length === 1) return labels.length === 1 && questionHeaderWeight(filled[0] ?? "") >= 3;
  const names = labels.length + symbols.length;
  return labels.length >= 1 && names >= 2 && names >= 0.75 * filled.length;
}

/** How many of the row's cells use words of the column vocabulary (named question, answer, ID… columns). */
function namedCells(row: GridRow): number {
  return row.cells.filter((cell) => cell.trim() !== "" && questionHeaderWeight(cell) !== 1).length;
}

type Scored = { index: number; column: number; score: number };

/** Sums of question-likeness per column over the sampled rows after each row (suffix sums). */
function likenessBelow(rows: GridRow[], columnCount: number): Float64Array[] {
  const below = rows.map(() => new Float64Array(columnCount));
  const running = new Float64Array(columnCount);
  for (let index = rows.length - 1; index >= 0; index--) {
    below[index]?.set(running);
    const row = rows[index];
    if (!row) continue;
    row.cells.forEach((cell, column) => {
      if (column < columnCount && !row.formulaColumns?.includes(column))
        running[column] = (running[column] ?? 0) + questionLikeness(cell);
    });
  }
  return below;
}

/** Whether any cell below the row in this column asks or states something (not only short labels). */
function hasSentenceBelow(rows: GridRow[], index: number, column: number): boolean {
  return rows.slice(index + 1).some((row) => questionLikeness(row.cells[column] ?? "") >= 1);
}

function bestColumn(row: GridRow, below: Float64Array, hidden: Set<number>): { column: number; score: number } | null {
  let best: { column: number; score: number } | null = null;
  below.forEach((sum, column) => {
    if (hidden.has(column) || sum <= 0) return;
    const score = sum * questionHeaderWeight(row.cells[column] ?? "");
    if (best === null || score > best.score) best = { column, score };
  });
  return best;
}

/** Two consecutive rows that fill each other's gaps: a group name over its columns, or names merged down. */
function complement(upper: GridRow, lower: GridRow): boolean {
  const width = Math.max(upper.cells.length, lower.cells.length);
  const has = (row: GridRow, column: number) => (row.cells[column] ?? "").trim() !== "";
  for (let column = 0; column < width; column++) {
    if (has(upper, column) && !has(lower, column)) return true;
    if (has(upper, column) && !has(upper, column + 1) && has(lower, column) && has(lower, column + 1)) return true;
  }
  return false;
}

function allLabels(row: GridRow): boolean {
  const filled = row.cells.map((cell) => cell.trim()).filter((cell) => cell !== "");
  return filled.length > 0 && filled.every((cell) => isColumnLabel(cell));
}

/** The header block: the chosen row, with the row above or below it when the two are one header. */
function headerBlock(rows: GridRow[], index: number, questionColumn: number): GridRow[] {
  const row = rows[index];
  if (!row) return [];
  const next = rows[index + 1];
  if (
    next &&
    next.rowNumber === row.rowNumber + 1 &&
    // One label under the header is a section name; a second header row names several columns.
    filledCells(next) >= 2 &&
    allLabels(next) &&
    (next.cells[questionColumn] ?? "").trim() === "" &&
    complement(row, next)
  ) {
    return [row, next];
  }
  const previous = rows[index - 1];
  if (previous && previous.rowNumber === row.rowNumber - 1 && allLabels(previous) && complement(previous, row)) {
    const firstUsed = previous.cells.findIndex((cell) => cell.trim() !== "");
    const firstUsedBelow = row.cells.findIndex((cell) => cell.trim() !== "");
    // One cell at the left edge is a banner or a title, not a group name over some columns.
    if (filledCells(previous) >= 2 || firstUsed > firstUsedBelow) return [previous, row];
  }
  return [row];
}

/** Each column's name over the block: a group name carried over the empty cells beside it, then the lower label. */
function combinedHeaders(block: GridRow[]): string[] {
  const width = Math.max(0, ...block.map((row) => row.cells.length));
  const [upper, lower] = block;
  if (!upper) return [];
  if (!lower) return Array.from({ length: width }, (_, column) => (upper.cells[column] ?? "").trim());
  let group = "";
  return Array.from({ length: width }, (_, column) => {
    const top = (upper.cells[column] ?? "").trim();
    const bottom = (lower.cells[column] ?? "").trim();
    if (top !== "") group = top;
    else if (bottom === "") group = "";
    const above = top !== "" ? top : bottom !== "" ? group : "";
    return [above, bottom].filter((part) => part !== "").join(" ");
  });
}

/** The header and question column of a sheet, or null when no header row stands over question text. */
export function findHeaderRow(sheet: GridSheet, hiddenColumns: Set<number>): HeaderChoice | null {
  const rows = sheet.rows.slice(0, SAMPLE_ROWS);
  const columnCount = Math.max(0, ...rows.map((row) => row.cells.length));
  const below = likenessBelow(rows, columnCount);
  const seen = new Set<string>();
  const scored: Scored[] = [];
  rows.slice(0, HEADER_SEARCH_ROWS).forEach((row, index) => {
    if (!couldBeHeader(row)) return;
    // A header repeated further down (a table continued on the next page) is the same header.
    const key = row.cells.map(normalizeHeader).join("\u0000");
    if (seen.has(key)) return;
    seen.add(key);
    const sums = below[index];
    const best = sums ? bestColumn(row, sums, hiddenColumns) : null;
    if (best && hasSentenceBelow(rows, index, best.column)) scored.push({ index, ...best });
  });
  if (scored.length === 0) return null;
  const top = Math.max(...scored.map((entry) => entry.score));
  // Near the best, the row that names more columns is the header (a form field row above it names
  // none); between equals the lower one, since the rows between them are part of the header or above it.
  const contenders = scored.filter((entry) => entry.score >= NEAR_BEST * top);
  const chosen = contenders.reduce((best, entry) => {
    const named = (candidate: Scored) => namedCells(rows[candidate.index] as GridRow);
    return named(entry) > named(best) || (named(entry) === named(best) && entry.index > best.index) ? entry : best;
  });
  const block = headerBlock(rows, chosen.index, chosen.column);
  const headers = combinedHeaders(block);
  const naming = block.find((row) => (row.cells[chosen.column] ?? "").trim() !== "") ?? block[0];
  const lower = block.length > 1 ? block[block.length - 1] : undefined;
  const choiceLabels = lower
    ? lower.cells.map((cell) => cell.trim()).filter((cell) => CHOICE_LABEL.test(normalizeHeader(cell)))
    : [];
  return {
    headerRow: naming?.rowNumber ?? null,
    headerRows: block.map((row) => row.rowNumber),
    questionColumn: chosen.column,
    headers,
    choiceLabels: choiceLabels.length >= 2 ? choiceLabels : [],
  };
}

/** A column of the header whose words match, other than the question column. */
export function headerColumn(headers: string[], pattern: RegExp, exclude: number): number | null {
  const index = headers.findIndex((header, column) => column !== exclude && pattern.test(normalizeHeader(header)));
  return index === -1 ? null : index;
}
