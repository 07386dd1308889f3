/**
 * Builds the DocxTableMap (docx-tables.ts) of a main document part from saxes's events: each element
 * is placed in the XML text from the parser's position (the "<" before it, the ">" that ends it), and
 * the elements that make a table — grid, rows, cells, their properties and text — are recorded for
 * the outermost tables only. Elements are told apart by namespace, not by prefix.
 */
import { SaxesParser, type SaxesTagNS } from "saxes";
import {
  DEFAULT_TEXT_WIDTH,
  type DocxCell,
  type DocxRow,
  type DocxTable,
  type DocxTableMap,
  type XmlElement,
} from "./docx-tables.js";

const WORD_NAMESPACES = new Set([
  "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
  "http://purl.oclc.org/ooxml/wordprocessingml/main",
]);
const MARKUP_COMPATIBILITY = "http://schemas.openxmlformats.org/markup-compatibility/2006";

type OpenElement = {
  tag: SaxesTagNS;
  start: number;
  /** The WordprocessingML local name, or null for an element of another namespace. */
  word: string | null;
  /** The table, row or cell this element belongs to directly (for "is this tcPr the cell's own?"). */
  owner: unknown;
  /** The recorded element to complete when it closes. */
  record: XmlElement | null;
};

type CellBuilder = DocxCell & { parts: string[] };

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

function widthOf(tag: SaxesTagNS, element: XmlElement) {
  return { element, value: integerAttribute(tag, "w"), type: wordAttribute(tag, "type") ?? "dxa" };
}

