/**
 * Parsers for text uploads: plain text (paragraphs), Markdown (# headings give the section path,
 * pipe tables become tables) and HTML (through the shared HTML block reader).
 */
import type { MediaType } from "../src/domain/types.js";
import { htmlToBlocks } from "./html-blocks.js";
import type { Block, ParsedDocument } from "./parsed-document.js";

const MARKDOWN_HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function splitTableRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim());
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
    const content = paragraph.join("\n").trim();
    if (content.length > 0) blocks.push({ kind: "text", text: content, headingPath: [...headingPath] });
    paragraph = [];
  };
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const heading = MARKDOWN_HEADING.exec(line);
    if (heading) {
      flush();
      const level = heading[1]?.length ?? 1;
      const headingText = heading[2] ?? "";
      headingPath.length = Math.min(headingPath.length, level - 1);
      headingPath.push(headingText);
      title ??= headingText;
      blocks.push({ kind: "text", text: headingText, headingPath: [...headingPath], isHeading: true });
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
      paragraph.push(line);
    }
  }
  flush();
  return { mediaType: "text/markdown", title: title ?? baseName(fileName), pages: null, blocks, warnings: [] };
}

export function parsePlainText(text: string, fileName: string): ParsedDocument {
  const blocks: Block[] = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0)
    .map((paragraph) => ({ kind: "text", text: paragraph, headingPath: [] }));
  return { mediaType: "text/plain", title: baseName(fileName), pages: null, blocks, warnings: [] };
}

export function parseHtml(text: string, fileName: string): ParsedDocument {
  const { blocks, title } = htmlToBlocks(text);
  const mediaType: MediaType = "text/html";
  return { mediaType, title: title ?? baseName(fileName), pages: null, blocks, warnings: [] };
}
