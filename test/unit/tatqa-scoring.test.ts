import { describe, expect, it } from "vitest";
import { firstSentenceHolds, firstSentences } from "../../src/evaluation/first-sentence.js";
import { normalizeOfficialAnswer, officialAnswerString, officialScore } from "../../src/evaluation/tatqa-metric.js";

describe("firstSentences", () => {
  it("ends a sentence after its citation markers, not after an abbreviation or inside a number", () => {
    expect(firstSentences("Net sales at Acme Inc. were $1,496.5 million [1]. Other text [2].")).toBe(
      "Net sales at Acme Inc. were $1,496.5 million [1].",
    );
  });

  it("runs a list introduced by a colon on through its bullets", () => {
    expect(firstSentences("The segments are: [1]\n• Americas\n• EMEA\nMore.")).toBe(
      "The segments are: [1]\n• Americas\n• EMEA",
    );
  });
});

describe("firstSentenceHolds", () => {
  const gold = (answer: string[] | number, answerType: "span" | "multi-span" | "arithmetic" | "count", scale = "") => ({
    question: "What is it?",
    answer,
    answerType,
    scale: scale as "" | "million" | "percent",
  });

  it("reads a number with its scale and a decrease said in words as negative", () => {
    expect(
      firstSentenceHolds("Other fell by $12.6 million [1]. Then more.", gold(-12.6, "arithmetic", "million")).holds,
    ).toBe(true);
    expect(firstSentenceHolds("Other rose by $12.6 million [1].", gold(-12.6, "arithmetic", "million")).holds).toBe(
      false,
    );
    expect(firstSentenceHolds("It rose by 22.1% [1].", gold(22.22, "arithmetic", "percent")).holds).toBe(true);
    expect(firstSentenceHolds("It rose by 22.1 [1].", gold(22.22, "arithmetic", "percent")).holds).toBe(false);
  });

  it("looks only at the first sentence", () => {
    expect(
      firstSentenceHolds(
        "Something else [1]. Total sales were $1,496.5 million [2].",
        gold(["$1,496.5"], "span", "million"),
      ).holds,
    ).toBe(false);
  });

  it("needs every item of a multi-span answer, and the first year named for a which-year question", () => {
    expect(
      firstSentenceHolds(
        "The types are fixed-price and cost-plus [1].",
        gold(["fixed-price", "cost-plus", "time-and-material"], "multi-span"),
      ).holds,
    ).toBe(false);
    const whichYear = {
      question: "In which year was it larger?",
      answer: ["2019"],
      answerType: "span" as const,
      scale: "" as const,
    };
    expect(firstSentenceHolds("It was higher in 2019 than in 2018 [1].", whichYear).holds).toBe(true);
    expect(firstSentenceHolds("It was higher in 2018 than in 2019 [1].", whichYear).holds).toBe(false);
  });
});

describe("TAT-QA's official metric", () => {
  it("normalises numbers, percentages and parentheses as the official script does", () => {
    expect(normalizeOfficialAnswer("$1,496.5")).toBe("1496.5");
    expect(normalizeOfficialAnswer("(19)")).toBe("-19");
    // A parenthesis with a thousands separator is not read as negative by the official script.
    expect(normalizeOfficialAnswer("(1,234)")).toBe("1234");
    expect(officialAnswerString(["12.5"], "percent")).toBe("0.1250");
    expect(officialAnswerString(["1,496.5"], "million")).toBe("1496500000.0000");
  });

  it("scores exact match and F1, with F1 equal to exact match for calculations", () => {
    expect(
      officialScore(
        { items: ["-12.6"], scale: "million" },
        { answer: -12.6, answerType: "arithmetic", scale: "million" },
      ),
    ).toEqual({ em: 1, f1: 1 });
    expect(
      officialScore({ items: ["-12.6"], scale: "" }, { answer: -12.6, answerType: "arithmetic", scale: "million" }),
    ).toEqual({ em: 0, f1: 0 });
    expect(
      officialScore(
        { items: ["fixed-price type", "cost-plus type"], scale: "" },
        {
          answer: ["fixed-price type", "cost-plus type", "time-and-material type"],
          answerType: "multi-span",
          scale: "",
        },
      ).em,
    ).toBe(0);
    expect(
      officialScore({ items: ["Total sales"], scale: "" }, { answer: ["total sales"], answerType: "span", scale: "" }),
    ).toEqual({ em: 1, f1: 1 });
  });
});
