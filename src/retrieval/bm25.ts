/**
 * BM25 split into a document half and a query half so it fits a sparse vector index: documents store
 * saturated term frequencies, the query carries IDF from live corpus statistics, and their inner
 * product is exactly Lucene's BM25 score (Lucene's IDF, without the constant (k1 + 1) factor Lucene
 * dropped in 8.0 — we keep it in the document half, which does not change rankings).
 */
import type { SparseVector } from "../domain/types.js";
import type { TermCounts, TermStatistics } from "../stores/catalog.js";

export type Bm25Parameters = { k1: number; b: number };

/** Anserini's defaults, used for its published BEIR BM25 baselines. */
export const DEFAULT_BM25: Bm25Parameters = { k1: 0.9, b: 0.4 };

export function documentVector(terms: TermCounts, averageLength: number, parameters: Bm25Parameters): SparseVector {
  const { k1, b } = parameters;
  const lengthNorm = k1 * (1 - b + (b * terms.length) / Math.max(averageLength, 1e-9));
  return {
    indices: [...terms.termIds],
    values: terms.counts.map((count) => (count * (k1 + 1)) / (count + lengthNorm)),
  };
}

/** Lucene's BM25 IDF: log(1 + (N - df + 0.5) / (df + 0.5)). */
export function inverseDocumentFrequency(chunkCount: number, documentFrequency: number): number {
  return Math.log(1 + (chunkCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** Query weights: IDF times the term's count in the query; terms absent from the corpus are dropped. */
export function queryVector(terms: TermCounts, statistics: TermStatistics): SparseVector {
  const indices: number[] = [];
  const values: number[] = [];
  terms.termIds.forEach((id, position) => {
    const documentFrequency = statistics.documentFrequencies.get(id) ?? 0;
    if (documentFrequency === 0) return;
    indices.push(id);
    values.push(inverseDocumentFrequency(statistics.chunkCount, documentFrequency) * (terms.counts[position] ?? 1));
  });
  return { indices, values };
}
