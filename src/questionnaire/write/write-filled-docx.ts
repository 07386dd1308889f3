/**
 * The filled copy of a Word questionnaire: the same document, with Answer, Status, Sources and Quote
 * columns added to each table that holds questions. Only the main document part, its relationships
 * part (one external hyperlink relationship per source link) and, when that part is new, the content
 * types change; every other part is copied byte for byte. Inside the main part the XML is edited at
 * the positions docx-tables.ts mapped, so everything around the edits stays as it was:
 * - the table grid gains a `w:gridCol` per added column (widths from docx-column-widths.ts; original
 *   columns narrowed, and their cells' dxa widths with them, only when they would take over half);
 * - the header row gains header cells, each question row its answer cells, any other row empty cells,
 *   and a row whose one cell spans the table (a section heading) has that cell widened to keep spanning;
 * - Sources are real hyperlinks to the signed page links, one paragraph per source.
 * Nested tables and tables without questions are left alone.
 */
import { zipSync } from "fflate";
import { ParseError } from "../../errors.js";
import { ADDED_COLUMNS, answerCellText, describeSource, type RowAnswer, statusCellText } from "../answer/row-answer.js";
import type { SheetLayout } from "../questionnaire.js";
import { damagedDocx, openDocxPackage, relationshipsPartOf } from "../read/docx-package.js";
import {
  type DocxCell,
  type DocxRow,
  type DocxTable,
  type DocxTableMap,
  tableGridWidth,
  type XmlElement,
} from "../read/docx-tables.js";
import { mapDocxTables } from "../read/map-docx-tables.js";
import { type CellLook, cellXml, type DocxPrefixes, type DocxRun, textParagraphs } from "./docx-cell-markup.js";
import { planColumnWidths } from "./docx-column-widths.js";
import { addHyperlinkRelationships, withRelationshipsContentType } from "./docx-hyperlink-relationships.js";

const WORD_MAIN = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const WORD_STRICT = "http://purl.oclc.org/ooxml/wordprocessingml/main";
const RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const RELATIONSHIPS_STRICT = "http://purl.oclc.org/ooxml/officeDocument/relationships";

export type DocxFilledRow = { sheetIndex: number; rowNumber: number; answer: RowAnswer | null };

/** Word's default left and right cell margins together (0.08 inch each), in dxa. */
const CELL_MARGINS = 216;

/** One change to the XML text: replace [start, end) with `text` (start === end inserts). */
type Edit = { start: number; end: number; text: string };

/** Where a start tag ends (after its ">"), quotes respected. */
function startTagEnd(xml: string, start: number): number {
  let quote: string | null = null;
  for (let index = start + 1; index < xml.length; index++) {
    const character = xml[index];
    if (quote !== null) {
      if (character === quote) quote = null;
    } else if (character === '"' || character === "'") quote = character;
    else if (character === ">") return index + 1;
  }
  throw new Error("unterminated start tag");
}

function applyEdits(xml: string, edits: Edit[]): string {
  // Last first, so earlier positions stay valid; an insertion at a replaced element's end goes first.
  const ordered = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let text = xml;
  for (const edit of ordered) text = `${text.slice(0, edit.start)}${edit.text}${text.slice(edit.end)}`;
  return text;
}

/** Children appended to an element: before its closing tag, or by opening it when it is self-closing. */
function appendChildren(xml: string, element: XmlElement, children: string): Edit {
  if (element.closeTagStart !== null)
    return { start: element.closeTagStart, end: element.closeTagStart, text: children };
  const slash = xml.lastIndexOf("/", element.end - 1);
  return { start: slash, end: element.end, text: `>${children}</${element.name}>` };
}

