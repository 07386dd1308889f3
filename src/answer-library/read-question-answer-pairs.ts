/**
 * Turns a completed questionnaire into question/answer pairs with their sheet and row. In each table
 * (sheet, CSV, DOCX table) the header row is found among the first rows by its headers — a question
 * column ("Question", "Requirement", "Control", "Description"…) and an answer column ("Answer",
 * "Response", "Vendor response"…) — or by the columns the user named (header text, a letter "C" or a
 * number "3"). Rows with a question and an answer become pairs; section headings and rows left
 * unanswered are skipped and counted. Tables without both columns are passed over. The file is read by
 * the questionnaire reader (questionnaire/read/read-questionnaire-grid.ts), the same one that reads
 * questionnaires to fill, in its worker thread (questionnaire/questionnaire-worker-pool.ts: time, heap and
 * memory bounds, the event loop free meanwhile); its refusals are reworded here for a completed questionnaire.
 */
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import { FolioError, isFolioError, ParseError } from "../errors.js";
import type { QuestionnaireGrid } from "../questionnaire/questionnaire.js";
import { readQuestionnaireInWorker } from "../questionnaire/questionnaire-worker-pool.js";

export type QuestionTableRow = { row: number; cells: string[] };

/** One sheet, CSV file or DOCX table, cells as plain text on one line. `sheet` is null for a CSV. */
export type QuestionTable = { sheet: string | null; rows: QuestionTableRow[] };

/** Most non-empty rows read from one file; a completed questionnaire has hundreds. */
export const MAX_QUESTIONNAIRE_ROWS = 20_000;

export type QuestionAnswerColumns = {
  /** Header text (case-insensitive), a column letter ("B") or a 1-based number ("2"). */
  questionColumn?: string;
  answerColumn?: string;
  /** Only this sheet: its name, or its 1-based position. */
  sheet?: string;
};

export type QuestionAnswerPair = { question: string; answer: string; sheet: string | null; row: number };

export type QuestionAnswerPairs = {
  pairs: QuestionAnswerPair[];
  questionColumn: string;
  answerColumn: string;
  /** The sheets (or DOCX tables) pairs were read from. */
  sheets: string[];
  skippedRows: number;
};

/** Header rows are looked for among this many first non-empty rows of a table (titles may stand above). */
const HEADER_SEARCH_ROWS = 10;

/** Header patterns, best first. */
const QUESTION_HEADERS = [
  /^(questions?|question text|questionnaire question|control question|security question)$/,
  /\bquestions?\b/,
  /^(requirements?|requirement text|criteria|criterion)$/,
  /\brequirements?\b/,
  /^(controls?|control description)$/,
  /^(query|item|description|topic)$/,
];
const ANSWER_HEADERS = [
  /^(answers?|responses?|reply|vendor response|supplier response|your response|your answer)$/,
  /\banswers?\b/,
  /\bresponses?\b/,
  /^(comments?|explanation|details|notes?)$/,
];

function normaliseHeader(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N} ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** A user's column: a letter ("C"), a number ("3"), or header text. Returns the index in `header`, or -1. */
export function findNamedColumn(header: string[], named: string): number {
  const trimmed = named.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) - 1;
  if (/^[A-Za-z]{1,2}$/.test(trimmed)) {
    const byHeader = header.findIndex((cell) => normaliseHeader(cell) === normaliseHeader(trimmed));
    if (byHeader !== -1) return byHeader;
    const letters = trimmed.toUpperCase();
    return [...letters].reduce((index, letter) => index * 26 + (letter.charCodeAt(0) - 64), 0) - 1;
  }
  return header.findIndex((cell) => normaliseHeader(cell) === normaliseHeader(trimmed));
}

function findByPatterns(header: string[], patterns: RegExp[], exclude: number): number {
  for (const pattern of patterns) {
    const index = header.findIndex((cell, position) => position !== exclude && pattern.test(normaliseHeader(cell)));
    if (index !== -1) return index;
  }
  return -1;
}

export type HeaderChoice = { headerIndex: number; question: number; answer: number };

/**
 * The header row and the question and answer columns of one table, or null. Named columns win; a letter
 * or number needs no header, so the first non-empty row is taken as the header then.
 */
export function findQuestionAnswerColumns(
  rows: string[][],
  columns: Pick<QuestionAnswerColumns, "questionColumn" | "answerColumn">,
): HeaderChoice | null {
  const limit = Math.min(rows.length, HEADER_SEARCH_ROWS);
  for (let headerIndex = 0; headerIndex < limit; headerIndex += 1) {
    const header = rows[headerIndex] ?? [];
    const question =
      columns.questionColumn !== undefined
        ? findNamedColumn(header, columns.questionColumn)
        : findByPatterns(header, QUESTION_HEADERS, -1);
    if (question < 0) continue;
    const answer =
      columns.answerColumn !== undefined
        ? findNamedColumn(header, columns.answerColumn)
        : findByPatterns(header, ANSWER_HEADERS, question);
    if (answer < 0 || answer === question) continue;
    return { headerIndex, question, answer };
  }
  return null;
}

function columnLabel(header: string[], index: number): string {
  const text = header[index];
  if (text) return text;
  let label = "";
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26))
    label = String.fromCharCode(65 + ((rest - 1) % 26)) + label;
  return `column ${label}`;
}

