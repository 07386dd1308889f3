/**
 * Finds the section headings of a PDF, so each passage can be indexed with the heading it sits under
 * (index-text.ts). A PDF has no heading markup; a heading is a short line that stands out from the
 * body text — set larger, or set wholly in another font than the body (bold) — outside any table.
 * Consecutive heading lines are one heading ("3M Company and Subsidiaries / Consolidated Statement of
 * Cash Flows / Years ended December 31"). A passage is indexed under the last heading before it.
 *
 * A financial statement's title ("Consolidated Statements of Income", "CONSOLIDATED BALANCE SHEETS") is
 * a heading wherever it heads a page, even set like the body: many reports set it so, and a statement's
 * rows never say which statement they belong to. Captions inside a statement that stand out as headings
 * ("ASSETS", "Current assets", "Other assets") are indexed under the title, which stays the upper level
 * of the path to the end of the page.
 */
import { type FinancialStatement, statementTitledBy } from "../src/domain/financial-statements.js";
import { endsOnLinkingWord } from "../src/domain/wrapped-line.js";
import type { PageLayout, PdfLine } from "./pdf-lines.js";

/**
 * A heading found on a page: where its first line starts in the page text, and its words. `statement`
 * is set when the heading is a financial statement's title (see findPageHeadings).
 */
export type PageHeading = { start: number; text: string; statement?: FinancialStatement };

/** A heading in reading order: its page, where it starts in that page's text, and the path passages under it are indexed with. */
export type PdfHeading = { page: number; charStart: number; path: string[] };

/** What the heading rules need to know about a document's body text. */
export type BodyStyle = { font: string; size: number };

/** Longest line (characters) and most words a heading line may have. */
const maxHeadingCharacters = 100;
const maxHeadingWords = 14;
/** More consecutive heading-like lines than this are a bold paragraph, not a heading. */
const maxHeadingLines = 3;
/** A line this much larger than the body is a heading whatever its font. */
const largerShare = 1.15;
/** A line in another font than the body must be at least this large (small bold print is not a heading). */
const minimumEmphasisShare = 0.9;

function sizeOf(line: PdfLine): number {
  return line.size ?? line.height;
}

function visibleFragments(line: PdfLine) {
  return line.fragments.filter(
    (fragment) => fragment.superscript !== true && line.text.slice(fragment.start, fragment.end).trim().length > 0,
  );
}

/**
 * The body's font: the one carrying most of the characters of prose lines (lines outside tables) over
 * the whole document. (Its type size comes from pdf-page-text.ts, which measures it for footnotes.)
 */
export function bodyFont(pages: ReadonlyArray<{ lines: readonly PdfLine[]; tableLines: ReadonlySet<number> }>): string {
  const fonts = new Map<string, number>();
  for (const { lines, tableLines } of pages) {
    lines.forEach((line, index) => {
      if (tableLines.has(index)) return;
      for (const fragment of visibleFragments(line)) {
        const characters = line.text.slice(fragment.start, fragment.end).replace(/\s+/g, "").length;
        fonts.set(fragment.font, (fonts.get(fragment.font) ?? 0) + characters);
      }
    });
  }
  let font = "";
  let most = -1;
  for (const [candidate, characters] of fonts) {
    if (characters > most) {
      font = candidate;
      most = characters;
    }
  }
  return font;
}

/** Whether a line, by its words alone, could be a heading: short, mostly letters, not mid-sentence. */
function readsAsHeading(text: string): boolean {
  if (text.length < 3 || text.length > maxHeadingCharacters) return false;
  if (text.split(/\s+/).length > maxHeadingWords) return false;
  const visible = text.replace(/\s+/g, "");
  const letters = (visible.match(/\p{L}/gu) ?? []).length;
  if (letters < 2 || letters / visible.length < 0.6) return false;
  // A heading starts with a capital or a number ("2. Coverage"); it does not end mid-sentence.
  if (!/^[\p{Lu}\p{N}]/u.test(text)) return false;
  return !/[,;.]$/.test(text) && !endsOnLinkingWord(text);
}

/** A statement's title counts as a heading among this many first body lines of a page, however it is set. */
const statementTitleLines = 6;

