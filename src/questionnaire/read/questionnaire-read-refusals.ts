/**
 * The refusals of a questionnaire (or approved-answers) file that is too big or too strange to read,
 * each with a code of its own and a message that says what in the file is wrong and what to do about
 * it. The reader raises them while it streams through the file, before anything is built from it.
 */
import { ParseError } from "../../errors.js";
import type { QuestionnaireReadLimits } from "./questionnaire-read-limits.js";
import { type CellRange, columnLetters, describeRange, rangeArea } from "./xlsx-references.js";

const count = (value: number) => Math.round(value).toLocaleString("en-US");

/** "column IV (256)". */
function lastColumn(limits: QuestionnaireReadLimits): string {
  return `column ${columnLetters(limits.maxColumns)} (${count(limits.maxColumns)} columns)`;
}

export function cellPastLastColumn(
  fileName: string,
  sheet: string,
  cell: { row: number; column: number },
  limits: QuestionnaireReadLimits,
): ParseError {
  const reference = `${columnLetters(cell.column)}${cell.row}`;
  return new ParseError(
    "questionnaire_too_wide",
    `Sheet "${sheet}" has a cell at ${reference}, in column ${count(cell.column)}; Folio reads questionnaires up to ${lastColumn(limits)} — delete the columns right of your table (select them, right-click, Delete) and upload the file again.`,
    { file: fileName, details: { sheet, cell: reference } },
  );
}

export function mergeTooLarge(
  fileName: string,
  sheet: string,
  range: CellRange,
  limits: QuestionnaireReadLimits,
): ParseError {
  return new ParseError(
    "questionnaire_merge_too_large",
    `Sheet "${sheet}" merges ${describeRange(range)} (${count(rangeArea(range))} cells); Folio reads merged cells up to ${lastColumn(limits)} and ${count(limits.maxMergedCells)} merged cells in all — unmerge that range (Home → Merge & Center → Unmerge Cells) and upload the file again.`,
    { file: fileName, details: { sheet, range: describeRange(range) } },
  );
}

export function tooManyMerges(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_merge_too_large",
    `This workbook has more than ${count(limits.maxMerges)} merged ranges — unmerge the cells of the question table and upload the file again.`,
    { file: fileName },
  );
}

export function validationTooWide(
  fileName: string,
  sheet: string,
  range: CellRange,
  limits: QuestionnaireReadLimits,
): ParseError {
  return new ParseError(
    "questionnaire_validation_too_large",
    `Sheet "${sheet}" has a data-validation list over ${describeRange(range)}, past ${lastColumn(limits)} — apply the list to the answer column only (Data → Data Validation) and upload the file again.`,
    { file: fileName, details: { sheet, range: describeRange(range) } },
  );
}

export function tooManyValidationCells(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_validation_too_large",
    `This workbook's data-validation lists cover more than ${count(limits.maxValidationCells)} cells of the rows in use — apply each list to the answer column only (Data → Data Validation) and upload the file again.`,
    { file: fileName },
  );
}

export function tooManyCells(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_many_cells",
    `This file has more than ${count(limits.maxCells)} filled cells — split it into smaller files and upload them one by one.`,
    { file: fileName },
  );
}

export function tooManyCellElements(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_many_cells",
    `This workbook defines more than ${count(limits.maxCellElements)} cells (formatted empty ones included) — clear the formatting of the unused area (select it, Home → Clear → Clear All) and upload the file again.`,
    { file: fileName },
  );
}

export function tooManyRowElements(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_many_rows",
    `This workbook defines more than ${count(limits.maxRowElements)} rows (formatted empty ones included) — delete the empty rows below the questions and upload the file again.`,
    { file: fileName },
  );
}

export function tooMuchText(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_much_text",
    `This file holds more than ${count(limits.maxTextCharacters / 1_000_000)} million characters of cell text — split it into smaller files and upload them one by one.`,
    { file: fileName },
  );
}

