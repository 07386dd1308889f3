/**
 * Turns HTML (an uploaded page, or the HTML mammoth makes from a DOCX) into blocks: headings update
 * the section path, paragraphs and list items become text blocks, tables become table blocks with
 * their first row as the header. Scripts, styles and other non-content elements are dropped.
 */

import { type HTMLElement, NodeType, parse } from "node-html-parser";
import { withoutLinkSyntax } from "./markdown-inline.js";
import type { Block, TableBlock } from "./parsed-document.js";

const SKIPPED = new Set(["script", "style", "noscript", "template", "head", "svg", "iframe", "object", "nav"]);
const TEXT_CONTAINERS = new Set(["p", "li", "pre", "blockquote", "dt", "dd", "figcaption", "caption", "address"]);
const HEADING = /^h([1-6])$/;

function normalizeText(text: string): string {
  return withoutLinkSyntax(text)
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .trim();
}

function cellText(cell: HTMLElement): string {
  return normalizeText(cell.textContent);
}

/** Spans above these are damage or hostility, not layout; they are clamped. */
const maxColumnSpan = 50;
const maxRowSpan = 500;

function spanOf(cell: HTMLElement, attribute: string, limit: number): number {
  const value = Number.parseInt(cell.getAttribute(attribute) ?? "1", 10);
  return Number.isFinite(value) ? Math.min(Math.max(value, 1), limit) : 1;
}

/**
 * The table's rows on a grid, so every cell stands under its own column: a cell spanning columns
 * holds its text in the first and leaves the others empty; a cell spanning rows repeats its text in
 * each row it covers, so every row reads whole on its own.
 */
function tableGrid(rows: HTMLElement[]): string[][] {
  const grid: string[][] = [];
  /** Per column: the text a cell from a row above still covers, and for how many more rows. */
  const carried: Array<{ text: string; rows: number } | undefined> = [];
  for (const row of rows) {
    const cells = row.childNodes.filter(
      (node): node is HTMLElement =>
        node.nodeType === NodeType.ELEMENT_NODE && /^t[hd]$/i.test((node as HTMLElement).tagName),
    );
    const line: string[] = [];
    let column = 0;
    const fillCarried = () => {
      for (let span = carried[column]; span !== undefined && span.rows > 0; span = carried[column]) {
        line[column] = span.text;
        span.rows -= 1;
        column += 1;
      }
    };
    for (const cell of cells) {
      fillCarried();
      const text = cellText(cell);
      const columns = spanOf(cell, "colspan", maxColumnSpan);
      const rowsBelow = spanOf(cell, "rowspan", maxRowSpan) - 1;
      for (let offset = 0; offset < columns; offset++) {
        line[column + offset] = offset === 0 ? text : "";
        carried[column + offset] = rowsBelow > 0 ? { text: offset === 0 ? text : "", rows: rowsBelow } : undefined;
      }
      column += columns;
    }
    fillCarried();
    grid.push(Array.from(line, (text) => text ?? ""));
  }
  return grid;
}

function tableBlock(table: HTMLElement, headingPath: string[]): TableBlock | null {
  const rows = tableGrid(table.querySelectorAll("tr").filter((row) => row.closest("table") === table)).filter((cells) =>
    cells.some((cell) => cell.length > 0),
  );
  const [header, ...body] = rows;
  if (!header) return null;
  return { kind: "table", header, rows: body, headingPath: [...headingPath], firstRow: 1 };
}

export function htmlToBlocks(html: string): { blocks: Block[]; title: string | null } {
  const root = parse(html, {
    comment: false,
    blockTextElements: { script: false, style: false, pre: true, noscript: false },
  });
  const blocks: Block[] = [];
  const headingPath: string[] = [];
  let firstHeading: string | null = null;
  let inlineBuffer = "";

  const flushInline = () => {
    const text = normalizeText(inlineBuffer);
    if (text.length > 0) blocks.push({ kind: "text", text, headingPath: [...headingPath] });
    inlineBuffer = "";
  };

  const visit = (element: HTMLElement) => {
    for (const node of element.childNodes) {
      if (node.nodeType === NodeType.TEXT_NODE) {
        // The parser keeps "<!DOCTYPE html>" as text: it is markup, never a passage.
        inlineBuffer += node.text.replace(/<!doctype[^>]*>/gi, "");
        continue;
      }
      if (node.nodeType !== NodeType.ELEMENT_NODE) continue;
      const child = node as HTMLElement;
      const tag = child.tagName?.toLowerCase() ?? "";
      if (SKIPPED.has(tag)) continue;
      const heading = HEADING.exec(tag);
      if (heading) {
        flushInline();
        const text = normalizeText(child.textContent).replace(/\n/g, " ");
        if (text.length === 0) continue;
        const level = Number(heading[1]);
        headingPath.length = Math.min(headingPath.length, level - 1);
        headingPath.push(text);
        firstHeading ??= text;
        blocks.push({ kind: "text", text, headingPath: [...headingPath], isHeading: true });
      } else if (tag === "table") {
        flushInline();
        const table = tableBlock(child, headingPath);
        if (table) blocks.push(table);
      } else if (TEXT_CONTAINERS.has(tag)) {
        flushInline();
        const nested = child.querySelector("table, ul, ol, h1, h2, h3, h4, h5, h6");
        if (nested) {
          visit(child);
          flushInline();
        } else {
          const text = normalizeText(child.textContent);
          if (text.length > 0)
            blocks.push({ kind: "text", text: tag === "li" ? `• ${text}` : text, headingPath: [...headingPath] });
        }
      } else if (tag === "br") {
        inlineBuffer += "\n";
      } else {
        const isBlock =
          /^(div|section|article|main|body|html|ul|ol|dl|header|footer|aside|form|fieldset|details|summary)$/.test(tag);
        if (isBlock) flushInline();
        visit(child);
        if (isBlock) flushInline();
      }
    }
  };
  visit(root);
  flushInline();
  const titleElement = root.querySelector("title");
  const title = titleElement ? normalizeText(titleElement.textContent) : null;
  return { blocks, title: title || firstHeading };
}
