/**
 * Legacy Excel 97–2003 (.xls, BIFF8) parser: reads the "Workbook" stream out of the OLE2 container
 * and turns every worksheet into a table block, exactly as parseXlsx does for .xlsx. Reads cell
 * values only (shared strings, inline strings, numbers, RK numbers, booleans, errors and cached
 * formula results); charts, macros, images and formatting other than dates and percentages are
 * ignored. Encrypted workbooks and the older Excel 5.0/95 format (BIFF5) are refused with a reason.
 */
import { ParseError } from "../src/errors.js";
import { BiffFormatError, BiffReader, type BiffRecord, readRecords } from "./biff-records.js";
import { formatCellNumber, type NumberFormat } from "./cell-values.js";
import { CompoundFileError, openCompoundFile } from "./compound-file.js";
import { xlsMediaType } from "./detect-media-type.js";
import type { ParseLimits } from "./limits.js";
import { addSheet, startWorkbookReading, tooManyCells } from "./parse-spreadsheet.js";
import type { ParsedDocument } from "./parsed-document.js";

/** BIFF record types this parser reads ([MS-XLS] 2.3). */
const RecordType = {
  beginOfFile: 0x0809,
  endOfFile: 0x000a,
  filePass: 0x002f,
  dateMode: 0x0022,
  boundSheet: 0x0085,
  sharedStrings: 0x00fc,
  format: 0x041e,
  extendedFormat: 0x00e0,
  labelSst: 0x00fd,
  label: 0x0204,
  richString: 0x00d6,
  number: 0x0203,
  rk: 0x027e,
  multipleRk: 0x00bd,
  boolErr: 0x0205,
  formula: 0x0006,
  formulaString: 0x0207,
} as const;

const biff8Version = 0x0600;
/** BIFF8 sheets have 256 columns (A to IV). */
const maxColumnIndex = 255;
/** SHRFMLA, ARRAY and TABLE: records that may come between a FORMULA and the STRING holding its result. */
const formulaDefinitionRecords = new Set([0x04bc, 0x0221, 0x0236]);
const worksheetSheetType = 0;
const errorTexts: Record<number, string> = {
  0: "#NULL!",
  7: "#DIV/0!",
  15: "#VALUE!",
  23: "#REF!",
  29: "#NAME?",
  36: "#NUM!",
  42: "#N/A",
};

type SheetEntry = { name: string; offset: number; sheetType: number };

type WorkbookGlobals = {
  sheets: SheetEntry[];
  sharedStrings: string[];
  /** Number format of each XF (cell format) index. */
  cellFormats: NumberFormat[];
  uses1904DateSystem: boolean;
};

function corrupt(fileName: string, reason: string, cause?: unknown): ParseError {
  return new ParseError(
    "xls_corrupt",
    "This Excel 97–2003 workbook is damaged and cannot be read — open it in Excel, save it as .xlsx and upload that.",
    { file: fileName, cause, details: { reason } },
  );
}

function biffVersion(record: BiffRecord | undefined): number {
  if (record === undefined || record.type !== RecordType.beginOfFile) return -1;
  return new BiffReader(record.segments).u16();
}

/** The RK encoding ([MS-XLS] 2.5.217): a 30-bit integer or the top 30 bits of a double, optionally /100. */
export function decodeRk(rk: number): number {
  let value: number;
  if (rk & 0x02) {
    value = rk >> 2;
  } else {
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(4, (rk & 0xfffffffc) >>> 0, true);
    value = view.getFloat64(0, true);
  }
  return rk & 0x01 ? value / 100 : value;
}

