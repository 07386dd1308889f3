import { describe, expect, it } from "vitest";
import { createPageFinder } from "../../src/answer/citations/page-finder.js";
import { fitTfIdf } from "../../src/retrieval/paper-hybrid-tf-idf.js";
import { smoothedInverseDocumentFrequency } from "../../src/retrieval/smoothed-idf.js";

describe("smoothed idf (scikit-learn's smooth_idf)", () => {
  it("is ln((1 + n) / (1 + df)) + 1", () => {
    // scikit-learn: TfidfVectorizer().fit(["a b", "a", "c"]).idf_ for "a" (df 2 of 3) and "b" (df 1 of 3).
    expect(smoothedInverseDocumentFrequency(3, 2)).toBeCloseTo(1.2876820724517808, 12);
    expect(smoothedInverseDocumentFrequency(3, 1)).toBeCloseTo(1.6931471805599454, 12);
    expect(smoothedInverseDocumentFrequency(3, 3)).toBe(1);
  });

  it("is the weight the paper-hybrid TF-IDF fits", () => {
    const model = fitTfIdf([
      { termIds: [7, 8], counts: [1, 1], length: 2 },
      { termIds: [7], counts: [1], length: 1 },
      { termIds: [9], counts: [1], length: 1 },
    ]);
    expect([...model.inverseDocumentFrequencies]).toEqual([
      smoothedInverseDocumentFrequency(3, 2),
      smoothedInverseDocumentFrequency(3, 1),
      smoothedInverseDocumentFrequency(3, 1),
    ]);
  });

  it("lets the page finder prefer the page with the rarer shared term", () => {
    const findPage = createPageFinder([
      { pageNumber: 1, text: "revenue revenue growth" },
      { pageNumber: 2, text: "revenue dividends" },
      { pageNumber: 3, text: "revenue" },
    ]);
    expect(findPage("dividends revenue")).toBe(2);
  });
});
