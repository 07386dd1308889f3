import { describe, expect, it } from "vitest";
import {
  averagePrecisionAt,
  evaluateRun,
  ndcgAt,
  precisionAt,
  type Qrels,
  type RankedDocument,
  type Run,
  recallAt,
  reciprocalRankAt,
  sortRun,
} from "../../src/evaluation/ir-metrics.js";
import { percentile, summarizeLatency } from "../../src/evaluation/latency.js";

// One query, worked by hand.
// Judgments: d1 = 2, d2 = 1, d4 = 1 (relevant; d4 never retrieved), d3 = 0 (judged not relevant).
// Run: d3 3.0, d1 2.0, d5 2.0, d2 1.0. The d1/d5 tie breaks by document id descending (trec_eval),
// so the ranking is d3, d5, d1, d2.
const judgments = new Map([
  ["d1", 2],
  ["d2", 1],
  ["d3", 0],
  ["d4", 1],
]);
const documents: RankedDocument[] = [
  { docId: "d2", score: 1 },
  { docId: "d1", score: 2 },
  { docId: "d3", score: 3 },
  { docId: "d5", score: 2 },
];
const ranked = sortRun(documents);

describe("ranking metrics", () => {
  it("sorts by score descending and breaks ties by document id descending", () => {
    expect(ranked).toEqual(["d3", "d5", "d1", "d2"]);
  });

  it("computes nDCG with linear gain against the ideal ranking of all judged relevant documents", () => {
    // DCG@5 = 2 / log2(4) + 1 / log2(5) = 1 + 0.4306766 = 1.4306766
    // IDCG@5 = 2 / log2(2) + 1 / log2(3) + 1 / log2(4) = 2 + 0.6309298 + 0.5 = 3.1309298
    // nDCG@5 = 1.4306766 / 3.1309298 = 0.4569495
    expect(ndcgAt(ranked, judgments, 5)).toBeCloseTo(0.4569495, 6);
    // DCG@3 = 1; IDCG@3 = 3.1309298 -> 0.3193941
    expect(ndcgAt(ranked, judgments, 3)).toBeCloseTo(0.3193941, 6);
    expect(ndcgAt(ranked, judgments, 2)).toBe(0);
  });

  it("divides MAP@k by the number of relevant documents, not by k", () => {
    // Relevant at ranks 3 (precision 1/3) and 4 (precision 2/4); 3 relevant in all:
    // (1/3 + 1/2) / 3 = 0.2777778. At k = 3 only the first counts: (1/3) / 3 = 0.1111111.
    expect(averagePrecisionAt(ranked, judgments, 10)).toBeCloseTo(0.2777778, 6);
    expect(averagePrecisionAt(ranked, judgments, 3)).toBeCloseTo(0.1111111, 6);
  });

  it("computes recall, precision and reciprocal rank at a cutoff", () => {
    expect(recallAt(ranked, judgments, 5)).toBeCloseTo(2 / 3, 10);
    expect(recallAt(ranked, judgments, 3)).toBeCloseTo(1 / 3, 10);
    // P@5 divides by 5 even though only 4 documents were retrieved: 2 / 5.
    expect(precisionAt(ranked, judgments, 5)).toBe(0.4);
    expect(reciprocalRankAt(ranked, judgments, 10)).toBeCloseTo(1 / 3, 10);
    expect(reciprocalRankAt(ranked, judgments, 2)).toBe(0);
  });
});

describe("evaluateRun", () => {
  it("averages over judged queries, scoring a missing run 0 and skipping queries without relevant judgments", () => {
    const qrels: Qrels = new Map([
      ["q1", judgments],
      // q2: its only relevant document first -> every metric 1 (P@5 = 1/5).
      ["q2", new Map([["a", 1]])],
      // q3: judged but in no run -> every metric 0.
      ["q3", new Map([["b", 1]])],
      // q4: no relevant judgment -> left out.
      ["q4", new Map([["c", 0]])],
    ]);
    const run: Run = new Map([
      ["q1", documents],
      [
        "q2",
        [
          { docId: "a", score: 5 },
          { docId: "z", score: 1 },
        ],
      ],
      ["q4", [{ docId: "c", score: 1 }]],
    ]);
    const { queries, metrics } = evaluateRun(run, qrels);
    expect(queries).toBe(3);
    // nDCG@10: (0.4569495 + 1 + 0) / 3 = 0.4856498 -> 0.4856
    // MAP@10: (0.2777778 + 1 + 0) / 3 = 0.4259259 -> 0.4259
    // recall@5: (2/3 + 1 + 0) / 3 = 0.5555556 -> 0.5556
    // P@5: (0.4 + 0.2 + 0) / 3 = 0.2; MRR@10: (1/3 + 1 + 0) / 3 = 0.4444444 -> 0.4444
    expect(metrics).toEqual({
      "ndcg@5": 0.4856,
      "ndcg@10": 0.4856,
      "map@10": 0.4259,
      "recall@5": 0.5556,
      "recall@10": 0.5556,
      "recall@100": 0.5556,
      "p@5": 0.2,
      "mrr@10": 0.4444,
    });
  });

  it("reports zero queries and zero metrics when nothing is judged relevant", () => {
    const { queries, metrics } = evaluateRun(new Map(), new Map([["q", new Map([["d", 0]])]]));
    expect(queries).toBe(0);
    expect(metrics["ndcg@10"]).toBe(0);
  });
});

describe("latency percentiles", () => {
  it("interpolates linearly between the closest ranks", () => {
    // Sorted 1, 2, 3, 4, 10: p50 is rank 2 (0-based) = 3; p95 is rank 3.8 = 4 + 0.8 * (10 - 4) = 8.8.
    expect(percentile([10, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([10, 1, 3, 2, 4], 95)).toBeCloseTo(8.8, 10);
    // Even count: p50 of 1, 2, 3, 4 is rank 1.5 = 2.5.
    expect(percentile([4, 3, 2, 1], 50)).toBe(2.5);
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
    // p95 of 1.234, 2.345, 3.456 is rank 1.9 = 2.345 + 0.9 * 1.111 = 3.3449 -> 3.34.
    expect(summarizeLatency([1.234, 2.345, 3.456])).toEqual({ p50: 2.35, p95: 3.34 });
  });
});