function readGlobals(records: Iterable<BiffRecord>, fileName: string): WorkbookGlobals {
  const sheets: SheetEntry[] = [];
  let sharedStrings: string[] = [];
  const formatCodes = new Map<number, string>();
  const formatIds: number[] = [];
  let uses1904DateSystem = false;
  for (const record of records) {
    const reader = new BiffReader(record.segments);
    switch (record.type) {
      case RecordType.filePass:
        // Also written for workbooks whose structure is protected without a password of the user's own.
        throw new ParseError(
          "office_encrypted",
          "This spreadsheet is encrypted or password protected — remove the protection, save it and upload it again.",
          { file: fileName },
        );
      case RecordType.dateMode:
        uses1904DateSystem = reader.u16() === 1;
        break;
      case RecordType.boundSheet: {
        const offset = reader.u32();
        reader.u8(); // visibility: hidden sheets are indexed too, as for .xlsx
        const sheetType = reader.u8();
        sheets.push({ offset, sheetType, name: reader.unicodeString(1) });
        break;
      }
      case RecordType.format: {
        const id = reader.u16();
        formatCodes.set(id, reader.unicodeString());
        break;
      }
      case RecordType.extendedFormat:
        reader.u16(); // font
        formatIds.push(reader.u16());
        break;
      case RecordType.sharedStrings: {
        reader.u32(); // total references
        const unique = reader.u32();
        sharedStrings = [];
        for (let index = 0; index < unique && !reader.atEnd; index++) sharedStrings.push(reader.unicodeString());
        break;
      }
    }
  }
  const cellFormats = formatIds.map((id): NumberFormat => {
    const code = formatCodes.get(id);
    return code === undefined ? { builtInId: id } : { code };
  });
  return { sheets, sharedStrings, cellFormats, uses1904DateSystem };
}

/** What reading the sheets of one workbook may cost: cells put, and record bytes scanned. */
type SheetReadingBudget = { cells: number; maxCells: number; scanned: { bytes: number }; maxScannedBytes: number };

/** The rows of one worksheet substream, sparse: rows[r][c] holds the text of row r + 1, column c + 1. */
function readSheetRows(
  stream: Uint8Array,
  sheet: SheetEntry,
  globals: WorkbookGlobals,
  budget: SheetReadingBudget,
  fileName: string,
): string[][] {
  const records = readRecords(stream, sheet.offset, RecordType.endOfFile, budget.scanned);
  const first = records.next();
  if (first.done === true || biffVersion(first.value) !== biff8Version)
    throw new BiffFormatError(`sheet "${sheet.name}" does not start with a BIFF8 BOF`);
  const rows: string[][] = [];
  const put = (row: number, column: number, text: string) => {
    // BIFF8 has 256 columns; a cell claiming more is damage, and would widen every row of the table.
    if (column > maxColumnIndex || text.length === 0) return;
    budget.cells += 1;
    if (budget.cells > budget.maxCells) throw tooManyCells(fileName, budget.maxCells);
    const cells = rows[row] ?? [];
    rows[row] = cells;
    cells[column] = text;
  };
  const numberText = (value: number, formatIndex: number) =>
    formatCellNumber(value, globals.cellFormats[formatIndex] ?? { builtInId: 0 }, globals.uses1904DateSystem);
  /** A FORMULA whose cached result is a string gets that string from the STRING record right after it. */
  let pendingFormulaCell: { row: number; column: number } | null = null;

  for (const record of records) {
    if (budget.scanned.bytes > budget.maxScannedBytes) {
      throw new BiffFormatError("the sheets overlap: their records were read more than twice over");
    }
    const reader = new BiffReader(record.segments);
    if (record.type === RecordType.formulaString) {
      if (pendingFormulaCell !== null) put(pendingFormulaCell.row, pendingFormulaCell.column, reader.unicodeString());
      pendingFormulaCell = null;
      continue;
    }
    // A shared, array or data-table formula's definition may stand between FORMULA and its STRING.
    if (!formulaDefinitionRecords.has(record.type)) pendingFormulaCell = null;
    switch (record.type) {
      case RecordType.labelSst: {
        const [row, column] = [reader.u16(), reader.u16()];
        reader.u16();
        put(row, column, globals.sharedStrings[reader.u32()] ?? "");
        break;
      }
      case RecordType.label:
      case RecordType.richString: {
        const [row, column] = [reader.u16(), reader.u16()];
        reader.u16();
        put(row, column, reader.unicodeString());
        break;
      }
      case RecordType.number: {
        const [row, column, format] = [reader.u16(), reader.u16(), reader.u16()];
        put(row, column, numberText(reader.f64(), format));
        break;
      }
      case RecordType.rk: {
        const [row, column, format] = [reader.u16(), reader.u16(), reader.u16()];
        put(row, column, numberText(decodeRk(reader.u32()), format));
        break;
      }
      case RecordType.multipleRk: {
        const row = reader.u16();
        const firstColumn = reader.u16();
        // Each cell is 6 bytes (format + RK); the record ends with the last column number.
        const count = Math.min(Math.floor(((record.segments[0]?.byteLength ?? 0) - 6) / 6), maxColumnIndex + 1);
        for (let index = 0; index < count; index++) {
          const format = reader.u16();
          put(row, firstColumn + index, numberText(decodeRk(reader.u32()), format));
        }
        break;
      }
      case RecordType.boolErr: {
        const [row, column] = [reader.u16(), reader.u16()];
        reader.u16();
        const value = reader.u8();
        const isError = reader.u8() === 1;
        put(row, column, isError ? (errorTexts[value] ?? "#ERROR") : value ? "TRUE" : "FALSE");
        break;
      }
      case RecordType.formula: {
        const [row, column, format] = [reader.u16(), reader.u16(), reader.u16()];
        const result = Array.from({ length: 8 }, () => reader.u8());
        const isSpecial = result[6] === 0xff && result[7] === 0xff;
        if (!isSpecial) {
          const value = new DataView(Uint8Array.from(result).buffer).getFloat64(0, true);
          put(row, column, numberText(value, format));
        } else if (result[0] === 0) pendingFormulaCell = { row, column };
        else if (result[0] === 1) put(row, column, result[2] ? "TRUE" : "FALSE");
        else if (result[0] === 2) put(row, column, errorTexts[result[2] ?? -1] ?? "#ERROR");
        break;
      }
    }
  }
  return rows;
}

