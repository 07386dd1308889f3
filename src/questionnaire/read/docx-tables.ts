/**
 * The tables of a Word document's main part, as map-docx-tables.ts reads them with a conforming XML
 * parser (saxes), kept with their positions in the XML text: each outermost table with its grid, its rows and each row's cells
 * (grid column, span, width, text). The questionnaire reader takes the cell text from it; the DOCX
 * filled copy (write-filled-docx.ts) edits the XML at the positions it gives, so the tables and rows
 * the reader numbered are exactly the ones the writer fills.
 *
 * "Outermost" means a table of the document's body: a table nested in a cell belongs to that cell (its
 * text is part of the cell's text), and a table in a text box or in markup-compatibility fallback
 * content (a second copy of what the main choice shows) is not a questionnaire table.
 */
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

/** Grid columns a row covers: its cells' spans, plus the columns skipped before and after. */
export function rowGridWidth(row: DocxRow): number {
  const last = row.cells[row.cells.length - 1];
  return (last ? last.gridStart + last.gridSpan : row.gridBefore) + row.gridAfter;
}

/** Grid columns of a table: its tblGrid, or its widest row when the grid is missing or short. */
export function tableGridWidth(table: DocxTable): number {
  return Math.max(table.gridColumns.length, ...table.rows.map(rowGridWidth));
}