/** The document's prefixes for WordprocessingML and relationships, and declarations to add for missing ones. */
function choosePrefixes(map: DocxTableMap): { prefixes: DocxPrefixes; declarations: string } {
  const bound = Object.entries(map.rootNamespaces);
  const strict = bound.some(([, uri]) => uri === WORD_STRICT) && !bound.some(([, uri]) => uri === WORD_MAIN);
  const wordUri = strict ? WORD_STRICT : WORD_MAIN;
  const relationshipsUri = strict ? RELATIONSHIPS_STRICT : RELATIONSHIPS;
  const taken = new Set(bound.map(([prefix]) => prefix));
  let declarations = "";
  const prefixFor = (uri: string, wanted: string): string => {
    const existing = bound.find(([prefix, boundUri]) => boundUri === uri && prefix !== "" && prefix !== "xmlns");
    if (existing) return existing[0];
    let prefix = wanted;
    for (let counter = 1; taken.has(prefix); counter++) prefix = `${wanted}${counter}`;
    taken.add(prefix);
    declarations += ` xmlns:${prefix}="${uri}"`;
    return prefix;
  };
  return {
    prefixes: { word: prefixFor(wordUri, "w"), relationships: prefixFor(relationshipsUri, "r") },
    declarations,
  };
}

function slice(xml: string, element: XmlElement | null): string {
  return element ? xml.slice(element.start, element.end) : "";
}

/** What an added cell copies from the last cell of its row: borders, shading, alignment (and header runs). */
function lookOf(xml: string, row: DocxRow, prefixes: DocxPrefixes, header: boolean): CellLook {
  const last = row.cells[row.cells.length - 1];
  const w = (local: string) => (prefixes.word === "" ? local : `${prefixes.word}:${local}`);
  const cellProperties = last
    ? slice(xml, last.borders) + slice(xml, last.shading) + slice(xml, last.verticalAlignment)
    : "";
  // Answers and quotes run long: 9 pt keeps the added columns readable beside the original ones.
  if (!header) return { cellProperties, runProperties: `<${w("rPr")}><${w("sz")} ${w("val")}="18"/></${w("rPr")}>` };
  const runProperties = last?.firstRunProperties
    ? slice(xml, last.firstRunProperties)
    : `<${w("rPr")}><${w("b")}/></${w("rPr")}>`;
  return { cellProperties, runProperties };
}

function answerParagraphs(answer: RowAnswer, idByUrl: Map<string, string>): DocxRun[][][] {
  const sources = answer.sources.map((source) => {
    const run: DocxRun = { text: `[${source.n}] ${describeSource(source)}` };
    const id = idByUrl.get(source.url);
    return [id === undefined ? run : { ...run, relationshipId: id }];
  });
  return [
    textParagraphs(answerCellText(answer)),
    textParagraphs(statusCellText(answer)),
    sources,
    textParagraphs(answer.quote),
  ];
}

/** A cell's new dxa width, when its grid columns' widths changed. */
function widthEdit(cell: DocxCell, widths: number[], addedSpan: number, w: (local: string) => string): Edit | null {
  if (cell.width?.type !== "dxa" || cell.width.value === null) return null;
  const span = widths.slice(cell.gridStart, cell.gridStart + cell.gridSpan + addedSpan);
  const width = span.reduce((sum, value) => sum + value, 0);
  if (width === cell.width.value) return null;
  return {
    start: cell.width.element.start,
    end: cell.width.element.end,
    text: `<${w("tcW")} ${w("w")}="${width}" ${w("type")}="dxa"/>`,
  };
}

/** The edits that widen a section row's one cell by `added` grid columns. */
function widenCell(xml: string, cell: DocxCell, added: number, w: (local: string) => string): Edit[] {
  const span = `<${w("gridSpan")} ${w("val")}="${cell.gridSpan + added}"/>`;
  if (cell.spanElement) return [{ start: cell.spanElement.start, end: cell.spanElement.end, text: span }];
  if (cell.properties) {
    const after = cell.width?.element ?? cell.conditionalFormatting;
    if (after) return [{ start: after.end, end: after.end, text: span }];
    if (cell.properties.closeTagStart === null) return [appendChildren(xml, cell.properties, span)];
    const at = startTagEnd(xml, cell.properties.start);
    return [{ start: at, end: at, text: span }];
  }
  const at = startTagEnd(xml, cell.element.start);
  return [{ start: at, end: at, text: `<${w("tcPr")}>${span}</${w("tcPr")}>` }];
}