/** Paragraphs (and line breaks) as lines, whitespace inside a line collapsed, empty lines dropped. */
function tidyCellText(raw: string): string {
  return raw
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

class DocxTableMapper {
  private readonly tables: DocxTable[] = [];
  private readonly sections: Array<{ end: number; textWidth: number }> = [];
  private readonly stack: OpenElement[] = [];
  private root: XmlElement | null = null;
  private rootNamespaces: Record<string, string> = {};
  private tableDepth = 0;
  /** Inside a text box or markup-compatibility fallback content: not part of the document's body. */
  private hiddenDepth = 0;
  private table: DocxTable | null = null;
  private row: DocxRow | null = null;
  private cell: CellBuilder | null = null;
  private inText = false;
  private section: { pageWidth: number | null; left: number; right: number } | null = null;
  /** A table nested directly in a cell of the table being mapped: its stated width and its grid's. */
  private nested: { stated: number | null; grid: number } | null = null;

  constructor(
    private readonly xml: string,
    private readonly position: () => number,
  ) {}

  open(tag: SaxesTagNS): void {
    const start = this.xml.lastIndexOf("<", this.position() - 1);
    const word = WORD_NAMESPACES.has(tag.uri) ? tag.local : null;
    const open: OpenElement = { tag, start, word, owner: null, record: null };
    if (this.root === null) {
      this.root = this.record(open);
      this.rootNamespaces = { ...tag.ns };
    }
    this.stack.push(open);
    if (tag.uri === MARKUP_COMPATIBILITY && tag.local === "Fallback") this.hiddenDepth += 1;
    if (word === null) return;
    if (word === "txbxContent") this.hiddenDepth += 1;
    this.openTablePart(word, open);
    this.openRowPart(word, open);
    this.openCellPart(word, open);
    this.openTextPart(word);
    this.openSectionPart(word, open);
  }

  close(tag: SaxesTagNS): void {
    const open = this.stack.pop();
    if (!open) return;
    const end = this.position();
    if (open.record) {
      open.record.end = end;
      open.record.closeTagStart = tag.isSelfClosing ? null : this.xml.lastIndexOf("<", end - 1);
    }
    if (tag.uri === MARKUP_COMPATIBILITY && tag.local === "Fallback") this.hiddenDepth -= 1;
    const { cell } = this;
    switch (open.word) {
      case "txbxContent":
        this.hiddenDepth -= 1;
        break;
      case "t":
        this.inText = false;
        break;
      case "p":
        if (cell && this.hiddenDepth === 0) cell.parts.push("\n");
        break;
      case "tc":
        if (cell && open.owner === cell) {
          cell.text = tidyCellText(cell.parts.join(""));
          this.cell = null;
        }
        break;
      case "tr":
        if (this.row && open.owner === this.row) this.row = null;
        break;
      case "tbl":
        this.closeTable(open);
        break;
      case "sectPr":
        if (this.section) {
          const width = (this.section.pageWidth ?? 0) - this.section.left - this.section.right;
          if (width > 0) this.sections.push({ end, textWidth: width });
          this.section = null;
        }
        break;
    }
  }

  text(value: string): void {
    if (this.inText && this.cell) this.cell.parts.push(value);
  }

  finish(): DocxTableMap {
    if (this.root === null) throw new Error("the document part has no root element");
    for (const table of this.tables) {
      table.textWidth =
        this.sections.find((entry) => entry.end > table.element.end)?.textWidth ??
        this.sections[this.sections.length - 1]?.textWidth ??
        DEFAULT_TEXT_WIDTH;
      for (const row of table.rows) {
        for (const cell of row.cells) delete (cell as Partial<CellBuilder>).parts;
      }
    }
    return { tables: this.tables, root: this.root, rootNamespaces: this.rootNamespaces };
  }

  private record(open: OpenElement): XmlElement {
    open.record = { start: open.start, end: -1, closeTagStart: null, name: open.tag.name };
    return open.record;
  }

  private parent(): OpenElement | undefined {
    return this.stack[this.stack.length - 2];
  }

  /** True when the element just opened sits directly in `local`, itself part of `owner`. */
  private directlyIn(local: string, owner: unknown): boolean {
    const above = this.parent();
    return owner !== null && above?.word === local && above.owner === owner;
  }

  private openTablePart(word: string, open: OpenElement): void {
    const { table } = this;
    const { tag } = open;
    const nestedHere = this.nested !== null && this.tableDepth === 2;
    switch (word) {
      case "tbl":
        this.tableDepth += 1;
        if (this.tableDepth === 2 && this.cell) this.nested = { stated: null, grid: 0 };
        if (this.tableDepth === 1 && this.hiddenDepth === 0) {
          this.table = {
            element: this.record(open),
            properties: null,
            width: null,
            grid: null,
            gridColumns: [],
            rows: [],
            textWidth: DEFAULT_TEXT_WIDTH,
          };
          open.owner = this.table;
        }
        break;
      case "tblPr":
      case "tblGrid":
        if (table && this.directlyIn("tbl", table)) {
          if (word === "tblPr") table.properties = this.record(open);
          else table.grid = this.record(open);
          open.owner = table;
        }
        break;
      case "tblW":
        if (nestedHere && this.parent()?.word === "tblPr" && wordAttribute(tag, "type") === "dxa" && this.nested) {
          this.nested.stated = integerAttribute(tag, "w");
        }
        if (table && this.directlyIn("tblPr", table)) table.width = widthOf(tag, this.record(open));
        break;
      case "gridCol":
        if (nestedHere && this.parent()?.word === "tblGrid" && this.nested) {
          this.nested.grid += integerAttribute(tag, "w") ?? 0;
        }
        if (table && this.directlyIn("tblGrid", table)) {
          table.gridColumns.push({ element: this.record(open), width: integerAttribute(tag, "w") });
        }
        break;
    }
  }

  private closeTable(open: OpenElement): void {
    if (this.tableDepth === 2 && this.nested && this.cell) {
      this.cell.nestedTableWidth = Math.max(this.cell.nestedTableWidth, this.nested.stated ?? this.nested.grid);
      this.nested = null;
    }
    this.tableDepth -= 1;
    if (this.table && open.owner === this.table) {
      this.tables.push(this.table);
      this.table = null;
    }
  }

  private openRowPart(word: string, open: OpenElement): void {
    const { row, table } = this;
    switch (word) {
      case "tr":
        if (table && this.tableDepth === 1) {
          this.row = {
            element: this.record(open),
            rowNumber: table.rows.length + 1,
            cells: [],
            gridBefore: 0,
            gridAfter: 0,
            gridAfterElement: null,
          };
          table.rows.push(this.row);
          open.owner = this.row;
        }
        break;
      case "trPr":
        if (row && this.directlyIn("tr", row)) open.owner = row;
        break;
      case "gridBefore":
        if (row && this.directlyIn("trPr", row)) row.gridBefore = integerAttribute(open.tag, "val") ?? 0;
        break;
      case "gridAfter":
        if (row && this.directlyIn("trPr", row)) {
          row.gridAfter = integerAttribute(open.tag, "val") ?? 0;
          row.gridAfterElement = this.record(open);
        }
        break;
    }
  }

  private openCellPart(word: string, open: OpenElement): void {
    const { cell, row } = this;
    if (word === "tc") {
      if (!row || this.tableDepth !== 1) return;
      const previous = row.cells[row.cells.length - 1];
      this.cell = {
        element: this.record(open),
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
      row.cells.push(this.cell);
      open.owner = this.cell;
      return;
    }
    if (!cell) return;
    if (word === "tcPr" && this.directlyIn("tc", cell)) {
      cell.properties = this.record(open);
      open.owner = cell;
      return;
    }
    if (word === "rPr" && this.tableDepth === 1 && cell.firstRunProperties === null && this.parent()?.word === "r") {
      cell.firstRunProperties = this.record(open);
      return;
    }
    if (!this.directlyIn("tcPr", cell)) return;
    if (word === "tcW") cell.width = widthOf(open.tag, this.record(open));
    else if (word === "gridSpan") {
      cell.gridSpan = Math.max(1, integerAttribute(open.tag, "val") ?? 1);
      cell.spanElement = this.record(open);
    } else if (word === "cnfStyle") cell.conditionalFormatting = this.record(open);
    else if (word === "tcBorders") cell.borders = this.record(open);
    else if (word === "shd") cell.shading = this.record(open);
    else if (word === "vAlign") cell.verticalAlignment = this.record(open);
  }

  private openTextPart(word: string): void {
    const { cell } = this;
    const visible = cell !== null && this.hiddenDepth === 0;
    if (word === "t") this.inText = visible;
    else if (!visible || !cell) return;
    else if (word === "tab" && this.parent()?.word === "r") cell.parts.push("\t");
    else if (word === "br" || word === "cr") cell.parts.push("\n");
    else if (word === "noBreakHyphen") cell.parts.push("-");
  }

  private openSectionPart(word: string, open: OpenElement): void {
    if (word === "sectPr") this.section = { pageWidth: null, left: 0, right: 0 };
    if (!this.section || this.parent()?.word !== "sectPr") return;
    if (word === "pgSz") this.section.pageWidth = integerAttribute(open.tag, "w");
    if (word === "pgMar") {
      this.section.left = integerAttribute(open.tag, "left") ?? 0;
      this.section.right = integerAttribute(open.tag, "right") ?? 0;
    }
  }
}

/** Maps the tables of a main document part; throws the parser's error on XML that is not well formed. */
export function mapDocxTables(xml: string): DocxTableMap {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const mapper = new DocxTableMapper(xml, () => parser.position);
  parser.on("opentag", (tag) => mapper.open(tag));
  parser.on("closetag", (tag) => mapper.close(tag));
  parser.on("text", (text) => mapper.text(text));
  parser.on("cdata", (text) => mapper.text(text));
  parser.write(xml).close();
  return mapper.finish();
}
