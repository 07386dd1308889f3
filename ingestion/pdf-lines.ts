/**
 * Rebuilds reading lines from pdf.js text items, keeping where on the line each piece of text sits,
 * so the page text (for prose) and the table detector (for columns) read the same lines.
 * A new line starts when an item ends a line (hasEOL) or the baseline moves by more than half a glyph
 * height; a space goes between items that a horizontal gap separates and that carry no space themselves.
 */

/** The parts of a pdf.js text item this module reads. */
export type PositionedText = {
  str: string;
  hasEOL: boolean;
  transform: number[];
  width: number;
  height: number;
  /** pdf.js's id of the item's font: a header row set in bold has a font id its data rows do not. */
  fontName?: string;
};

/** A run of text on a line: its horizontal extent (PDF units) and where it sits in the line's text. */
export type LineFragment = { x0: number; x1: number; start: number; end: number; font: string };

export type PdfLine = {
  text: string;
  fragments: LineFragment[];
  /** Baseline and glyph height of the line's first fragment (0 when the line is empty). */
  y: number;
  height: number;
};

function isPositionedText(item: unknown): item is PositionedText {
  return typeof item === "object" && item !== null && typeof (item as { str?: unknown }).str === "string";
}

export function layoutLines(items: readonly unknown[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let line: PdfLine = { text: "", fragments: [], y: 0, height: 0 };
  let previous: PositionedText | null = null;
  const endLine = () => {
    lines.push(line);
    line = { text: "", fragments: [], y: 0, height: 0 };
  };
  for (const raw of items) {
    if (!isPositionedText(raw)) continue;
    // A line break inside an item would put two lines in one; lines end only where layout says so.
    const item = /[\r\n]/.test(raw.str) ? { ...raw, str: raw.str.replace(/[\r\n]+/g, " ") } : raw;
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const lineHasText = line.text.length > 0 || line.fragments.length > 0;
    if (previous !== null && lineHasText) {
      const previousX = previous.transform[4] ?? 0;
      const previousY = previous.transform[5] ?? 0;
      const glyphHeight = Math.max(Math.abs(item.height), Math.abs(previous.height), 1);
      if (Math.abs(y - previousY) > glyphHeight / 2) {
        endLine();
      } else if (
        item.str.length > 0 &&
        !/\s$/.test(line.text) &&
        !/^\s/.test(item.str) &&
        x - (previousX + previous.width) > glyphHeight * 0.15
      ) {
        line.text += " ";
      }
    }
    if (item.str.length > 0) {
      if (line.fragments.length === 0) {
        line.y = y;
        line.height = Math.abs(item.height);
      }
      const start = line.text.length;
      line.text += item.str;
      line.fragments.push({ x0: x, x1: x + item.width, start, end: line.text.length, font: item.fontName ?? "" });
    }
    if (item.hasEOL) endLine();
    if (item.str.length > 0 || item.hasEOL) previous = item;
  }
  if (line.text.length > 0 || lines.length > 0) lines.push(line);
  return lines;
}

/** Trailing blanks and NULs off every line, at most one blank line in a row, no blank ends. */
export function normalizePageText(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+$/u, "").replaceAll("\u0000", ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export type PageLayout = {
  /** The page text, exactly normalizePageText(lines joined with "\n"). */
  text: string;
  /** Where each line starts in `text` and how long it is there; null for a line that left nothing. */
  lineSpans: Array<{ start: number; end: number } | null>;
};

/**
 * The page text of a set of lines with each line's place in it, normalised as normalizePageText
 * does (built line by line instead of by regular expressions, so the offsets come out with the text).
 */
export function layoutPageText(lines: readonly PdfLine[]): PageLayout {
  let text = "";
  let blankPending = false;
  const lineSpans: PageLayout["lineSpans"] = [];
  for (const line of lines) {
    let cleaned = line.text.replace(/[ \t\u00a0]+$/u, "").replaceAll("\u0000", "");
    if (text.length === 0) cleaned = cleaned.trimStart();
    if (cleaned.length === 0) {
      blankPending ||= text.length > 0;
      lineSpans.push(null);
      continue;
    }
    if (text.length > 0) text += blankPending ? "\n\n" : "\n";
    blankPending = false;
    lineSpans.push({ start: text.length, end: text.length + cleaned.length });
    text += cleaned;
  }
  const trimmed = text.trimEnd();
  return {
    text: trimmed,
    lineSpans: lineSpans.map((span) =>
      span === null || span.start >= trimmed.length
        ? null
        : { start: span.start, end: Math.min(span.end, trimmed.length) },
    ),
  };
}