function fillTable(input: {
  xml: string;
  table: DocxTable;
  layout: SheetLayout;
  answers: Map<number, RowAnswer | null>;
  prefixes: DocxPrefixes;
  idByUrl: Map<string, string>;
}): Edit[] {
  const { xml, table, layout, prefixes } = input;
  const w = (local: string) => (prefixes.word === "" ? local : `${prefixes.word}:${local}`);
  const edits: Edit[] = [];
  const gridWidth = tableGridWidth(table);
  const before = Array.from({ length: gridWidth }, (_, index) => table.gridColumns[index]?.width ?? null);
  // A column holding a nested table keeps room for it (plus the cell's default margins).
  const minimums = Array.from({ length: gridWidth }, () => 0);
  for (const row of table.rows) {
    for (const cell of row.cells) {
      if (cell.gridSpan === 1 && cell.nestedTableWidth > 0) {
        minimums[cell.gridStart] = Math.max(minimums[cell.gridStart] ?? 0, cell.nestedTableWidth + CELL_MARGINS);
      }
    }
  }
  const plan = planColumnWidths(before, table.textWidth, minimums);
  const widths = [...plan.original, ...plan.added];
  const gridColumn = (width: number) => `<${w("gridCol")} ${w("w")}="${width}"/>`;

  if (table.grid) {
    table.gridColumns.forEach((column, index) => {
      const width = plan.original[index];
      if (width !== undefined && width !== column.width) {
        edits.push({ start: column.element.start, end: column.element.end, text: gridColumn(width) });
      }
    });
    const missing = plan.original.slice(table.gridColumns.length);
    edits.push(appendChildren(xml, table.grid, [...missing, ...plan.added].map(gridColumn).join("")));
  } else {
    // A table without a grid (some generators leave it out): give it one, right after its properties.
    const at = table.properties ? table.properties.end : startTagEnd(xml, table.element.start);
    edits.push({ start: at, end: at, text: `<${w("tblGrid")}>${widths.map(gridColumn).join("")}</${w("tblGrid")}>` });
  }
  if (table.width && table.width.type === "dxa" && table.width.value !== null && table.width.value !== plan.total) {
    edits.push({
      start: table.width.element.start,
      end: table.width.element.end,
      text: `<${w("tblW")} ${w("w")}="${plan.total}" ${w("type")}="dxa"/>`,
    });
  }

  const addedCount = ADDED_COLUMNS.length;
  // The header row, and any row repeating it (a table re-headed by hand on each page), are named.
  const headerRows = layout.headerRow === null ? [] : [layout.headerRow, ...(layout.repeatedHeaderRows ?? [])];
  for (const row of table.rows) {
    const isHeader = headerRows.includes(row.rowNumber);
    const isQuestion = input.answers.has(row.rowNumber);
    const only = row.cells.length === 1 ? row.cells[0] : undefined;
    const spansTable = only !== undefined && only.gridStart === 0 && only.gridSpan >= gridWidth;
    if (!isHeader && !isQuestion && only && spansTable) {
      edits.push(...widenCell(xml, only, addedCount, w));
      const width = widthEdit(only, widths, addedCount, w);
      if (width) edits.push(width);
      continue;
    }
    for (const cell of row.cells) {
      const width = widthEdit(cell, widths, 0, w);
      if (width) edits.push(width);
    }
    const look = lookOf(xml, row, prefixes, isHeader);
    const answer = input.answers.get(row.rowNumber) ?? null;
    const contents: DocxRun[][][] = isHeader
      ? ADDED_COLUMNS.map((header) => [[{ text: header }]])
      : answer
        ? answerParagraphs(answer, input.idByUrl)
        : ADDED_COLUMNS.map(() => []);
    let cells = contents
      .map((paragraphs, index) => cellXml({ prefixes, width: plan.added[index] ?? 1, look, paragraphs }))
      .join("");
    // A row that stops short of the grid's end (a "grid after", or simply fewer cells) gets a filler
    // cell, so the added cells land in the added columns.
    const last = row.cells[row.cells.length - 1];
    const covered = last ? last.gridStart + last.gridSpan : row.gridBefore;
    if (covered < gridWidth) {
      if (row.gridAfterElement)
        edits.push({ start: row.gridAfterElement.start, end: row.gridAfterElement.end, text: "" });
      const filler = cellXml({
        prefixes,
        width: widths.slice(covered, gridWidth).reduce((sum, value) => sum + value, 0),
        gridSpan: gridWidth - covered,
        look: { cellProperties: "", runProperties: null },
        paragraphs: [],
      });
      cells = filler + cells;
    }
    edits.push(appendChildren(xml, row.element, cells));
  }
  return edits;
}

