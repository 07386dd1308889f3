/**
 * Reads a questionnaire file into a grid of cell text per sheet: XLSX (every sheet, with its
 * data-validation lists), CSV/TSV, or a DOCX whose tables hold the questions. The type comes from the
 * bytes (ingestion/detect-media-type.ts, which also refuses encrypted packages and programs); ZIP
 * packages are unpacked within the zip-bomb limits before exceljs or mammoth sees them. Anything else
 * is refused with a message that says what the file is and what to upload instead.
 */
import { parse as parseCsvText } from "csv-parse/sync";
import ExcelJS from "exceljs";
import mammoth from "mammoth";
import { parse as parseHtml } from "node-html-parser";
import { detectMediaType } from "../../ingestion/detect-media-type.js";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import { unpackZip } from "../../ingestion/unpack-zip.js";
import { FolioError, isFolioError } from "../errors.js";
import type { GridRow, GridSheet, QuestionnaireFormat, QuestionnaireGrid } from "./questionnaire.js";

/** The most cells of one data-validation range expanded into per-cell lists. */
const MAX_VALIDATION_CELLS = 100_000;

function notAQuestionnaire(what: string): FolioError {
  return new FolioError(
    "questionnaire_unsupported_type",
    `This file is ${what}, not a questionnaire Folio can fill — upload an Excel workbook (.xlsx), a CSV file, or a Word document (.docx) whose table holds the questions.`,
  );
}

/** Which questionnaire format the bytes are; refusals (encrypted, a program, a mismatch) say why. */
export function detectQuestionnaireFormat(bytes: Uint8Array, fileName: string): QuestionnaireFormat {
  let mediaType: string;
  try {
    mediaType = detectMediaType(bytes, fileName).mediaType;
  } catch (error) {
    if (isFolioError(error)) {
      const code = error.code === "office_encrypted" ? "questionnaire_encrypted" : "questionnaire_unreadable";
      throw new FolioError(code, error.message, { cause: error });
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
    case "application/vnd.ms-excel":
      throw new FolioError(
        "questionnaire_unsupported_type",
        "This is an Excel 97–2003 workbook (.xls); Folio fills .xlsx workbooks — open it in Excel or LibreOffice, save it as .xlsx and upload that.",
      );
    case "application/pdf":
      throw notAQuestionnaire("a PDF");
    default:
      throw notAQuestionnaire("text without a table of questions");
  }
}

export async function readQuestionnaireGrid(bytes: Uint8Array, fileName: string): Promise<QuestionnaireGrid> {
  const format = detectQuestionnaireFormat(bytes, fileName);
  if (format === "xlsx") return { format, sheets: await readXlsxSheets(bytes, fileName) };
  if (format === "docx") return { format, sheets: await readDocxTables(bytes, fileName) };
  return { format, sheets: [readCsvSheet(bytes, fileName)] };
}

/** The workbook as exceljs sees it, unpacked within the zip-bomb limits first. */
export async function loadWorkbook(bytes: Uint8Array, fileName: string): Promise<ExcelJS.Workbook> {
  const unpacked = unpackZip(bytes, fileName, DEFAULT_PARSE_LIMITS);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(unpacked.stored()) as unknown as ArrayBuffer);
  } catch (error) {
    throw new FolioError(
      "questionnaire_unreadable",
      "This Excel workbook is damaged and cannot be read — open it in Excel, save it again and upload it.",
      { cause: error },
    );
  }
  return workbook;
}

function cellText(cell: ExcelJS.Cell): string {
  // A merged range shows its text once, in its top-left cell.
  if (cell.isMerged && cell.master !== cell) return "";
  try {
    return (cell.text ?? "").replace(/\r\n?/g, "\n").trim();
  } catch {
    return "";
  }
}

async function readXlsxSheets(bytes: Uint8Array, fileName: string): Promise<GridSheet[]> {
  const workbook = await loadWorkbook(bytes, fileName);
  return workbook.worksheets.map((worksheet) => {
    const rows: GridRow[] = [];
    const columnCount = worksheet.columnCount;
    worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const cells: string[] = [];
      const formulaColumns: number[] = [];
      for (let column = 1; column <= columnCount; column++) {
        const cell = row.getCell(column);
        cells.push(cellText(cell));
        if (cell.type === ExcelJS.ValueType.Formula) formulaColumns.push(column - 1);
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
    throw new FolioError(
      "questionnaire_unreadable",
      `This CSV file cannot be read as a table (${error instanceof Error ? error.message : String(error)}) — check its quoting, or save it again from a spreadsheet.`,
      { cause: error },
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

/** Every table of the document, one "sheet" each (Table 1, Table 2…), its rows as they stand. */
async function readDocxTables(bytes: Uint8Array, fileName: string): Promise<GridSheet[]> {
  const unpacked = unpackZip(bytes, fileName, DEFAULT_PARSE_LIMITS);
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(unpacked.stored()) })).value;
  } catch (error) {
    throw new FolioError(
      "questionnaire_unreadable",
      "This Word document is damaged and cannot be read — open it in Word, save it again and upload it.",
      { cause: error },
    );
  }
  const tables = parseHtml(html).querySelectorAll("table");
  if (tables.length === 0) {
    throw new FolioError(
      "questionnaire_no_table",
      "This Word document has no table, so Folio cannot tell its questions apart — put the questions in a table (one per row), or upload them as a spreadsheet.",
    );
  }
  return tables.map((table, index) => {
    const rows: GridRow[] = [];
    // Only this table's own rows: a table nested in a cell belongs to that cell's text.
    const ownRows = table.querySelectorAll("tr").filter((row) => row.closest("table") === table);
    ownRows.forEach((row, rowIndex) => {
      const cells = row.childNodes
        .filter((node) => "tagName" in node && ["TD", "TH"].includes((node as { tagName: string }).tagName))
        .map((node) => node.textContent.replace(/\s+/g, " ").trim());
      while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
      if (cells.length > 0) rows.push({ rowNumber: rowIndex + 1, cells });
    });
    return { name: `Table ${index + 1}`, rows, rowCount: ownRows.length };
  });
}
