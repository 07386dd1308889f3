/**
 * Search results and table cells for the answer modules' unit tests: a PDF passage with every field a
 * SearchResult has, a table passage laid out as the chunker writes it (header row, then rows, cells
 * joined by " | "), and Nike's 2018 net income as a cell. Each test passes what it asserts on.
 */
import type { TableCell } from "../../src/answer/evidence/table-cells.js";
import type { SearchResult } from "../../src/domain/types.js";

export function pdfPassage(
  fields: Pick<SearchResult, "chunkId" | "documentId" | "spaceId" | "file" | "title" | "text"> & Partial<SearchResult>,
): SearchResult {
  return {
    mediaType: "application/pdf",
    pageStart: 1,
    pageEnd: 1,
    score: 1,
    provenance: {},
    kind: "text",
    ...fields,
  };
}

/** A table passage: the header row then `lines`, with the row range and columns its provenance gives. */
export function tablePassage(
  fields: Pick<SearchResult, "chunkId" | "documentId" | "spaceId" | "file" | "title"> & Partial<SearchResult>,
  lines: string[],
  columns: string[],
): SearchResult {
  return pdfPassage({
    text: [columns.join(" | "), ...lines].join("\n"),
    provenance: { rowStart: 0, rowEnd: lines.length - 1, columns },
    kind: "table",
    ...fields,
  });
}

/** Nike's 2018 net income as read from its income statement, in millions. */
export function netIncomeCell(overrides: Partial<TableCell> = {}): TableCell {
  return {
    label: "Net income",
    parents: [],
    column: "2018",
    value: "$ 1,933",
    number: 1933,
    period: { year: 2018 },
    scale: "million",
    percent: false,
    currency: "$",
    unitNote: "(In millions)",
    rowStart: 0,
    rowEnd: 0,
    ...overrides,
  };
}
