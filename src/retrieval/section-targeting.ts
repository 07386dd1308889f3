/**
 * Section targeting: a question that names a section of a document ("…shown in the cash flow
 * statement", "the prescription drug benefit") prefers the passages indexed under that heading
 * (PDF headings: ingestion/pdf-headings.ts; DOCX/Markdown headings: their markup). The words of a
 * statement's rows rarely say which statement they are in; its heading does.
 *
 * A heading is named when the question carries at least two of its words, and either half of them
 * or three. Words of the document's title and file name do not count: they name the document
 * (document-targeting.ts), and a heading that repeats them ("Northwind Health Plus" in the Northwind
 * Health Plus booklet) would otherwise be named by every question about that document. Bare numbers
 * do not count either ("December 31").
 */
import type { SearchResult } from "../domain/types.js";
import { readableFileName } from "../ingest/index-text.js";
import type { ScoredChunkId } from "../stores/vector-index.js";
import { analyzeText } from "./text-analyzer.js";

/** Fewest heading words a question must carry to name the heading. */
const minimumMatchedWords = 2;
/** …and the share of the heading's words, unless it carries at least `enoughMatchedWords`. */
const minimumMatchedShare = 0.5;
const enoughMatchedWords = 3;

export type SectionCandidate = Pick<
  SearchResult,
  "chunkId" | "documentId" | "spaceId" | "score" | "title" | "file" | "provenance"
>;

/** The words a heading is matched by: analyzed, without the document's own name and bare numbers. */
function headingWords(candidate: SectionCandidate, heading: string): string[] {
  const identity = new Set(analyzeText(`${candidate.title}\n${readableFileName(candidate.file)}`));
  return [...new Set(analyzeText(heading))].filter((term) => !identity.has(term) && !/^\d+$/.test(term));
}

/** Whether the question (its analyzed terms) names the section the passage is indexed under. */
export function namesSection(questionTerms: ReadonlySet<string>, candidate: SectionCandidate): boolean {
  const heading = candidate.provenance.headingPath?.at(-1);
  if (!heading) return false;
  const words = headingWords(candidate, heading);
  const matched = words.filter((word) => questionTerms.has(word)).length;
  if (matched < minimumMatchedWords) return false;
  return matched >= enoughMatchedWords || matched / words.length >= minimumMatchedShare;
}

/** The candidates (in their ranked order) under a heading the question names; empty when none is named. */
export function namedSectionHits(question: string, candidates: readonly SectionCandidate[]): ScoredChunkId[] {
  const questionTerms = new Set(analyzeText(question));
  return candidates
    .filter((candidate) => namesSection(questionTerms, candidate))
    .map(({ chunkId, documentId, spaceId, score }) => ({ chunkId, documentId, spaceId, score }));
}
