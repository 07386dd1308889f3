/**
 * Finds a PDF's page furniture: running headers and footers and page numbers, the lines a publisher
 * repeats on every page. Left in, they land in the middle of sentences that run across a page break
 * and in every quote taken from there. A line is furniture when it sits in a page's margin (the top or
 * bottom rows, set apart from the body by a wider gap than the body's line spacing, or text turned up
 * the margin) and the same text, numbers aside, stands at the same height on many pages. Chapter
 * headers that change every few pages count where they stand in a margin position that furniture
 * holds on many pages; so do page numbers alone there. The line numbers of a draft, a column of
 * counting numbers beside the text, are furniture too.
 */
import type { PdfLine } from "./pdf-lines.js";

/** Rows at most this far from a page's top or bottom edge can be a header or footer. */
const maxMarginRows = 3;
/** A margin is set off from the body by a gap of at least this many glyph heights. */
const marginGapInGlyphs = 1.8;
/** Lines whose baselines differ by no more than this (PDF units) sit on one row. */
const rowTolerance = 2;
/** Repeats at the same height within this much (PDF units, or a glyph height when larger) are one. */
const positionTolerance = 4;
/** Share of pages a text must repeat on to be furniture by itself. */
const minimumPageShare = 0.2;
/** Page numbers standing inside a page's rows must count up on at least this many pages. */
const minimumInnerPages = 3;
/** A draft's line numbers: at least this many numbers beside the text, nearly all one more than the last. */
const minimumLineNumbers = 5;
const minimumCountingShare = 0.8;
const maximumIntrudingShare = 0.1;
/** Numbers whose left or right edges are this close (PDF units) stand in one column. */
const alignTolerance = 2;

type Side = "top" | "bottom" | "turned" | "inner";
type Candidate = { page: number; line: number; y: number; side: Side; key: string; size: number };

/** The text with what changes from page to page (page numbers, dates, roman numerals) made alike. */
export function furnitureKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\p{N}+/gu, "#")
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .map((word) => (/^(?:x{1,3}(?:ix|iv|v?i{0,3})|ix|iv|v?i{1,3}|v)$/.test(word) ? "#" : word))
    .join(" ");
}