/** Whether a line stands out from the body: set larger, or wholly in a font the body is not set in. */
function standsOut(line: PdfLine, body: BodyStyle): boolean {
  const size = sizeOf(line);
  if (body.size > 0 && size >= body.size * largerShare) return true;
  if (body.size > 0 && size < body.size * minimumEmphasisShare) return false;
  const fragments = visibleFragments(line);
  return fragments.length > 0 && fragments.every((fragment) => fragment.font !== body.font);
}

/**
 * The headings of one page's body lines, laid out as `layout` (the heading's words are taken from the
 * page text, so they read as the page does); lines in `tableLines` are table rows and never headings.
 */
export function findPageHeadings(
  lines: readonly PdfLine[],
  layout: PageLayout,
  tableLines: ReadonlySet<number>,
  body: BodyStyle,
): PageHeading[] {
  const headings: PageHeading[] = [];
  let run: number[] = [];
  // A run whose next line starts in lower case is the start of a sentence that wraps there.
  const continuesBelow = (last: number) => /^\s*\p{Ll}/u.test(lines[last + 1]?.text ?? "");
  const statementTitles = new Map<number, FinancialStatement>();
  let bodyLinesSeen = 0;
  const finishRun = () => {
    const spans = run.map((index) => layout.lineSpans[index]);
    const first = spans[0];
    const statement = run.map((index) => statementTitles.get(index)).find((named) => named !== undefined);
    if (
      first &&
      (statement !== undefined || (run.length <= maxHeadingLines && !continuesBelow(run.at(-1) as number)))
    ) {
      headings.push({
        start: first.start,
        text: spans
          .map((span) => (span ? layout.text.slice(span.start, span.end).trim() : ""))
          .join(" ")
          .replace(/\s+/g, " ")
          .trim(),
        ...(statement === undefined ? {} : { statement }),
      });
    }
    run = [];
  };
  lines.forEach((line, index) => {
    const text = line.text.replace(/\s+/g, " ").trim();
    const placed = text.length > 0 && line.rotated !== true && layout.lineSpans[index] != null;
    if (text.length > 0) bodyLinesSeen += 1;
    // A statement's title may sit in its table's first row ("Consolidated Balance Sheets | Acme Inc."),
    // so a table line can be one; no other heading is a table line.
    const statement = placed ? statementTitledBy(text) : null;
    if (statement !== null && (bodyLinesSeen <= statementTitleLines || standsOut(line, body)))
      statementTitles.set(index, statement);
    const isHeading =
      placed &&
      (statementTitles.has(index) || (!tableLines.has(index) && readsAsHeading(text) && standsOut(line, body)));
    if (!isHeading) {
      // A blank line ends a heading too, but a run of bold lines broken by blanks stays separate headings.
      finishRun();
      return;
    }
    const previous = run.at(-1);
    if (previous !== undefined && previous !== index - 1) finishRun();
    run.push(index);
  });
  finishRun();
  return headings;
}

/**
 * The headings of a document in reading order. A passage is indexed under the nearest heading above
 * it only: larger headings above that one were measured to add more noise than context (Northwind
 * and FinanceBench; see docs/benchmarks.md), since reports repeat the company name or "Part II" there.
 * The exception is a financial statement's title, which stays above the captions that follow it on its page.
 */
export function headingPaths(pages: ReadonlyArray<readonly PageHeading[]>): PdfHeading[] {
  return pages.flatMap((headings, pageIndex) => {
    let statementTitle: string | null = null;
    return headings.map((heading) => {
      if (heading.statement !== undefined) statementTitle = heading.text;
      const path =
        statementTitle === null || statementTitle === heading.text ? [heading.text] : [statementTitle, heading.text];
      return { page: pageIndex + 1, charStart: heading.start, path };
    });
  });
}

/**
 * The heading path in force at a place in the document (the last heading at or before it); [] when
 * none. `headings` are in reading order, so the search halves them (a long filing has hundreds).
 */
export function headingPathAt(headings: readonly PdfHeading[], page: number, charStart: number): string[] {
  const atOrBefore = (heading: PdfHeading) =>
    heading.page < page || (heading.page === page && heading.charStart <= charStart);
  let low = 0;
  let high = headings.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (atOrBefore(headings[middle] as PdfHeading)) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? [] : (headings[low - 1] as PdfHeading).path;
}
