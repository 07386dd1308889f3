/**
 * PDF parser on unpdf (pdf.js): one PageText per physical page (empty pages included, so page
 * numbers stay physical), cleaned of running headers, footers and page numbers, with words broken
 * across lines mended and footnotes after the body (pdf-page-text.ts); TextBlocks that are exact
 * slices of a page's text (the prose around its tables, and its footnotes apart), so the chunker's
 * character offsets index straight into `pages[page - 1].text`; and a TableBlock for each table the
 * layout makes evident (pdf-tables.ts).
 */

import { getDocumentProxy, getResolvedPDFJS } from "unpdf";
import type { PageText } from "../src/domain/types.js";
import { ParseError } from "../src/errors.js";
import { chooseDocumentTitle } from "./document-title.js";
import type { ParseLimits } from "./limits.js";
import type { Block, ParsedDocument, TableBlock, TextBlock } from "./parsed-document.js";
import { headingPathAt, headingPaths } from "./pdf-headings.js";
import { layoutLines, normalizePageText } from "./pdf-lines.js";
import { type CleanPdfPage, cleanPdfPages, type PdfCleanupCounts, type RawPdfPage } from "./pdf-page-text.js";
import { guardPdfStreams } from "./pdf-stream-guard.js";
import { continuesTable, type PdfTable } from "./pdf-tables.js";

/** Below this many visible characters a document is treated as having no text layer. */
const minimumVisibleCharacters = 10;
/** For longer documents, fewer than this many visible characters per page means a scan. */
const minimumVisibleCharactersPerPage = 2;
const maxTitleLength = 200;
/** A title is looked for on the first pages only: a cover, perhaps after a blank or contents page. */
const TITLE_PAGES = 3;

/** The parts of a pdf.js form-field (Widget) annotation this parser reads. */
type FormField = {
  subtype?: unknown;
  fieldType?: unknown;
  fieldValue?: unknown;
  hidden?: unknown;
  options?: Array<{ exportValue?: unknown; displayValue?: unknown }>;
};

/**
 * What the filled-in form fields of a page say: text field values, and the shown text of the chosen
 * list/combo options. pdf.js keeps these out of getTextContent (they live in annotations), so a filled
 * form would otherwise lose its answers. Buttons and check boxes carry no prose and are skipped.
 */
export function formFieldText(annotations: readonly unknown[]): { text: string; fields: number } {
  const lines: string[] = [];
  let fields = 0;
  for (const annotation of annotations as FormField[]) {
    if (annotation?.subtype !== "Widget") continue;
    fields += 1;
    if (annotation.hidden === true) continue;
    if (annotation.fieldType === "Tx" && typeof annotation.fieldValue === "string") {
      lines.push(annotation.fieldValue.replace(/\r\n?/g, "\n"));
    } else if (annotation.fieldType === "Ch") {
      const chosen = Array.isArray(annotation.fieldValue) ? annotation.fieldValue : [annotation.fieldValue];
      for (const value of chosen) {
        if (typeof value !== "string") continue;
        const option = annotation.options?.find((candidate) => candidate.exportValue === value);
        lines.push(typeof option?.displayValue === "string" ? option.displayValue : value);
      }
    }
  }
  return { text: normalizePageText(lines.filter((line) => line.trim().length > 0).join("\n")), fields };
}

/** Whether any page paints an image (what a scanned page is made of). Asked only of PDFs without text. */
async function drawsAnyImage(pdf: Awaited<ReturnType<typeof getDocumentProxy>>, pageCount: number): Promise<boolean> {
  const { OPS } = await getResolvedPDFJS();
  const imageOperators = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObject,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintSolidColorImageMask,
  ]);
  for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
    try {
      const page = await pdf.getPage(pageNumber);
      const operators = await page.getOperatorList();
      page.cleanup();
      if (operators.fnArray.some((operator) => imageOperators.has(operator))) return true;
    } catch {
      // A page that cannot be drawn may well be an image; when in doubt, keep the scan advice.
      return true;
    }
  }
  return false;
}

function countVisibleCharacters(text: string): number {
  return text.replace(/\s+/gu, "").length;
}

function cleanTitle(title: string): string {
  // Office's PDF export puts the source file name in Title ("Microsoft Word - handbook.docx").
  return title
    .replace(/^Microsoft (Word|PowerPoint|Excel) - /, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, maxTitleLength);
}

function translateOpenError(error: unknown, fileName: string): ParseError {
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
  if (name === "PasswordException") {
    return new ParseError("pdf_encrypted", "This PDF is password protected — upload an unlocked copy.", {
      file: fileName,
      cause: error,
    });
  }
  return new ParseError(
    "pdf_corrupt",
    "This PDF is damaged and cannot be read — re-export or re-save it and upload it again.",
    {
      file: fileName,
      cause: error,
      details: { reason: error instanceof Error ? error.message : String(error) },
    },
  );
}

