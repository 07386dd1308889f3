import { describe, expect, it } from "vitest";
import { type RatioInputs, ratioSentences, workOutRatio } from "../../src/answer/compose/compute-ratio.js";
import type { FoundFigure } from "../../src/answer/evidence/find-figure.js";
import { ratioQuestion } from "../../src/answer/question/ratio-question.js";
import { netIncomeCell, pdfPassage } from "../support/answer-fixtures.js";

describe("ratioQuestion", () => {
  it("reads a ratio the question defines", () => {
    expect(
      ratioQuestion(
        "What is Block's FY2016 working capital ratio? Define working capital ratio as total current assets divided by total current liabilities. Round your answer to two decimal places.",
      ),
    ).toEqual({
      numerator: "total current assets",
      denominator: "total current liabilities",
      periods: [{ year: 2016 }],
      percent: false,
      name: "working capital ratio",
    });
  });

  it("reads one item as a percentage of another, averaged over the years asked", () => {
    expect(
      ratioQuestion("What is the FY2018 - FY2020 3 year average of capex as a % of revenue for MGM Resorts?"),
    ).toEqual({
      numerator: "capex",
      denominator: "revenue",
      periods: [{ year: 2018 }, { year: 2019 }, { year: 2020 }],
      percent: true,
      name: "capex as a % of revenue",
    });
  });

  it("reads a margin as its profit over revenue", () => {
    expect(ratioQuestion("What was Nike's gross margin in 2018?")).toMatchObject({
      numerator: "gross profit",
      denominator: "revenue",
      percent: true,
    });
    expect(
      ratioQuestion("what is the FY2019 - FY2021 3 year average unadjusted operating income % margin for Corning?"),
    ).toMatchObject({ numerator: "operating income", periods: [{ year: 2019 }, { year: 2020 }, { year: 2021 }] });
  });

  it.each([
    "What is Amazon's revenue in 2017?",
    "What drove the reduction in SG&A expense as a percent of net sales in FY2023?",
    "Did Ulta Beauty's wages expense as a percent of net sales increase or decrease in FY2023?",
    "What is DPO? DPO is defined as: 365 * (average accounts payable) / (COGS + change in inventory) for FY2017.",
    "What is the gross margin?",
  ])("reads no ratio to work out from %j", (question) => {
    expect(ratioQuestion(question)).toBeNull();
  });
});

function figure(label: string, number: number, scale: "million" | "thousand" | null = "million"): FoundFigure {
  const result = pdfPassage({ chunkId: label, documentId: "d", spaceId: "s", file: "f.pdf", title: "t", text: label });
  return {
    source: { n: 1, result },
    cell: netIncomeCell({ label, number, value: number.toLocaleString("en-US"), scale, currency: "$" }),
    score: 1,
    exact: true,
  };
}

describe("workOutRatio and ratioSentences", () => {
  const question = {
    numerator: "cost of sales",
    denominator: "revenues",
    periods: [{ year: 2017 }, { year: 2018 }],
    percent: true,
    name: "cost of sales as a % of revenues",
  };
  const inputs: RatioInputs = [
    { period: { year: 2017 }, numerator: figure("Cost of sales", 19038), denominator: figure("Revenues", 34350) },
    { period: { year: 2018 }, numerator: figure("Cost of sales", 20441), denominator: figure("Revenues", 36397) },
  ];

  it("averages each year's percentage and shows every input with its citation", () => {
    const worked = workOutRatio(question, inputs);
    expect(worked?.value).toBeCloseTo((100 * 19038) / 34350 / 2 + (100 * 20441) / 36397 / 2, 6);
    expect(
      ratioSentences(question, inputs, worked as NonNullable<typeof worked>, "Nike", [
        { numerator: 1, denominator: 2 },
        { numerator: 1, denominator: 2 },
      ]),
    ).toBe(
      "Nike's cost of sales as a % of revenues, averaged over 2017–2018, was 55.8% (cost of sales / revenues: 2017: $19,038 million [1] / $34,350 million [2] = 55.4%; 2018: $20,441 million [1] / $36,397 million [2] = 56.2%).",
    );
  });

  it("scales both amounts to one unit and refuses amounts it cannot set against each other", () => {
    const mixed: RatioInputs = [
      {
        period: { year: 2018 },
        numerator: figure("Current assets", 1500, "thousand"),
        denominator: figure("Current liabilities", 1, "million"),
      },
    ];
    expect(workOutRatio({ ...question, percent: false }, mixed)?.value).toBeCloseTo(1.5, 6);
    const unitless: RatioInputs = [
      {
        period: { year: 2018 },
        numerator: figure("Current assets", 1500, null),
        denominator: figure("Current liabilities", 1),
      },
    ];
    expect(workOutRatio(question, unitless)).toBeNull();
  });
});
