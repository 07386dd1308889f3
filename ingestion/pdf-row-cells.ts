/**
 * The cells of a row of a page: its words joined into cells where they stand close, split where a gap
 * wider than a blank separates them, and always between two figures (amounts set close in a tight
 * table). Statements set the signs of a figure apart: a "$" at the left of its column, a ")" or "%"
 * after the digits; those join their figure. Dot leaders ("Net sales . . . . .") are dropped.
 * Each cell is a figure (an amount, a percentage, a year, a dash for nil) or text.
 */
import type { LayoutRow, PositionedWord } from "./pdf-layout-rows.js";

export type RowCell = {
  text: string;
  /** Extent of the whole cell, a currency sign set apart included (PDF units). */
  x0: number;
  x1: number;
  /** Left edge of the cell without a currency sign set apart: where its digits start. */
  coreX0: number;
  kind: "figure" | "text";
  /** A figure that is a year alone ("2019"), which heads a column more often than it fills one. */
  year: boolean;
  font: string;
  /** The words the cell is made of, left to right. */
  words: PositionedWord[];
  /** Cut out of a longer run of text, so its edges are estimates (splitAtColumns). */
  cut?: true;
};

const CURRENCY = /^[$€£¥]$|^(?:US\$|R\$|C\$|A\$|S\$|HK\$)$/;
const OPENING = /^[(]$/;
const CLOSING = /^(?:\)|%|\)%|%\)|pts?|bps|bp|pp|x)$/i;
/** An amount as statements print it, a sign or unit attached: "1,234", "(1,234)", "$1.5", "12.5%", "(4.1)%", "3.2x". */
const FIGURE =
  /^[+\-−]?\(?\s?(?:[$€£¥]|US\$)?\s?\(?[+\-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s?\)?\s?(?:%|x|pts?|bps|bp|pp)?\s?\)?[*†‡]?$/i;
/** Nil as printed: a dash alone, perhaps after a currency sign or before a percent sign. */
const NIL = /^(?:[$€£¥]\s?)?[—–-]{1,3}\s?%?$/;
/** A year, perhaps set out letter by letter ("2 0 1 8"). */
const YEAR = /^(?:19|20)\d{2}$|^[12] [09] \d \d$/;
const NOTE_MARK = /^\((?:\d|[a-z])\)$/;
/** A figure set out letter by letter ("2 0 1 8"), each digit a word of its own. */
const SPACED_DIGITS = /^\d(?: \d)*$/;
/** A run of dots (or a dot leader's glyphs) that leads the eye from a label to its figures. */
const LEADER = /^(?:[.·…_]\s?){2,}$|^\.$/;

export function isFigureText(text: string): boolean {
  const trimmed = text.trim();
  // "14)" closes a bracket opened in the words before it ("(Note 14)"): not an amount.
  if (trimmed.includes(")") && !trimmed.includes("(")) return false;
  return FIGURE.test(trimmed) || NIL.test(trimmed);
}

/** A word that starts a figure (a currency sign, an opening bracket or a figure itself). */
function startsFigure(word: string): boolean {
  return isFigureText(word) || /^\(?[$€£¥]?\(?\d/.test(word);
}

type Building = { words: PositionedWord[]; text: string };

function lastWord(cell: Building): string {
  return cell.words.at(-1)?.text ?? "";
}

/** Whether `word` goes on the cell being built, given the row's type size. */
function joins(cell: Building, word: PositionedWord, next: PositionedWord | undefined, size: number): boolean {
  const gap = word.x0 - (cell.words.at(-1)?.x1 ?? word.x0);
  const previous = lastWord(cell);
  // Words drawn over each other (a bold face printed twice) are one.
  if (gap < -size * 0.3) return true;
  // A currency sign or an opening bracket alone belongs to the figure after it, however far it stands.
  if ((CURRENCY.test(cell.text) || OPENING.test(cell.text)) && startsFigure(word.text)) return gap < size * 12;
  // ...and starts a new cell after anything else ("Fixed Price $ 1,452.4" printed as one run).
  if (CURRENCY.test(word.text) && next !== undefined && startsFigure(next.text)) return false;
  if (CLOSING.test(word.text) && isFigureText(cell.text)) return gap < size * 1.5;
  // Digits set out one by one ("2 0 1 8"), and dashes for nil in a row ("- - %"), are one figure.
  if (SPACED_DIGITS.test(cell.text) && /^\d$/.test(word.text)) return gap < size * 0.6;
  if (NIL.test(previous) && NIL.test(word.text)) return gap < size * 0.6;
  // A note mark after a year heads the same column ("2019 (1)"), it is not an amount of its own.
  if (YEAR.test(cell.text) && NOTE_MARK.test(word.text)) return gap <= size * 0.6;
  const previousIsFigure =
    (isFigureText(previous) && !previous.endsWith(",")) || (isFigureText(cell.text) && !CLOSING.test(word.text));
  if (previousIsFigure && isFigureText(word.text)) return false;
  // A figure after words stands apart from them at a smaller gap than words from words.
  if (isFigureText(word.text) && !isFigureText(cell.text)) return gap <= size * 0.6;
  return gap <= size * 0.9;
}

function finish(cell: Building): RowCell {
  const first = cell.words[0] as PositionedWord;
  const last = cell.words.at(-1) as PositionedWord;
  const signApart = cell.words.length > 1 && CURRENCY.test(first.text);
  const text = cell.text.replace(/\s+/g, " ").trim();
  const noted = /^(.*\S) \((?:\d|[a-z])\)$/.exec(text)?.[1];
  const figure =
    isFigureText(text) ||
    YEAR.test(text) ||
    (noted !== undefined && YEAR.test(noted)) ||
    /^(?:[—–-] ){1,2}[—–-]\s?%?$/.test(text);
  return {
    text,
    x0: first.x0,
    x1: last.x1,
    coreX0: signApart ? (cell.words[1]?.x0 ?? first.x0) : first.x0,
    kind: figure ? "figure" : "text",
    year: figure && (YEAR.test(text) || (noted !== undefined && YEAR.test(noted))),
    font: first.font,
    words: cell.words,
  };
}

/** A label's dot leaders and trailing dots taken off: "Net sales . . . . ." is "Net sales". */
export function withoutLeaders(text: string): string {
  return text
    .replace(/(?:\s?[.·…_]){3,}\s*$/u, "")
    .replace(/\s(?:[.·…_]\s?){3,}/gu, " ")
    .trim();
}

/** The cells of a row, left to right. */
export function rowCells(row: LayoutRow): RowCell[] {
  return wordCells(row.words, row.size);
}

/**
 * A text cell that runs into the columns of figures split where it does: its last words, when they are
 * figures standing right of `left`, are cells of their own ("Other 44.1" printed as one run of text).
 */
export function splitAtColumns(cell: RowCell, left: number, size: number): RowCell[] {
  if (cell.kind !== "text" || cell.x1 <= left) return [cell];
  let first = cell.words.length;
  while (first > 0) {
    const word = cell.words[first - 1] as PositionedWord;
    const figureLike = isFigureText(word.text) || CURRENCY.test(word.text) || CLOSING.test(word.text);
    if (!figureLike || word.x1 <= left - size * 0.3) break;
    first -= 1;
  }
  // Only a label that ends before the columns gives up its figures ("December 31" over a column stays whole).
  const labelEnd = cell.words[first - 1]?.x1 ?? 0;
  if (first === cell.words.length || first === 0 || labelEnd > left + size * 0.5) return [cell];
  const figures = wordCells(cell.words.slice(first), size).map((figure): RowCell => ({ ...figure, cut: true }));
  return [...wordCells(cell.words.slice(0, first), size), ...figures];
}

function wordCells(words: readonly PositionedWord[], size: number): RowCell[] {
  const cells: RowCell[] = [];
  let building: Building | null = null;
  for (const [index, word] of words.entries()) {
    // A raised note mark belongs to the label it follows; after a figure ("5,645 (a)") it is no part of the amount.
    if (word.raised && (building === null || isFigureText(building.text))) continue;
    if (LEADER.test(word.text)) {
      if (building !== null) cells.push(finish(building));
      building = null;
      continue;
    }
    if (building !== null && joins(building, word, words[index + 1], size)) {
      building.words.push(word);
      building.text = `${building.text} ${word.text}`;
      continue;
    }
    if (building !== null) cells.push(finish(building));
    building = { words: [word], text: word.text };
  }
  if (building !== null) cells.push(finish(building));
  // A note mark alone in its row ("(2)" under a wrapped label) is not an amount; several ("(9) (5) (3)") are.
  const figures = cells.filter((cell) => cell.kind === "figure");
  if (figures.length === 1 && NOTE_MARK.test(figures[0]?.text ?? "")) (figures[0] as RowCell).kind = "text";
  return cells
    .map((cell) => (cell.kind === "text" ? { ...cell, text: withoutLeaders(cell.text) } : cell))
    .filter((cell) => cell.text !== "");
}
