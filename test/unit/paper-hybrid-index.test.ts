/**
 * The paper-hybrid combination on a three-chunk corpus small enough to work out by hand. Its TF-IDF
 * matrix has rank 3, so the SVD keeps the whole row space and, for a question inside that space,
 * the SVD part's cosine equals the plain TF-IDF cosine: scores are α·cos(dense) + (1−α)·cos(tf-idf).
 */
import { describe, expect, it } from "vitest";
import { combineEmbeddings } from "../../src/retrieval/paper-hybrid-embedding.js";
import { DEFAULT_PAPER_HYBRID_SETTINGS, fitPaperHybridIndex } from "../../src/retrieval/paper-hybrid-index.js";
import { countTerms } from "../../src/retrieval/text-analyzer.js";

// Smoothed idf over 3 chunks: a term in 1 chunk, ln(4/2) + 1; in 2 chunks, ln(4/3) + 1.
const RARE = Math.log(2) + 1;
const COMMON = Math.log(4 / 3) + 1;
// TF-IDF cosines between the chunks: "apple banana"·"banana cherry", "banana cherry"·"cherry cherry date".
const FIRST_SECOND = COMMON / (Math.SQRT2 * Math.hypot(RARE, COMMON));
const SECOND_THIRD = (2 * COMMON) / (Math.SQRT2 * Math.hypot(2 * COMMON, RARE));

const ENTRIES = [
  { chunkId: "c1", documentId: "d1", text: "apple banana", dense: [2, 0] },
  { chunkId: "c2", documentId: "d1", text: "banana cherry", dense: [3, 4] },
  { chunkId: "c3", documentId: "d2", text: "cherry cherry date", dense: [0, 5] },
].map(({ text, ...entry }) => ({ ...entry, terms: countTerms(text) }));

describe("combineEmbeddings", () => {
  it("scales each part to unit length and weights them √α and √(1−α)", () => {
    const combined = Array.from(combineEmbeddings([3, 4], [0, 2], 0.5));
    const half = Math.SQRT1_2;
    expect(combined.map((value) => value.toFixed(12))).toEqual(
      [0.6 * half, 0.8 * half, 0, half].map((value) => value.toFixed(12)),
    );
    const quarter = Array.from(combineEmbeddings([1, 0], [0, 1], 0.25));
    expect(quarter.map((value) => value.toFixed(12))).toEqual([0.5, 0, 0, Math.sqrt(0.75)].map((v) => v.toFixed(12)));
  });

  it("keeps an all-zero part at zero and the whole at unit length", () => {
    expect(Array.from(combineEmbeddings([3, 4], [0, 0], 0.25))).toEqual([0.6000000000000001, 0.8, 0, 0]);
    expect(Array.from(combineEmbeddings([0, 0], [0, 0], 0.5))).toEqual([0, 0, 0, 0]);
  });
});

describe("fitPaperHybridIndex", () => {
  const settings = { ...DEFAULT_PAPER_HYBRID_SETTINGS, components: 384 };

  it("keeps the rank's 3 components and scores α·cos_dense + (1−α)·cos_tfidf at α = 0.5", () => {
    const index = fitPaperHybridIndex(ENTRIES, settings);
    expect(index.size).toBe(3);
    expect(index.reducedDimensions).toBe(3);
    const hits = index.search([1, 0], countTerms("apple banana"), 10);
    expect(hits.map((hit) => [hit.chunkId, hit.documentId])).toEqual([
      ["c1", "d1"],
      ["c2", "d1"],
      ["c3", "d2"],
    ]);
    expect(hits[0]?.score).toBeCloseTo(1, 12);
    expect(hits[1]?.score).toBeCloseTo(0.5 * 0.6 + 0.5 * FIRST_SECOND, 12);
    expect(hits[2]?.score).toBeCloseTo(0, 12);
    expect(hits[1]?.score).toBeCloseTo(0.514023, 6);
  });

  it("weights the dense part α and the SVD part 1−α at α = 0.25", () => {
    const index = fitPaperHybridIndex(ENTRIES, { ...settings, alpha: 0.25 });
    const hits = index.search([0, 1], countTerms("banana cherry"), 10);
    expect(hits.map((hit) => hit.chunkId)).toEqual(["c2", "c3", "c1"]);
    expect(hits[0]?.score).toBeCloseTo(0.25 * 0.8 + 0.75, 12);
    expect(hits[1]?.score).toBeCloseTo(0.25 * 1 + 0.75 * SECOND_THIRD, 12);
    expect(hits[2]?.score).toBeCloseTo(0.75 * FIRST_SECOND, 12);
  });

  it("ranks by the dense part alone, scaled by √α, when no question term is in the vocabulary", () => {
    const index = fitPaperHybridIndex(ENTRIES, settings);
    const hits = index.search([1, 0], countTerms("zebra"), 2);
    expect(hits.map((hit) => hit.chunkId)).toEqual(["c1", "c2"]);
    expect(hits[0]?.score).toBeCloseTo(Math.SQRT1_2, 12);
    expect(hits[1]?.score).toBeCloseTo(Math.SQRT1_2 * 0.6, 12);
  });

  it("refuses chunks whose dense vectors differ in size", () => {
    const mixed = [...ENTRIES, { chunkId: "c4", documentId: "d2", dense: [1, 2, 3], terms: countTerms("date") }];
    expect(() => fitPaperHybridIndex(mixed, settings)).toThrow(
      expect.objectContaining({ code: "dense_dimensions_mismatch" }),
    );
  });
});
