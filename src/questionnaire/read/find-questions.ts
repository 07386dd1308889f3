/**
 * Finds the questions in a questionnaire's grid: per sheet, the header row and question column
 * (find-header-row.ts: the row of column names over the longest question-like texts, titles and
 * instructions above it passed over; without a header, the most question-like column; or the column
 * the user named), the optional choices and section (path) columns, then every row under the header
 * that asks something. Rows that do not — section names, identifiers, single words, empty question
 * cells, instructions, the header repeated — are listed as skipped with why, never asked. A cover or
 * instructions sheet beside a sheet with a table of questions is not read. Pure: the readers build the
 * grid, this reads it.
 */
import { FolioError } from "../../errors.js";
import type {
  GridRow,
  GridSheet,
  QuestionnaireGrid,
  QuestionnaireQuestion,
  QuestionnaireReadOptions,
  ReadQuestionnaire,
  SheetLayout,
  SkippedCounts,
  SkippedRow,
  SkipReason,
} from "../questionnaire.js";
import {
  asks,
  isIdentifier,
  isInstruction,
  notQuestionReason,
  questionLikeness,
  wordCount,
} from "./cell-text-kinds.js";
import { CHOICES_HEADER, normalizeHeader, SECTION_HEADER } from "./column-names.js";
import { findHeaderRow, type HeaderChoice, headerColumn } from "./find-header-row.js";

/** Rows looked at (of those with any text) for the header the user named with --column. */
const NAMED_HEADER_SEARCH_ROWS = 40;

/** Sheets that explain the workbook rather than ask: read only when named, or when nothing else asks. */
const ABOUT_SHEET =
  /^(cover|cover (page|sheet)|instructions?|read ?me|introduction|intro|guidance|guide|overview|about|contents|glossary|definitions|change ?log|version history|history|revision history|notes)$/i;

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

/**
 * Without a header row: the column whose cells look most like questions (formulas not counted; hidden
 * columns never). -1 as the column when every text cell is a formula.
 */
function mostQuestionLikeColumn(rows: GridRow[], hidden: Set<number>): { column: number } | null {
  const totals = new Map<number, number>();
  let formulaCells = 0;
  let textCells = 0;
  for (const row of rows.slice(0, 200)) {
    row.cells.forEach((cell, column) => {
      if (row.formulaColumns?.includes(column)) {
        formulaCells += 1;
        return;
      }
      if (!/\p{L}/u.test(cell) || hidden.has(column)) return;
      textCells += 1;
      totals.set(column, (totals.get(column) ?? 0) + questionLikeness(cell));
    });
  }
  let best: { column: number; score: number } | null = null;
  for (const [column, score] of totals)
    if (score > 0 && (best === null || score > best.score)) best = { column, score };
  if (best) return { column: best.column };
  if (textCells === 0 && formulaCells > 0) return { column: -1 };
  return null;
}

