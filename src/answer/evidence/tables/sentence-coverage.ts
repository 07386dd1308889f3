/**
 * How much of a figure question a sentence of the found prose names: the share of the question's
 * measure words (as a table answer counts them) that one sentence holds, among sentences that state a
 * number. A table row that shares one word with a long question loses to a sentence that names it all
 * ("Total unrecognized compensation cost related to non-vested awards at December 31, 2019 was $1.2
 * billion").
 */
import { splitSentences } from "../../../../ingestion/split-sentences.js";
import type { SearchResult } from "../../../domain/types.js";
import { uniqueTerms } from "../sentence-scoring.js";
import { expandedTerms } from "./table-operands.js";
import { readTableQuestion } from "./table-question.js";

/** "The components of accounts receivable are as follows (in thousands):" introduces a table. */
const INTRODUCTION = /:\s*$|\bas\s+follows\b|\b(?:following|below)\s+table\b|\btable\s+(?:below|above)\b/i;

/** The words of the sentences in a document's prose that introduce a table, by document. */
export function captionTerms(
  results: ReadonlyArray<Pick<SearchResult, "text" | "kind" | "documentId">>,
): Map<string, Set<string>> {
  const captions = new Map<string, Set<string>>();
  for (const result of results) {
    if (result.kind === "table") continue;
    for (const { start, end } of splitSentences(result.text)) {
      const sentence = result.text.slice(start, end);
      if (!INTRODUCTION.test(sentence)) continue;
      const terms = captions.get(result.documentId) ?? new Set<string>();
      for (const term of uniqueTerms(sentence)) terms.add(term);
      captions.set(result.documentId, terms);
    }
  }
  return captions;
}

export function bestSentenceCoverage(
  question: string,
  results: ReadonlyArray<Pick<SearchResult, "text" | "kind">>,
): number {
  const asked = new Set(expandedTerms(readTableQuestion(question).terms).map((term) => term.term));
  if (asked.size === 0) return 0;
  let best = 0;
  for (const result of results) {
    if (result.kind === "table") continue;
    for (const { start, end } of splitSentences(result.text)) {
      const sentence = result.text.slice(start, end);
      if (!/\d/.test(sentence) || INTRODUCTION.test(sentence)) continue;
      const terms = uniqueTerms(sentence);
      best = Math.max(best, [...asked].filter((term) => terms.has(term)).length / asked.size);
    }
  }
  return best;
}
