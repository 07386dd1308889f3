/**
 * Turns the [n] markers of a finished answer into citations: markers that point to no source are
 * removed, and each cited source gets the sentence it is cited for as its quote and the page(s) that
 * hold that sentence — found by offsets within the chunk's exact provenance, with the TF-IDF page
 * finder as the fallback when offsets are missing. A sentence that runs across a page break cites
 * both pages (pageStart..pageEnd); the link opens the page where it starts. No sentence is quoted
 * twice: overlapping chunks of one document often hold the same sentence, and their citations are
 * merged into one (the answer's markers and repeated lines follow). Citations are then numbered in
 * the order the answer first cites them, with no gaps.
 */
import type { PageText, SearchResult } from "../../domain/types.js";
import type { Citation } from "../answer-events.js";
import { isSameSentence, quoteKey } from "../evidence/same-sentence.js";
import { rankPassages, shortenQuote, uniqueTerms } from "../evidence/sentence-scoring.js";
import type { NumberedSource } from "../generate/generator.js";
import { findBestPage } from "./page-finder.js";

const MARKER = /\s?\[(\d{1,3})\]/g;

export type LinkForCitation = (request: {
  documentId: string;
  page: number | null;
  /** The section's heading path, for a source without pages: the link opens the viewer there. */
  section?: readonly string[] | null;
}) => string;

/** The section a passage of a source without pages belongs to; null for pages, or no headings. */
function sectionOf(result: NumberedSource["result"]): string[] | null {
  const headingPath = result.provenance.headingPath ?? [];
  return result.pageStart === null && headingPath.length > 0 ? [...headingPath] : null;
}

/** Removes markers that point to no source; returns the cleaned answer and the cited numbers in order. */
export function resolveMarkers(answer: string, sourceNumbers: Set<number>): { answer: string; cited: number[] } {
  const cited: number[] = [];
  const cleaned = answer.replace(MARKER, (marker, digits: string) => {
    const n = Number(digits);
    if (!sourceNumbers.has(n)) return "";
    if (!cited.includes(n)) cited.push(n);
    return marker;
  });
  return { answer: cleaned, cited };
}

