/**
 * Reads a questionnaire file into a grid of cell text per sheet — the one reader for questionnaires to
 * fill (find-questions.ts) and for completed questionnaires added as approved answers
 * (answer-library/read-question-answer-pairs.ts): XLSX (every sheet, real row numbers, with its
 * data-validation lists and formula cells), CSV/TSV (record numbers), or a DOCX's tables (one "sheet"
 * per outermost table, row numbers within the table, cells at their grid columns; docx-tables.ts, the
 * same map the DOCX filled copy is written from). The type comes from the bytes
 * (ingestion/detect-media-type.ts, which also refuses encrypted packages and programs); ZIP packages
 * are unpacked within the zip-bomb limits before exceljs or the XML parser sees them. Anything else is
 * refused with a ParseError that says what the file is (`details.fileKind`) and what to upload instead.
 *
 * Every size is bounded before anything is built from it (questionnaire-read-limits.ts): an XLSX is
 * surveyed first (survey-xlsx-package.ts) and only the cells that exist are visited, a CSV's lines and
 * fields are measured as they are read, a DOCX table's columns and rows counted. The service and the
 * answer library call this inside a worker thread (questionnaire-worker-pool.ts), which adds a time
 * limit, a heap cap and the memory watchdog.
 */
import { parse as parseCsvText } from "csv-parse/sync";
import type ExcelJS from "exceljs";
import { zipSync } from "fflate";
import { detectMediaType } from "../../../ingestion/detect-media-type.js";
import { unpackZip } from "../../../ingestion/unpack-zip.js";
import { isFolioError, ParseError } from "../../errors.js";
import type { GridRow, GridSheet, QuestionnaireFormat, QuestionnaireGrid } from "../questionnaire.js";
import { damagedDocx, openDocxPackage } from "./docx-package.js";
import type { DocxTableMap } from "./docx-tables.js";
import { mapDocxTables } from "./map-docx-tables.js";
import {
  DEFAULT_QUESTIONNAIRE_READ_LIMITS,
  QUESTIONNAIRE_WORKER_LIMITS,
  type QuestionnaireReadLimits,
} from "./questionnaire-read-limits.js";
import {
  lineTooLong,
  recordTooWide,
  tableTooLarge,
  tooManyCells,
  tooManySheets,
  tooMuchText,
} from "./questionnaire-read-refusals.js";
import { packageForFilling, packageForReading, surveyXlsxPackage, validationListsOf } from "./survey-xlsx-package.js";
import type { CellRange } from "./xlsx-references.js";

/** What the file is, in words, for a refusal ("a PDF", "plain text"). */
function describeFileKind(mediaType: string): string {
  if (mediaType === "application/pdf") return "a PDF";
  if (mediaType === "application/vnd.ms-excel") return "an Excel 97–2003 workbook (.xls)";
  if (mediaType === "text/markdown") return "a Markdown file";
  if (mediaType === "text/html") return "an HTML page";
  return "plain text";
}

function unsupported(fileName: string, mediaType: string): ParseError {
  const fileKind = describeFileKind(mediaType);
  const message =
    mediaType === "application/vnd.ms-excel"
      ? "This is an Excel 97–2003 workbook (.xls); Folio fills .xlsx workbooks — open it in Excel or LibreOffice, save it as .xlsx and upload that."
      : `This file is ${mediaType === "application/pdf" ? fileKind : "text without a table of questions"}, not a questionnaire Folio can fill — upload an Excel workbook (.xlsx), a CSV file, or a Word document (.docx) whose table holds the questions.`;
  return new ParseError("questionnaire_unsupported_type", message, {
    file: fileName,
    details: { fileKind, mediaType },
  });
}

/** Which questionnaire format the bytes are; refusals (encrypted, a program, a mismatch) say why. */
export function detectQuestionnaireFormat(bytes: Uint8Array, fileName: string): QuestionnaireFormat {
  let mediaType: string;
  try {
    mediaType = detectMediaType(bytes, fileName).mediaType;
  } catch (error) {
    if (isFolioError(error)) {
      const code = error.code === "office_encrypted" ? "questionnaire_encrypted" : "questionnaire_unreadable";
      throw new ParseError(code, error.message, { file: fileName, cause: error, details: error.details });
    }
    throw error;
  }
  switch (mediaType) {
    case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
      return "xlsx";
    case "text/csv":
    case "text/tab-separated-values":
      return "csv";
    case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
      return "docx";
    default:
      throw unsupported(fileName, mediaType);
  }
}

export async function readQuestionnaireGrid(
  bytes: Uint8Array,
  fileName: string,
  limits: QuestionnaireReadLimits = DEFAULT_QUESTIONNAIRE_READ_LIMITS,
): Promise<QuestionnaireGrid> {
  const format = detectQuestionnaireFormat(bytes, fileName);
  if (format === "xlsx") return { format, sheets: await readXlsxSheets(bytes, fileName, limits) };
  if (format === "docx") return { format, sheets: readDocxTables(bytes, fileName, limits) };
  return { format, sheets: [readCsvSheet(bytes, fileName, limits)] };
}

