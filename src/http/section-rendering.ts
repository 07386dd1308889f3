/**
 * A Markdown, HTML, Word or text document as the source viewer shows it: the blocks its parser read,
 * rendered as plain, escaped HTML — headings, paragraphs, lists as bullets, tables — each section
 * wrapped with the id its citations link to (`section=leave/annual-leave`, src/domain/source-place.ts), so
 * the browser opens it there by itself. Nothing of the original markup survives: no scripts, no styles,
 * no images, and a link is only its text, never live.
 */
import type { Block, TableBlock } from "../../ingestion/parsed-document.js";
import { sectionAnchor } from "../domain/source-place.js";
import { escapeHtml } from "./viewer-page.js";

/** Text blocks keep their line breaks (`white-space: pre-line` in the page's style). */
function paragraph(text: string): string {
  return `<p>${escapeHtml(text)}</p>`;
}

function table(block: TableBlock): string {
  const cells = (row: readonly string[], tag: "th" | "td") =>
    row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join("");
  const header = block.header.some((cell) => cell.trim() !== "")
    ? `<thead><tr>${cells(block.header, "th")}</tr></thead>`
    : "";
  const body = block.rows.map((row) => `<tr>${cells(row, "td")}</tr>`).join("\n");
  const caption = block.caption?.length ? `<caption>${escapeHtml(block.caption.join(" "))}</caption>` : "";
  return `<div class="table"><table>${caption}${header}<tbody>${body}</tbody></table></div>`;
}

/**
 * The document's sections in order. A section opens at each heading; the first id a heading path gets
 * is the one links find (a second section under the very same path opens at the first).
 */
export function renderSections(blocks: readonly Block[]): string {
  const sections: string[] = [];
  const usedAnchors = new Set<string>();
  let current: string[] = [];
  let currentAnchor = "";
  const close = () => {
    if (current.length === 0) return;
    const id = currentAnchor !== "" && !usedAnchors.has(currentAnchor) ? currentAnchor : "";
    if (id !== "") usedAnchors.add(id);
    sections.push(`<section${id === "" ? "" : ` id="${escapeHtml(id)}"`}>\n${current.join("\n")}\n</section>`);
    current = [];
  };
  for (const block of blocks) {
    if (block.kind === "table") {
      current.push(table(block));
      continue;
    }
    if (block.isHeading) {
      close();
      currentAnchor = sectionAnchor(block.headingPath);
      const level = Math.min(6, Math.max(1, block.headingPath.length));
      current.push(`<h${level}>${escapeHtml(block.text)}</h${level}>`);
      continue;
    }
    current.push(paragraph(block.text));
  }
  close();
  return sections.join("\n");
}
