/**
 * The tables of a Word document's main part, read with a conforming XML parser (saxes) and kept with
 * their positions in the XML text: each outermost table with its grid, its rows and each row's cells
 * (grid column, span, width, text). The questionnaire reader takes the cell text from it; the DOCX
 * filled copy (write-filled-docx.ts) edits the XML at the positions it gives, so the tables and rows
 * the reader numbered are exactly the ones the writer fills.
 *
 * "Outermost" means a table of the document's body: a table nested in a cell belongs to that cell (its
 * text is part of the cell's text), and a table in a text box or in markup-compatibility fallback
 * content (a second copy of what the main choice shows) is not a questionnaire table.
 */
import { SaxesParser, type SaxesTagNS } from "saxes";

const WORD_NAMESPACES = new Set([
  "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
  "http://purl.oclc.org/ooxml/wordprocessingml/main",
]);
const MARKUP_COMPATIBILITY = "http://schemas.openxmlformats.org/markup-compatibility/2006";
/** A4 portrait with 1-inch margins, in twentieths of a point: the text width when a document names none. */
export const DEFAULT_TEXT_WIDTH = 9026;

/** A span of the XML text: `start` at its "<", `end` after its last ">". */
export type XmlElement = {
  start: number;
  end: number;
  /** Where the closing tag starts; null when the element is self-closing. */
  closeTagStart: number | null;
  /** The qualified name as written ("w:tr"). */
  name: string;
};

/** A width as Word writes it: twentieths of a point ("dxa"), fiftieths of a percent ("pct"), or "auto". */
export type DocxWidth = { element: XmlElement; value: number | null; type: string };

export type DocxCell = {
  element: XmlElement;
  /** 0-based grid column the cell starts in. */
  gridStart: number;
  gridSpan: number;
  /** Paragraphs of the cell, whitespace tidied, joined by "\n" (a nested table's text included). */
  text: string;
  properties: XmlElement | null;
  width: DocxWidth | null;
  spanElement: XmlElement | null;
  /** `w:cnfStyle`, which must stay the first child of the cell's properties. */
  conditionalFormatting: XmlElement | null;
  /** Borders, shading and vertical alignment of the cell: what an added cell beside it copies. */
  borders: XmlElement | null;
  shading: XmlElement | null;
  verticalAlignment: XmlElement | null;
  /** The run properties of the cell's first run, for added header cells to look like their neighbours. */
  firstRunProperties: XmlElement | null;
  /** The widest table nested directly in the cell (its dxa width, or its grid's), 0 when none. */
  nestedTableWidth: number;
};

export type DocxRow = {
  element: XmlElement;
  /** 1-based position among the table's own rows (empty rows counted). */
  rowNumber: number;
  cells: DocxCell[];
  gridBefore: number;
  gridAfter: number;
  gridAfterElement: XmlElement | null;
};

export type DocxTable = {
  element: XmlElement;
  properties: XmlElement | null;
  width: DocxWidth | null;
  grid: XmlElement | null;
  /** The widths of the grid's columns (null where a column gives none). */
  gridColumns: Array<{ element: XmlElement; width: number | null }>;
  rows: DocxRow[];
  /** The text width of the table's section (page width less margins), in twentieths of a point. */
  textWidth: number;
};

export type DocxTableMap = {
  tables: DocxTable[];
  root: XmlElement;
  /** The namespaces the root element declares: prefix -> URI. */
  rootNamespaces: Record<string, string>;
};

type OpenElement = {
  tag: SaxesTagNS;
  start: number;
  word: string | null;
  /** The table, row or cell this element belongs to directly (for "is this tcPr the cell's own?"). */
  owner: unknown;
  /** The recorded element to complete when it closes. */
  record: XmlElement | null;
};

function wordLocal(tag: SaxesTagNS): string | null {
  return WORD_NAMESPACES.has(tag.uri) ? tag.local : null;
}

function wordAttribute(tag: SaxesTagNS, local: string): string | undefined {
  for (const attribute of Object.values(tag.attributes)) {
    if (attribute.local === local && (WORD_NAMESPACES.has(attribute.uri) || attribute.uri === "")) {
      return attribute.value;
    }
  }
  return undefined;
}

function integerAttribute(tag: SaxesTagNS, local: string): number | null {
  const value = Number.parseInt(wordAttribute(tag, local) ?? "", 10);
  return Number.isFinite(value) ? value : null;
}