function selectTables(tables: QuestionTable[], sheet: string | undefined, fileName: string): QuestionTable[] {
  if (sheet === undefined) return tables;
  const byName = tables.filter((table) => (table.sheet ?? "").toLowerCase() === sheet.trim().toLowerCase());
  if (byName.length > 0) return byName;
  const position = /^\d+$/.test(sheet.trim()) ? Number(sheet) : Number.NaN;
  const byPosition = tables[position - 1];
  if (byPosition) return [byPosition];
  throw new FolioError(
    "sheet_not_found",
    `${fileName} has no sheet "${sheet}"; its sheets are ${tables.map((table, index) => `${index + 1} "${table.sheet ?? "(CSV)"}"`).join(", ")}.`,
  );
}

export function pairsFromTables(
  tables: QuestionTable[],
  fileName: string,
  columns: QuestionAnswerColumns,
): QuestionAnswerPairs {
  const selected = selectTables(tables, columns.sheet, fileName);
  const pairs: QuestionAnswerPair[] = [];
  const sheets: string[] = [];
  let skippedRows = 0;
  let labels: { question: string; answer: string } | null = null;
  const headersSeen: string[] = [];
  for (const table of selected) {
    const cells = table.rows.map((row) => row.cells);
    const choice = findQuestionAnswerColumns(cells, columns);
    if (!choice) {
      headersSeen.push(...(cells[0] ?? []).filter((cell) => cell !== "").slice(0, 8));
      continue;
    }
    const header = cells[choice.headerIndex] ?? [];
    labels ??= { question: columnLabel(header, choice.question), answer: columnLabel(header, choice.answer) };
    let found = 0;
    for (const row of table.rows.slice(choice.headerIndex + 1)) {
      const question = row.cells[choice.question] ?? "";
      const answer = row.cells[choice.answer] ?? "";
      if (question !== "" && answer !== "") {
        pairs.push({ question, answer, sheet: table.sheet, row: row.row });
        found += 1;
      } else {
        // A section heading, or a question left unanswered: nothing to approve.
        skippedRows += 1;
      }
    }
    if (found > 0 && table.sheet !== null) sheets.push(table.sheet);
  }
  if (labels === null) {
    const seen = [...new Set(headersSeen)].slice(0, 8);
    throw new FolioError(
      "answer_columns_not_found",
      `Could not tell which column of ${fileName} holds the questions and which the answers${seen.length > 0 ? ` (headers seen: ${seen.map((cell) => `"${cell}"`).join(", ")})` : ""} — name them, e.g. --question-column "Question" --answer-column "Response" (a header, a letter or a number).`,
    );
  }
  if (pairs.length === 0) {
    throw new FolioError(
      "no_approved_answers",
      `${fileName} has no row with both a question (${labels.question}) and an answer (${labels.answer}) — add a completed questionnaire.`,
    );
  }
  return { pairs, questionColumn: labels.question, answerColumn: labels.answer, sheets, skippedRows };
}

function cleanCell(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The grid as the answer library reads it: whitespace flattened, a CSV without a sheet name. */
export function tablesFromGrid(grid: QuestionnaireGrid, fileName: string): QuestionTable[] {
  const rows = grid.sheets.reduce((sum, sheet) => sum + sheet.rows.length, 0);
  if (rows > MAX_QUESTIONNAIRE_ROWS) {
    throw new ParseError(
      "questionnaire_too_large",
      `${fileName} has more than ${MAX_QUESTIONNAIRE_ROWS.toLocaleString("en-US")} rows — split it into smaller files and add them one by one.`,
      { file: fileName },
    );
  }
  return grid.sheets.map((sheet) => ({
    sheet: grid.format === "csv" ? null : sheet.name,
    rows: sheet.rows.map((row) => ({ row: row.rowNumber, cells: row.cells.map(cleanCell) })),
  }));
}

/** The reader's refusal of a file that is no questionnaire at all, said for one that should hold answers. */
function asApprovedAnswersRefusal(error: unknown, fileName: string): unknown {
  if (!isFolioError(error) || error.code !== "questionnaire_unsupported_type") return error;
  const fileKind = typeof error.details.fileKind === "string" ? error.details.fileKind : "not a table";
  const message =
    error.details.mediaType === "application/vnd.ms-excel"
      ? `${fileName} is an Excel 97–2003 workbook (.xls) — save it as .xlsx in Excel and add that copy.`
      : `${fileName} is ${fileKind}, not a completed questionnaire — approved answers are read from an XLSX, CSV or DOCX table with a question column and an answer column.`;
  return new ParseError("not_a_questionnaire", message, { file: fileName, cause: error });
}

export async function readQuestionAnswerPairs(
  bytes: Uint8Array,
  fileName: string,
  columns: QuestionAnswerColumns,
): Promise<QuestionAnswerPairs> {
  // Questionnaires to fill have their own size setting (FOLIO_QUESTIONNAIRE_MAX_MB); approved answers
  // are held to the upload limit.
  if (bytes.byteLength > DEFAULT_PARSE_LIMITS.maxBytes) {
    throw new ParseError(
      "file_too_large",
      `${fileName} is larger than the ${Math.round(DEFAULT_PARSE_LIMITS.maxBytes / (1024 * 1024))} MB limit — split it into smaller files.`,
      { file: fileName },
    );
  }
  const grid = await readQuestionnaireInWorker(bytes, fileName).catch((error: unknown) => {
    throw asApprovedAnswersRefusal(error, fileName);
  });
  return pairsFromTables(tablesFromGrid(grid, fileName), fileName, columns);
}