export function writeFilledDocx(input: {
  bytes: Uint8Array;
  fileName: string;
  layouts: SheetLayout[];
  rows: DocxFilledRow[];
}): Uint8Array {
  const docx = openDocxPackage(input.bytes, input.fileName);
  let map: DocxTableMap;
  try {
    map = mapDocxTables(docx.documentXml);
  } catch (error) {
    throw damagedDocx(input.fileName, error);
  }
  const xml = docx.documentXml;
  const { prefixes, declarations } = choosePrefixes(map);
  const filledLayouts = input.layouts.filter((layout) => map.tables[layout.sheetIndex] !== undefined);
  const sheetIndexes = new Set(filledLayouts.map((layout) => layout.sheetIndex));
  const urls = input.rows
    .filter((row) => sheetIndexes.has(row.sheetIndex))
    .flatMap((row) => row.answer?.sources.map((source) => source.url) ?? [])
    .filter((url) => url !== "");

  const relationshipsPart = relationshipsPartOf(docx.mainPart);
  const existingRelationships = docx.unpacked.files[relationshipsPart];
  let relationships: ReturnType<typeof addHyperlinkRelationships>;
  try {
    relationships = addHyperlinkRelationships(
      existingRelationships ? new TextDecoder().decode(existingRelationships) : null,
      urls,
    );
  } catch (error) {
    throw damagedDocx(input.fileName, error);
  }

  const edits: Edit[] = [];
  if (declarations !== "") {
    // Declared on the root element, before its ">" (a document's root is never empty).
    const at = startTagEnd(xml, map.root.start) - 1;
    edits.push({ start: at, end: at, text: declarations });
  }
  for (const layout of filledLayouts) {
    const table = map.tables[layout.sheetIndex];
    if (!table) continue;
    const answers = new Map(
      input.rows.filter((row) => row.sheetIndex === layout.sheetIndex).map((row) => [row.rowNumber, row.answer]),
    );
    edits.push(...fillTable({ xml, table, layout, answers, prefixes, idByUrl: relationships.idByUrl }));
  }

  const encoder = new TextEncoder();
  const changed: Record<string, Uint8Array> = Object.create(null);
  changed[docx.mainPart] = encoder.encode(applyEdits(xml, edits));
  if (urls.length > 0) {
    changed[relationshipsPart] = encoder.encode(relationships.xml);
    const contentTypes = docx.unpacked.files["[Content_Types].xml"];
    if (!existingRelationships && contentTypes) {
      const updated = withRelationshipsContentType(new TextDecoder().decode(contentTypes));
      if (updated !== null) changed["[Content_Types].xml"] = encoder.encode(updated);
    }
  }
  const files: Record<string, Uint8Array> = Object.create(null);
  for (const [name, bytes] of Object.entries(docx.unpacked.files)) files[name] = changed[name] ?? bytes;
  for (const [name, bytes] of Object.entries(changed)) files[name] ??= bytes;
  try {
    return zipSync(files);
  } catch (error) {
    throw new ParseError("questionnaire_unwritable", `The filled copy of ${input.fileName} could not be packed.`, {
      file: input.fileName,
      cause: error,
    });
  }
}
