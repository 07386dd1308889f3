/**
 * The strict lexical match used when no embedder is configured (FOLIO_EMBED_MODEL=none): two questions
 * match when they use nearly the same words — Jaccard overlap of their BM25 terms (lower-cased, stop
 * words dropped, Porter-stemmed, src/retrieval/text-analyzer.ts). It finds a question asked again with a
 * word changed or reordered, never a paraphrase; the near-miss guards still apply.
 */
import { analyzeText } from "../retrieval/text-analyzer.js";

/** Share of distinct terms two questions must have in common (|A ∩ B| / |A ∪ B|). */
export const LEXICAL_MATCH_THRESHOLD = 0.8;

export function lexicalSimilarity(left: string, right: string): number {
  const leftTerms = new Set(analyzeText(left));
  const rightTerms = new Set(analyzeText(right));
  if (leftTerms.size === 0 || rightTerms.size === 0) return 0;
  let shared = 0;
  for (const term of leftTerms) if (rightTerms.has(term)) shared += 1;
  return shared / (leftTerms.size + rightTerms.size - shared);
}