/** "12", "Page 3", "3 of 10", "- 4 -", "B-2", "iv": a page number on its own. */
function isPageNumberKey(key: string): boolean {
  return /^(?:page )?[-–—(]? ?#(?: ?[-–—)])?(?: (?:of|\/) #)?$/.test(key) || /^[a-z]-#$/.test(key);
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** The number a page number shows: its first arabic number, or its roman numeral; null when none. */
function pageNumberValue(text: string): number | null {
  const arabic = /\d+/.exec(text);
  if (arabic) return Number(arabic[0]);
  const roman = /\b([ivxlc]+)\b/i.exec(text)?.[1]?.toLowerCase();
  if (roman === undefined) return null;
  let value = 0;
  for (let index = 0; index < roman.length; index += 1) {
    const digit = ROMAN[roman.charAt(index)] ?? 0;
    value += digit < (ROMAN[roman.charAt(index + 1)] ?? 0) ? -digit : digit;
  }
  return value;
}

/**
 * The page numbers of a cluster of page-number-like lines: those that go up one per page together
 * with at least one other ("iv" on page 4 and "v" on page 5, "3" on page 5 and "4" on page 6). A
 * chart's axis labels ("2022", "5000") at one height do not.
 */
function countingPages(cluster: Candidate[], pages: ReadonlyArray<readonly PdfLine[]>): Candidate[] {
  const byOffset = new Map<number, Candidate[]>();
  for (const candidate of cluster) {
    const value = pageNumberValue(pages[candidate.page]?.[candidate.line]?.text ?? "");
    if (value === null) continue;
    const group = byOffset.get(value - candidate.page) ?? [];
    group.push(candidate);
    byOffset.set(value - candidate.page, group);
  }
  return [...byOffset.values()].filter((group) => pagesOf(group) >= 2).flat();
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The lines of a page grouped into rows by baseline, top row first. */
function rowsOf(lines: readonly PdfLine[]): Row[] {
  const order = lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.text.trim().length > 0 && line.rotated !== true)
    .sort((left, right) => right.line.y - left.line.y);
  const rows: Row[] = [];
  for (const { line, index } of order) {
    const row = rows.at(-1);
    if (row !== undefined && row.y - line.y <= rowTolerance) row.lines.push(index);
    else rows.push({ y: line.y, lines: [index] });
  }
  return rows;
}

type Row = { y: number; lines: number[] };

/**
 * The rows of one edge of a page set apart from the rest by a wide gap (nearest the edge first): as
 * many as three, up to the last wide gap among them (a page number below a running footer has a gap
 * of its own). More rows must remain than are taken: on a page of a few lines under a header, the gap
 * below the header does not make those lines a footer. A lone page number at the edge is a margin row
 * however few rows remain (a slide's number under its title).
 */
function marginRows(rows: Row[], gap: number, text: (row: Row) => string): Row[] {
  let margin: Row[] = [];
  for (let count = 1; count <= maxMarginRows && count < rows.length; count += 1) {
    const inner = rows[count - 1] as Row;
    const body = rows[count] as Row;
    if (Math.abs(inner.y - body.y) < gap) continue;
    if (count < rows.length - count || (count === 1 && isPageNumberKey(furnitureKey(text(inner))))) {
      margin = rows.slice(0, count);
    }
  }
  return margin;
}

function pageCandidates(lines: readonly PdfLine[], page: number, keep: ReadonlySet<number>): Candidate[] {
  const sizes = lines.filter((line) => line.text.trim().length > 0).map((line) => line.size ?? line.height);
  const gap = Math.max(median(sizes), 1) * marginGapInGlyphs;
  const rows = rowsOf(lines);
  const candidates: Candidate[] = [];
  const add = (index: number, side: Side) => {
    const line = lines[index] as PdfLine;
    if (keep.has(index)) return;
    const key = furnitureKey(line.text);
    if (key.length > 0) candidates.push({ page, line: index, y: line.y, side, key, size: line.size ?? line.height });
  };
  const text = (row: Row) => row.lines.map((index) => lines[index]?.text ?? "").join(" ");
  const top = marginRows(rows, gap, text);
  const bottom = marginRows([...rows].reverse(), gap, text).filter((row) => !top.includes(row));
  for (const row of top) for (const index of row.lines) add(index, "top");
  for (const row of bottom) for (const index of row.lines) add(index, "bottom");
  const inMargin = new Set([...top, ...bottom].flatMap((row) => row.lines));
  lines.forEach((line, index) => {
    if (line.text.trim().length === 0) return;
    if (line.rotated === true) add(index, "turned");
    // A page number may stand inside the page's rows (beside a table reaching lower): it counts only
    // where it counts up with the pages at one height on many of them.
    else if (!inMargin.has(index) && isPageNumberKey(furnitureKey(line.text))) add(index, "inner");
  });
  return candidates;
}

/**
 * Groups of candidates with one key, side and height, each group's pages counted once. Sorted by
 * height within a key, so a document with thousands of numbers clusters in n log n.
 */
function clusters(candidates: Candidate[]): Candidate[][] {
  const byKey = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const key = `${candidate.side}\u0000${candidate.key}`;
    const same = byKey.get(key) ?? [];
    same.push(candidate);
    byKey.set(key, same);
  }
  const groups: Candidate[][] = [];
  for (const same of byKey.values()) {
    same.sort((left, right) => left.y - right.y);
    let group: Candidate[] = [];
    for (const candidate of same) {
      const first = group[0];
      // Inside the page's rows only a page number at the very same height repeats by design.
      const tolerance = candidate.side === "inner" ? rowTolerance : Math.max(positionTolerance, candidate.size);
      if (first !== undefined && candidate.y - first.y > tolerance) {
        groups.push(group);
        group = [];
      }
      group.push(candidate);
    }
    if (group.length > 0) groups.push(group);
  }
  return groups;
}

const pagesOf = (cluster: Candidate[]) => new Set(cluster.map((candidate) => candidate.page)).size;

/** The largest set of the given items sharing a left or a right edge (within alignTolerance). */
function alignedColumn(items: Array<{ index: number; x0: number; x1: number }>): number[] {
  let best: number[] = [];
  for (const edge of ["x0", "x1"] as const) {
    const sorted = [...items].sort((left, right) => left[edge] - right[edge]);
    let low = 0;
    let high = 0;
    for (const item of sorted) {
      while ((sorted[low] as (typeof sorted)[number])[edge] < item[edge] - alignTolerance) low += 1;
      while (
        high + 1 < sorted.length &&
        (sorted[high + 1] as (typeof sorted)[number])[edge] <= item[edge] + alignTolerance
      )
        high += 1;
      if (high - low + 1 > best.length) best = sorted.slice(low, high + 1).map((other) => other.index);
    }
  }
  return best;
}

/**
 * The line numbers of a page (a draft's numbered lines): bare numbers in a column of their own beside
 * the text that, read down the page, count up one by one.
 */
export function findLineNumbers(lines: readonly PdfLine[], keep: ReadonlySet<number> = new Set()): Set<number> {
  const extent = (line: PdfLine) => ({
    x0: Math.min(...line.fragments.map((fragment) => fragment.x0)),
    x1: Math.max(...line.fragments.map((fragment) => fragment.x1)),
  });
  const numbers: number[] = [];
  const text: number[] = [];
  lines.forEach((line, index) => {
    if (line.text.trim().length === 0 || line.fragments.length === 0 || line.rotated === true) return;
    if (/^\d{1,4}$/.test(line.text.trim()) && !keep.has(index)) numbers.push(index);
    else text.push(index);
  });
  if (numbers.length < minimumLineNumbers || text.length === 0) return new Set();
  // The numbers line up in a column (left or right aligned) of their own: hardly any text reaches
  // into it (a heading may).
  const beside = alignedColumn(numbers.map((index) => ({ index, ...extent(lines[index] as PdfLine) })));
  if (beside.length < minimumLineNumbers) return new Set();
  const spans = beside.map((index) => extent(lines[index] as PdfLine));
  const columnLeft = Math.min(...spans.map((span) => span.x0));
  const columnRight = Math.max(...spans.map((span) => span.x1));
  const intruding = text.filter((index) => {
    const { x0, x1 } = extent(lines[index] as PdfLine);
    return x0 < columnRight && x1 > columnLeft;
  }).length;
  if (intruding > text.length * maximumIntrudingShare) return new Set();
  const down = [...beside].sort((left, right) => (lines[right] as PdfLine).y - (lines[left] as PdfLine).y);
  let counting = 0;
  for (let position = 1; position < down.length; position += 1) {
    const previous = Number((lines[down[position - 1] as number] as PdfLine).text.trim());
    if (Number((lines[down[position] as number] as PdfLine).text.trim()) === previous + 1) counting += 1;
  }
  return counting >= (down.length - 1) * minimumCountingShare ? new Set(beside) : new Set();
}

/**
 * For each page (in order), the indices of its lines that are page furniture. `pages` holds each
 * page's lines as layoutLines built them; lines in `keep` (a table's rows: a header row repeated
 * on every page a table runs over) are never furniture.
 */
export function findPageFurniture(
  pages: ReadonlyArray<readonly PdfLine[]>,
  keep: ReadonlyArray<ReadonlySet<number>> = [],
): Array<Set<number>> {
  const furniture = pages.map(() => new Set<number>());
  const all = clusters(pages.flatMap((lines, page) => pageCandidates(lines, page, keep[page] ?? new Set())));
  const minimumPages = Math.max(2, Math.ceil(pages.length * minimumPageShare));
  const isNumbers = (cluster: Candidate[]) => isPageNumberKey((cluster[0] as Candidate).key);
  // Page numbers count only where they go up with the pages; other text where it repeats enough.
  const numbered = new Map(
    all.filter((cluster) => isNumbers(cluster)).map((cluster) => [cluster, countingPages(cluster, pages)]),
  );
  const strong = all.filter((cluster) =>
    isNumbers(cluster) ? pagesOf(numbered.get(cluster) ?? []) >= minimumPages : pagesOf(cluster) >= minimumPages,
  );
  // Where strong furniture stands, a text repeated on a few pages (a chapter's running header) or a
  // lone page number is furniture too.
  const inFurniturePosition = (cluster: Candidate[]) => {
    const first = cluster[0] as Candidate;
    return strong.some((known) => {
      if ((known[0] as Candidate).side === "inner") return false;
      const reference = known[0] as Candidate;
      return (
        reference.side === first.side &&
        first.side !== "turned" &&
        Math.abs(reference.y - first.y) <= Math.max(positionTolerance, first.size)
      );
    });
  };
  const mark = (candidates: Candidate[]) => {
    for (const candidate of candidates) furniture[candidate.page]?.add(candidate.line);
  };
  pages.forEach((lines, page) => {
    for (const line of findLineNumbers(lines, keep[page])) furniture[page]?.add(line);
  });
  for (const cluster of all) {
    const first = cluster[0] as Candidate;
    if (first.side === "turned") {
      if (strong.includes(cluster)) mark(cluster);
    } else if (first.side === "inner") {
      const counted = numbered.get(cluster) ?? [];
      if (pagesOf(counted) >= Math.max(minimumInnerPages, minimumPages)) mark(counted);
    } else if (isNumbers(cluster)) {
      // Page numbers that count up with the pages are furniture wherever they stand (front matter
      // numbered i, ii, iii apart from the body's 1, 2, 3); at a furniture position, any page number.
      mark(inFurniturePosition(cluster) ? cluster : (numbered.get(cluster) ?? []));
    } else if (strong.includes(cluster) || (inFurniturePosition(cluster) && pagesOf(cluster) >= 2)) {
      mark(cluster);
    }
  }
  return furniture;
}