/** The answer's sentences that cite [n] (the claim a citation must support), marker-free. */
function claimsFor(answer: string, n: number): string {
  return answer
    .split(/\n+|(?<=[.!?”"])\s+(?!\[\d+\])/)
    .filter((sentence) => sentence.includes(`[${n}]`))
    .join(" ")
    .replace(MARKER, " ");
}

/** The page holding chunk-text offset `offset`, from the chunk's page/offset provenance. */
export function pageAtOffset(result: SearchResult, pages: PageText[], offset: number): number | null {
  const { pageStart, pageEnd, charStart, charEnd } = result.provenance;
  if (pageStart === undefined || pageEnd === undefined || charStart === undefined || charEnd === undefined) return null;
  let segmentStart = 0;
  for (let page = pageStart; page <= pageEnd; page += 1) {
    const pageText = pages.find((candidate) => candidate.pageNumber === page)?.text;
    if (pageText === undefined) return null;
    const from = page === pageStart ? charStart : 0;
    const to = page === pageEnd ? charEnd : pageText.length;
    const segmentEnd = segmentStart + (to - from);
    if (offset < segmentEnd || page === pageEnd) return page;
    segmentStart = segmentEnd + 1; // the "\n" joining two pages in the chunk text
  }
  return null;
}

/** The pages holding the quoted sentence: by provenance offsets, else the TF-IDF page finder, else the chunk's first page. */
async function locateQuote(
  result: SearchResult,
  quote: { text: string; start: number; end: number } | undefined,
  pageTexts: (documentId: string) => Promise<PageText[]>,
): Promise<{ pageStart: number | null; pageEnd: number | null }> {
  const { pageStart, pageEnd } = result;
  if (pageStart === null || pageEnd === null || pageStart === pageEnd) return { pageStart, pageEnd: pageStart };
  const pages = await pageTexts(result.documentId);
  if (quote) {
    const first = pageAtOffset(result, pages, quote.start);
    const last = pageAtOffset(result, pages, Math.max(quote.start, quote.end - 1));
    if (first !== null && last !== null) return { pageStart: first, pageEnd: last };
  }
  const found = findBestPage(
    quote?.text ?? result.text,
    pages.filter((candidate) => candidate.pageNumber >= pageStart && candidate.pageNumber <= pageEnd),
  );
  return { pageStart: found ?? pageStart, pageEnd: found ?? pageStart };
}

/** A passage of a source's text by offsets: the sentence verification found supporting a claim. */
export type QuotedPassage = { text: string; start: number; end: number };

export async function buildCitation(
  source: NumberedSource,
  claim: string,
  pageTexts: (documentId: string) => Promise<PageText[]>,
  linkForCitation: LinkForCitation,
  supportingQuote?: QuotedPassage,
): Promise<Citation> {
  const { result } = source;
  // A verified answer names the sentence that supports it; otherwise the claim's words pick one.
  const best = supportingQuote ?? rankPassages(result, uniqueTerms(claim))[0];
  const { pageStart, pageEnd } = await locateQuote(result, best, pageTexts);
  const section = sectionOf(result);
  return {
    n: source.n,
    documentId: result.documentId,
    title: result.title,
    file: result.file,
    pageStart,
    pageEnd,
    quote: shortenQuote(best?.text ?? result.text),
    ...(section ? { section } : {}),
    url: linkForCitation({ documentId: result.documentId, page: pageStart, ...(section ? { section } : {}) }),
  };
}

/**
 * The citations with no sentence of a document quoted twice: a citation whose quote is (part of)
 * an earlier one's from the same document is merged into it, keeping the earlier number and the
 * fuller quote with its pages. `merged` maps each dropped number to the one it was merged into.
 */
export function uniqueCitations(citations: readonly Citation[]): {
  citations: Citation[];
  merged: Map<number, number>;
} {
  const kept: Citation[] = [];
  const merged = new Map<number, number>();
  for (const citation of citations) {
    const index = kept.findIndex(
      (earlier) => earlier.documentId === citation.documentId && isSameSentence(earlier.quote, citation.quote),
    );
    const earlier = kept[index];
    if (earlier === undefined) {
      kept.push(citation);
      continue;
    }
    merged.set(citation.n, earlier.n);
    if (quoteKey(citation.quote).length > quoteKey(earlier.quote).length) kept[index] = { ...citation, n: earlier.n };
  }
  return { citations: kept, merged };
}

/** The answer's lines with markers renumbered after a merge, repeated markers and repeated lines dropped. */
function renumberAnswer(answer: string, merged: ReadonlyMap<number, number>): string {
  if (merged.size === 0) return answer;
  const renumbered = answer
    .replace(MARKER, (marker, digits: string) => {
      const target = merged.get(Number(digits));
      return target === undefined ? marker : marker.replace(digits, String(target));
    })
    .replace(/(\s?\[(\d{1,3})\])(?:\s?\[\2\])+/g, "$1");
  // A line saying what an earlier line with the same markers says (an extractive quote of the same
  // sentence from two chunks) goes; the fuller of the two stays where the first one was.
  const lines: string[] = [];
  for (const line of renumbered.split("\n")) {
    const markers = [...line.matchAll(MARKER)].map((match) => match[1]).join(",");
    const index = lines.findIndex(
      (earlier) =>
        markers.length > 0 &&
        [...earlier.matchAll(MARKER)].map((match) => match[1]).join(",") === markers &&
        isSameSentence(earlier.replace(MARKER, ""), line.replace(MARKER, "")),
    );
    if (index === -1) lines.push(line);
    else if (quoteKey(line).length > quoteKey(lines[index] as string).length) lines[index] = line;
  }
  return lines.join("\n");
}

/**
 * Citations numbered 1, 2, 3… in the order the answer first cites them, with the answer's markers
 * renumbered to match: a reader meets [1] first and finds no gaps, whatever the sources' retrieval
 * ranks were. Citations the answer never cites (a no-context reply's closest sources) follow in list order.
 */
export function numberCitations(
  answer: string,
  citations: readonly Citation[],
): { answer: string; citations: Citation[] } {
  const known = new Set(citations.map((citation) => citation.n));
  const order: number[] = [];
  for (const match of answer.matchAll(MARKER)) {
    const n = Number(match[1]);
    if (known.has(n) && !order.includes(n)) order.push(n);
  }
  for (const citation of citations) if (!order.includes(citation.n)) order.push(citation.n);
  const numbers = new Map(order.map((n, index) => [n, index + 1]));
  const renumbered = answer.replace(MARKER, (marker, digits: string) => {
    const n = numbers.get(Number(digits));
    return n === undefined ? marker : marker.replace(`[${digits}]`, `[${n}]`);
  });
  return {
    answer: renumbered,
    citations: citations
      .map((citation) => ({ ...citation, n: numbers.get(citation.n) ?? citation.n }))
      .sort((left, right) => left.n - right.n),
  };
}

export async function buildCitations(
  answer: string,
  sources: NumberedSource[],
  pageTexts: (documentId: string) => Promise<PageText[]>,
  linkForCitation: LinkForCitation,
  supportingQuotes?: ReadonlyMap<number, QuotedPassage>,
  /**
   * Sources listed after the cited ones without being cited in the text (quotes left out of an answer
   * that leads with a direct answer they do not support), each with the sentence it would have quoted.
   */
  furtherSources: ReadonlyArray<{ n: number; claim: string }> = [],
): Promise<{ answer: string; citations: Citation[] }> {
  const bySourceNumber = new Map(sources.map((source) => [source.n, source]));
  const resolved = resolveMarkers(answer, new Set(bySourceNumber.keys()));
  const citations: Citation[] = [];
  const further = furtherSources.filter(({ n }) => !resolved.cited.includes(n));
  for (const n of resolved.cited) {
    const source = bySourceNumber.get(n);
    if (source)
      citations.push(
        await buildCitation(
          source,
          claimsFor(resolved.answer, n),
          pageTexts,
          linkForCitation,
          supportingQuotes?.get(n),
        ),
      );
  }
  for (const { n, claim } of further) {
    const source = bySourceNumber.get(n);
    if (source && !citations.some((citation) => citation.n === n))
      citations.push(await buildCitation(source, claim, pageTexts, linkForCitation));
  }
  const unique = uniqueCitations(citations);
  return numberCitations(renumberAnswer(resolved.answer, unique.merged), unique.citations);
}

/**
 * Whether the answer already shows a citation's quote (an extractive answer quotes its sources):
 * renderers then list the source without printing the same words a second time.
 */
export function isQuotedInAnswer(answer: string, citation: Pick<Citation, "n" | "quote">): boolean {
  return answer
    .split("\n")
    .some((line) => line.includes(`[${citation.n}]`) && isSameSentence(line.replace(MARKER, ""), citation.quote));
}
