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
 */
import { parse as parseCsvText } from "csv-parse/sync";
import type ExcelJS from "exceljs";
import { detectMediaType } from "../../ingestion/detect-media-type.js";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import { unpackZip } from "../../ingestion/unpack-zip.js";
import { isFolioError, ParseError } from "../errors.js";
import { damagedDocx, openDocxPackage } from "./docx-package.js";
import type { DocxTableMap } from "./docx-tables.js";
import { mapDocxTables } from "./map-docx-tables.js";
import type { GridRow, GridSheet, QuestionnaireFormat, QuestionnaireGrid } from "./questionnaire.js";

/** The most cells of one data-validation range expanded into per-cell lists. */
const MAX_VALIDATION_CELLS = 100_000;

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

export async function readQuestionnaireGrid(bytes: Uint8Array, fileName: string): Promise<QuestionnaireGrid> {
  const format = detectQuestionnaireFormat(bytes, fileName);
  if (format === "xlsx") return { format, sheets: await readXlsxSheets(bytes, fileName) };
  if (format === "docx") return { format, sheets: readDocxTables(bytes, fileName) };
  return { format, sheets: [readCsvSheet(bytes, fileName)] };
}

/** The workbook as exceljs sees it, unpacked within the zip-bomb limits first. */
export async function loadWorkbook(bytes: Uint8Array, fileName: string): Promise<ExcelJS.Workbook> {
  const unpacked = unpackZip(bytes, fileName, DEFAULT_PARSE_LIMITS);
  const workbook = new (await loadExcelJs()).Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(unpacked.stored()) as unknown as ArrayBuffer);
  } catch (error) {
    throw new ParseError(
      "questionnaire_unreadable",
      `${fileName} is a damaged Excel workbook and cannot be read — open it in Excel, save it again and upload it.`,
      { file: fileName, cause: error },
    );
  }
  return workbook;
}

function cellText(cell: ExcelJS.Cell): string {
  // A merged range shows its text once, in its top-left cell.
  if (cell.isMerged && cell.master !== cell) return "";
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

/**
 * exceljs is imported on first use: it loads hundreds of CommonJS files (~0.3 s), which `folio ask` and
 * every other command that never reads a spreadsheet would otherwise pay at start (issue #33).
 */
async function loadExcelJs(): Promise<typeof ExcelJS> {
  return (await import("exceljs")).default;
}

async function readXlsxSheets(bytes: Uint8Array, fileName: string): Promise<GridSheet[]> {
  const workbook = await loadWorkbook(bytes, fileName);
  const { ValueType } = await loadExcelJs();
  return workbook.worksheets.map((worksheet) => {
    const rows: GridRow[] = [];
    const columnCount = worksheet.columnCount;
    worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const cells: string[] = [];
      const formulaColumns: number[] = [];
      for (let column = 1; column <= columnCount; column++) {
        const cell = row.getCell(column);
        cells.push(cellText(cell));
        if (cell.type === ValueType.Formula) formulaColumns.push(column - 1);
      }
      while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
      if (cells.length > 0) rows.push({ rowNumber, cells, ...(formulaColumns.length > 0 ? { formulaColumns } : {}) });
    });
    return { name: worksheet.name, rows, rowCount: worksheet.rowCount, validationLists: validationLists(worksheet) };
  });
}

/** `"Yes,No,N/A"` (an inline list) -> its values; a list that refers to cells is not followed. */
function inlineListValues(formula: string | undefined): string[] {
  if (!formula?.startsWith('"')) return [];
  return formula
    .slice(1, -1)
    .split(",")
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}

function expandRange(range: string): Array<{ row: number; column: number }> {
  const match = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/i.exec(range.replace(/\$/g, ""));
  if (!match) return [];
  const toColumn = (letters: string) =>
    [...letters.toUpperCase()].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0);
  const firstColumn = toColumn(match[1] ?? "A");
  const firstRow = Number(match[2]);
  const lastColumn = match[3] ? toColumn(match[3]) : firstColumn;
  const lastRow = match[4] ? Number(match[4]) : firstRow;
  const cells: Array<{ row: number; column: number }> = [];
  for (let row = firstRow; row <= lastRow; row++) {
    for (let column = firstColumn; column <= lastColumn; column++) {
      cells.push({ row, column });
      if (cells.length >= MAX_VALIDATION_CELLS) return cells;
    }
  }
  return cells;
}

function validationLists(worksheet: ExcelJS.Worksheet): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  const model = (worksheet as unknown as { dataValidations?: { model?: Record<string, ExcelJS.DataValidation> } })
    .dataValidations?.model;
  for (const [address, validation] of Object.entries(model ?? {})) {
    if (validation.type !== "list") continue;
    const values = inlineListValues(validation.formulae?.[0]);
    if (values.length === 0) continue;
    for (const range of address.split(/\s+/)) {
      for (const cell of expandRange(range)) lists.set(`${cell.row}:${cell.column}`, values);
    }
  }
  return lists;
}

function readCsvSheet(bytes: Uint8Array, fileName: string): GridSheet {
  const detected = detectMediaType(bytes, fileName);
  const text = detected.decoded?.text ?? new TextDecoder().decode(bytes);
  let records: string[][];
  try {
    records = parseCsvText(text, {
      delimiter: detected.delimiter ?? ",",
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
    }) as string[][];
  } catch (error) {
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
 * columns reads like a merged spreadsheet cell. A document without tables reads as no sheets.
 */
function readDocxTables(bytes: Uint8Array, fileName: string): GridSheet[] {
  const docx = openDocxPackage(bytes, fileName);
  let map: DocxTableMap;
  try {
    map = mapDocxTables(docx.documentXml);
  } catch (error) {
    throw damagedDocx(fileName, error);
  }
  return map.tables.map((table, index) => {
    const rows: GridRow[] = [];
    for (const row of table.rows) {
      const cells: string[] = Array.from({ length: row.gridBefore }, () => "");
      for (const cell of row.cells) {
        cells[cell.gridStart] = cell.text;
        for (let column = cell.gridStart + 1; column < cell.gridStart + cell.gridSpan; column++) cells[column] = "";
      }
      const filled = Array.from(cells, (text) => text ?? "");
      while (filled.length > 0 && filled[filled.length - 1] === "") filled.pop();
      if (filled.length > 0) rows.push({ rowNumber: row.rowNumber, cells: filled });
    }
    return { name: `Table ${index + 1}`, rows, rowCount: table.rows.length };
  });
}
