/**
 * Finds the questions in a questionnaire's grid: per sheet, the question column (a header such as
 * Question / Requirement / Control / Description, else the column with the longest text, or the one
 * the user named), the optional choices and section (path) columns, then every row that asks
 * something — section headings and empty rows skipped, each question kept with its row, sheet and
 * section. Pure: the readers build the grid, this reads it.
 */
import { FolioError } from "../errors.js";
import type {
  GridRow,
  GridSheet,
  QuestionnaireGrid,
  QuestionnaireQuestion,
  QuestionnaireReadOptions,
  ReadQuestionnaire,
  SheetLayout,
} from "./questionnaire.js";

/** Header words naming the question column, best first. */
const QUESTION_HEADERS = [
  /^questions?\b/,
  /\bquestions?$/,
  /^(requirements?|criteria|criterion)\b/,
  /^(controls?|control (text|description|statement))$/,
  /^(description|item|query|ask|text|question text|prompt)$/,
  /\b(questions?|requirements?)\b/,
];
const CHOICES_HEADER =
  /^(choices|options|answer (choices|options)|allowed (values|answers)|possible answers|responses? options?)$/;
const SECTION_HEADER = /^(section|section[ _]path|path|category|domain|area|topic|chapter|group|heading)$/;
/** Header cells that say "identifier", never the question itself ("Question ID", "Control #"). */
const IDENTIFIER_HEADER = /\b(id|ids|number|no|nr|#|ref|reference|key)\.?$/;
/** Instructions that ask something without a question mark ("Describe your backup process"). */
const IMPERATIVE_START =
  /^(describe|explain|list|provide|specify|state|indicate|confirm|attach|upload|detail|outline|identify|summari[sz]e|define|enumerate|please|do|does|did|is|are|was|were|has|have|can|could|will|would|should|shall|may|must|who|what|when|where|which|why|how)\b/i;

/** Rows looked at to find a header row and to measure the columns. */
const SAMPLE_ROWS = 200;
const HEADER_SEARCH_ROWS = 10;

function normalizeHeader(text: string): string {
  return text
    .toLowerCase()
    .replace(/[_\s]+/g, " ")
    .replace(/[:*]+$/, "")
    .trim();
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** "B" -> 1, "AA" -> 26; null when not a column letter. */
export function columnIndexFromLetters(letters: string): number | null {
  if (!/^[A-Za-z]{1,3}$/.test(letters)) return null;
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

export function columnLetters(index: number): string {
  let value = index + 1;
  let letters = "";
  while (value > 0) {
    const remainder = (value - 1) % 26;
    letters = String.fromCharCode(65 + remainder) + letters;
    value = Math.floor((value - 1) / 26);
  }
  return letters;
}

function headerScore(header: string): number {
  const normalized = normalizeHeader(header);
  if (normalized === "" || IDENTIFIER_HEADER.test(normalized)) return -1;
  const rank = QUESTION_HEADERS.findIndex((pattern) => pattern.test(normalized));
  return rank === -1 ? -1 : QUESTION_HEADERS.length - rank;
}

/** The first row (of the first few) with a cell that names the question column, and that column. */
function findHeaderRow(sheet: GridSheet): { row: GridRow; column: number } | null {
  for (const row of sheet.rows.slice(0, HEADER_SEARCH_ROWS)) {
    let best: { column: number; score: number } | null = null;
    row.cells.forEach((cell, column) => {
      const score = headerScore(cell);
      if (score > 0 && (best === null || score > best.score)) best = { column, score };
    });
    const found = best as { column: number; score: number } | null;
    if (found) return { row, column: found.column };
  }
  return null;
}

function findHeaderColumn(header: GridRow | null, pattern: RegExp, exclude: number): number | null {
  if (!header) return null;
  const index = header.cells.findIndex((cell, column) => column !== exclude && pattern.test(normalizeHeader(cell)));
  return index === -1 ? null : index;
}

/** The column whose cells hold the most text on average (formulas not counted): questions are the long cells. */
function longestTextColumn(rows: GridRow[]): { column: number; textCells: number; formulaCells: number } | null {
  const totals = new Map<number, { length: number; textCells: number; formulaCells: number }>();
  for (const row of rows.slice(0, SAMPLE_ROWS)) {
    row.cells.forEach((cell, column) => {
      const entry = totals.get(column) ?? { length: 0, textCells: 0, formulaCells: 0 };
      if (row.formulaColumns?.includes(column)) entry.formulaCells += 1;
      else if (/[A-Za-z]/.test(cell)) {
        entry.length += cell.length;
        entry.textCells += 1;
      }
      totals.set(column, entry);
    });
  }
  let best: { column: number; length: number; textCells: number; formulaCells: number } | null = null;
  let formulaCells = 0;
  for (const [column, entry] of totals) {
    formulaCells += entry.formulaCells;
    if (entry.textCells === 0) continue;
    if (best === null || entry.length > best.length) best = { column, ...entry };
  }
  if (best === null) return formulaCells > 0 ? { column: -1, textCells: 0, formulaCells } : null;
  return { column: best.column, textCells: best.textCells, formulaCells: best.formulaCells };
}

/** The user's --column: a letter ("C"), a 1-based number ("3"), or a header's text ("Requirement"). */
function namedColumn(sheet: GridSheet, name: string): { column: number; headerRow: GridRow | null } {
  const trimmed = name.trim();
  if (/^\d+$/.test(trimmed) && Number(trimmed) >= 1) return { column: Number(trimmed) - 1, headerRow: null };
  const wanted = normalizeHeader(trimmed);
  for (const row of sheet.rows.slice(0, HEADER_SEARCH_ROWS)) {
    const column = row.cells.findIndex((cell) => normalizeHeader(cell) === wanted);
    if (column !== -1) return { column, headerRow: row };
  }
  const letters = columnIndexFromLetters(trimmed);
  if (letters !== null) return { column: letters, headerRow: null };
  throw new FolioError(
    "questionnaire_column_not_found",
    `Sheet "${sheet.name}" has no column "${name}" — name it by header text, by letter (C) or by number (3).`,
  );
}

function layoutSheet(
  sheet: GridSheet,
  sheetIndex: number,
  options: QuestionnaireReadOptions,
): SheetLayout | { problem: "no_text" | "formulas_only" } {
  const columnCount = Math.max(0, ...sheet.rows.map((row) => row.cells.length));
  if (options.column !== undefined) {
    const named = namedColumn(sheet, options.column);
    const header = named.headerRow ?? findHeaderRow(sheet)?.row ?? null;
    return {
      sheet: sheet.name,
      sheetIndex,
      questionColumn: named.column,
      choicesColumn: findHeaderColumn(header, CHOICES_HEADER, named.column),
      sectionColumn: findHeaderColumn(header, SECTION_HEADER, named.column),
      headerRow: header?.rowNumber ?? null,
      columnCount: Math.max(columnCount, named.column + 1),
    };
  }
  const header = findHeaderRow(sheet);
  if (header) {
    return {
      sheet: sheet.name,
      sheetIndex,
      questionColumn: header.column,
      choicesColumn: findHeaderColumn(header.row, CHOICES_HEADER, header.column),
      sectionColumn: findHeaderColumn(header.row, SECTION_HEADER, header.column),
      headerRow: header.row.rowNumber,
      columnCount,
    };
  }
  const longest = longestTextColumn(sheet.rows);
  if (longest === null) return { problem: "no_text" };
  if (longest.column === -1) return { problem: "formulas_only" };
  // A first row of short labels over long text is a header the words above did not recognise.
  const first = sheet.rows[0];
  const firstCell = first?.cells[longest.column] ?? "";
  const looksLikeHeader =
    first !== undefined && firstCell.length > 0 && wordCount(firstCell) <= 3 && !firstCell.includes("?");
  return {
    sheet: sheet.name,
    sheetIndex,
    questionColumn: longest.column,
    choicesColumn: null,
    sectionColumn: null,
    headerRow: looksLikeHeader && sheet.rows.length > 1 ? first.rowNumber : null,
    columnCount,
  };
}

/** "Yes | No", "Yes; No", or one per line. */
export function splitChoices(text: string): string[] {
  const separator = text.includes("|") ? "|" : text.includes("\n") ? "\n" : text.includes(";") ? ";" : null;
  const parts = separator === null ? [text] : text.split(separator);
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

/**
 * A section heading: the question cell holds a short label and nothing else in the row, no question
 * mark and no asking word; or the question cell is empty and one short label stands elsewhere in the row.
 */
function headingOf(row: GridRow, layout: SheetLayout): string | null {
  const filled = row.cells.map((cell, column) => ({ cell: cell.trim(), column })).filter((entry) => entry.cell !== "");
  if (filled.length !== 1) return null;
  const only = filled[0];
  if (!only) return null;
  const text = only.cell;
  if (text.includes("?") || wordCount(text) > 8 || text.length > 80) return null;
  if (only.column === layout.questionColumn && IMPERATIVE_START.test(text)) return null;
  return text;
}

function questionsOfSheet(sheet: GridSheet, layout: SheetLayout, firstPosition: number): QuestionnaireQuestion[] {
  const questions: QuestionnaireQuestion[] = [];
  let heading: string | null = null;
  const rowValidations = validationsByRow(sheet);
  for (const row of sheet.rows) {
    if (layout.headerRow !== null && row.rowNumber <= layout.headerRow) continue;
    const sectionHeading = headingOf(row, layout);
    if (sectionHeading !== null) {
      heading = sectionHeading;
      continue;
    }
    if (row.formulaColumns?.includes(layout.questionColumn)) continue;
    const pathCell = layout.sectionColumn === null ? "" : (row.cells[layout.sectionColumn] ?? "").trim();
    const section = pathCell || heading;
    const validation = sheet.validationLists?.get(`${row.rowNumber}:${layout.questionColumn + 1}`);
    const choicesCell = layout.choicesColumn === null ? "" : (row.cells[layout.choicesColumn] ?? "").trim();
    const choices = choicesCell ? splitChoices(choicesCell) : (validation ?? rowValidations.get(row.rowNumber) ?? []);
    let text = (row.cells[layout.questionColumn] ?? "").trim();
    // A row that offers choices under a section but states no question asks about its section.
    if (text === "" && choices.length > 0 && section) text = lastSectionPart(section);
    if (text === "" || !/[\p{L}]/u.test(text)) continue;
    questions.push({
      position: firstPosition + questions.length,
      sheet: sheet.name,
      sheetIndex: layout.sheetIndex,
      rowNumber: row.rowNumber,
      column: layout.questionColumn,
      text,
      section: section || null,
      choices,
    });
  }
  return questions;
}

/** The first data-validation list of each row (the answer cell is usually beside the question). */
function validationsByRow(sheet: GridSheet): Map<number, string[]> {
  const byRow = new Map<number, string[]>();
  for (const [key, values] of sheet.validationLists ?? []) {
    const rowNumber = Number(key.slice(0, key.indexOf(":")));
    if (!byRow.has(rowNumber)) byRow.set(rowNumber, values);
  }
  return byRow;
}

export function lastSectionPart(section: string): string {
  const parts = section.split(/\s*>\s*/).filter(Boolean);
  return parts[parts.length - 1] ?? section;
}

function chooseSheets(grid: QuestionnaireGrid, sheet: string | undefined): Array<{ sheet: GridSheet; index: number }> {
  const all = grid.sheets.map((entry, index) => ({ sheet: entry, index }));
  if (sheet === undefined) return all;
  const byNumber = /^\d+$/.test(sheet.trim()) ? all[Number(sheet.trim()) - 1] : undefined;
  const byName = all.find((entry) => entry.sheet.name.toLowerCase() === sheet.trim().toLowerCase());
  const chosen = byName ?? byNumber;
  if (!chosen) {
    throw new FolioError(
      "questionnaire_sheet_not_found",
      `There is no sheet "${sheet}" — the sheets are ${grid.sheets.map((entry, index) => `${index + 1} "${entry.name}"`).join(", ")}.`,
    );
  }
  return [chosen];
}

/** Every question of the questionnaire, in reading order, with each sheet's layout. */
export function findQuestions(grid: QuestionnaireGrid, options: QuestionnaireReadOptions): ReadQuestionnaire {
  if (grid.format === "docx" && grid.sheets.length === 0) {
    throw new FolioError(
      "questionnaire_no_table",
      "This Word document has no table, so Folio cannot tell its questions apart — put the questions in a table (one per row), or upload them as a spreadsheet.",
    );
  }
  for (const sheet of grid.sheets) {
    if (sheet.rowCount > options.maxRows) {
      throw new FolioError(
        "questionnaire_too_long",
        `Sheet "${sheet.name}" has ${sheet.rowCount.toLocaleString("en-US")} rows; Folio answers questionnaires of up to ${options.maxRows.toLocaleString("en-US")} rows — split it, or raise FOLIO_QUESTIONNAIRE_MAX_ROWS.`,
      );
    }
  }
  const layouts: SheetLayout[] = [];
  const questions: QuestionnaireQuestion[] = [];
  let formulasOnly = false;
  for (const { sheet, index } of chooseSheets(grid, options.sheet)) {
    const layout = layoutSheet(sheet, index, options);
    if ("problem" in layout) {
      formulasOnly ||= layout.problem === "formulas_only";
      continue;
    }
    const found = questionsOfSheet(sheet, layout, questions.length);
    if (found.length === 0) continue;
    layouts.push(layout);
    questions.push(...found);
  }
  if (questions.length === 0) {
    if (formulasOnly) {
      throw new FolioError(
        "questionnaire_formulas_only",
        "Every text cell in this questionnaire is a formula, so there is no question text to read — paste the questions as values (Paste Special → Values) and upload it again.",
      );
    }
    throw new FolioError(
      "questionnaire_no_questions",
      options.column === undefined
        ? "No column of this file holds question text — name the question column with --column (a header, a letter or a number), or check that the right file and sheet were chosen."
        : `Column "${options.column}" holds no question text — name another one with --column.`,
    );
  }
  return { format: grid.format, questions, layouts };
}
