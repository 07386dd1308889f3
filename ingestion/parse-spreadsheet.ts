/**
 * Spreadsheet parsers: every XLSX sheet (and, through parse-xls.ts, every .xls sheet), and a CSV/TSV
 * file, becomes one table block. Its header is the first non-empty row, unless one-cell title rows in
 * column A stand above a wider row: those become the caption and that row the header. Row numbers in
 * provenance count data rows from 1 (the row after the header), matching what a person sees below the
 * header in Excel. Cells and their characters are bounded.
 */
import { parse as parseCsvText } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { strToU8, zipSync } from "fflate";
import type { MediaType } from "../src/domain/types.js";
import { ParseError } from "../src/errors.js";
import { formatCellDate, formatCellNumber, type NumberFormat } from "./cell-values.js";
import type { ParseLimits } from "./limits.js";
import type { Block, ParsedDocument, TableBlock } from "./parsed-document.js";
import { unpackZip } from "./unpack-zip.js";

export function tooManyCells(fileName: string, limit: number): ParseError {
  return new ParseError(
    "too_many_cells",
    `This spreadsheet has more than ${limit.toLocaleString("en-US")} filled cells — split it into smaller files and upload them.`,
    { file: fileName },
  );
}

/** Cells filled so far in one workbook, and the characters they hold. */
type CellBudget = { cells: number; characters: number };

/** Most characters of cell text read from one workbook: far above any real sheet, far below the heap cap. */
const maxTextCharacters = 20_000_000;

function tooMuchText(fileName: string): ParseError {
  return new ParseError(
    "too_many_cells",
    `This spreadsheet holds more than ${maxTextCharacters.toLocaleString("en-US")} characters of text — split it into smaller files and upload them.`,
    { file: fileName },
  );
}

/** At most this many one-cell rows above a table are read as its title rather than its header. */
const maxTitleRows = 5;

function filledCells(row: string[]): number {
  return row.filter((cell) => cell.length > 0).length;
}

/**
 * The header's position among the non-empty rows: the first row, unless the sheet opens with a few
 * one-cell rows (a title, a section label, "In millions of CHF") followed by a row of several cells,
 * which is then the header and the rows above it the table's caption.
 */
function headerPosition(rows: Array<{ cells: string[] }>): number {
  const limit = Math.min(rows.length, maxTitleRows + 1);
  for (let position = 0; position < limit; position++) {
    const cells = rows[position]?.cells ?? [];
    if (filledCells(cells) >= 2) {
      // The row under a header is data as wide as a row; a lone "Total, 3" among one-cell rows is not a header.
      const next = rows[position + 1]?.cells;
      return position === 0 || next === undefined || filledCells(next) >= 2 ? position : 0;
    }
    // A title sits in the first column; a single label further right (",Amount") is a header over data.
    if ((cells[0] ?? "").length === 0) return 0;
  }
  return 0;
}

/**
 * Drops trailing empty cells and fully empty rows; returns caption + header + data rows with their
 * numbers. `rows` may be sparse (index = row number - 1): holes are skipped, never materialised, so a
 * sheet declaring a million-row used range costs only the rows it really has.
 */
function toTable(
  rows: string[][],
  sheet: string,
  fileName: string,
  limits: ParseLimits,
  cellBudget: CellBudget,
): TableBlock | null {
  const nonEmpty: Array<{ index: number; cells: string[] }> = [];
  rows.forEach((row, index) => {
    let end = row.length;
    while (end > 0 && (row[end - 1] ?? "").trim() === "") end -= 1;
    if (end === 0) return;
    // Counted before the cells are copied: many cells may share one long string until then.
    for (let column = 0; column < end; column++) cellBudget.characters += row[column]?.length ?? 0;
    if (cellBudget.characters > maxTextCharacters) throw tooMuchText(fileName);
    const cells = Array.from(row.slice(0, end), (cell) => (cell ?? "").replace(/\s+/g, " ").trim());
    cellBudget.cells += filledCells(cells);
    if (cellBudget.cells > limits.maxCells) throw tooManyCells(fileName, limits.maxCells);
    nonEmpty.push({ index, cells });
  });
  const position = headerPosition(nonEmpty);
  const header = nonEmpty[position];
  if (header === undefined) return null;
  const data = nonEmpty.slice(position + 1);
  const caption = nonEmpty.slice(0, position).map((row) => row.cells.filter((cell) => cell.length > 0).join(" "));
  // Rows are renumbered densely so a chunk's rowStart..rowEnd counts the data rows it holds.
  return {
    kind: "table",
    header: header.cells,
    rows: data.map((row) => row.cells),
    headingPath: [],
    sheet,
    ...(caption.length > 0 ? { caption } : {}),
    firstRow: data.length > 0 ? Math.max(1, (data[0]?.index ?? 0) - header.index) : 1,
  };
}

/** What the sheets of one workbook share while they are read: the cell budget and the output. */
export type WorkbookReading = {
  fileName: string;
  limits: ParseLimits;
  cellBudget: CellBudget;
  blocks: Block[];
  warnings: string[];
};

/** A fresh reading of one workbook: nothing counted, nothing read. */
export function startWorkbookReading(fileName: string, limits: ParseLimits): WorkbookReading {
  return { fileName, limits, cellBudget: { cells: 0, characters: 0 }, blocks: [], warnings: [] };
}

