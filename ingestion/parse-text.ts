/**
 * Parsers for text uploads: plain text (paragraphs; underlined or all-capital title lines give the
 * section path), Markdown (# and underlined headings give the section path, pipe tables become tables,
 * inline syntax is read as the text it shows: markdown-inline.ts) and HTML (through the shared HTML
 * block reader).
 */
import type { MediaType } from "../src/domain/types.js";
import { htmlToBlocks } from "./html-blocks.js";
import { isReferenceDefinition, markdownInlineText } from "./markdown-inline.js";
import type { Block, ParsedDocument } from "./parsed-document.js";

const MARKDOWN_HEADING = /^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;
/** A setext underline: "===" makes the line above a first-level heading, "---" a second-level one. */
const UNDERLINE = /^ {0,3}(={2,}|-{2,})\s*$/;
/** A thematic break ("---", "***", "_ _ _"): no text. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const LIST_MARKER = /^(\s*)[*+-]\s+/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function splitTableRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => markdownInlineText(cell.trim()).trim());
}

/** A paragraph line with its list marker as a bullet, as the HTML reader writes list items. */
function markdownLine(line: string): string {
  return line.replace(LIST_MARKER, "$1• ");
}

function baseName(fileName: string): string {
  return fileName.replace(/\.[^.]+$/, "");
}

export function parseMarkdown(text: string, fileName: string): ParsedDocument {
  const blocks: Block[] = [];
  const headingPath: string[] = [];
  let paragraph: string[] = [];
  let title: string | null = null;
  const flush = () => {
    // Read as a whole: emphasis and link text may run over a line break.
    const content = markdownInlineText(paragraph.join("\n")).trim();
    if (content.length > 0) blocks.push({ kind: "text", text: content, headingPath: [...headingPath] });
    paragraph = [];
  };
  const startSection = (level: number, rawText: string) => {
    const headingText = markdownInlineText(rawText).replace(/\s+/g, " ").trim();
    if (headingText === "") return;
    headingPath.length = Math.min(headingPath.length, level - 1);
    headingPath.push(headingText);
    title ??= headingText;
    blocks.push({ kind: "text", text: headingText, headingPath: [...headingPath], isHeading: true });
  };
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const heading = MARKDOWN_HEADING.exec(line);
    // Only a short paragraph that is no list can be underlined into a heading ("- item" then "---" is a break).
    const underlinable = paragraph.length > 0 && paragraph.length <= 2 && !paragraph.some((text) => /^\s*•/.test(text));
    const underline = underlinable ? UNDERLINE.exec(line) : null;
    if (heading) {
      flush();
      startSection(heading[1]?.length ?? 1, heading[2] ?? "");
    } else if (underline) {
      // The paragraph so far is the heading's text (its lines already read as text).
      const headingText = paragraph.join(" ");
      paragraph = [];
      startSection(underline[1]?.startsWith("=") ? 1 : 2, headingText);
    } else if (THEMATIC_BREAK.test(line) || isReferenceDefinition(line)) {
      flush();
    } else if (TABLE_ROW.test(line) && TABLE_DIVIDER.test(lines[index + 1] ?? "")) {
      flush();
      const header = splitTableRow(line);
      const rows: string[][] = [];
      index += 2;
      while (index < lines.length && TABLE_ROW.test(lines[index] ?? "")) {
        rows.push(splitTableRow(lines[index] ?? ""));
        index += 1;
      }
      index -= 1;
      blocks.push({ kind: "table", header, rows, headingPath: [...headingPath], firstRow: 1 });
    } else if (line.trim().length === 0) {
      flush();
    } else {
      paragraph.push(markdownLine(line));
    }
  }
  flush();
  return { mediaType: "text/markdown", title: title ?? baseName(fileName), pages: null, blocks, warnings: [] };
}

/** A title line underlined with "===" (level 1) or "---" (level 2), as plain-text documents write headings. */
const TEXT_UNDERLINED = /^([^\n]{1,100})\n[ \t]*(={3,}|-{3,})[ \t]*$/;
const MAX_CAPITALS_HEADING_WORDS = 8;

/** The heading level a plain-text paragraph is written as, with its text; null for a paragraph of text. */
function plainTextHeading(paragraph: string): { level: number; text: string } | null {
  const underlined = TEXT_UNDERLINED.exec(paragraph);
  if (underlined) return { level: underlined[2]?.startsWith("=") ? 1 : 2, text: (underlined[1] ?? "").trim() };
  if (paragraph.includes("\n")) return null;
  // "ANNUAL LEAVE" alone on its line: a title, unless it reads as a sentence or a shouted notice.
  const letters = paragraph.replace(/[^\p{L}]/gu, "");
  const words = paragraph.split(/\s+/).length;
  const isCapitals = letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
  return isCapitals && words <= MAX_CAPITALS_HEADING_WORDS && !/[.!?;,]$/.test(paragraph)
    ? { level: 1, text: paragraph }
    : null;
}

export function parsePlainText(text: string, fileName: string): ParsedDocument {
  const blocks: Block[] = [];
  const headingPath: string[] = [];
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
  for (const paragraph of paragraphs) {
    const heading = plainTextHeading(paragraph);
    if (heading === null) {
      blocks.push({ kind: "text", text: paragraph, headingPath: [...headingPath] });
      continue;
    }
    headingPath.length = Math.min(headingPath.length, heading.level - 1);
    headingPath.push(heading.text);
    blocks.push({ kind: "text", text: heading.text, headingPath: [...headingPath], isHeading: true });
  }
  // A document that opens with a heading is named by it, as a Markdown file by its first heading.
  const first = blocks[0];
  const title = first?.kind === "text" && first.isHeading ? first.text : baseName(fileName);
  return { mediaType: "text/plain", title, pages: null, blocks, warnings: [] };
}

export function parseHtml(text: string, fileName: string): ParsedDocument {
  const { blocks, title } = htmlToBlocks(text);
  const mediaType: MediaType = "text/html";
  return { mediaType, title: title ?? baseName(fileName), pages: null, blocks, warnings: [] };
}
