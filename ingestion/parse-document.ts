/**
 * Parses an upload of any supported type: detects the type from the bytes, enforces the size limit,
 * and hands the bytes to the right parser. Every refusal is a ParseError with a specific code.
 */
import { ParseError } from "../src/errors.js";
import { detectMediaType } from "./detect-media-type.js";
import type { ParseLimits } from "./limits.js";
import { parseDocx } from "./parse-docx.js";
import { parsePdf } from "./parse-pdf.js";
import { parseCsv, parseXlsx } from "./parse-spreadsheet.js";
import { parseHtml, parseMarkdown, parsePlainText } from "./parse-text.js";
import { parseXls } from "./parse-xls.js";
import type { ParsedDocument } from "./parsed-document.js";

export async function parseDocument(bytes: Uint8Array, fileName: string, limits: ParseLimits): Promise<ParsedDocument> {
  if (bytes.byteLength > limits.maxBytes) {
    const megabytes = (bytes.byteLength / (1024 * 1024)).toFixed(1);
    throw new ParseError(
      "file_too_large",
      `This file is ${megabytes} MB, more than the ${Math.round(limits.maxBytes / (1024 * 1024))} MB limit — split it or upload a smaller copy.`,
      { file: fileName },
    );
  }
  const detected = detectMediaType(bytes, fileName);
  const text = detected.decoded?.text ?? "";
  switch (detected.mediaType) {
    case "application/pdf":
      return parsePdf(bytes, fileName, limits);
    case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
      return parseDocx(bytes, fileName, limits);
    case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
      return parseXlsx(bytes, fileName, limits);
    case "application/vnd.ms-excel":
      return parseXls(bytes, fileName, limits);
    case "text/csv":
    case "text/tab-separated-values":
      return parseCsv(text, fileName, detected.delimiter ?? (detected.mediaType === "text/csv" ? "," : "\t"), limits);
    case "text/markdown":
      return parseMarkdown(text, fileName);
    case "text/html":
      return parseHtml(text, fileName);
    case "text/plain":
      return parsePlainText(text, fileName);
  }
}
