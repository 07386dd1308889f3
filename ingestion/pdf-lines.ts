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

/**
 * A run of text on a line: its horizontal extent (PDF units) and where it sits in the line's text.
 * `superscript` marks a run set smaller than the line and above its baseline (a footnote mark, an exponent).
 */
export type LineFragment = { x0: number; x1: number; start: number; end: number; font: string; superscript?: true };

export type PdfLine = {
  text: string;
  fragments: LineFragment[];
  /** Baseline and glyph height of the line's first fragment (0 when the line is empty). */
  y: number;
  height: number;
  /** Glyph height of most of the line's characters (its type size, superscripts aside); absent when empty. */
  size?: number;
  /** Set when the line runs other than left to right (text turned up a page margin). */
  rotated?: true;
};

/** A run no taller than this share of its line's type size, set above the baseline, is a superscript. */
const superscriptSizeShare = 0.8;
/** How far above the line's baseline (share of its type size) a superscript sits at least. */
const superscriptRise = 0.15;

type FragmentMetrics = { y: number; height: number; characters: number };

/**
 * The type size of a line (the glyph height carrying the most characters) and the superscripts in it,
 * so a footnote mark glued to a word ("capability¹") can be told from the text it marks.
 */
function measureLine(line: PdfLine, metrics: FragmentMetrics[]): void {
  const byHeight = new Map<number, number>();
  for (const metric of metrics) {
    if (metric.height <= 0 || metric.characters === 0) continue;
    const height = Math.round(metric.height * 10) / 10;
    byHeight.set(height, (byHeight.get(height) ?? 0) + metric.characters);
  }
  let size = 0;
  let most = 0;
  for (const [height, characters] of byHeight) {
    if (characters > most || (characters === most && height > size)) {
      size = height;
      most = characters;
    }
  }
  if (size === 0) return;
  line.size = size;
  const baseline = metrics.find((metric) => Math.round(metric.height * 10) / 10 === size)?.y ?? line.y;
  line.fragments.forEach((fragment, index) => {
    const metric = metrics[index];
    if (
      metric !== undefined &&
      metric.height > 0 &&
      metric.height <= size * superscriptSizeShare &&
      metric.y - baseline >= size * superscriptRise
    ) {
      fragment.superscript = true;
    }
  });
}

function isPositionedText(item: unknown): item is PositionedText {
  return typeof item === "object" && item !== null && typeof (item as { str?: unknown }).str === "string";
}

export function layoutLines(items: readonly unknown[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let line: PdfLine = { text: "", fragments: [], y: 0, height: 0 };
  let metrics: FragmentMetrics[] = [];
  let previous: PositionedText | null = null;
  const endLine = () => {
    measureLine(line, metrics);
    lines.push(line);
    line = { text: "", fragments: [], y: 0, height: 0 };
    metrics = [];
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
        // A turned run has a rotation or skew in its matrix: margin notes, watermarks, vertical strips.
        if ((item.transform[1] ?? 0) !== 0 || (item.transform[2] ?? 0) !== 0) line.rotated = true;
      }
      const start = line.text.length;
      line.text += item.str;
      line.fragments.push({ x0: x, x1: x + item.width, start, end: line.text.length, font: item.fontName ?? "" });
      metrics.push({ y, height: Math.abs(item.height), characters: item.str.replace(/\s+/g, "").length });
    }
    if (item.hasEOL) endLine();
    if (item.str.length > 0 || item.hasEOL) previous = item;
  }
  if (line.text.length > 0 || lines.length > 0) {
    measureLine(line, metrics);
    lines.push(line);
  }
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
 * How a line ends when a word runs on to the next line: "join" puts the two lines together as they
 * are (a hyphen the PDF left out, or one that belongs to the word: "800-" + "63-2"), "drop-hyphen"
 * takes the line's final hyphen out as it puts them together ("infor-" + "mation").
 */
export type LineJoin = "join" | "drop-hyphen";

/**
 * The page text of a set of lines with each line's place in it, normalised as normalizePageText
 * does (built line by line instead of by regular expressions, so the offsets come out with the text).
 * `joins` names lines that run on into the next line with no line break between them; a join is
 * honoured only where the next line follows directly (no blank line between).
 */
export function layoutPageText(lines: readonly PdfLine[], joins?: ReadonlyMap<number, LineJoin>): PageLayout {
  let text = "";
  let blankPending = false;
  let pendingJoin: { line: number; join: LineJoin } | null = null;
  const lineSpans: PageLayout["lineSpans"] = [];
  lines.forEach((line, index) => {
    let cleaned = line.text.replace(/[ \t\u00a0]+$/u, "").replaceAll("\u0000", "");
    if (text.length === 0) cleaned = cleaned.trimStart();
    if (cleaned.length === 0) {
      blankPending ||= text.length > 0;
      lineSpans.push(null);
      pendingJoin = null;
      return;
    }
    const join: { line: number; join: LineJoin } | null = pendingJoin;
    if (join !== null && join.line === index - 1) {
      const previous = lineSpans[join.line];
      if (join.join === "drop-hyphen" && previous && /[-\u2010\u00ad]$/u.test(text)) {
        text = text.slice(0, -1);
        previous.end -= 1;
      }
      cleaned = cleaned.trimStart();
    } else if (text.length > 0) {
      text += blankPending ? "\n\n" : "\n";
    }
    blankPending = false;
    lineSpans.push({ start: text.length, end: text.length + cleaned.length });
    text += cleaned;
    const next = joins?.get(index);
    pendingJoin = next === undefined ? null : { line: index, join: next };
  });
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
