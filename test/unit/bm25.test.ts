import { describe, expect, it } from "vitest";
import { DEFAULT_BM25, documentVector, inverseDocumentFrequency, queryVector } from "../../src/retrieval/bm25.js";
import type { TermStatistics } from "../../src/stores/catalog.js";

describe("BM25 vectors", () => {
  it("defaults to Anserini's k1 = 0.9, b = 0.4", () => {
    expect(DEFAULT_BM25).toEqual({ k1: 0.9, b: 0.4 });
  });

  it("saturates document term frequencies with length normalisation", () => {
    // length 4, average 8: norm = 0.9 * (1 - 0.4 + 0.4 * 4/8) = 0.72
    // tf 1: 1 * 1.9 / (1 + 0.72) = 1.1046512; tf 3: 3 * 1.9 / (3 + 0.72) = 1.5322581
    const vector = documentVector({ termIds: [7, 42], counts: [1, 3], length: 4 }, 8, DEFAULT_BM25);
    expect(vector.indices).toEqual([7, 42]);
    expect(vector.values[0]).toBeCloseTo(1.1046512, 6);
    expect(vector.values[1]).toBeCloseTo(1.5322581, 6);
  });

  it("weights query terms by Lucene's IDF times their count and drops unseen terms", () => {
    // N = 10, df = 2: ln(1 + (10 - 2 + 0.5) / (2 + 0.5)) = ln(4.4) = 1.4816045; count 2 -> 2.9632090
    // N = 10, df = 10: ln(1 + 0.5 / 10.5) = 0.0465200
    const statistics: TermStatistics = {
      chunkCount: 10,
      totalLength: 80,
      documentFrequencies: new Map([
        [7, 2],
        [42, 10],
      ]),
    };
    const vector = queryVector({ termIds: [3, 7, 42], counts: [1, 2, 1], length: 4 }, statistics);
    expect(vector.indices).toEqual([7, 42]);
    expect(vector.values[0]).toBeCloseTo(2.963209, 6);
    expect(vector.values[1]).toBeCloseTo(0.04652, 6);
    expect(inverseDocumentFrequency(10, 2)).toBeCloseTo(Math.log(4.4), 12);
  });

  it("has an inner product equal to Lucene's BM25 score", () => {
    const k1 = 1.2;
    const b = 0.75;
    const document = { termIds: [1, 2, 3], counts: [2, 1, 5], length: 30 };
    const statistics: TermStatistics = {
      chunkCount: 100,
      totalLength: 2000,
      documentFrequencies: new Map([
        [1, 5],
        [3, 40],
      ]),
    };
    const documentWeights = documentVector(document, 20, { k1, b });
    const queryWeights = queryVector({ termIds: [1, 3, 9], counts: [1, 1, 1], length: 3 }, statistics);
    const innerProduct = queryWeights.indices.reduce((sum, id, position) => {
      const documentPosition = documentWeights.indices.indexOf(id);
      return sum + (queryWeights.values[position] ?? 0) * (documentWeights.values[documentPosition] ?? 0);
    }, 0);
    // Lucene: sum over query terms of idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)).
    const lucene = (tf: number, df: number) =>
      Math.log(1 + (100 - df + 0.5) / (df + 0.5)) * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * 30) / 20)));
    expect(innerProduct).toBeCloseTo(lucene(2, 5) + lucene(5, 40), 10);
  });
});
