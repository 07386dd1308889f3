/**
 * Turns the [n] markers of a finished answer into citations: markers that point to no source are
 * removed, and each cited source gets the sentence it is cited for as its quote and the page that
 * holds that sentence — found by offsets within the chunk's exact provenance, with the TF-IDF page
 * finder as the fallback when offsets are missing.
 */
import type { PageText, SearchResult } from "../domain/types.js";
import type { Citation } from "./answer-events.js";
import type { NumberedSource } from "./generator.js";
import { findBestPage } from "./page-finder.js";
import { rankSentences, shortenQuote, uniqueTerms } from "./sentence-scoring.js";

const MARKER = /\s?\[(\d{1,3})\]/g;

export type LinkForCitation = (request: { documentId: string; page: number | null }) => string;

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

export async function buildCitation(
  source: NumberedSource,
  claim: string,
  pageTexts: (documentId: string) => Promise<PageText[]>,
  linkForCitation: LinkForCitation,
): Promise<Citation> {
  const { result } = source;
  const best = rankSentences(result.text, uniqueTerms(claim))[0];
  const quoteText = best?.text ?? result.text;
  let page: number | null = result.pageStart;
  if (result.pageStart !== null && result.pageEnd !== null && result.pageStart !== result.pageEnd) {
    const pages = await pageTexts(result.documentId);
    page =
      (best ? pageAtOffset(result, pages, best.start) : null) ??
      findBestPage(
        quoteText,
        pages.filter(
          (candidate) =>
            candidate.pageNumber >= (result.pageStart ?? 0) && candidate.pageNumber <= (result.pageEnd ?? 0),
        ),
      ) ??
      result.pageStart;
  }
  return {
    n: source.n,
    documentId: result.documentId,
    title: result.title,
    file: result.file,
    pageStart: page,
    pageEnd: page,
    quote: shortenQuote(quoteText),
    url: linkForCitation({ documentId: result.documentId, page }),
  };
}

export async function buildCitations(
  answer: string,
  sources: NumberedSource[],
  pageTexts: (documentId: string) => Promise<PageText[]>,
  linkForCitation: LinkForCitation,
): Promise<{ answer: string; citations: Citation[] }> {
  const bySourceNumber = new Map(sources.map((source) => [source.n, source]));
  const resolved = resolveMarkers(answer, new Set(bySourceNumber.keys()));
  const citations: Citation[] = [];
  for (const n of resolved.cited) {
    const source = bySourceNumber.get(n);
    if (source) citations.push(await buildCitation(source, claimsFor(resolved.answer, n), pageTexts, linkForCitation));
  }
  return { answer: resolved.answer, citations };
}
