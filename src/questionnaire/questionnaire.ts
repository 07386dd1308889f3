/**
 * What a questionnaire is once read: its cells as a grid per sheet (what the reader saw), and the
 * questions found in it, each with the sheet, row and column it sits in, the section it belongs to and
 * the answer choices it offers. A questionnaire is read as questions, never ingested as a source.
 */

export type QuestionnaireFormat = "xlsx" | "csv" | "docx";

/** One row of a sheet as text: `cells[0]` is column 1 (A). */
export type GridRow = {
  /** 1-based row number in the sheet (CSV: the line's record number; DOCX: the table row). */
  rowNumber: number;
  cells: string[];
  /** Columns (0-based) whose cell is a formula; its text is the formula's last computed value. */
  formulaColumns?: number[];
};

export type GridSheet = {
  name: string;
  /** Non-empty rows, in order. Empty rows are not listed (their numbers are simply skipped). */
  rows: GridRow[];
  /** Rows in the sheet, empty ones included (the size limit counts these). */
  rowCount: number;
  /** XLSX data-validation lists: "row:column" (column 0-based) -> the allowed values. */
  validationLists?: Map<string, string[]>;
  /** XLSX columns (0-based) the workbook hides: never the question column. */
  hiddenColumns?: number[];
};

export type QuestionnaireGrid = {
  format: QuestionnaireFormat;
  sheets: GridSheet[];
};

export type QuestionnaireQuestion = {
  /** Position in the questionnaire, 0-based, in reading order (sheet by sheet, row by row). */
  position: number;
  sheet: string;
  /** 0-based index of the sheet in the workbook. */
  sheetIndex: number;
  rowNumber: number;
  /** 0-based column holding the question. */
  column: number;
  /** The question as written in the cell. */
  text: string;
  /** The section heading above it, or its path column ("Network > Firewalls"), when there is one. */
  section: string | null;
  /** The answer choices the row offers (a choices column or a data-validation list); empty when free text. */
  choices: string[];
};

/** Where the question (and optional choices/section) columns of one sheet are, and where its header row is. */
export type SheetLayout = {
  sheet: string;
  sheetIndex: number;
  questionColumn: number;
  choicesColumn: number | null;
  sectionColumn: number | null;
  /** Row number of the header row (where a filled copy writes its column names), or null when the sheet has none. */
  headerRow: number | null;
  /** Number of columns in use (the filled copy adds its columns after them). */
  columnCount: number;
  /** Every row of the header: one, or two read as one (a group name over "Yes | No | N/A"). Absent in jobs stored before #32. */
  headerRows?: number[];
  /** The question column's header text ("" when the column has no name). */
  questionHeader?: string;
  /** Rows further down that repeat the header (a table continued on the next page): named like the header row. */
  repeatedHeaderRows?: number[];
  /** Rows under the header that were not asked, by why (section names, IDs, single words, empty, instructions). */
  skipped?: SkippedCounts;
};

/** Why a row under the header is not asked. */
export type SkipReason = "section" | "identifier" | "single_word" | "empty" | "header" | "instructions";

export type SkippedCounts = Partial<Record<SkipReason, number>>;

export type SkippedRow = { sheet: string; rowNumber: number; text: string; reason: SkipReason };

export type ReadQuestionnaire = {
  format: QuestionnaireFormat;
  questions: QuestionnaireQuestion[];
  layouts: SheetLayout[];
  /** The rows under each header that were not asked, in order, with why. */
  skipped: SkippedRow[];
};

/** How the user narrowed the reading: a sheet (1-based number or name) and a column (letter, number or header). */
export type QuestionnaireReadOptions = {
  sheet?: string;
  column?: string;
  /** Refuse sheets with more rows than this (empty rows included). */
  maxRows: number;
};