/** The user's --column: a letter ("C"), a 1-based number ("3"), or a header's text ("Requirement"). */
function namedColumn(sheet: GridSheet, name: string): { column: number; headerRow: GridRow | null } {
  const trimmed = name.trim();
  if (/^\d+$/.test(trimmed) && Number(trimmed) >= 1) return { column: Number(trimmed) - 1, headerRow: null };
  const wanted = normalizeHeader(trimmed);
  for (const row of sheet.rows.slice(0, NAMED_HEADER_SEARCH_ROWS)) {
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

type SheetReading = {
  layout: SheetLayout;
  /** The rows of the header, to tell a repeated header further down. */
  headerCells: string[][];
  choiceLabels: string[];
  /** Whether a header row stands over the questions (without one, a cover sheet can pass for questions). */
  hasHeader: boolean;
};

function layoutSheet(
  sheet: GridSheet,
  sheetIndex: number,
  options: QuestionnaireReadOptions,
): SheetReading | { problem: "no_text" | "formulas_only" } {
  const columnCount = Math.max(0, ...sheet.rows.map((row) => row.cells.length));
  const hidden = new Set(sheet.hiddenColumns ?? []);
  const rowsByNumber = new Map(sheet.rows.map((row) => [row.rowNumber, row]));
  const reading = (questionColumn: number, header: HeaderChoice | null): SheetReading => {
    const headers = header?.headers ?? [];
    return {
      layout: {
        sheet: sheet.name,
        sheetIndex,
        questionColumn,
        choicesColumn: headerColumn(headers, CHOICES_HEADER, questionColumn),
        sectionColumn: headerColumn(headers, SECTION_HEADER, questionColumn),
        headerRow: header?.headerRow ?? null,
        columnCount: Math.max(columnCount, questionColumn + 1),
        headerRows: header?.headerRows ?? [],
        questionHeader: headers[questionColumn] ?? "",
      },
      headerCells: (header?.headerRows ?? []).map((rowNumber) => rowsByNumber.get(rowNumber)?.cells ?? []),
      choiceLabels: header?.choiceLabels ?? [],
      hasHeader: header !== null,
    };
  };
  if (options.column !== undefined) {
    const named = namedColumn(sheet, options.column);
    const found = findHeaderRow(sheet, new Set());
    if (named.headerRow) {
      const namedRow = named.headerRow;
      const headerRows = found?.headerRows.includes(namedRow.rowNumber) ? found.headerRows : [namedRow.rowNumber];
      const headers = found?.headerRows.includes(namedRow.rowNumber) ? found.headers : namedRow.cells;
      return reading(named.column, {
        headerRow: namedRow.rowNumber,
        headerRows,
        questionColumn: named.column,
        headers,
        choiceLabels: found?.headerRows.includes(namedRow.rowNumber) ? found.choiceLabels : [],
      });
    }
    return reading(named.column, found);
  }
  const found = findHeaderRow(sheet, hidden);
  if (found) return reading(found.questionColumn, found);
  const longest = mostQuestionLikeColumn(sheet.rows, hidden);
  if (longest === null) return { problem: "no_text" };
  if (longest.column === -1) return { problem: "formulas_only" };
  return reading(longest.column, null);
}

/** "Yes | No", "Yes; No", or one per line. */
export function splitChoices(text: string): string[] {
  const separator = text.includes("|") ? "|" : text.includes("\n") ? "\n" : text.includes(";") ? ";" : null;
  const parts = separator === null ? [text] : text.split(separator);
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

/**
 * A section heading: one short label and nothing else in the row but identifiers — no question mark, no
 * asking word, no sentence ending in a full stop — either alone ("Data protection") or after an
 * identifier that the next row's identifier extends ("A.5 | Information security policies" over
 * "A.5.1 …"); a numbered short item whose next row is numbered alongside it ("1 | Encryption at rest"
 * then "2 | …") is a checklist question, not a heading.
 */
function headingOf(row: GridRow, layout: SheetLayout, next: GridRow | undefined): string | null {
  const filled = row.cells.map((cell, column) => ({ cell: cell.trim(), column })).filter((entry) => entry.cell !== "");
  const identifiers = filled.filter((entry) => isIdentifier(entry.cell));
  const texts = filled.filter((entry) => !isIdentifier(entry.cell));
  const only = texts[0];
  if (texts.length !== 1 || !only) return null;
  const text = only.cell;
  if (text.includes("?") || wordCount(text) > 8 || text.length > 80) return null;
  if (only.column === layout.questionColumn) {
    if (asks(text)) return null;
    // A sentence is a statement to answer ("The vendor shall encrypt backups."), not a heading.
    if (/\.$/.test(text) && wordCount(text) >= 3) return null;
  }
  const identifier = identifiers[0]?.cell;
  if (identifier === undefined) return text;
  const stem = identifier.replace(/[.):]+$/, "").toLowerCase();
  const nextIdentifier = next?.cells.map((cell) => cell.trim()).find((cell) => isIdentifier(cell));
  const extends_ =
    nextIdentifier !== undefined &&
    nextIdentifier.length > stem.length &&
    nextIdentifier.toLowerCase().startsWith(stem) &&
    /[.\-_ (a-z]/i.test(nextIdentifier.charAt(stem.length));
  return extends_ ? text : null;
}

const sameCells = (left: string[], right: string[]) => {
  const width = Math.max(left.length, right.length);
  for (let column = 0; column < width; column++) {
    if (normalizeHeader(left[column] ?? "") !== normalizeHeader(right[column] ?? "")) return false;
  }
  return true;
};

type SheetQuestions = { questions: QuestionnaireQuestion[]; skipped: SkippedRow[]; repeatedHeaderRows: number[] };

function questionsOfSheet(sheet: GridSheet, reading: SheetReading, firstPosition: number): SheetQuestions {
  const { layout } = reading;
  const questions: QuestionnaireQuestion[] = [];
  const skipped: SkippedRow[] = [];
  const repeatedHeaderRows: number[] = [];
  const skip = (row: GridRow, text: string, reason: SkipReason) =>
    skipped.push({ sheet: sheet.name, rowNumber: row.rowNumber, text: text.slice(0, 120), reason });
  const lastHeaderRow = Math.max(0, ...(layout.headerRows ?? []), layout.headerRow ?? 0);
  let heading: string | null = null;
  const rowValidations = validationsByRow(sheet);
  sheet.rows.forEach((row, index) => {
    if (row.rowNumber <= lastHeaderRow) return;
    const text = (row.cells[layout.questionColumn] ?? "").trim();
    const rowText = row.cells.map((cell) => cell.trim()).find((cell) => cell !== "") ?? "";
    // The header again (a table continued on the next page): named like the header in the copy.
    const repeats = reading.headerCells.findIndex((cells) => sameCells(cells, row.cells));
    if (repeats !== -1) {
      if (reading.headerCells.length === 1 || layout.headerRows?.[repeats] === layout.headerRow)
        repeatedHeaderRows.push(row.rowNumber);
      skip(row, rowText, "header");
      return;
    }
    const sectionHeading = headingOf(row, layout, sheet.rows[index + 1]);
    if (sectionHeading !== null) {
      heading = sectionHeading;
      skip(row, sectionHeading, "section");
      return;
    }
    if (row.formulaColumns?.includes(layout.questionColumn)) return;
    const pathCell = layout.sectionColumn === null ? "" : (row.cells[layout.sectionColumn] ?? "").trim();
    const section = pathCell || heading;
    const validation = sheet.validationLists?.get(`${row.rowNumber}:${layout.questionColumn + 1}`);
    const choicesCell = layout.choicesColumn === null ? "" : (row.cells[layout.choicesColumn] ?? "").trim();
    const choices = choicesCell
      ? splitChoices(choicesCell)
      : (validation ?? rowValidations.get(row.rowNumber) ?? reading.choiceLabels);
    let asked = text;
    // A row that offers choices under a section but states no question asks about its section.
    if (asked === "" && (choicesCell !== "" || validation !== undefined) && section) asked = lastSectionPart(section);
    if (asked === "") {
      // "Please answer all questions in column C." in a row of its own, beside the question column.
      skip(row, rowText, isInstruction(rowText) ? "instructions" : "empty");
      return;
    }
    if (isInstruction(asked)) {
      skip(row, asked, "instructions");
      return;
    }
    const notQuestion = notQuestionReason(asked);
    if (notQuestion !== null) {
      // A one-word section standing in for an empty question cell: the question cell was empty.
      skip(row, asked, text === "" ? "empty" : notQuestion);
      return;
    }
    questions.push({
      position: firstPosition + questions.length,
      sheet: sheet.name,
      sheetIndex: layout.sheetIndex,
      rowNumber: row.rowNumber,
      column: layout.questionColumn,
      text: asked,
      section: section || null,
      choices,
    });
  });
  return { questions, skipped, repeatedHeaderRows };
}

function countSkipped(skipped: SkippedRow[]): SkippedCounts {
  const counts: SkippedCounts = {};
  for (const row of skipped) counts[row.reason] = (counts[row.reason] ?? 0) + 1;
  return counts;
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
  type SheetResult = { reading: SheetReading; found: SheetQuestions; sheetName: string };
  const results: SheetResult[] = [];
  let formulasOnly = false;
  const chosen = chooseSheets(grid, options.sheet);
  for (const { sheet, index } of chosen) {
    const reading = layoutSheet(sheet, index, options);
    if ("problem" in reading) {
      formulasOnly ||= reading.problem === "formulas_only";
      continue;
    }
    const found = questionsOfSheet(sheet, reading, 0);
    if (found.questions.length > 0) results.push({ reading, found, sheetName: sheet.name });
  }
  // A cover or instructions sheet beside sheets that hold a table of questions is not asked: without a
  // header its sentences ("This questionnaire takes about 30 minutes.") pass for questions.
  const tabled = results.some((result) => result.reading.hasHeader && !ABOUT_SHEET.test(result.sheetName.trim()));
  const kept =
    options.sheet !== undefined || !tabled
      ? results
      : results.filter((result) => {
          if (ABOUT_SHEET.test(result.sheetName.trim())) return false;
          if (result.reading.hasHeader) return true;
          const asking = result.found.questions.filter((question) => asks(question.text)).length;
          return asking >= 0.5 * result.found.questions.length;
        });
  const layouts: SheetLayout[] = [];
  const questions: QuestionnaireQuestion[] = [];
  const skipped: SkippedRow[] = [];
  for (const { reading, found } of kept) {
    const layout: SheetLayout = { ...reading.layout, skipped: countSkipped(found.skipped) };
    if (found.repeatedHeaderRows.length > 0) layout.repeatedHeaderRows = found.repeatedHeaderRows;
    layouts.push(layout);
    for (const question of found.questions) questions.push({ ...question, position: questions.length });
    skipped.push(...found.skipped);
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
  return { format: grid.format, questions, layouts, skipped };
}