export function parseXls(bytes: Uint8Array, fileName: string, limits: ParseLimits): ParsedDocument {
  let stream: Uint8Array | null;
  try {
    stream = openCompoundFile(bytes).readRootStream("Workbook");
  } catch (error) {
    if (error instanceof CompoundFileError) throw corrupt(fileName, error.message, error);
    throw error;
  }
  if (stream === null) throw corrupt(fileName, 'the file has no "Workbook" stream');
  const reading = startWorkbookReading(fileName, limits);
  try {
    const globalRecords = readRecords(stream, 0, RecordType.endOfFile);
    const first = globalRecords.next();
    const version = first.done === true ? -1 : biffVersion(first.value);
    if (version !== biff8Version) {
      throw new ParseError(
        "legacy_excel_format",
        "This is an Excel 5.0/95 (or older) workbook, which Folio cannot read — open it in Excel, save it as .xlsx and upload that.",
        { file: fileName, details: { biffVersion: version } },
      );
    }
    const globals = readGlobals(globalRecords, fileName);
    // Sheets never share records, so reading them all scans the stream at most once; a hostile file
    // pointing many sheets at one place (or into each other) would make that quadratic.
    const budget: SheetReadingBudget = {
      cells: 0,
      maxCells: limits.maxCells,
      scanned: { bytes: 0 },
      maxScannedBytes: 2 * stream.byteLength,
    };
    const seenOffsets = new Set<number>();
    for (const sheet of globals.sheets) {
      if (sheet.sheetType !== worksheetSheetType || seenOffsets.has(sheet.offset)) continue;
      seenOffsets.add(sheet.offset);
      addSheet(readSheetRows(stream, sheet, globals, budget, fileName), sheet.name, reading);
    }
  } catch (error) {
    if (error instanceof BiffFormatError) throw corrupt(fileName, error.message, error);
    throw error;
  }
  return {
    mediaType: xlsMediaType,
    title: fileName.replace(/\.[^.]+$/, ""),
    pages: null,
    blocks: reading.blocks,
    warnings: reading.warnings,
  };
}
