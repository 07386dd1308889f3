/**
 * Writes the filled copy of a questionnaire: the original file with every sheet, row, column,
 * formatting and formula left as it was, plus the columns Answer, Status, Sources and Quote after the
 * last column in use of each sheet that holds questions, named on its header row (and on rows that
 * repeat the header further down; never on a title or instruction row above it) (and Source 2…N when a row cites several
 * documents, so each source is a link of its own). The copy has the original's format: XLSX is edited
 * in place with exceljs; CSV lines are copied byte for byte with the new fields appended (each kept from
 * being read as a formula, neutralise-formula.ts, and each source with its own link); a DOCX gets
 * the columns added to its question tables (write-filled-docx.ts), every source a link in one cell.
 */
import { parse as parseCsvText } from "csv-parse/sync";
import type ExcelJS from "exceljs";
import { detectMediaType } from "../../../ingestion/detect-media-type.js";
import { ADDED_COLUMNS, answerCellText, describeSource, type RowAnswer, statusCellText } from "../answer/row-answer.js";
import type { QuestionnaireFormat, SheetLayout } from "../questionnaire.js";
import { DEFAULT_QUESTIONNAIRE_READ_LIMITS, type QuestionnaireReadLimits } from "../read/questionnaire-read-limits.js";
import { loadWorkbookForFilling } from "../read/read-questionnaire-grid.js";
import { filledFileName } from "./filled-file-name.js";
import { neutraliseFormula } from "./neutralise-formula.js";
import { writeFilledDocx } from "./write-filled-docx.js";

export type FilledRow = { sheetIndex: number; rowNumber: number; answer: RowAnswer | null };

export type FilledCopy = { bytes: Uint8Array; fileName: string; mediaType: string };

const XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Extra "Source k" columns needed: one per source after the first, for the row citing the most. */
function extraSourceColumns(rows: FilledRow[]): number {
  return Math.max(0, ...rows.map((row) => (row.answer?.sources.length ?? 0) - 1));
}

function addedHeaders(extraSources: number): string[] {
  return [...ADDED_COLUMNS, ...Array.from({ length: extraSources }, (_, index) => `Source ${index + 2}`)];
}

/** The values of the added cells, in column order; sources as text (CSV) or text + link (XLSX). */
function addedCells(answer: RowAnswer | null, extraSources: number) {
  if (!answer) return null;
  const [first, ...others] = answer.sources;
  return {
    answer: answerCellText(answer),
    status: statusCellText(answer),
    sources: answer.sources.map((source) => `[${source.n}] ${describeSource(source)}`).join("\n"),
    /** Each source on its own line with its own link, for a copy whose cells cannot hold links (CSV). */
    sourcesWithLinks: answer.sources
      .map((source) => `[${source.n}] ${describeSource(source)} <${source.url}>`)
      .join("\n"),
    firstLink: first?.url ?? null,
    quote: answer.quote,
    others: Array.from({ length: extraSources }, (_, index) => {
      const source = others[index];
      return source ? { text: `[${source.n}] ${describeSource(source)}`, link: source.url } : null;
    }),
  };
}

export async function writeFilledCopy(
  input: {
    bytes: Uint8Array;
    fileName: string;
    format: QuestionnaireFormat;
    layouts: SheetLayout[];
    rows: FilledRow[];
  },
  limits: QuestionnaireReadLimits = DEFAULT_QUESTIONNAIRE_READ_LIMITS,
): Promise<FilledCopy> {
  const fileName = filledFileName(input.fileName, input.format);
  if (input.format === "csv") {
    const tab = fileName.endsWith(".tsv");
    return {
      bytes: writeFilledCsv(input),
      fileName,
      mediaType: tab ? "text/tab-separated-values; charset=utf-8" : "text/csv; charset=utf-8",
    };
  }
  if (input.format === "docx") return { bytes: writeFilledDocx(input), fileName, mediaType: DOCX_MEDIA_TYPE };
  const workbook = await loadWorkbookForFilling(input.bytes, input.fileName, limits);
  fillWorkbook(workbook, input.layouts, input.rows);
  const buffer = await workbook.xlsx.writeBuffer();
  return { bytes: new Uint8Array(buffer as ArrayBuffer), fileName, mediaType: XLSX_MEDIA_TYPE };
}

