/**
 * Decides whether retrieval found anything relevant enough to answer from. BM25 scores are unbounded
 * and depend on the corpus, so the rule uses term coverage instead: the share of the question's
 * distinct analyzed terms that occur in the best of the top sources. Calibrated on the Northwind QA
 * set and off-topic questions (see the answer-pipeline issue note): answerable questions there cover
 * ≥ 0.6 of their terms in a top source, off-topic ones ("Who won the 2018 World Cup?") rarely do.
 * With at most two terms the question must be covered fully.
 */
import type { SearchResult } from "../domain/types.js";
import { uniqueTerms } from "./sentence-scoring.js";

export const DEFAULT_COVERAGE_THRESHOLD = 0.6;

export type RelevanceAssessment = { relevant: boolean; coverage: number };

export function assessRelevance(
  query: string,
  results: SearchResult[],
  threshold = DEFAULT_COVERAGE_THRESHOLD,
): RelevanceAssessment {
  const queryTerms = uniqueTerms(query);
  if (results.length === 0 || queryTerms.size === 0) return { relevant: false, coverage: 0 };
  let coverage = 0;
  for (const result of results.slice(0, 3)) {
    const chunkTerms = uniqueTerms(`${result.title}\n${result.text}`);
    let matched = 0;
    for (const term of queryTerms) if (chunkTerms.has(term)) matched += 1;
    coverage = Math.max(coverage, matched / queryTerms.size);
  }
  return { relevant: coverage >= threshold, coverage };
}
