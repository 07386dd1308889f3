import { describe, expect, it } from "vitest";
import { analyzeText, countTerms, termId } from "../../src/retrieval/text-analyzer.js";

describe("analyzeText", () => {
  it("lower-cases, drops possessives and stop words, folds diacritics and Porter-stems", () => {
    expect(analyzeText("The Cats' owner's café — RUNNING at 3.5 km/h, isn't it? Naïve résumés of the U.S.")).toEqual([
      "cat",
      "owner",
      "cafe",
      "run",
      "3.5",
      "km",
      "h",
      "isn't",
      "naiv",
      "resum",
      "u.",
    ]);
  });

  it("drops every one of Lucene's 33 English stop words and nothing else", () => {
    const stopWords =
      "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with";
    expect(stopWords.split(" ")).toHaveLength(33);
    expect(analyzeText(stopWords.toUpperCase())).toEqual([]);
    expect(analyzeText("was were")).toEqual(["were"]);
  });

  it("removes the possessive with a curly apostrophe too, and keeps inner apostrophes straight", () => {
    expect(analyzeText("Folio’s parser doesn’t")).toEqual(["folio", "parser", "doesn't"]);
  });

  it("splits compatibility forms like their plain equivalents", () => {
    expect(analyzeText("ﬁle Ｆｕｌｌwidth ½ İstanbul")).toEqual(["file", "fullwidth", "1", "2", "istanbul"]);
  });

  it("keeps digit groups and hyphenated parts apart the way Lucene's StandardTokenizer does", () => {
    expect(analyzeText("1,000 patients; IL-6 and p53-mediated generalizations")).toEqual([
      "1,000",
      "patient",
      "il",
      "6",
      "p53",
      "mediat",
      "gener",
    ]);
  });
});

describe("termId", () => {
  it("is FNV-1a 32-bit folded to 29 bits", () => {
    // FNV-1a("a") = 0xe40c292c; & 0x1fffffff = 0x040c292c = 67905836.
    expect(termId("a")).toBe(67_905_836);
    expect(termId("cat")).toBe(108_289_031);
    for (const term of ["patient", "straße", "3.5"]) expect(termId(term)).toBeLessThan(2 ** 29);
  });
});

describe("countTerms", () => {
  it("returns unique ascending term ids with their counts and the analyzed length", () => {
    // running, runs, RUNS -> run (3); ran -> ran (1); runner -> runner (1); "the" is a stop word.
    const expected = new Map([
      [termId("run"), 3],
      [termId("runner"), 1],
      [termId("ran"), 1],
    ]);
    const ascending = [...expected.keys()].sort((left, right) => left - right);
    expect(countTerms("running runs ran; the runner RUNS")).toEqual({
      termIds: ascending,
      counts: ascending.map((id) => expected.get(id)),
      length: 5,
    });
    expect(countTerms("the of and")).toEqual({ termIds: [], counts: [], length: 0 });
  });
});