/**
 * A table found on a page, the characters of the page text it covers, and how many lines of text
 * the page holds before and after it (a table with only a running header or footer beyond it may
 * go on from the page before or onto the page after).
 */
export type PageTable = {
  block: TableBlock;
  table: PdfTable;
  page: number;
  start: number;
  end: number;
  linesBefore: number;
  linesAfter: number;
};

/** Lines of running header or footer allowed between a table and the page break it continues across. */
const maxMarginLines = 3;

function pageTables(page: CleanPdfPage, pageNumber: number): PageTable[] {
  const textLines = (from: number, to: number) => page.lineSpans.slice(from, to).filter((span) => span !== null).length;
  return page.tables.flatMap((table) => {
    const first = page.lineSpans[table.firstLine];
    const last = page.lineSpans[table.lastLine];
    if (!first || !last) return [];
    const block: TableBlock = {
      kind: "table",
      header: table.header,
      rows: table.rows,
      headingPath: [],
      firstRow: 1,
      page: pageNumber,
      ...(table.caption.length > 0 ? { caption: table.caption } : {}),
    };
    return [
      {
        block,
        table,
        page: pageNumber,
        start: first.start,
        end: last.end,
        linesBefore: textLines(0, table.firstLine),
        linesAfter: textLines(table.lastLine + 1, page.lineSpans.length),
      },
    ];
  });
}

/**
 * A table that runs onto the next page keeps its column names there: when the first table of a page
 * lines up with the last table of the page before and nothing but margins lies between them, it
 * takes that table's caption, heading path and header (unless it repeats the header) and numbers its
 * rows on from it.
 */
export function joinTablesAcrossPages(tables: PageTable[]): void {
  for (let index = 1; index < tables.length; index++) {
    const previous = tables[index - 1] as PageTable;
    const current = tables[index] as PageTable;
    const continues =
      current.page === previous.page + 1 &&
      previous.linesAfter <= maxMarginLines &&
      current.linesBefore <= maxMarginLines &&
      continuesTable(previous.table, current.table);
    if (!continues) continue;
    const repeatsHeader = current.block.header.join("\u0000") === previous.block.header.join("\u0000");
    // Above a continued table there is at most a running header: the table keeps its first page's caption.
    const { caption: _ownCaption, ...withoutCaption } = current.block;
    current.block = {
      ...withoutCaption,
      ...(previous.block.caption ? { caption: previous.block.caption } : {}),
      headingPath: previous.block.headingPath,
      header: previous.block.header,
      rows:
        repeatsHeader || current.block.header.length === 0
          ? current.block.rows
          : [current.block.header, ...current.block.rows],
      firstRow: previous.block.firstRow + previous.block.rows.length,
    };
  }
}

/**
 * A page's prose: its body text minus the tables on it, as blocks that point at their place in the
 * page text. A page without tables or footnotes is one block, the whole page.
 */
function proseBlocks(page: PageText, tables: PageTable[], body: { start: number; end: number }): TextBlock[] {
  const blocks: TextBlock[] = [];
  let cursor = body.start;
  const addProse = (from: number, to: number) => {
    const slice = page.text.slice(from, to);
    const text = slice.trim();
    if (text.length === 0) return;
    const charStart = from + slice.indexOf(text);
    blocks.push({ kind: "text", text, headingPath: [], page: page.pageNumber, charStart });
  };
  for (const table of tables) {
    if (table.page !== page.pageNumber) continue;
    addProse(cursor, table.start);
    cursor = table.end;
  }
  addProse(cursor, body.end);
  return blocks;
}

/** A page's footnotes as one block of their own (none when the page has no notes). */
function noteBlocks(page: PageText, notes: { start: number; end: number } | null): TextBlock[] {
  if (notes === null) return [];
  const text = page.text.slice(notes.start, notes.end);
  if (text.trim().length === 0) return [];
  return [{ kind: "text", text, headingPath: [], page: page.pageNumber, charStart: notes.start }];
}

/** Parses a PDF into physical pages, the prose of each page and the tables found on them. */
export async function parsePdf(bytes: Uint8Array, fileName: string, limits: ParseLimits): Promise<ParsedDocument> {
  return (await parsePdfWithCleanup(bytes, fileName, limits)).document;
}

