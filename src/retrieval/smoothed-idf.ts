/**
 * Smoothed inverse document frequency as scikit-learn's TfidfVectorizer computes it by default
 * (`smooth_idf=True`): ln((1 + n) / (1 + df)) + 1, as if one extra document held every term once, so
 * no term gets a zero or infinite weight. The seed paper's implementation uses it; the TF-IDF page
 * finder (src/answer/citations/page-finder.ts) and the paper-hybrid embedding (paper-hybrid-tf-idf.ts) share it.
 */
export function smoothedInverseDocumentFrequency(documentCount: number, documentFrequency: number): number {
  return Math.log((1 + documentCount) / (1 + documentFrequency)) + 1;
}
