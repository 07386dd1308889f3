/**
 * Decides what a file is from its bytes, not its name: PDF signature, OOXML packages (looked
 * into), OLE2 containers (Excel 97–2003 workbooks are read; legacy Word, Excel 95 and encrypted
 * OOXML are refused with their own code)
 * and text, where the content picks between CSV, TSV, Markdown, HTML and plain text and the file
 * name only breaks ties. Anything else is refused as `unsupported_type`.
 */
import type { MediaType } from "../src/domain/types.js";
import { ParseError } from "../src/errors.js";
import { CompoundFileError, isCompoundFile, openCompoundFile } from "./compound-file.js";
import { type DecodedText, decodeText } from "./decode-text.js";
import {
  ACCEPTED_TYPES_SENTENCE,
  describeOtherBinary,
  describeProgram,
  expectedFromExtension,
  extensionOf,
  isProgramExtension,
} from "./file-kinds.js";
import { readZipEntries } from "./zip-guard.js";

export const docxMediaType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
export const xlsxMediaType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const xlsMediaType = "application/vnd.ms-excel";

export type DetectedMediaType = {
  mediaType: MediaType;
  /** The decoded text, for text formats. */
  decoded?: DecodedText;
  /** The field separator, for CSV and TSV. */
  delimiter?: string;
};

/** PDF readers accept the header anywhere in the first 1024 bytes. */
const pdfHeaderWindow = 1024;
const supportedFormatsSentence =
  "upload a PDF, Word (.docx), Excel (.xlsx or .xls), CSV, TSV, Markdown, HTML or plain-text file";

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return signature.every((value, index) => bytes[offset + index] === value);
}

function containsAscii(bytes: Uint8Array, text: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(text, 0, "latin1");
}

function containsUtf16(bytes: Uint8Array, text: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from(text, "utf16le"));
}

function unsupported(fileName: string, what: string): ParseError {
  return new ParseError("unsupported_type", `Folio cannot read ${what} — ${supportedFormatsSentence}.`, {
    file: fileName,
  });
}

function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, pdfHeaderWindow)).toString(
    "latin1",
  );
  if (head.includes("%PDF-")) return true;
  // Some writers drop the header but start straight with a binary comment and objects; pdf.js opens those.
  return head.startsWith("%") && /(^|\s)\d+\s+\d+\s+obj\b/.test(head);
}

/**
 * The streams under an OLE2 container's root; for a container too damaged to open, the stream names
 * found anywhere in its bytes, so the parser for what it claims to be can say what is wrong with it.
 */
function oleStreamNames(bytes: Uint8Array, fileName: string): Set<string> {
  try {
    // Stream names compare case-insensitively in a compound file.
    return new Set(
      openCompoundFile(bytes)
        .rootStreamNames()
        .map((name) => name.toLowerCase()),
    );
  } catch (error) {
    if (!(error instanceof CompoundFileError)) throw error;
    const found = ["EncryptedPackage", "WordDocument", "Workbook", "Book"].filter((name) => containsUtf16(bytes, name));
    if (found.length > 0) return new Set(found.map((name) => name.toLowerCase()));
    throw new ParseError(
      "file_corrupt",
      "This Office file is damaged (its OLE2 container cannot be read) — open it in Office, save it again and re-upload.",
      { file: fileName, details: { reason: error.message } },
    );
  }
}

function detectOleContainer(bytes: Uint8Array, fileName: string): DetectedMediaType {
  const extension = extensionOf(fileName);
  const streams = oleStreamNames(bytes, fileName);
  if (streams.has("encryptedpackage")) {
    const what = extension.startsWith("xls") ? "spreadsheet" : extension.startsWith("doc") ? "document" : "Office file";
    throw new ParseError("office_encrypted", `This ${what} is encrypted — remove the password and upload it again.`, {
      file: fileName,
    });
  }
  if (streams.has("worddocument")) {
    throw new ParseError(
      "legacy_word_format",
      "This is an old Word 97–2003 (.doc) file, which Folio cannot read — open it in Word, save it as .docx and upload that.",
      { file: fileName },
    );
  }
  if (streams.has("workbook")) return { mediaType: xlsMediaType };
  if (streams.has("book")) {
    throw new ParseError(
      "legacy_excel_format",
      "This is an Excel 5.0/95 (or older) workbook, which Folio cannot read — open it in Excel, save it as .xlsx and upload that.",
      { file: fileName },
    );
  }
  throw unsupported(fileName, "this old Microsoft Office file (PowerPoint or another binary format)");
}

