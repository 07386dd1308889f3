/**
 * The TF-IDF page finder of Liang et al., "Efficient and verifiable responses using RAG" (2024): fit
 * TF-IDF on the candidate pages of the cited file, compare each page with the cited text by cosine,
 * and the best page wins. Folio knows exact pages from provenance; this is the fallback when a quote
 * cannot be located by offsets, and a yardstick in evaluation.
 */
import type { PageText } from "../../domain/types.js";
import { smoothedInverseDocumentFrequency } from "../../retrieval/smoothed-idf.js";
import { analyzeText } from "../../retrieval/text-analyzer.js";

function termFrequencies(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of analyzeText(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** A finder fitted once on a file's pages, for asking about many texts (evaluation). */
export function createPageFinder(pages: PageText[]): (text: string) => number | null {
  const pageTerms = pages.map((page) => termFrequencies(page.text));
  const documentFrequency = new Map<string, number>();
  for (const terms of pageTerms)
    for (const term of terms.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const idf = (term: string) => smoothedInverseDocumentFrequency(pages.length, documentFrequency.get(term) ?? 0);
  const weigh = (terms: Map<string, number>) => {
    const weights = new Map<string, number>();
    let norm = 0;
    for (const [term, count] of terms) {
      const weight = count * idf(term);
      weights.set(term, weight);
      norm += weight * weight;
    }
    return { weights, norm: Math.sqrt(norm) };
  };
  const pageVectors = pageTerms.map(weigh);
  return (text) => {
    const query = weigh(termFrequencies(text));
    if (query.norm === 0) return null;
    let best: { page: number; score: number } | null = null;
    for (const [index, page] of pageVectors.entries()) {
      if (page.norm === 0) continue;
      let dot = 0;
      for (const [term, weight] of query.weights) dot += weight * (page.weights.get(term) ?? 0);
      const score = dot / (query.norm * page.norm);
      // Strictly greater: on a tie the earlier page wins.
      if (score > 0 && (best === null || score > best.score))
        best = { page: pages[index]?.pageNumber ?? index + 1, score };
    }
    return best?.page ?? null;
  };
}

/** Page number of the page most similar to `text`, or null when no page shares a term with it. */
export function findBestPage(text: string, pages: PageText[]): number | null {
  return createPageFinder(pages)(text);
}
