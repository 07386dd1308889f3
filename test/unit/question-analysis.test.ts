import { describe, expect, it } from "vitest";
import {
  analyzeQuestion,
  namedEntities,
  namedPeriods,
  namesInTitles,
  relativeYearsOf,
} from "../../src/answer/question/question-analysis.js";

describe("analyzeQuestion kinds", () => {
  it.each([
    ["What was Nike's net income in 2018?", "figure"],
    ["What was capital expenditure in fiscal 2017?", "figure"],
    ["How much can employees expense for gym memberships?", "figure"],
    ["What is the definition of cloud computing according to NIST?", "definition"],
    ["What does IaaS stand for?", "definition"],
    ["What is organic revenue growth?", "definition"],
    ["What are Contoso's company values?", "list"],
    ["Which lessons does PerksPlus cover?", "list"],
    ["What are the essential characteristics of cloud computing?", "list"],
    ["List the benefits of Northwind Health Plus.", "list"],
    ["Is PerksPlus available to contractors?", "yesno"],
    ["Which is higher: Nike's net income for 2018 or Corning's for 2020?", "comparison"],
    ["Did net income grow from 2017 to 2018?", "comparison"],
    ["What does the Northwind Premium plan cover?", "other"],
    ["And the year before?", "other"],
  ])("reads %j as %s", (question, kind) => {
    expect(analyzeQuestion(question).kind).toBe(kind);
  });
});

describe("analyzeQuestion parts", () => {
  it("splits a figure question into its name, period and measure", () => {
    const analysis = analyzeQuestion("What was Nike's net income in 2018?");
    expect(analysis).toEqual({
      kind: "figure",
      entities: ["Nike"],
      periods: [{ year: 2018 }],
      relativeYears: null,
      measureTerms: new Set(["net", "incom"]),
      measure: "net income",
    });
  });

  it("drops 'amount' and the company from the measure", () => {
    const analysis = analyzeQuestion("What was the capital expenditure amount of 3M in FY2018?");
    expect(analysis.entities).toEqual(["3M"]);
    expect(analysis.periods).toEqual([{ year: 2018 }]);
    expect(analysis.measure).toBe("capital expenditure");
    expect([...analysis.measureTerms]).toEqual(["capit", "expenditur"]);
  });

  it("keeps a joined name whole and out of the measure", () => {
    const analysis = analyzeQuestion("What was the revenue of Johnson & Johnson in FY2018?");
    expect(analysis.entities).toEqual(["Johnson & Johnson"]);
    expect(analysis.measure).toBe("revenue");
    expect([...analysis.measureTerms]).toEqual(["revenu"]);
  });

  it("keeps a lone abbreviation in the measure, not the names", () => {
    const analysis = analyzeQuestion("What was EPS in 2019?");
    expect(analysis.entities).toEqual([]);
    expect(analysis.measure).toBe("EPS");
  });

  it("makes the abbreviation asked about the term of a definition question", () => {
    const analysis = analyzeQuestion("What does IaaS stand for?");
    expect(analysis.kind).toBe("definition");
    expect(analysis.entities).toEqual([]);
    expect(analysis.measure).toBe("IaaS");
    expect([...analysis.measureTerms]).toEqual(["iaa"]);
  });

  it("leaves where the answer is expected out of the measure", () => {
    const analysis = analyzeQuestion("What is the definition of cloud computing according to NIST?");
    expect(analysis.measure).toBe("cloud computing");
    expect(analysis.entities).toEqual([]);
  });

  it("has no measure for a bare relative follow-up", () => {
    const analysis = analyzeQuestion("And the year before?");
    expect(analysis.relativeYears).toBe(-1);
    expect(analysis.measure).toBe("");
    expect(analysis.measureTerms.size).toBe(0);
  });

  it("reads a quarter in words as a period with its quarter", () => {
    const analysis = analyzeQuestion("What were sales in the first quarter of 2021?");
    expect(analysis.periods).toEqual([{ year: 2021, quarter: 1 }]);
    expect(analysis.measure).toBe("sales");
  });
});