function detectZipPackage(bytes: Uint8Array, fileName: string): DetectedMediaType {
  const names = new Set(readZipEntries(bytes, fileName).map((entry) => entry.name));
  if (names.has("word/document.xml")) return { mediaType: docxMediaType };
  if (names.has("xl/workbook.xml")) return { mediaType: xlsxMediaType };
  if (names.has("[Content_Types].xml")) {
    // A package whose main part lives elsewhere (renamed by a non-Office writer): look for the part name.
    for (const name of names) {
      if (/^[^/]*\/?document\d*\.xml$/.test(name) && name.includes("word")) return { mediaType: docxMediaType };
      if (/workbook\d*\.xml$/.test(name)) return { mediaType: xlsxMediaType };
    }
    throw unsupported(fileName, "this Office package (it is neither a Word nor an Excel file)");
  }
  throw unsupported(fileName, "a ZIP archive");
}

/** Counts `delimiter` in a line, ignoring any inside double quotes. */
function countDelimiter(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const character of line) {
    if (character === '"') quoted = !quoted;
    else if (character === delimiter && !quoted) count++;
  }
  return count;
}

/**
 * The delimiter that splits the first lines into the same number of fields, or null.
 * `strict` asks for more evidence (used when the name says the file is prose).
 */
export function detectDelimiter(text: string, strict = false): string | null {
  const lines = text
    .split(/\r\n|\n|\r/)
    .filter((line) => line.trim().length > 0)
    .slice(0, 100);
  if (lines.length < (strict ? 5 : 2)) return null;
  let best: { delimiter: string; score: number } | null = null;
  for (const delimiter of ["\t", ",", ";", "|"]) {
    const counts = lines.map((line) => countDelimiter(line, delimiter));
    const frequency = new Map<number, number>();
    for (const count of counts) frequency.set(count, (frequency.get(count) ?? 0) + 1);
    let modeCount = 0;
    let modeLines = 0;
    for (const [count, linesWithCount] of frequency) {
      if (count > 0 && linesWithCount > modeLines) {
        modeCount = count;
        modeLines = linesWithCount;
      }
    }
    const consistency = modeLines / lines.length;
    if (modeCount < (strict ? 2 : 1) || consistency < (strict ? 0.95 : 0.8)) continue;
    const score = consistency * 10 + Math.min(modeCount, 10);
    if (best === null || score > best.score) best = { delimiter, score };
  }
  return best?.delimiter ?? null;
}

function looksLikeHtml(text: string): boolean {
  const head = text.slice(0, 2048).trimStart().toLowerCase();
  if (head.startsWith("<!doctype html") || head.startsWith("<html")) return true;
  if (head.startsWith("<?xml") && head.includes("<html")) return true;
  return /<(html|body|head)[\s>]/i.test(text.slice(0, 8192));
}

