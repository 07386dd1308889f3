/**
 * Reads a completed questionnaire into plain tables of cell text with the row numbers a person sees:
 * every sheet of an XLSX (real sheet row numbers), a CSV/TSV (record numbers, header = 1), or every
 * table of a DOCX (row numbers within the table). The type is told from the bytes
 * (ingestion/detect-media-type.ts); packages are unpacked within the ingestion's zip-bomb limits.
 * Only what the answer library needs: cell text, no formatting.
 */
import { parse as parseCsvText } from "csv-parse/sync";
import ExcelJS from "exceljs";
import mammoth from "mammoth";
import { type HTMLElement, parse as parseHtml } from "node-html-parser";
import { detectMediaType } from "../../ingestion/detect-media-type.js";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import { unpackZip } from "../../ingestion/unpack-zip.js";
import { ParseError } from "../errors.js";

export type QuestionTableRow = { row: number; cells: string[] };

/** One sheet, CSV file or DOCX table. `sheet` is null for a CSV. */
export type QuestionTable = { sheet: string | null; rows: QuestionTableRow[] };

/** Most non-empty rows read from one file; a completed questionnaire has hundreds. */
export const MAX_QUESTIONNAIRE_ROWS = 20_000;

function tooManyRows(fileName: string): ParseError {
  return new ParseError(
    "questionnaire_too_large",
    `${fileName} has more than ${MAX_QUESTIONNAIRE_ROWS.toLocaleString("en-US")} rows — split it into smaller files and add them one by one.`,
    { file: fileName },
  );
}

function notAQuestionnaire(fileName: string, mediaType: string): ParseError {
  return new ParseError(
    "not_a_questionnaire",
    `${fileName} is ${mediaType}, not a completed questionnaire — approved answers are read from an XLSX, CSV or DOCX table with a question column and an answer column.`,
    { file: fileName },
  );
}

function cleanCell(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function keepRow(rows: QuestionTableRow[], row: number, cells: string[], fileName: string): void {
  if (cells.every((cell) => cell === "")) return;
  rows.push({ row, cells });
  if (rows.length > MAX_QUESTIONNAIRE_ROWS) throw tooManyRows(fileName);
}

function cellText(cell: ExcelJS.Cell): string {
  if (cell.isMerged && cell.master.address !== cell.address) return "";
  try {
    return cell.text ?? "";
  } catch {
    // exceljs throws on some malformed values; the raw value is still text enough.
    return cell.value === null || cell.value === undefined ? "" : String(cell.value);
  }
}

async function readXlsx(bytes: Uint8Array, fileName: string): Promise<QuestionTable[]> {
  const unpacked = unpackZip(bytes, fileName, DEFAULT_PARSE_LIMITS);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(unpacked.stored()) as unknown as ArrayBuffer);
  } catch (error) {
    throw new ParseError(
      "xlsx_corrupt",
      `${fileName} is a damaged Excel workbook — open it in Excel, save it again and add it again.`,
      { file: fileName, cause: error },
    );
  }
  const tables: QuestionTable[] = [];
  let total = 0;
  workbook.eachSheet((worksheet) => {
    const rows: QuestionTableRow[] = [];
    worksheet.eachRow((row, rowNumber) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, columnNumber) => {
        cells[columnNumber - 1] = cleanCell(cellText(cell));
      });
      keepRow(
        rows,
        rowNumber,
        Array.from(cells, (cell) => cell ?? ""),
        fileName,
      );
    });
    total += rows.length;
    if (total > MAX_QUESTIONNAIRE_ROWS) throw tooManyRows(fileName);
    tables.push({ sheet: worksheet.name, rows });
  });
  return tables;
}

function readDelimited(text: string, delimiter: string, fileName: string): QuestionTable[] {
  let records: string[][];
  try {
    records = parseCsvText(text, { delimiter, relax_column_count: true, relax_quotes: true, bom: true }) as string[][];
  } catch (error) {
    throw new ParseError(
      "csv_malformed",
      `${fileName} could not be read as CSV — check its quoting and save it again.`,
      {
        file: fileName,
        cause: error,
      },
    );
  }
  const rows: QuestionTableRow[] = [];
  records.forEach((record, index) => {
    keepRow(rows, index + 1, record.map(cleanCell), fileName);
  });
  return [{ sheet: null, rows }];
}

async function readDocx(bytes: Uint8Array, fileName: string): Promise<QuestionTable[]> {
  const unpacked = unpackZip(bytes, fileName, DEFAULT_PARSE_LIMITS);
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(unpacked.stored()) })).value;
  } catch (error) {
    throw new ParseError(
      "docx_corrupt",
      `${fileName} is a damaged Word document — open it in Word, save it again and add it again.`,
      { file: fileName, cause: error },
    );
  }
  const root = parseHtml(html);
  // Only the outermost tables: a table nested in a cell is part of that cell's text.
  const tables = root.querySelectorAll("table").filter((table) => !table.parentNode?.closest?.("table"));
  return tables.map((table, index) => {
    const rows: QuestionTableRow[] = [];
    const tableRows = table.querySelectorAll("tr").filter((row) => row.closest("table") === table);
    tableRows.forEach((row: HTMLElement, rowIndex) => {
      const cells = row.childNodes
        .filter((node): node is HTMLElement => "tagName" in node && /^(td|th)$/i.test((node as HTMLElement).tagName))
        .map((cell) => cleanCell(cell.textContent));
      keepRow(rows, rowIndex + 1, cells, fileName);
    });
    return { sheet: `Table ${index + 1}`, rows };
  });
}

export async function readQuestionTables(bytes: Uint8Array, fileName: string): Promise<QuestionTable[]> {
  if (bytes.byteLength > DEFAULT_PARSE_LIMITS.maxBytes) {
    throw new ParseError(
      "file_too_large",
      `${fileName} is larger than the ${Math.round(DEFAULT_PARSE_LIMITS.maxBytes / (1024 * 1024))} MB limit — split it into smaller files.`,
      { file: fileName },
    );
  }
  const detected = detectMediaType(bytes, fileName);
  switch (detected.mediaType) {
    case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
      return readXlsx(bytes, fileName);
    case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
      return readDocx(bytes, fileName);
    case "text/csv":
    case "text/tab-separated-values":
      return readDelimited(
        detected.decoded?.text ?? "",
        detected.delimiter ?? (detected.mediaType === "text/csv" ? "," : "\t"),
        fileName,
      );
    case "application/vnd.ms-excel":
      throw new ParseError(
        "not_a_questionnaire",
        `${fileName} is an Excel 97–2003 workbook (.xls) — save it as .xlsx in Excel and add that copy.`,
        { file: fileName },
      );
    default:
      throw notAQuestionnaire(fileName, describeType(detected.mediaType));
  }
}

function describeType(mediaType: string): string {
  if (mediaType === "application/pdf") return "a PDF";
  if (mediaType === "text/markdown") return "a Markdown file";
  if (mediaType === "text/html") return "an HTML page";
  return "plain text";
}