describe("namedEntities", () => {
  it("reads a capitalized measure ending in an abbreviation and a half-year as no names", () => {
    expect(
      namedEntities(
        "What was MGM's interest coverage ratio using FY2022 Adjusted EBIT as the numerator and annual Interest Expense as the denominator?",
      ),
    ).toEqual(["MGM", "Interest Expense"]);
    expect(namedEntities("Which debt received the largest investment for MGM Resorts in H1 FY2023?")).toEqual([
      "MGM Resorts",
    ]);
  });

  it("reads a possessive as a name even as the first word", () => {
    expect(namedEntities("Nike's revenue in 2018?")).toEqual(["Nike"]);
  });

  it("reads a possessive of a short all-capitals name", () => {
    expect(namedEntities("What was JPM's revenue in 2020?")).toEqual(["JPM"]);
  });

  it("reads a name right after a colon", () => {
    expect(namedEntities("Which company had higher net income: Nike in 2018 or Amazon in 2018?")).toEqual([
      "Nike",
      "Amazon",
    ]);
  });

  it("joins words over '&' and 'of'", () => {
    expect(namedEntities("Compare Johnson & Johnson with Bank of America.")).toEqual([
      "Johnson & Johnson",
      "Bank of America",
    ]);
  });

  it("keeps names joined by 'and' apart", () => {
    expect(namedEntities("What do COB's and COBRA's rules say?")).toEqual(["COB", "COBRA"]);
    expect(namedEntities("How does Northwind Health Plus compare with Northwind Standard?")).toEqual([
      "Northwind Health Plus",
      "Northwind Standard",
    ]);
  });

  it("does not take a short all-capitals word alone for a name", () => {
    expect(namedEntities("Is COBRA covered?")).toEqual([]);
    expect(namedEntities("How is PTO accrued at Contoso?")).toEqual(["Contoso"]);
    expect(namedEntities("Does the plan cover COB and COBRA benefits for Contoso employees?")).toEqual(["Contoso"]);
  });

  it("takes an abbreviation that stands in a longer name", () => {
    expect(namedEntities("What was MGM Resorts revenue in 2020?")).toEqual(["MGM Resorts"]);
  });

  it("does not take a capitalized term after 'the' for a name", () => {
    expect(namedEntities("What is the Highest EBITDAR Contribution?")).toEqual([]);
  });

  it("takes 'the X plan' for a name", () => {
    expect(namedEntities("What does the Northwind Premium plan cover?")).toEqual(["Northwind Premium"]);
  });

  it("does not take question words, months or period tokens for names", () => {
    expect(namedEntities("What did Contoso earn in June of FY2023 and in Q3 2022?")).toEqual(["Contoso"]);
  });
});

describe("namedPeriods", () => {
  it("reads quarters in every form and plain, FY and fiscal years", () => {
    expect(namedPeriods("FY2018 vs fiscal 2017 and Q1 2023, 2Q 2022, third quarter of fiscal 2020")).toEqual([
      { year: 2023, quarter: 1 },
      { year: 2022, quarter: 2 },
      { year: 2020, quarter: 3 },
      { year: 2018 },
      { year: 2017 },
    ]);
  });

  it("reads a year once", () => {
    expect(namedPeriods("Revenue in 2018 compared with 2018 guidance")).toEqual([{ year: 2018 }]);
  });

  it("does not read a quarter without a year", () => {
    expect(namedPeriods("What were sales in the first quarter?")).toEqual([]);
  });
});

describe("relativeYearsOf", () => {
  it.each([
    ["And the year before?", -1],
    ["and a year earlier?", -1],
    ["What about the previous fiscal year?", -1],
    ["What about the next year?", 1],
    ["What about the following year?", 1],
    ["What about 2016?", null],
  ])("reads %j as %s", (question, shift) => {
    expect(relativeYearsOf(question)).toBe(shift);
  });

  it("reads a short capitals word as a name where the documents' titles use it, else as an abbreviation", () => {
    const known = namesInTitles(["MGM RESORTS INTERNATIONAL — Form 10-K", "NIKE, Inc. — Form 10-K"]);
    expect(analyzeQuestion("How much did MGM spend on share buybacks in 2022?", known).entities).toEqual(["MGM"]);
    expect(analyzeQuestion("How much did MGM spend on share buybacks in 2022?").entities).toEqual([]);
    expect(analyzeQuestion("What was the EPS in 2022?", known).entities).toEqual([]);
  });
});