/**
 * Adds one sheet's rows (sparse, index = row number - 1) to the workbook's blocks as a table; a
 * sheet holding a single row (a title, a note) is content, not a header, so that row is indexed.
 */
export function addSheet(rows: string[][], sheetName: string, reading: WorkbookReading): void {
  const table = toTable(rows, sheetName, reading.fileName, reading.limits, reading.cellBudget);
  if (table && table.rows.length > 0) reading.blocks.push(table);
  else if (table && table.header.length > 0)
    reading.blocks.push({ ...table, header: [], rows: [table.header], firstRow: 1 });
  else reading.warnings.push(`Sheet "${sheetName}" has no data rows.`);
}

/**
 * A cell's text: numbers and dates through cell-values.ts (no float noise, ISO dates), the rest as
 * exceljs shows it. The continuation cells of a merged range are empty (their master holds the text).
 */
function cellText(cell: ExcelJS.Cell, uses1904DateSystem: boolean): string {
  if (cell.isMerged && cell.master.address !== cell.address) return "";
  const value = cell.type === ExcelJS.ValueType.Formula ? cell.result : cell.value;
  const format: NumberFormat = cell.numFmt ? { code: cell.numFmt } : {};
  if (value instanceof Date && !Number.isNaN(value.getTime())) return formatCellDate(value, format, uses1904DateSystem);
  if (typeof value === "number") return formatCellNumber(value, format, uses1904DateSystem);
  try {
    return cell.text ?? "";
  } catch {
    // exceljs throws on some malformed cell values (a merge pointing at an empty master); fall back to the raw value.
    return cell.value === null || cell.value === undefined ? "" : String(cell.value);
  }
}

const drawingPartPattern = /^xl\/drawings\/[^/]+\.xml$/;
const emptyDrawing = strToU8(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"/>',
);

function hasDrawings(files: Record<string, Uint8Array>): boolean {
  return Object.keys(files).some((name) => drawingPartPattern.test(name));
}

/** The package with every DrawingML part emptied (stored, not recompressed). */
function withoutDrawings(files: Record<string, Uint8Array>): Uint8Array {
  const parts: Record<string, Uint8Array> = Object.create(null);
  for (const [name, part] of Object.entries(files)) parts[name] = drawingPartPattern.test(name) ? emptyDrawing : part;
  return zipSync(parts, { level: 0 });
}

export async function parseXlsx(bytes: Uint8Array, fileName: string, limits: ParseLimits): Promise<ParsedDocument> {
  const unpacked = unpackZip(bytes, fileName, limits);
  let workbook = new ExcelJS.Workbook();
  try {
    try {
      await workbook.xlsx.load(Buffer.from(unpacked.stored()) as unknown as ArrayBuffer);
    } catch (error) {
      // exceljs crashes on drawings it cannot read (e.g. un-prefixed DrawingML from non-Excel writers);
      // Folio reads no images, so a second attempt replaces the drawing parts with empty ones.
      if (!hasDrawings(unpacked.files)) throw error;
      workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(withoutDrawings(unpacked.files)) as unknown as ArrayBuffer);
    }
  } catch (error) {
    throw new ParseError(
      "xlsx_corrupt",
      "This Excel workbook is damaged and cannot be read — open it in Excel, save it again and re-upload.",
      {
        file: fileName,
        cause: error,
        details: { reason: error instanceof Error ? error.message : String(error) },
      },
    );
  }
  const reading = startWorkbookReading(fileName, limits);
  const uses1904DateSystem = workbook.properties?.date1904 === true;
  workbook.eachSheet((worksheet) => {
    const rows: string[][] = [];
    // Only rows that hold values: `includeEmpty` would build a Row for every number up to the last
    // row, a million of them for a sheet whose used range was inflated by one stray styled row.
    worksheet.eachRow((row, rowNumber) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, columnNumber) => {
        cells[columnNumber - 1] = cellText(cell, uses1904DateSystem);
      });
      rows[rowNumber - 1] = Array.from(cells, (cell) => cell ?? "");
    });
    addSheet(rows, worksheet.name, reading);
  });
  const title = workbook.title || fileName.replace(/\.[^.]+$/, "");
  return {
    mediaType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    title,
    pages: null,
    blocks: reading.blocks,
    warnings: reading.warnings,
  };
}

export function parseCsv(text: string, fileName: string, delimiter: string, limits: ParseLimits): ParsedDocument {
  let rows: string[][];
  try {
    rows = parseCsvText(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      bom: true,
    });
  } catch (error) {
    throw new ParseError(
      "csv_corrupt",
      "This CSV file cannot be read (its quoting or columns are broken) — export it again and re-upload.",
      {
        file: fileName,
        cause: error,
        details: { reason: error instanceof Error ? error.message : String(error) },
      },
    );
  }
  const sheet = fileName;
  const table = toTable(rows, sheet, fileName, limits, startWorkbookReading(fileName, limits).cellBudget);
  const mediaType: MediaType = delimiter === "\t" ? "text/tab-separated-values" : "text/csv";
  return {
    mediaType,
    title: fileName.replace(/\.[^.]+$/, ""),
    pages: null,
    blocks: table && table.rows.length > 0 ? [table] : [],
    warnings: table && table.rows.length > 0 ? [] : ["The file has a header but no data rows."],
  };
}
