/**
 * The no-context rule's coverage reads a source as it was indexed: title, file name and section
 * heading count as words of the passage, so a question naming the statement a table sits under is
 * covered by that table.
 */
import { describe, expect, it } from "vitest";
import { askedText, assessRelevance } from "../../src/answer/evidence/no-context.js";
import type { SearchResult } from "../../src/domain/types.js";

const statementRows: SearchResult = {
  chunkId: "c1",
  documentId: "d1",
  spaceId: "console:test",
  file: "acme-annual-report.pdf",
  title: "Acme annual report",
  mediaType: "application/pdf",
  pageStart: 60,
  pageEnd: 60,
  score: 1,
  text: "(Millions) | 2018 | 2017\nPurchases of property, plant and equipment | (1,577) | (1,373)",
  provenance: { pageStart: 60, pageEnd: 60, headingPath: ["Consolidated Statement of Cash Flows"] },
  kind: "table",
};

describe("no-context coverage", () => {
  const question = "How much capital spending by segment did Acme disclose for 2018?";
  const bySegment: SearchResult = {
    ...statementRows,
    provenance: { pageStart: 61, pageEnd: 61, headingPath: ["Capital Spending by Segment"] },
  };

  it("counts the words of the passage's section heading", () => {
    // capital, spending, segment, acme, 2018 of capital, spending, segment, acme, disclose, 2018.
    expect(assessRelevance(question, [bySegment])).toEqual({ relevant: true, coverage: 5 / 6 });
  });

  it("finds the same passage without its heading too little of the question", () => {
    const withoutHeading = { ...bySegment, provenance: { pageStart: 61, pageEnd: 61 } };
    expect(assessRelevance(question, [withoutHeading])).toEqual({ relevant: false, coverage: 2 / 6 });
  });

  it("counts a statement the question names as covered by that statement's passages, by any of its names", () => {
    // Terms: acme, revenue, 2018, income, statement.
    const income = "What was Acme's revenue in 2018 (income statement)?";
    const operations = {
      ...statementRows,
      provenance: { ...statementRows.provenance, headingPath: ["Consolidated Statements of Operations"] },
    };
    // acme, 2018, and "income statement" as the page's "Statements of Operations".
    expect(assessRelevance(income, [operations])).toEqual({ relevant: true, coverage: 0.8 });
    // acme, 2018, and the word "statement" of "Statement of Cash Flows" alone.
    expect(assessRelevance(income, [statementRows])).toEqual({ relevant: true, coverage: 0.6 });
    const withoutHeading = { ...operations, provenance: { pageStart: 60, pageEnd: 60 } };
    expect(assessRelevance(income, [withoutHeading])).toEqual({ relevant: false, coverage: 0.4 });
  });

  it("does not ask a passage for the question's question words or for the word 'fiscal' beside a year", () => {
    // Terms: current, asset, acme, 2018 — all in the passage; "how much … did … have" and "fiscal" are not asked for.
    const balanceSheet: SearchResult = {
      ...statementRows,
      text: "(Millions) | 2018 | 2017\nTotal current assets | 13,709 | 14,277",
      provenance: { pageStart: 58, pageEnd: 58, headingPath: ["Consolidated Balance Sheet"] },
    };
    expect(assessRelevance("How much in current assets did Acme have in fiscal 2018?", [balanceSheet])).toEqual({
      relevant: true,
      coverage: 1,
    });
    expect(assessRelevance("How much in current assets did Acme have in fiscal 2019?", [balanceSheet])).toEqual({
      relevant: true,
      coverage: 0.75,
    });
  });

  it("counts two words of the question that the passage writes as one ('lay off' as 'Layoff')", () => {
    const warnRow: SearchResult = {
      ...statementRows,
      file: "warn-report.pdf",
      title: "WARN report",
      text: "09/25/2015 | Maxim Integrated Product | San Jose | 11 | Layoff | Unknown at this time",
      provenance: { pageStart: 2, pageEnd: 2 },
    };
    // Terms: maxim, integr, product, lai, off — "lay off" is the row's "Layoff".
    expect(assessRelevance("How many did Maxim Integrated Product lay off?", [warnRow])).toEqual({
      relevant: true,
      coverage: 1,
    });
    // Without the joined word in the passage, the pair is not covered.
    const withoutLayoff = { ...warnRow, text: "09/25/2015 | Maxim Integrated Product | San Jose | 11 | Closure" };
    expect(assessRelevance("How many did Maxim Integrated Product lay off?", [withoutLayoff])).toEqual({
      relevant: true,
      coverage: 0.6,
    });
  });

  it("asks a passage to cover the question's questions, not the definitions, formulas and asides around them", () => {
    expect(
      askedText(
        "What is Acme's fiscal 2017 days payable outstanding (DPO)? DPO is defined as: 365 * (average accounts payable) / (COGS + change in inventory). Round to 2.5 places.",
      ),
    ).toBe("What is Acme's fiscal 2017 days payable outstanding?");
    expect(
      askedText(
        "what is the fiscal 2016 working capital ratio? (balance sheet) Define it as current assets over current liabilities.",
      ),
    ).toBe("what is the fiscal 2016 working capital ratio? (balance sheet)");
    expect(askedText("Is 3.5 mg a safe dose? Ask twice? Fine.")).toBe("Is 3.5 mg a safe dose? Ask twice?");
    expect(askedText("Deductible for in-network care")).toBe("Deductible for in-network care");
    expect(askedText("What did Block (formerly known as Square) earn? (income statement)")).toBe(
      "What did Block earn? (income statement)",
    );
    expect(askedText("What is the 401(k) employer match?")).toBe("What is the 401(k) employer match?");
  });

  it("does not ask a passage for the name of the arithmetic that derives the asked figure", () => {
    const income = {
      ...statementRows,
      text: "(Millions) | 2018 | 2017 | 2016\nRevenues | 36,397 | 34,350 | 32,376\nCost of sales | 20,441 | 19,038 | 17,405",
      provenance: { pageStart: 46, pageEnd: 46, headingPath: ["Consolidated Statements of Income"] },
    };
    // Terms: acme, cost, sales, revenue, from, 2016, 2018 (all but "from" on the page); "average" and
    // "percentage" say how the figure is worked out. Asked for them, the passage would cover 6 of 9.
    expect(
      assessRelevance("What is Acme's average cost of sales as a percentage of revenue from 2016 to 2018?", [income]),
    ).toEqual({ relevant: true, coverage: 6 / 7 });
    const averages = { ...income, text: "Average selling price | 87 | 85" };
    expect(assessRelevance("What is the average?", [averages])).toEqual({ relevant: true, coverage: 1 });
  });
});
