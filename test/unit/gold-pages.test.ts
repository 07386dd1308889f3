import { describe, expect, it } from "vitest";
import { goldPagesOf } from "../../src/evaluation/answer-evaluation.js";

describe("goldPagesOf (page-cited QA references)", () => {
  it("reads bracketed citations, including file names with spaces", () => {
    expect(
      goldPagesOf(
        "Rates rose [Financial Market Analysis Report 2023.pdf#page=8] and fell [Benefit_Options.pdf#page=3].",
      ),
    ).toEqual([
      { file: "Financial Market Analysis Report 2023.pdf", page: 8 },
      { file: "Benefit_Options.pdf", page: 3 },
    ]);
  });

  it("reads a bare citation and ignores text without one", () => {
    expect(goldPagesOf("see PerksPlus.pdf#page=2")).toEqual([{ file: "PerksPlus.pdf", page: 2 }]);
    expect(goldPagesOf("no page cited here")).toEqual([]);
  });
});
