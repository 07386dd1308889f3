/**
 * What Folio found in a questionnaire before it answers anything: per sheet read, the header row, the
 * question column (its letter and name), how many questions and the first three, the rows passed over
 * as no questions, and every column with its name and first value so a person can pick another. The
 * console shows it before the job starts; `folio questionnaire fill --dry-run` prints it.
 */

import { describeSkipped } from "../jobs/questionnaire-progress.js";
import type {
  GridSheet,
  QuestionnaireFormat,
  QuestionnaireGrid,
  ReadQuestionnaire,
  SkippedCounts,
  SkippedRow,
  SkipReason,
} from "../questionnaire.js";
import { columnLetters } from "./find-questions.js";

/** Questions shown of each sheet. */
const FIRST_QUESTIONS = 3;
/** Characters of a column's first value shown beside its name. */
const SAMPLE_CHARACTERS = 60;
/** Skipped rows listed (the counts cover them all). */
const SKIPPED_LISTED = 20;

export type PreviewColumn = { letter: string; header: string; sample: string };

export type PreviewSheet = {
  sheet: string;
  sheetIndex: number;
  headerRow: number | null;
  headerRows: number[];
  /** The question column's letter ("B"). */
  questionColumn: string;
  /** Its header text ("" when unnamed or without a header). */
  questionHeader: string;
  questions: number;
  firstQuestions: string[];
  skipped: SkippedCounts;
  /** Every column in use, to pick another question column from. */
  columns: PreviewColumn[];
};

export type QuestionnairePreview = {
  fileName: string;
  format: QuestionnaireFormat;
  questions: number;
  sheets: PreviewSheet[];
  /** The first rows passed over, with why. */
  skippedRows: SkippedRow[];
  skipped: number;
  /** Every sheet of the file (DOCX: every table), to pick another one. */
  allSheets: string[];
};

function truncate(text: string, length: number): string {
  const single = text.replace(/\s+/g, " ").trim();
  return single.length > length ? `${single.slice(0, length - 1)}…` : single;
}

function columnsOf(sheet: GridSheet, headerRows: number[], columnCount: number): PreviewColumn[] {
  const lastHeader = Math.max(0, ...headerRows);
  const headerCells = sheet.rows.filter((row) => headerRows.includes(row.rowNumber));
  // Rows of two or more cells: a section name alone in its row says nothing about the column.
  const below = sheet.rows.filter(
    (row) => row.rowNumber > lastHeader && row.cells.filter((cell) => cell.trim() !== "").length >= 2,
  );
  return Array.from({ length: columnCount }, (_, column) => ({
    letter: columnLetters(column),
    header: truncate(
      headerCells
        .map((row) => row.cells[column]?.trim() ?? "")
        .filter(Boolean)
        .join(" "),
      SAMPLE_CHARACTERS,
    ),
    sample: truncate(
      below.find((row) => (row.cells[column] ?? "").trim() !== "")?.cells[column] ?? "",
      SAMPLE_CHARACTERS,
    ),
  }));
}

export function previewQuestionnaire(
  grid: QuestionnaireGrid,
  read: ReadQuestionnaire,
  fileName: string,
): QuestionnairePreview {
  const sheets = read.layouts.map((layout): PreviewSheet => {
    const questions = read.questions.filter((question) => question.sheetIndex === layout.sheetIndex);
    const headerRows = layout.headerRows ?? (layout.headerRow === null ? [] : [layout.headerRow]);
    const sheet = grid.sheets[layout.sheetIndex];
    return {
      sheet: layout.sheet,
      sheetIndex: layout.sheetIndex,
      headerRow: layout.headerRow,
      headerRows,
      questionColumn: columnLetters(layout.questionColumn),
      questionHeader: layout.questionHeader ?? "",
      questions: questions.length,
      firstQuestions: questions.slice(0, FIRST_QUESTIONS).map((question) => truncate(question.text, 200)),
      skipped: layout.skipped ?? {},
      columns: sheet ? columnsOf(sheet, headerRows, layout.columnCount) : [],
    };
  });
  return {
    fileName,
    format: read.format,
    questions: read.questions.length,
    sheets,
    skippedRows: read.skipped.slice(0, SKIPPED_LISTED),
    skipped: read.skipped.length,
    allSheets: grid.sheets.map((sheet) => sheet.name),
  };
}

/** Why rows were not asked, singular and plural ("1 section name", "2 IDs alone"). */
export const SKIP_REASONS: Record<SkipReason, [string, string]> = {
  section: ["section name", "section names"],
  identifier: ["ID alone", "IDs alone"],
  single_word: ["single word", "single words"],
  empty: ["empty question cell", "empty question cells"],
  header: ["repeated header", "repeated headers"],
  instructions: ["instruction", "instructions"],
};

function describeCounts(counts: SkippedCounts): string {
  return Object.entries(counts)
    .filter(([, count]) => (count ?? 0) > 0)
    .map(([reason, count]) => {
      const [one, many] = SKIP_REASONS[reason as SkipReason];
      return `${count} ${count === 1 ? one : many}`;
    })
    .join(", ");
}

/** The preview as lines of text, for a terminal. */
export function describePreview(preview: QuestionnairePreview): string {
  const lines = [
    `${preview.fileName}: ${preview.questions} question${preview.questions === 1 ? "" : "s"} found${preview.skipped > 0 ? `; ${describeSkipped(preview.skipped)}` : ""}`,
  ];
  for (const sheet of preview.sheets) {
    const header =
      sheet.headerRow === null
        ? "no header row"
        : sheet.headerRows.length > 1
          ? `header rows ${sheet.headerRows.join("–")}`
          : `header row ${sheet.headerRow}`;
    const name = sheet.questionHeader === "" ? "" : ` ("${sheet.questionHeader}")`;
    lines.push(
      `  sheet "${sheet.sheet}": ${header}, question column ${sheet.questionColumn}${name}, ${sheet.questions} question${sheet.questions === 1 ? "" : "s"}`,
    );
    sheet.firstQuestions.forEach((question, index) => {
      lines.push(`    ${index + 1}. ${question}`);
    });
    const counts = describeCounts(sheet.skipped);
    if (counts !== "") lines.push(`    not asked: ${counts}`);
  }
  lines.push("Another column: --column C (a letter, a number or its header); another sheet: --sheet N.");
  return `${lines.join("\n")}\n`;
}