/** exceljs, imported on first use: a command that reads no workbook never loads it (~0.3 s). */
async function loadExcelJs(): Promise<typeof ExcelJS> {
  return (await import("exceljs")).default;
}

async function openWorkbook(files: Record<string, Uint8Array>, fileName: string): Promise<ExcelJS.Workbook> {
  const workbook = new (await loadExcelJs()).Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(zipSync(files, { level: 0 })) as unknown as ArrayBuffer);
  } catch (error) {
    throw new ParseError(
      "questionnaire_unreadable",
      `${fileName} is a damaged Excel workbook and cannot be read — open it in Excel, save it again and upload it.`,
      { file: fileName, cause: error },
    );
  }
  return workbook;
}

/**
 * The workbook as exceljs sees it for writing its filled copy: unpacked within the zip-bomb limits,
 * surveyed (a file past the reading limits is refused here too), validation ranges clipped to the rows
 * in use (survey-xlsx-package.ts).
 */
export async function loadWorkbookForFilling(
  bytes: Uint8Array,
  fileName: string,
  limits: QuestionnaireReadLimits = DEFAULT_QUESTIONNAIRE_READ_LIMITS,
): Promise<ExcelJS.Workbook> {
  const unpacked = unpackZip(bytes, fileName, QUESTIONNAIRE_WORKER_LIMITS);
  const survey = surveyXlsxPackage(unpacked.files, fileName, limits);
  return openWorkbook(packageForFilling(survey), fileName);
}

function cellText(cell: ExcelJS.Cell): string {
  let text: string;
  try {
    text = cell.text ?? "";
  } catch {
    // exceljs throws on some malformed values; a plain value is still text enough.
    const value = cell.value;
    text = typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : "";
  }
  return text.replace(/\r\n?/g, "\n").trim();
}

/** Whether a cell is covered by a merged range other than as its top-left cell (which shows the text). */
function mergedAway(merges: CellRange[], lastRow: number): (row: number, column: number) => boolean {
  const byRow = new Map<number, CellRange[]>();
  for (const merge of merges) {
    for (let row = merge.top; row <= Math.min(merge.bottom, lastRow); row++) {
      const list = byRow.get(row) ?? [];
      list.push(merge);
      byRow.set(row, list);
    }
  }
  return (row, column) =>
    byRow
      .get(row)
      ?.some(
        (merge) => column >= merge.left && column <= merge.right && (row !== merge.top || column !== merge.left),
      ) ?? false;
}

async function readXlsxSheets(
  bytes: Uint8Array,
  fileName: string,
  limits: QuestionnaireReadLimits,
): Promise<GridSheet[]> {
  const unpacked = unpackZip(bytes, fileName, QUESTIONNAIRE_WORKER_LIMITS);
  const survey = surveyXlsxPackage(unpacked.files, fileName, limits);
  const workbook = await openWorkbook(packageForReading(survey), fileName);
  const { ValueType } = await loadExcelJs();
  return workbook.worksheets.map((worksheet) => {
    const surveyed = survey.bySheetName.get(worksheet.name);
    const isMergedAway = mergedAway(surveyed?.merges ?? [], surveyed?.lastRow ?? 0);
    const rows: GridRow[] = [];
    // Only the rows and cells that hold values: the survey held their number under the limits, and a
    // cell far right (column XFD) costs one entry, not a row of sixteen thousand.
    worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const cells: string[] = [];
      const formulaColumns: number[] = [];
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        cells[column - 1] = isMergedAway(rowNumber, column) ? "" : cellText(cell);
        if (cell.type === ValueType.Formula) formulaColumns.push(column - 1);
      });
      const filled = Array.from(cells, (text) => text ?? "");
      while (filled.length > 0 && filled[filled.length - 1] === "") filled.pop();
      if (filled.length > 0) {
        rows.push({ rowNumber, cells: filled, ...(formulaColumns.length > 0 ? { formulaColumns } : {}) });
      }
    });
    // Hidden columns among those in use (at most the survey's column limit): never the question column.
    const usedColumns = Math.max(0, ...rows.map((row) => row.cells.length));
    const hiddenColumns: number[] = [];
    for (let column = 1; column <= usedColumns; column++) {
      if (worksheet.getColumn(column).hidden) hiddenColumns.push(column - 1);
    }
    return {
      name: worksheet.name,
      rows,
      rowCount: surveyed?.rowCount ?? worksheet.rowCount,
      validationLists: surveyed ? validationListsOf(surveyed) : new Map(),
      ...(hiddenColumns.length > 0 ? { hiddenColumns } : {}),
    };
  });
}

