/**
 * The words of a page with where each stands, gathered into rows by baseline, for reading tables by
 * position. pdf.js gives runs of text, not words: a run may hold several cells set close together
 * ("2019 2018" over two columns), so a run is cut at its blanks and each word's place estimated from
 * the widths its characters usually have. Lines on one baseline that the content stream wrote apart
 * (labels first, then each column of figures; a figure centred between the two lines of its label)
 * come together into one row, top to bottom.
 */
import type { PdfLine } from "./pdf-lines.js";

export type PositionedWord = {
  text: string;
  x0: number;
  x1: number;
  font: string;
  /** Index of the page line the word comes from. */
  line: number;
  /** Set smaller and above the line (a note mark such as "(a)"). */
  raised?: true;
};

export type LayoutRow = {
  /** Baseline (PDF units, up is larger) and type size of the row. */
  y: number;
  size: number;
  /** The row's words, left to right. */
  words: PositionedWord[];
  /** Indices of the page lines the row is made of. */
  lines: number[];
};

/** Usual advance of a character in ems (Helvetica-like); only the proportions within a run matter. */
function characterWidth(character: string): number {
  if (/\s/.test(character)) return 0.278;
  if (/[0-9$€£¥#_]/.test(character)) return 0.556;
  if (/[.,:;'!|il`]/.test(character)) return 0.25;
  if (/[()[\]{}\-‐–jtfr"]/.test(character)) return 0.333;
  if (/[%mwMW@]/.test(character)) return 0.85;
  if (/[—]/.test(character)) return 1;
  if (/[A-Z&]/.test(character)) return 0.667;
  return 0.52;
}

/** The words of one run of text, each with its estimated extent inside the run's. */
function splitRun(text: string, x0: number, x1: number, font: string, line: number): PositionedWord[] {
  const characters = [...text];
  const total = characters.reduce((sum, character) => sum + characterWidth(character), 0);
  if (total <= 0) return [];
  const scale = (x1 - x0) / total;
  const words: PositionedWord[] = [];
  let position = x0;
  let word: PositionedWord | null = null;
  for (const character of characters) {
    const advance = characterWidth(character) * scale;
    if (/\s/.test(character)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (word === null) {
      word = { text: character, x0: position, x1: position + advance, font, line };
    } else {
      word.text += character;
      word.x1 = position + advance;
    }
    position += advance;
  }
  if (word !== null) words.push(word);
  return words;
}

/** The words of a line: each run of text cut at its blanks, raised note marks flagged as such. */
export function lineWords(line: PdfLine, lineIndex: number): PositionedWord[] {
  if (line.rotated) return [];
  return line.fragments.flatMap((fragment) => {
    const text = line.text.slice(fragment.start, fragment.end);
    if (text.trim() === "") return [];
    const words = splitRun(text, fragment.x0, fragment.x1, fragment.font, lineIndex);
    return fragment.superscript ? words.map((word): PositionedWord => ({ ...word, raised: true })) : words;
  });
}

/** Lines whose baselines are closer than this share of their type size stand on one row. */
const sameRowShare = 0.3;

/** Where a line stands: the baseline of its first run that is not a raised note mark. */
function baseline(line: PdfLine): number {
  const first = line.fragments.find(
    (fragment) => !fragment.superscript && line.text.slice(fragment.start, fragment.end).trim() !== "",
  );
  return first?.y ?? line.y;
}

/** Lines of one row, or of neighbouring rows of one block of text, are written this close in the content stream. */
const streamWindow = 8;
/**
 * Lines on one baseline are one row when written at most this far apart in the content stream: wider
 * than `streamWindow`, as a header's cells wrap over several lines each and are written cell by cell.
 */
const sameRowStreamWindow = 24;
/** Rows of one block of text stand at most this many type sizes apart. */
const flowGap = 8;

/**
 * The rows of a page in blocks of text written apart in the content stream: the columns of a page set
 * in two (a table in one, prose in the other), read apart so neither's lines go into the other's rows.
 * Rows belong together when their lines are written close in the stream and they stand close on the page.
 */
export function textFlows(rows: readonly LayoutRow[]): LayoutRow[][] {
  const parent = rows.map((_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root] as number;
    parent[index] = root;
    return root;
  };
  rows.forEach((row, index) => {
    for (let other = index + 1; other < rows.length; other += 1) {
      const next = rows[other] as LayoutRow;
      if (row.y - next.y > Math.max(row.size, next.size) * flowGap) break;
      const near = row.lines.some((line) => next.lines.some((nextLine) => Math.abs(line - nextLine) <= streamWindow));
      if (near) parent[find(other)] = find(index);
    }
  });
  const flows = new Map<number, LayoutRow[]>();
  rows.forEach((row, index) => {
    const root = find(index);
    flows.set(root, [...(flows.get(root) ?? []), row]);
  });
  return [...flows.values()];
}

/** A mark set smaller than the row it marks is at most this share of that row's type size. */
const markSizeShare = 0.8;
/** ...and stands above the row's baseline by at most this share of its type size. */
const markRise = 0.7;
const NOTE_MARK_TEXT = /^\(?[a-z0-9*†‡]{1,2}\)?$/i;

/**
 * Note marks written as lines of their own ("(a)" in small type, raised above the row it marks) go on
 * the row below them rather than standing as rows.
 */
function attachRaisedMarks(rows: LayoutRow[]): LayoutRow[] {
  const kept: LayoutRow[] = [];
  const marks: LayoutRow[] = [];
  for (const row of rows) {
    const text = row.words.map((word) => word.text).join("");
    (NOTE_MARK_TEXT.test(text) ? marks : kept).push(row);
  }
  for (const mark of marks) {
    const host = kept.find(
      (row) => mark.size <= row.size * markSizeShare && row.y <= mark.y && mark.y - row.y <= row.size * markRise,
    );
    if (host === undefined) {
      kept.push(mark);
      continue;
    }
    // The mark's own line stays out of the row's lines: it is written far off in the stream (after the
    // notes), and a table is cut out of the page's prose by the span of its lines.
    host.words.push(...mark.words);
  }
  return kept;
}

/** The page's lines gathered into rows by baseline, top to bottom, each row's words left to right. */
export function layoutRows(lines: readonly PdfLine[]): LayoutRow[] {
  const rows: LayoutRow[] = [];
  const order = lines
    .map((line, index) => ({ line, index, words: lineWords(line, index), y: baseline(line) }))
    .filter((entry) => entry.words.length > 0)
    .sort((left, right) => right.y - left.y);
  for (const entry of order) {
    const size = entry.line.size ?? Math.max(entry.line.height, 1);
    // Sorted by baseline, so a row the line belongs to is one of the last few; a line far from the
    // row's lines in the content stream is text of another column set on the same baseline.
    const row = rows
      .slice(-6)
      .find(
        (candidate) =>
          Math.abs(candidate.y - entry.y) <= Math.min(candidate.size, size) * sameRowShare &&
          candidate.lines.some((line) => Math.abs(line - entry.index) <= sameRowStreamWindow),
      );
    if (row === undefined) {
      rows.push({ y: entry.y, size, words: [...entry.words], lines: [entry.index] });
      continue;
    }
    row.words.push(...entry.words);
    row.lines.push(entry.index);
    row.size = Math.max(row.size, size);
  }
  const placed = attachRaisedMarks(rows);
  for (const row of placed) row.words.sort((left, right) => left.x0 - right.x0);
  return placed.sort((left, right) => right.y - left.y);
}