export function sharedStringsTooLarge(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_much_text",
    `This workbook's table of texts holds more than ${count(limits.maxSharedStrings)} entries or ${count(limits.maxSharedStringBytes / (1024 * 1024))} MB — copy the questions into a new workbook (paste as values) and upload that.`,
    { file: fileName },
  );
}

export function tooManyTextRuns(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_many_text_runs",
    `This workbook's text is split into more than ${count(limits.maxTextRuns)} differently formatted pieces (rich-text runs in cells and comments) — copy the questions into a new workbook (paste as values, or clear the formatting) and upload that.`,
    { file: fileName },
  );
}

export function tooManyComments(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_many_comments",
    `This workbook has more than ${count(limits.maxComments)} comments (notes) — delete them (Review → Delete, with the sheet selected) or copy the questions into a new workbook, and upload it again.`,
    { file: fileName },
  );
}

export function tooManyStyles(fileName: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_many_styles",
    `This workbook defines more than ${count(limits.maxStyleEntries)} fonts, fills, borders and cell formats — copy the questions into a new workbook (paste as values) and upload that.`,
    { file: fileName },
  );
}

export function definedNamesTooLarge(
  fileName: string,
  found: { names: number; cells: number },
  limits: QuestionnaireReadLimits,
): ParseError {
  const what =
    found.names > limits.maxDefinedNames
      ? `more than ${count(limits.maxDefinedNames)} named ranges`
      : `named ranges covering more than ${count(limits.maxDefinedNameCells)} cells`;
  return new ParseError(
    "questionnaire_defined_names_too_large",
    `This workbook has ${what} — delete the names you do not need (Formulas → Name Manager) and upload the file again.`,
    { file: fileName, details: found },
  );
}

export function tooManyElements(fileName: string, part: string, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_many_elements",
    `This workbook's parts besides its sheets (${part} among them) hold more than ${count(limits.maxPartElements)} XML elements — open it in Excel, save it again (or copy the questions into a new workbook) and upload it.`,
    { file: fileName, details: { part } },
  );
}

export function tooManySheets(fileName: string, found: number, limits: QuestionnaireReadLimits): ParseError {
  return new ParseError(
    "questionnaire_too_many_sheets",
    `This file has ${count(found)} sheets or tables; Folio reads at most ${count(limits.maxSheets)} — keep the sheets with questions in their own file and upload that.`,
    { file: fileName },
  );
}

export function damagedWorkbook(fileName: string, reason: string, cause?: unknown): ParseError {
  return new ParseError(
    "questionnaire_unreadable",
    `${fileName} is a damaged Excel workbook and cannot be read (${reason}) — open it in Excel, save it again and upload it.`,
    { file: fileName, cause, details: { reason } },
  );
}

export function lineTooLong(
  fileName: string,
  line: number,
  length: number,
  limits: QuestionnaireReadLimits,
): ParseError {
  return new ParseError(
    "questionnaire_line_too_long",
    `Line ${count(line)} of ${fileName} is ${count(length)} characters long; Folio reads lines of up to ${count(limits.maxLineCharacters)} characters — check that it is a table with one question per line (saved from a spreadsheet as CSV), or split the long cells.`,
    { file: fileName, details: { line } },
  );
}

export function recordTooWide(
  fileName: string,
  line: number,
  fields: number,
  limits: QuestionnaireReadLimits,
): ParseError {
  return new ParseError(
    "questionnaire_too_wide",
    `Record ${count(line)} of ${fileName} has ${count(fields)} fields; Folio reads questionnaires of up to ${count(limits.maxColumns)} columns — remove the extra columns (or check the delimiter) and upload the file again.`,
    { file: fileName, details: { line } },
  );
}

export function tableTooLarge(fileName: string, table: number, what: string): ParseError {
  return new ParseError(
    "questionnaire_table_too_large",
    `Table ${count(table)} of ${fileName} ${what} — split the table, or copy the questions into a new document, and upload it again.`,
    { file: fileName, details: { table } },
  );
}
