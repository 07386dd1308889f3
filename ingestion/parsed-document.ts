/**
 * What a parser hands to the chunker: the document's text as structure-aware blocks that carry
 * their provenance. Parsers never chunk; the chunker never parses.
 */
import type { MediaType, PageText } from "../src/domain/types.js";
import type { PdfHeading } from "./pdf-headings.js";

/** A run of prose. For PDFs, `page` and `charStart` locate it inside that page's text. */
export type TextBlock = {
  kind: "text";
  text: string;
  /** Heading path of the section the block is in (DOCX, Markdown, HTML); empty when none. */
  headingPath: string[];
  /** PDF only: 1-based physical page and offset of `text` inside `pages[page - 1].text`. */
  page?: number;
  charStart?: number;
  /** True when the block is itself a heading. */
  isHeading?: boolean;
};

/** A table: the header row and data rows as cell strings. */
export type TableBlock = {
  kind: "table";
  header: string[];
  rows: string[][];
  headingPath: string[];
  /** Sheet name (XLSX) or file name (CSV). */
  sheet?: string;
  /** Title lines above the header (a sheet's title or section label), repeated with the header. */
  caption?: string[];
  /** 1-based number of the first data row in the source (the row after the header is 1). */
  firstRow: number;
  page?: number;
};

export type Block = TextBlock | TableBlock;

export type ParsedDocument = {
  mediaType: MediaType;
  title: string;
  /** Physical pages for PDFs (every page, empty ones included); null for formats without pages. */
  pages: PageText[] | null;
  blocks: Block[];
  /** PDF only: the section headings in reading order; a passage is indexed under the one in force where it starts. */
  headings?: PdfHeading[];
  /** Non-fatal notes a person may want to know ("sheet 'Chart1' has no cells"). */
  warnings: string[];
};
