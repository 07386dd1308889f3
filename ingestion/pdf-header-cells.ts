/**
 * Where a header cell goes over a table's columns: over the columns it covers (a year centred over its
 * figures), over the run of columns it is centred on (a group header such as "Year Ended December 31,"
 * or "Consumer & Community Banking"), or cut into one piece per column where two headers were printed
 * as one run of text ("Net Sales % of Total"); a header cell running from the label column into the
 * first column is cut at the label column's edge.
 */
import type { RowCell } from "./pdf-row-cells.js";
import { PERIOD_WORDS } from "./pdf-table-rows.js";
import type { ValueColumn } from "./pdf-value-columns.js";

/** The columns a header cell heads: those it covers the middle or most of, else the nearest one. */
export function headedColumns(cell: RowCell, columns: readonly ValueColumn[], size: number): number[] {
  const covered = columns.flatMap((column, index) => {
    const overlap = Math.min(column.x1, cell.x1) - Math.max(column.x0, cell.x0);
    const middle = (column.x0 + column.x1) / 2;
    const width = Math.max(column.x1 - column.x0, 1);
    return (middle >= cell.x0 && middle <= cell.x1) || overlap >= width * 0.5 ? [index] : [];
  });
  if (covered.length > 0) return covered;
  const centre = (cell.x0 + cell.x1) / 2;
  let nearest = -1;
  let nearestDistance = size * 3;
  columns.forEach((column, index) => {
    const distance = Math.max(column.x0 - centre, centre - column.x1, 0);
    if (distance < nearestDistance) {
      nearest = index;
      nearestDistance = distance;
    }
  });
  return nearest >= 0 ? [nearest] : [];
}

const YEARS = /\b(?:19|20)\d{2}\b/g;
/** A split of a header cell must leave each piece within this many type sizes of its column. */
const pieceOverflow = 1;
/** ...and a cell that may span its columns, within this many (its words fall into the columns exactly). */
const exactFit = 0.15;

export type Piece = { text: string; columns: number[] };

/** How far pieces of words stick out of their columns: past the right edge, or into the column on the left. */
function overflow(pieces: RowCell["words"][], spanned: readonly number[], columns: readonly ValueColumn[]): number {
  return pieces.reduce((sum, words, index) => {
    const column = columns[spanned[index] as number] as ValueColumn;
    const before = columns[(spanned[index] as number) - 1];
    const first = words[0];
    const last = words.at(-1);
    if (first === undefined || last === undefined) return Number.POSITIVE_INFINITY;
    return sum + Math.max(0, last.x1 - column.x1) + Math.max(0, (before?.x1 ?? Number.NEGATIVE_INFINITY) - first.x0);
  }, 0);
}

/** The cut of `words` into `count` runs that fits the columns best. */
function bestCut(words: RowCell["words"], spanned: readonly number[], columns: readonly ValueColumn[]) {
  let best: { pieces: RowCell["words"][]; cost: number } | null = null;
  const cut = (from: number, pieces: RowCell["words"][]) => {
    if (pieces.length === spanned.length - 1) {
      const all = [...pieces, words.slice(from)];
      const cost = overflow(all, spanned, columns);
      if (best === null || cost < best.cost) best = { pieces: all, cost };
      return;
    }
    for (let end = from + 1; end <= words.length - (spanned.length - 1 - pieces.length); end += 1)
      cut(end, [...pieces, words.slice(from, end)]);
  };
  cut(0, []);
  return best as { pieces: RowCell["words"][]; cost: number } | null;
}

/**
 * The columns a header line above the lowest heads: its own column where it is set flush with it (a
 * wrapped header right-aligned over its figures), else the run of neighbouring columns it is centred
 * over ("December 31," centred over "2016 | 2017"; "Consumer & Community Banking" over three).
 */
function groupedColumns(cell: RowCell, columns: readonly ValueColumn[], size: number): number[] | null {
  const middle = (column: ValueColumn) => (column.x0 + column.x1) / 2;
  const flush = columns.findIndex((column, index) => {
    const before = columns[index - 1];
    return Math.abs(column.x1 - cell.x1) <= size && (before === undefined || cell.x0 > middle(before));
  });
  if (flush >= 0) return [flush];
  const centre = (cell.x0 + cell.x1) / 2;
  // The fewest columns that take the line in and that it is centred over.
  for (let count = 1; count <= columns.length; count += 1) {
    for (let first = 0; first + count <= columns.length; first += 1) {
      const from = columns[first] as ValueColumn;
      const to = columns[first + count - 1] as ValueColumn;
      const centred = Math.abs((middle(from) + middle(to)) / 2 - centre) <= size * 1.5;
      if (centred && from.x0 - size <= cell.x0 && cell.x1 <= to.x1 + size)
        return Array.from({ length: count }, (_, offset) => first + offset);
    }
  }
  let best: number[] | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let count = 1; count <= columns.length; count += 1) {
    for (let first = 0; first + count <= columns.length; first += 1) {
      const from = columns[first] as ValueColumn;
      const to = columns[first + count - 1] as ValueColumn;
      if (cell.x1 < from.x0 || cell.x0 > to.x1) continue;
      const distance = Math.abs((middle(from) + middle(to)) / 2 - centre);
      // A wider run wins only when it is clearly closer: a header over one column is often a little off its middle.
      if (distance < bestDistance - size * 0.5) {
        best = Array.from({ length: count }, (_, offset) => first + offset);
        bestDistance = distance;
      }
    }
  }
  return best;
}