/** parsePdf, with counts of what cleaning the page text took out or mended (for measurement). */
export async function parsePdfWithCleanup(
  bytes: Uint8Array,
  fileName: string,
  limits: ParseLimits,
): Promise<{ document: ParsedDocument; cleanup: PdfCleanupCounts }> {
  guardPdfStreams(bytes, fileName, limits);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js may take over the buffer it is given, so it gets its own copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), {
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    });
  } catch (error) {
    throw translateOpenError(error, fileName);
  }
  try {
    const pageCount = pdf.numPages;
    if (pageCount > limits.maxPages) {
      throw new ParseError(
        "too_many_pages",
        `This PDF has ${pageCount} pages, more than the ${limits.maxPages} allowed — split it into smaller files and upload them.`,
        { file: fileName, details: { pages: pageCount } },
      );
    }
    if (pageCount < 1) {
      throw new ParseError(
        "pdf_corrupt",
        "This PDF has no pages Folio can read — re-export or re-save it and upload it again.",
        {
          file: fileName,
        },
      );
    }
    const warnings: string[] = [];
    const rawPages: RawPdfPage[] = [];
    const unreadablePages: number[] = [];
    let formFields = 0;
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
      try {
        const page = await pdf.getPage(pageNumber);
        const content = await page.getTextContent();
        const lines = layoutLines(content.items);
        let formText = "";
        try {
          const form = formFieldText(await page.getAnnotations({ intent: "display" }));
          formFields += form.fields;
          formText = form.text;
        } catch {
          // Unreadable annotations cost the form values only; the page text stands.
        }
        page.cleanup();
        rawPages.push({ lines, formText });
      } catch (error) {
        // One broken page should not cost the rest of the document; the page stays, empty.
        unreadablePages.push(pageNumber);
        rawPages.push({ lines: [], formText: "" });
        if (error instanceof ParseError) throw error;
      }
    }
    // Headers, footers and footnotes are told apart by comparing pages, so pages are cleaned together.
    const { pages: cleaned, counts: cleanup } = cleanPdfPages(rawPages);
    const pages: PageText[] = cleaned.map((page, index) => ({ pageNumber: index + 1, text: page.text }));
    // Only a page that read cleanly has tables: a failed page stays empty, with nothing to cite.
    const tables: PageTable[] = cleaned.flatMap((page, index) => pageTables(page, index + 1));
    if (unreadablePages.length === pageCount) {
      throw new ParseError(
        "pdf_corrupt",
        "This PDF is damaged and none of its pages can be read — re-export or re-save it and upload it again.",
        {
          file: fileName,
        },
      );
    }
    if (unreadablePages.length > 0) {
      warnings.push(
        `${unreadablePages.length} page(s) could not be read and were left empty: ${unreadablePages.slice(0, 20).join(", ")}.`,
      );
    }
    const visibleCharacters = pages.reduce((sum, page) => sum + countVisibleCharacters(page.text), 0);
    if (
      visibleCharacters < minimumVisibleCharacters ||
      visibleCharacters < pageCount * minimumVisibleCharactersPerPage
    ) {
      // A scan is pictures of pages; a PDF with neither text nor pictures is simply empty.
      const hasImages = formFields > 0 || (await drawsAnyImage(pdf, pageCount));
      throw new ParseError(
        "pdf_no_text",
        formFields > 0
          ? "This PDF is a form with no text of its own and its fields are empty — upload a filled-in copy or the original document."
          : hasImages
            ? "This PDF has no text layer (it looks like a scan) — upload a PDF with selectable text or run OCR first."
            : "This PDF is empty: none of its pages has any text (or images) — check that it is the right file.",
        { file: fileName, details: { pages: pageCount, visibleCharacters, formFields, images: hasImages } },
      );
    }
    const emptyPages = pages.filter((page) => page.text.length === 0).length - unreadablePages.length;
    if (emptyPages > 0) warnings.push(`${emptyPages} page(s) have no text (blank or scanned) and cannot be cited.`);

    let metadataTitle = "";
    try {
      const metadata = await pdf.getMetadata();
      const info = metadata.info as { Title?: unknown } | undefined;
      if (typeof info?.Title === "string") metadataTitle = cleanTitle(info.Title);
    } catch {
      warnings.push("The PDF's metadata could not be read; the title comes from its first page.");
    }
    const headings = headingPaths(cleaned.map((page) => page.headings));
    for (const table of tables) table.block.headingPath = headingPathAt(headings, table.page, table.start);
    // A continued table keeps the heading of the page it started on.
    joinTablesAcrossPages(tables);
    // Footnotes come after all the body text, so the chunker keeps them out of the sentences they interrupt.
    const blocks: Block[] = [
      ...pages.flatMap((page, index) =>
        proseBlocks(page, tables, cleaned[index]?.body ?? { start: 0, end: page.text.length }),
      ),
      ...pages.flatMap((page, index) => noteBlocks(page, cleaned[index]?.notes ?? null)),
      ...tables.map((table) => table.block),
    ];
    const document: ParsedDocument = {
      mediaType: "application/pdf",
      title: chooseDocumentTitle({
        metadataTitle,
        pageTexts: pages.slice(0, TITLE_PAGES).map((page) => page.text),
        fileName,
      }),
      pages,
      blocks,
      ...(headings.length > 0 ? { headings } : {}),
      warnings,
    };
    return { document, cleanup };
  } finally {
    await pdf.destroy();
  }
}
