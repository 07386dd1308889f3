/**
 * PDF parser on unpdf (pdf.js): one PageText per physical page (empty pages included, so page
 * numbers stay physical) and one TextBlock per non-empty page whose text is exactly that page's
 * text, so the chunker's character offsets index straight into `pages[page - 1].text`.
 */
import { getDocumentProxy } from "unpdf";
import type { PageText } from "../src/domain/types.js";
import { ParseError } from "../src/errors.js";
import type { ParseLimits } from "./limits.js";
import type { ParsedDocument, TextBlock } from "./parsed-document.js";

/** The parts of a pdf.js text item this parser reads. */
type PositionedText = {
  str: string;
  hasEOL: boolean;
  transform: number[];
  width: number;
  height: number;
};

/** Below this many visible characters a document is treated as having no text layer. */
const minimumVisibleCharacters = 10;
/** For longer documents, fewer than this many visible characters per page means a scan. */
const minimumVisibleCharactersPerPage = 2;
const maxTitleLength = 200;

function isPositionedText(item: unknown): item is PositionedText {
  return typeof item === "object" && item !== null && typeof (item as { str?: unknown }).str === "string";
}

/**
 * Rebuilds reading lines from pdf.js items: a new line when an item ends a line (hasEOL) or the
 * baseline moves by more than half a glyph height; a space when a horizontal gap separates items
 * that carry no space themselves.
 */
export function joinTextItems(items: readonly unknown[]): string {
  let text = "";
  let previous: PositionedText | null = null;
  for (const item of items) {
    if (!isPositionedText(item)) continue;
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    if (previous !== null && !text.endsWith("\n")) {
      const previousX = previous.transform[4] ?? 0;
      const previousY = previous.transform[5] ?? 0;
      const glyphHeight = Math.max(Math.abs(item.height), Math.abs(previous.height), 1);
      if (Math.abs(y - previousY) > glyphHeight / 2) {
        text += "\n";
      } else if (
        item.str.length > 0 &&
        !/\s$/.test(text) &&
        !/^\s/.test(item.str) &&
        x - (previousX + previous.width) > glyphHeight * 0.15
      ) {
        text += " ";
      }
    }
    text += item.str;
    if (item.hasEOL) text += "\n";
    if (item.str.length > 0 || item.hasEOL) previous = item;
  }
  return normalizePageText(text);
}

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

function normalizePageText(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+$/u, "").replaceAll("\u0000", ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
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

function titleFromPages(pages: PageText[]): string | null {
  for (const page of pages) {
    const line = page.text.split("\n").find((candidate) => candidate.trim().length > 0);
    if (line !== undefined) return cleanTitle(line);
  }
  return null;
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

/** Parses a PDF into physical pages and one block per non-empty page. */
export async function parsePdf(bytes: Uint8Array, fileName: string, limits: ParseLimits): Promise<ParsedDocument> {
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
    const pages: PageText[] = [];
    const unreadablePages: number[] = [];
    let formFields = 0;
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
      try {
        const page = await pdf.getPage(pageNumber);
        const content = await page.getTextContent();
        let text = joinTextItems(content.items);
        try {
          const form = formFieldText(await page.getAnnotations({ intent: "display" }));
          formFields += form.fields;
          if (form.text.length > 0) text = text.length > 0 ? `${text}\n\n${form.text}` : form.text;
        } catch {
          // Unreadable annotations cost the form values only; the page text stands.
        }
        pages.push({ pageNumber, text });
        page.cleanup();
      } catch (error) {
        // One broken page should not cost the rest of the document; the page stays, empty.
        unreadablePages.push(pageNumber);
        pages.push({ pageNumber, text: "" });
        if (error instanceof ParseError) throw error;
      }
    }
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
      throw new ParseError(
        "pdf_no_text",
        formFields > 0
          ? "This PDF is a form with no text of its own and its fields are empty — upload a filled-in copy or the original document."
          : "This PDF has no text layer (it looks like a scan) — upload a PDF with selectable text or run OCR first.",
        { file: fileName, details: { pages: pageCount, visibleCharacters, formFields } },
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
      warnings.push("The PDF's metadata could not be read; the title comes from its first line.");
    }
    const blocks: TextBlock[] = pages
      .filter((page) => page.text.length > 0)
      .map((page) => ({ kind: "text", text: page.text, headingPath: [], page: page.pageNumber, charStart: 0 }));
    return {
      mediaType: "application/pdf",
      title: metadataTitle || titleFromPages(pages) || fileName,
      pages,
      blocks,
      warnings,
    };
  } finally {
    await pdf.destroy();
  }
}