/**
 * A column header over several columns split into one piece per column when that is what it is: two
 * headers printed as one run of text ("Net Sales % of Total", "April 27, 2019 April 28, 2018"), each
 * piece within its own column. Only the header line right above the figures holds such cells; a line
 * above it that spans columns is a group header ("Year Ended December 31,") and heads each of them.
 */
export function headerPieces(cell: RowCell, columns: readonly ValueColumn[], size: number, lowest: boolean): Piece[] {
  const spanned = lowest
    ? headedColumns(cell, columns, size)
    : (groupedColumns(cell, columns, size) ?? headedColumns(cell, columns, size));
  const whole = [{ text: cell.text, columns: spanned }];
  if (spanned.length < 2 || cell.words.length > 16) return whole;
  const years = cell.text.match(YEARS)?.length ?? 0;
  const best = bestCut(cell.words, spanned, columns);
  if (best === null) return whole;
  // A cell that may well span its columns ("Year Ended December 31,") is split only where its words
  // fall into the columns exactly; a column header line's cells at the usual tolerance.
  const mayspan = !lowest || (years !== spanned.length && (years > 0 || PERIOD_WORDS.test(cell.text)));
  const tolerance = size * (mayspan ? exactFit : pieceOverflow) * spanned.length;
  if (best.cost > tolerance) return whole;
  const texts = best.pieces.map((words) => words.map((word) => word.text).join(" "));
  if (years === spanned.length && texts.some((text) => text.match(YEARS)?.length !== 1)) return whole;
  return texts.map((text, index) => ({ text, columns: [spanned[index] as number] }));
}

/**
 * A line of group headers that share the columns out evenly ("Consumer & Community Banking |
 * Corporate & Investment Bank | Commercial Banking" over nine columns): each over its run of columns,
 * however short its words (a narrow "Corporate" centred over three columns heads all three).
 */
export function evenGroups(
  cells: readonly RowCell[],
  columns: readonly ValueColumn[],
  size: number,
): number[][] | null {
  const span = columns.length / cells.length;
  if (cells.length < 2 || !Number.isInteger(span) || span < 2) return null;
  const groups = cells.map((_, position) => Array.from({ length: span }, (_, offset) => position * span + offset));
  const fits = cells.every((cell, position) => {
    const group = groups[position] as number[];
    const from = columns[group[0] as number] as ValueColumn;
    const to = columns[group.at(-1) as number] as ValueColumn;
    const centre = (cell.x0 + cell.x1) / 2;
    return centre >= from.x0 - size && centre <= to.x1 + size;
  });
  return fits ? groups : null;
}

/**
 * A column the lowest header line leaves without a header of its own ("$ | %" under "2022 vs. 2021")
 * goes under the neighbouring header when that header is centred over both.
 */
export function extendOverUnheaded(
  placed: Piece[][],
  cells: readonly RowCell[],
  columns: readonly ValueColumn[],
  size: number,
) {
  const owned = new Set(placed.flatMap((pieces) => pieces.flatMap((piece) => piece.columns)));
  const middle = (column: ValueColumn) => (column.x0 + column.x1) / 2;
  placed.forEach((pieces, position) => {
    const piece = pieces.length === 1 ? pieces[0] : undefined;
    const cell = cells[position];
    if (piece === undefined || cell === undefined || piece.columns.length === 0) return;
    const centre = (cell.x0 + cell.x1) / 2;
    const first = Math.min(...piece.columns);
    const last = Math.max(...piece.columns);
    const offCentre = (from: number, to: number) =>
      Math.abs((middle(columns[from] as ValueColumn) + middle(columns[to] as ValueColumn)) / 2 - centre);
    for (const [from, to, added] of [
      [first, last + 1, last + 1],
      [first - 1, last, first - 1],
    ] as const) {
      if (added < 0 || added >= columns.length || owned.has(added)) continue;
      if (offCentre(from, to) + size < offCentre(first, last) && offCentre(from, to) <= size * 1.5) {
        piece.columns = [...piece.columns, added].sort((left, right) => left - right);
        owned.add(added);
        return;
      }
    }
  });
}

/** A header cell that runs from the label column into the first column, cut where it crosses ("Currency" | "Weightage (%)"). */
export function splitAtLabelEdge(cell: RowCell, left: number): RowCell[] {
  if (cell.x0 >= left || cell.x1 <= left) return [cell];
  const cut = cell.words.findIndex((word) => (word.x0 + word.x1) / 2 >= left);
  if (cut <= 0) return [cell];
  const piece = (words: RowCell["words"]): RowCell => ({
    ...cell,
    text: words.map((word) => word.text).join(" "),
    x0: words[0]?.x0 ?? cell.x0,
    x1: words.at(-1)?.x1 ?? cell.x1,
    coreX0: words[0]?.x0 ?? cell.x0,
    words,
  });
  return [piece(cell.words.slice(0, cut)), piece(cell.words.slice(cut))];
}