function looksLikeMarkdown(text: string): boolean {
  const sample = text.slice(0, 65_536);
  if (/^#{1,6}\s+\S/m.test(sample)) return true;
  if (/^```/m.test(sample)) return true;
  if (/^\|?\s*:?-{3,}:?\s*\|/m.test(sample)) return true;
  return /^\S.*\n(=+|-+)\s*$/m.test(sample) && /\[[^\]]+\]\([^)]+\)|\*\*[^*]+\*\*/.test(sample);
}

function detectTextFormat(decoded: DecodedText, fileName: string): DetectedMediaType {
  const extension = extensionOf(fileName);
  const { text } = decoded;
  if (looksLikeHtml(text) || (["html", "htm", "xhtml"].includes(extension) && /<[a-z][^>]*>/i.test(text))) {
    return { mediaType: "text/html", decoded };
  }
  const isDelimitedName = ["csv", "tsv", "tab"].includes(extension);
  const isProseName = ["txt", "md", "markdown", "text"].includes(extension);
  const markdown = looksLikeMarkdown(text);
  const delimiter = detectDelimiter(text, isProseName || markdown);
  if (delimiter !== null && !(markdown && delimiter === "|")) {
    return { mediaType: delimiter === "\t" ? "text/tab-separated-values" : "text/csv", decoded, delimiter };
  }
  if (isDelimitedName) {
    // A single-column CSV has no delimiter to find; the name is the tie-breaker.
    const isTab = extension !== "csv";
    return { mediaType: isTab ? "text/tab-separated-values" : "text/csv", decoded, delimiter: isTab ? "\t" : "," };
  }
  if (markdown || extension === "md" || extension === "markdown") return { mediaType: "text/markdown", decoded };
  return { mediaType: "text/plain", decoded };
}

/** Detects the media type of an upload from its bytes; throws a ParseError for files Folio refuses. */
export function detectMediaType(bytes: Uint8Array, fileName: string): DetectedMediaType {
  if (bytes.byteLength === 0) {
    throw new ParseError("empty_file", "This file is empty (0 bytes) — check the file and upload it again.", {
      file: fileName,
    });
  }
  // Programs are refused first, by name or by bytes, so a renamed text file cannot pass as notes.exe.
  const program = describeProgram(bytes);
  if (isProgramExtension(fileName) || (program !== null && !program.startsWith("a script"))) {
    throw notADocument(fileName, program ?? `a program or installer (.${extensionOf(fileName)})`);
  }
  const detected = detectFromBytes(bytes, fileName);
  const expected = expectedFromExtension(fileName);
  // Text under a binary document's name (report.pdf holding plain text) is a mix-up, not a document.
  if (expected !== null && detected.decoded !== undefined) {
    throw mismatch(fileName, expected, describeText(detected.mediaType));
  }
  return detected;
}

function detectFromBytes(bytes: Uint8Array, fileName: string): DetectedMediaType {
  if (looksLikePdf(bytes)) return { mediaType: "application/pdf" };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return detectZipPackage(bytes, fileName);
  }
  if (isCompoundFile(bytes)) return detectOleContainer(bytes, fileName);
  const expected = expectedFromExtension(fileName);
  const other = describeOtherBinary(bytes);
  if (other !== null) {
    if (expected !== null) throw mismatch(fileName, expected, other);
    throw unsupported(fileName, other.endsWith("image") ? `${other} (there is no text to index)` : other);
  }
  if (containsAscii(bytes.subarray(0, 8), "{\\rtf")) throw unsupported(fileName, "RTF files");
  const decoded = decodeText(bytes);
  if (decoded === null) {
    if (expected !== null) {
      throw mismatch(fileName, expected, "binary data of no kind Folio knows (damaged, or another format renamed)");
    }
    throw unsupported(fileName, "this binary file (it is none of the formats Folio knows)");
  }
  return detectTextFormat(decoded, fileName);
}

function notADocument(fileName: string, what: string): ParseError {
  return new ParseError(
    "not_a_document",
    `This file is ${what}, not a document, so Folio does not take it — ${ACCEPTED_TYPES_SENTENCE}.`,
    { file: fileName },
  );
}

function mismatch(fileName: string, expected: string, actual: string): ParseError {
  const extension = extensionOf(fileName);
  return new ParseError(
    "content_mismatch",
    `This file is named .${extension}, so ${expected} was expected, but it is ${actual} — upload the real ${expected.replace(/^an? /, "")}, or give the file the extension of what it is (${ACCEPTED_TYPES_SENTENCE}).`,
    { file: fileName, details: { expected, actual } },
  );
}

function describeText(mediaType: MediaType): string {
  const names: Partial<Record<MediaType, string>> = {
    "text/csv": "CSV text",
    "text/tab-separated-values": "tab-separated text",
    "text/html": "an HTML page",
    "text/markdown": "Markdown text",
  };
  return names[mediaType] ?? "plain text";
}