/** Refuses a line longer than the limit (a file without line breaks, or one enormous cell) before parsing. */
function checkLineLengths(text: string, fileName: string, limits: QuestionnaireReadLimits): void {
  let line = 1;
  let start = 0;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 10;
    if (code !== 10 && code !== 13) continue;
    if (index - start > limits.maxLineCharacters) throw lineTooLong(fileName, line, index - start, limits);
    if (code === 13 && text.charCodeAt(index + 1) === 10) index += 1;
    line += 1;
    start = index + 1;
  }
}

function readCsvSheet(bytes: Uint8Array, fileName: string, limits: QuestionnaireReadLimits): GridSheet {
  const detected = detectMediaType(bytes, fileName);
  const text = detected.decoded?.text ?? new TextDecoder().decode(bytes);
  if (text.length > limits.maxTextCharacters) throw tooMuchText(fileName, limits);
  checkLineLengths(text, fileName, limits);
  let filledCells = 0;
  let records: string[][];
  try {
    records = parseCsvText(text, {
      delimiter: detected.delimiter ?? ",",
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
      max_record_size: limits.maxLineCharacters,
      // Measured record by record, so a file too wide or too full is refused before the rest is parsed.
      on_record: (record: string[], context: { lines: number }) => {
        let width = record.length;
        while (width > 0 && (record[width - 1] ?? "").trim() === "") width -= 1;
        if (width > limits.maxColumns) throw recordTooWide(fileName, context.lines, width, limits);
        for (let column = 0; column < width; column++) if ((record[column] ?? "").trim() !== "") filledCells += 1;
        if (filledCells > limits.maxCells) throw tooManyCells(fileName, limits);
        return record;
      },
    }) as string[][];
  } catch (error) {
    if (isFolioError(error)) throw error;
    throw new ParseError(
      "questionnaire_unreadable",
      `${fileName} cannot be read as a table (${error instanceof Error ? error.message : String(error)}) — check its quoting, or save it again from a spreadsheet.`,
      { file: fileName, cause: error },
    );
  }
  const rows: GridRow[] = [];
  records.forEach((record, index) => {
    const cells = record.map((cell) => cell.replace(/\r\n?/g, "\n").trim());
    while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
    if (cells.length > 0) rows.push({ rowNumber: index + 1, cells });
  });
  return { name: fileName.replace(/\.[^.]+$/, ""), rows, rowCount: records.length };
}

/**
 * Every outermost table of the document, one "sheet" each (Table 1, Table 2…), its rows numbered as
 * they stand (empty ones counted) and each cell's text at its first grid column, so a cell spanning
 * columns reads like a merged spreadsheet cell. A document without tables reads as no sheets. A table
 * is refused when its rows or grid columns (a `gridSpan` of a billion costs nothing in the XML) pass
 * the limits.
 */
function readDocxTables(bytes: Uint8Array, fileName: string, limits: QuestionnaireReadLimits): GridSheet[] {
  const docx = openDocxPackage(bytes, fileName);
  let map: DocxTableMap;
  try {
    map = mapDocxTables(docx.documentXml);
  } catch (error) {
    throw damagedDocx(fileName, error);
  }
  if (map.tables.length > limits.maxSheets) throw tooManySheets(fileName, map.tables.length, limits);
  let filledCells = 0;
  let characters = 0;
  return map.tables.map((table, index) => {
    if (table.rows.length > limits.maxTableRows) {
      throw tableTooLarge(
        fileName,
        index + 1,
        `has ${table.rows.length.toLocaleString("en-US")} rows; Folio reads tables of up to ${limits.maxTableRows.toLocaleString("en-US")}`,
      );
    }
    const rows: GridRow[] = [];
    for (const row of table.rows) {
      const width = row.cells.reduce((end, cell) => Math.max(end, cell.gridStart + cell.gridSpan), row.gridBefore);
      if (width > limits.maxColumns) {
        throw tableTooLarge(
          fileName,
          index + 1,
          `has a row ${width.toLocaleString("en-US")} grid columns wide; Folio reads tables of up to ${limits.maxColumns.toLocaleString("en-US")} columns`,
        );
      }
      const cells: string[] = Array.from({ length: row.gridBefore }, () => "");
      for (const cell of row.cells) {
        cells[cell.gridStart] = cell.text;
        for (let column = cell.gridStart + 1; column < cell.gridStart + cell.gridSpan; column++) cells[column] = "";
        characters += cell.text.length;
        if (cell.text !== "") filledCells += 1;
      }
      if (filledCells > limits.maxCells) throw tooManyCells(fileName, limits);
      if (characters > limits.maxTextCharacters) throw tooMuchText(fileName, limits);
      const filled = Array.from(cells, (text) => text ?? "");
      while (filled.length > 0 && filled[filled.length - 1] === "") filled.pop();
      if (filled.length > 0) rows.push({ rowNumber: row.rowNumber, cells: filled });
    }
    return { name: `Table ${index + 1}`, rows, rowCount: table.rows.length };
  });
}
