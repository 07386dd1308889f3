/**
 * Figures a document states in prose, list items a yes/no question asks about, and the sentence that
 * decides a yes/no question: each read from passages shaped like the filings' and handbooks' own text.
 */
import { describe, expect, it } from "vitest";
import { findDecidingSentence } from "../../src/answer/evidence/find-deciding-sentence.js";
import { findListItem } from "../../src/answer/evidence/find-list.js";
import { amountsIn, findProseFigure } from "../../src/answer/evidence/find-prose-figure.js";
import { contentTerms } from "../../src/answer/evidence/sentence-scoring.js";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import { analyzeQuestion } from "../../src/answer/question/question-analysis.js";
import { pdfPassage } from "../support/answer-fixtures.js";

function source(
  n: number,
  text: string,
  title = "Acme Corp — Form 10-K 2018",
  file = "Acme_2018_10K.pdf",
): NumberedSource {
  const result = pdfPassage({
    chunkId: `acme-${n}`,
    documentId: "acme",
    spaceId: "space-stated",
    file,
    title,
    pageStart: n,
    pageEnd: n,
    text,
  });
  return { n, result };
}

describe("amountsIn", () => {
  it("reads amounts with their currency and scale word, and leaves years, dates and small counts out", () => {
    const amounts = amountsIn(
      "On May 12, 2017, we acquired 2.2 million shares for $900.0 million in 3 steps during 2017.",
    );
    expect(amounts.map((amount) => [amount.printed, amount.number, amount.currency, amount.scale])).toEqual([
      ["2.2 million", 2.2, null, "million"],
      ["$900.0 million", 900, "$", "million"],
    ]);
  });
});

describe("findProseFigure", () => {
  const employees = source(
    7,
    "We own many patents.\n\nEmployees\nAs of May 31, 2018, we had approximately 73,100 employees worldwide, including retail and part-time employees. None of our employees are represented by a union.",
  );

  it("quotes the sentence that states a count, reading the count beside the measure", () => {
    const found = findProseFigure(
      analyzeQuestion("How many employees did Acme have as of May 31, 2018?"),
      [employees],
      true,
    );
    expect(found?.passage.text).toBe(
      "As of May 31, 2018, we had approximately 73,100 employees worldwide, including retail and part-time employees.",
    );
    expect(employees.result.text.slice(found?.passage.start, found?.passage.end)).toBe(found?.passage.text);
    expect(found?.cell.number).toBe(73100);
  });

  it("finds nothing when no sentence names the year asked", () => {
    expect(findProseFigure(analyzeQuestion("How many employees did Acme have in 2016?"), [employees], true)).toBeNull();
  });

  it("takes the amount of money over a count of shares, and the year's figure over a quarter's", () => {
    const repurchases = source(
      3,
      "During the fourth quarter of fiscal 2022, the Company repurchased 722,457 shares of its common stock at a cost of $328.1 million. During fiscal 2022, the Company repurchased 2.2\nmillion shares of its common stock at a cost of $900.0 million.",
    );
    const found = findProseFigure(analyzeQuestion("What were Acme's share repurchases in 2022?"), [repurchases]);
    expect(found?.cell).toMatchObject({ value: "$900.0 million", number: 900, scale: "million", currency: "$" });
  });

  it("leaves out another line item, a change, a 'respectively' pair and another company's passage", () => {
    const analysis = analyzeQuestion("What was Acme's revenue in 2016?");
    const unearned = source(
      1,
      "The amortization of previously unearned revenue was approximately $10.0 billion in 2016.",
    );
    const change = source(
      2,
      "Revenue for the year ended December 31, 2016 increased by $71.3 million compared to 2015.",
    );
    const pair = source(3, "Revenue was $120.1 billion and $135.9 billion in 2015 and 2016, respectively.");
    const other = source(4, "Revenue was $3.3 billion in 2016.", "Block, Inc. — Form 10-K 2016", "BLOCK_2016_10K.pdf");
    expect(findProseFigure(analysis, [unearned, change, pair, other])).toBeNull();
    const stated = source(5, "Revenue was $135.9 billion in 2016.");
    expect(findProseFigure(analysis, [unearned, stated])?.cell.number).toBe(135.9);
  });

  it("reads a buyback as a repurchase", () => {
    const highlights = source(
      1,
      "Regional Operations\n\n• Share buybacks of $2.8 billion in 2022 and $352 million in 4Q22",
    );
    const found = findProseFigure(analyzeQuestion("What were Acme's share repurchases in 2022?"), [highlights]);
    expect(found?.cell).toMatchObject({ number: 2.8, scale: "billion" });
  });
});

describe("findListItem", () => {
  const plan = source(
    3,
    [
      "What is Covered?",
      "The plan covers a wide range of fitness activities, including but not limited to:",
      "•",
      "•",
      "Gym memberships",
      "Yoga and Pilates classes",
      "",
      "What is Not Covered?",
      "There is also a list of things that are not covered under the program. These include but are not limited to:",
      "•",
      "•",
      "Travel expenses",
      "Food and supplements",
      "",
      "How to submit a claim.",
    ].join("\n"),
    "PerksPlus",
    "PerksPlus.pdf",
  );

  it("shows the item a yes/no question asks about under the introduction that says what its list is", () => {
    const found = findListItem(contentTerms("Are food and supplements covered by the plan?"), [plan]);
    expect(found?.items).toEqual(["Food and supplements"]);
    expect(found?.introduction).toContain("not covered");
  });

  it("finds an item with a misspelt word among the question's others", () => {
    const found = findListItem(contentTerms("does the plan cover yoga clases?"), [plan]);
    expect(found?.items).toEqual(["Yoga and Pilates classes"]);
  });

  it("finds nothing for an item no list holds", () => {
    expect(findListItem(contentTerms("Are car repairs covered by the plan?"), [plan])).toBeNull();
  });
});

describe("findDecidingSentence", () => {
  const segments = source(
    27,
    "The Company's reportable operating segments for the Acme Brand are: North America; Europe; and Asia. Converse is also a reportable segment and operates in one industry.",
  );

  it("takes the sentence that names what the question names, not the one sharing most other words", () => {
    const analysis = analyzeQuestion("Is Converse a reportable segment of Acme?");
    const found = findDecidingSentence(analysis.entities, contentTerms("reportable segment"), [segments]);
    expect(found?.passage.text).toBe("Converse is also a reportable segment and operates in one industry.");
  });

  it("decides nothing when no sentence names the name asked about", () => {
    const analysis = analyzeQuestion("Is Hurley a reportable segment of Acme?");
    expect(findDecidingSentence(analysis.entities, contentTerms("reportable segment"), [segments])).toBeNull();
  });
});