/** The header row and any row repeating it further down (a table continued on the next page). */
export function headerRowsOf(layout: SheetLayout): number[] {
  return layout.headerRow === null ? [] : [layout.headerRow, ...(layout.repeatedHeaderRows ?? [])];
}

function fillWorkbook(workbook: ExcelJS.Workbook, layouts: SheetLayout[], rows: FilledRow[]): void {
  for (const layout of layouts) {
    const worksheet = workbook.worksheets[layout.sheetIndex];
    if (!worksheet) continue;
    const sheetRows = rows.filter((row) => row.sheetIndex === layout.sheetIndex);
    const extraSources = extraSourceColumns(sheetRows);
    const firstColumn = Math.max(worksheet.columnCount, layout.columnCount) + 1;
    const headers = addedHeaders(extraSources);
    headers.forEach((header, index) => {
      const column = worksheet.getColumn(firstColumn + index);
      column.width = index === 0 || index === 3 ? 60 : index === 1 ? 24 : 36;
      for (const headerRow of headerRowsOf(layout)) {
        const cell = worksheet.getCell(headerRow, firstColumn + index);
        cell.value = header;
        cell.font = { bold: true };
      }
    });
    for (const row of sheetRows) {
      const cells = addedCells(row.answer, extraSources);
      if (!cells) continue;
      const at = (offset: number) => worksheet.getCell(row.rowNumber, firstColumn + offset);
      const wrap = { wrapText: true, vertical: "top" } as const;
      at(0).value = cells.answer;
      at(0).alignment = wrap;
      at(1).value = cells.status;
      at(1).alignment = wrap;
      at(2).value = cells.firstLink ? { text: cells.sources, hyperlink: cells.firstLink } : cells.sources;
      at(2).alignment = wrap;
      at(3).value = cells.quote;
      at(3).alignment = wrap;
      cells.others.forEach((other, index) => {
        if (other) at(4 + index).value = { text: other.text, hyperlink: other.link };
      });
    }
  }
}

/**
 * RFC 4180 quoting for every field Folio adds (#37): a field quoted only when it held the file's own
 * delimiter came back unquoted from a semicolon file holding commas, and split in a comma locale.
 */
function csvField(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

/** Each original line kept byte for byte (its raw text), padded to the widest row, then the added fields. */
function writeFilledCsv(input: {
  bytes: Uint8Array;
  fileName: string;
  layouts: SheetLayout[];
  rows: FilledRow[];
}): Uint8Array {
  const detected = detectMediaType(input.bytes, input.fileName);
  const text = detected.decoded?.text ?? new TextDecoder().decode(input.bytes);
  const delimiter = detected.delimiter ?? ",";
  const records = parseCsvText(text, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    bom: true,
    raw: true,
  }) as unknown as Array<{ record: string[]; raw: string }>;
  const layout = input.layouts[0];
  const lineEnding = text.includes("\r\n") ? "\r\n" : "\n";
  const width = Math.max(layout?.columnCount ?? 0, ...records.map((entry) => entry.record.length));
  const extraSources = extraSourceColumns(input.rows);
  const byRow = new Map(input.rows.map((row) => [row.rowNumber, row.answer]));
  const lines = records.map((entry, index) => {
    const rowNumber = index + 1;
    const raw = entry.raw.replace(/(\r\n|\n|\r)$/, "");
    const padding = delimiter.repeat(Math.max(0, width - entry.record.length));
    let added: string[] | null = null;
    if (layout && headerRowsOf(layout).includes(rowNumber)) added = addedHeaders(extraSources);
    const cells = addedCells(byRow.get(rowNumber) ?? null, extraSources);
    if (cells) {
      added = [
        cells.answer,
        cells.status,
        cells.sourcesWithLinks,
        cells.quote,
        ...cells.others.map((other) => (other ? `${other.text} <${other.link}>` : "")),
      ];
    }
    if (added === null) return raw;
    // Answers and quotes carry documents' text: none may reach a spreadsheet as a formula.
    const fields = added.map((value) => csvField(neutraliseFormula(value)));
    return `${raw}${padding}${delimiter}${fields.join(delimiter)}`;
  });
  // The byte-order mark, when the original had one, stays.
  const bom = input.bytes[0] === 0xef && input.bytes[1] === 0xbb && input.bytes[2] === 0xbf ? "\ufeff" : "";
  const trailing = /\r?\n$/.test(text) ? lineEnding : "";
  return new TextEncoder().encode(`${bom}${lines.join(lineEnding)}${trailing}`);
}