function tidyCellText(raw: string): string {
  return raw
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

type CellBuilder = DocxCell & { parts: string[] };

/** Maps the tables of a main document part; throws the parser's error on XML that is not well formed. */
export function mapDocxTables(xml: string): DocxTableMap {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: OpenElement[] = [];
  const tables: DocxTable[] = [];
  const sections: Array<{ end: number; textWidth: number }> = [];
  let root: XmlElement | null = null;
  let rootNamespaces: Record<string, string> = {};
  let tableDepth = 0;
  let hiddenDepth = 0;
  let table: DocxTable | null = null;
  let row: DocxRow | null = null;
  let cell: CellBuilder | null = null;
  let inText = false;
  let section: { pageWidth: number | null; left: number; right: number } | null = null;
  /** A table nested directly in a cell of the table being mapped: its stated width and its grid's. */
  let nested: { stated: number | null; grid: number } | null = null;

  const parent = (): OpenElement | undefined => stack[stack.length - 2];
  /** True when the element just opened sits directly in `local`, itself part of `owner`. */
  const directlyIn = (local: string, owner: unknown) => {
    const above = parent();
    return owner !== null && above?.word === local && above.owner === owner;
  };

  parser.on("opentag", (tag) => {
    const start = xml.lastIndexOf("<", parser.position - 1);
    const local = wordLocal(tag);
    const open: OpenElement = { tag, start, word: local, owner: null, record: null };
    const element = (): XmlElement => {
      open.record = { start, end: -1, closeTagStart: null, name: tag.name };
      return open.record;
    };
    if (root === null) {
      root = element();
      rootNamespaces = { ...tag.ns };
    }
    stack.push(open);
    if (tag.uri === MARKUP_COMPATIBILITY && tag.local === "Fallback") hiddenDepth += 1;
    switch (local) {
      case null:
        break;
      case "txbxContent":
        hiddenDepth += 1;
        break;
      case "tbl":
        tableDepth += 1;
        if (tableDepth === 2 && cell) nested = { stated: null, grid: 0 };
        if (tableDepth === 1 && hiddenDepth === 0) {
          table = {
            element: element(),
            properties: null,
            width: null,
            grid: null,
            gridColumns: [],
            rows: [],
            textWidth: DEFAULT_TEXT_WIDTH,
          };
          open.owner = table;
        }
        break;
      case "tblPr":
        if (table && directlyIn("tbl", table)) {
          table.properties = element();
          open.owner = table;
        }
        break;
      case "tblGrid":
        if (table && directlyIn("tbl", table)) {
          table.grid = element();
          open.owner = table;
        }
        break;
      case "tblW":
        if (nested && tableDepth === 2 && parent()?.word === "tblPr" && wordAttribute(tag, "type") === "dxa") {
          nested.stated = integerAttribute(tag, "w");
        }
        if (table && directlyIn("tblPr", table)) {
          table.width = {
            element: element(),
            value: integerAttribute(tag, "w"),
            type: wordAttribute(tag, "type") ?? "dxa",
          };
        }
        break;
      case "gridCol":
        if (nested && tableDepth === 2 && parent()?.word === "tblGrid") nested.grid += integerAttribute(tag, "w") ?? 0;
        if (table && directlyIn("tblGrid", table)) {
          table.gridColumns.push({ element: element(), width: integerAttribute(tag, "w") });
        }
        break;
      case "tr":
        if (table && tableDepth === 1) {
          row = {
            element: element(),
            rowNumber: table.rows.length + 1,
            cells: [],
            gridBefore: 0,
            gridAfter: 0,
            gridAfterElement: null,
          };
          table.rows.push(row);
          open.owner = row;
        }
        break;
      case "trPr":
        if (row && directlyIn("tr", row)) open.owner = row;
        break;
      case "gridBefore":
        if (row && directlyIn("trPr", row)) row.gridBefore = integerAttribute(tag, "val") ?? 0;
        break;
      case "gridAfter":
        if (row && directlyIn("trPr", row)) {
          row.gridAfter = integerAttribute(tag, "val") ?? 0;
          row.gridAfterElement = element();
        }
        break;
      case "tc":
        if (row && tableDepth === 1) {
          const previous = row.cells[row.cells.length - 1];
          cell = {
            element: element(),
            gridStart: previous ? previous.gridStart + previous.gridSpan : row.gridBefore,
            gridSpan: 1,
            text: "",
            parts: [],
            properties: null,
            width: null,
            spanElement: null,
            conditionalFormatting: null,
            borders: null,
            shading: null,
            verticalAlignment: null,
            firstRunProperties: null,
            nestedTableWidth: 0,
          };
          row.cells.push(cell);
          open.owner = cell;
        }
        break;
      case "tcPr":
        if (cell && directlyIn("tc", cell)) {
          cell.properties = element();
          open.owner = cell;
        }
        break;
      case "tcW":
        if (cell && directlyIn("tcPr", cell)) {
          cell.width = {
            element: element(),
            value: integerAttribute(tag, "w"),
            type: wordAttribute(tag, "type") ?? "dxa",
          };
        }
        break;
      case "gridSpan":
        if (cell && directlyIn("tcPr", cell)) {
          cell.gridSpan = Math.max(1, integerAttribute(tag, "val") ?? 1);
          cell.spanElement = element();
        }
        break;
      case "cnfStyle":
        if (cell && directlyIn("tcPr", cell)) cell.conditionalFormatting = element();
        break;
      case "tcBorders":
        if (cell && directlyIn("tcPr", cell)) cell.borders = element();
        break;
      case "shd":
        if (cell && directlyIn("tcPr", cell)) cell.shading = element();
        break;
      case "vAlign":
        if (cell && directlyIn("tcPr", cell)) cell.verticalAlignment = element();
        break;
      case "rPr":
        if (cell && tableDepth === 1 && cell.firstRunProperties === null && parent()?.word === "r") {
          cell.firstRunProperties = element();
        }
        break;
      case "t":
        inText = cell !== null && hiddenDepth === 0;
        break;
      case "tab":
        if (cell && hiddenDepth === 0 && parent()?.word === "r") cell.parts.push("\t");
        break;
      case "br":
      case "cr":
        if (cell && hiddenDepth === 0) cell.parts.push("\n");
        break;
      case "noBreakHyphen":
        if (cell && hiddenDepth === 0) cell.parts.push("-");
        break;
      case "sectPr":
        section = { pageWidth: null, left: 0, right: 0 };
        break;
      case "pgSz":
        if (section && parent()?.word === "sectPr") section.pageWidth = integerAttribute(tag, "w");
        break;
      case "pgMar":
        if (section && parent()?.word === "sectPr") {
          section.left = integerAttribute(tag, "left") ?? 0;
          section.right = integerAttribute(tag, "right") ?? 0;
        }
        break;
    }
  });

  const onText = (text: string) => {
    if (inText && cell) cell.parts.push(text);
  };
  parser.on("text", onText);
  parser.on("cdata", onText);

  parser.on("closetag", (tag) => {
    const open = stack.pop();
    if (!open) return;
    const end = parser.position;
    if (open.record) {
      open.record.end = end;
      open.record.closeTagStart = tag.isSelfClosing ? null : xml.lastIndexOf("<", end - 1);
    }
    if (tag.uri === MARKUP_COMPATIBILITY && tag.local === "Fallback") hiddenDepth -= 1;
    switch (open.word) {
      case "txbxContent":
        hiddenDepth -= 1;
        break;
      case "t":
        inText = false;
        break;
      case "p":
        if (cell && hiddenDepth === 0) cell.parts.push("\n");
        break;
      case "tc":
        if (cell && open.owner === cell) {
          cell.text = tidyCellText(cell.parts.join(""));
          cell = null;
        }
        break;
      case "tr":
        if (row && open.owner === row) row = null;
        break;
      case "tbl":
        if (tableDepth === 2 && nested && cell) {
          cell.nestedTableWidth = Math.max(cell.nestedTableWidth, nested.stated ?? nested.grid);
          nested = null;
        }
        tableDepth -= 1;
        if (table && open.owner === table) {
          tables.push(table);
          table = null;
        }
        break;
      case "sectPr":
        if (section) {
          const width = (section.pageWidth ?? 0) - section.left - section.right;
          if (width > 0) sections.push({ end, textWidth: width });
          section = null;
        }
        break;
    }
  });

  parser.write(xml).close();
  if (root === null) throw new Error("the document part has no root element");
  for (const mapped of tables) {
    mapped.textWidth =
      sections.find((entry) => entry.end > mapped.element.end)?.textWidth ??
      sections[sections.length - 1]?.textWidth ??
      DEFAULT_TEXT_WIDTH;
    for (const mappedRow of mapped.rows) {
      for (const mappedCell of mappedRow.cells) delete (mappedCell as Partial<CellBuilder>).parts;
    }
  }
  return { tables, root, rootNamespaces };
}

/** Grid columns a row covers: its cells' spans, plus the columns skipped before and after. */
export function rowGridWidth(row: DocxRow): number {
  const last = row.cells[row.cells.length - 1];
  return (last ? last.gridStart + last.gridSpan : row.gridBefore) + row.gridAfter;
}

/** Grid columns of a table: its tblGrid, or its widest row when the grid is missing or short. */
export function tableGridWidth(table: DocxTable): number {
  return Math.max(table.gridColumns.length, ...table.rows.map(rowGridWidth));
}
