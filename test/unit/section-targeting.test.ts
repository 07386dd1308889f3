/**
 * Section targeting: a question names a heading when it carries two of its words and half of them
 * (or three); the document's own name and bare numbers in a heading never count.
 */
import { describe, expect, it } from "vitest";
import { namedSectionHits, namesSection, type SectionCandidate } from "../../src/retrieval/section-targeting.js";
import { analyzeText } from "../../src/retrieval/text-analyzer.js";

function under(
  heading: string | null,
  title = "Acme annual report 2018",
  file = "ACME_2018_10K.pdf",
): SectionCandidate {
  return {
    chunkId: `chunk-${heading}`,
    documentId: "doc",
    spaceId: "console:test",
    score: 1,
    title,
    file,
    provenance: heading ? { headingPath: [heading] } : {},
  };
}

const terms = (question: string) => new Set(analyzeText(question));

describe("section targeting", () => {
  it("names a statement by its words in any order or inflection", () => {
    const question = terms("What were Acme's 2018 capital expenditures, as shown in the cash flow statement?");
    expect(namesSection(question, under("Consolidated Statements of Cash Flows"))).toBe(true);
    expect(namesSection(question, under("Consolidated Balance Sheets"))).toBe(false);
    expect(
      namesSection(terms("Per the balance sheet, what were total assets?"), under("CONSOLIDATED BALANCE SHEETS")),
    ).toBe(true);
  });

  it("counts three words as enough in a long heading block, but never the document's name or bare numbers", () => {
    const block = "Acme Company and Subsidiaries Consolidated Statement of Cash Flows Years ended December 31";
    expect(namesSection(terms("Acme cash flow statement: capital spending in 2018?"), under(block))).toBe(true);
    // Only "Acme" (the title) and "31" (a number) besides one heading word: not named.
    expect(namesSection(terms("Acme's cash at December 31?"), under(block))).toBe(false);
    // A heading that repeats the document's name is named by no question about that document.
    const booklet = under(
      "Northwind Health Plus",
      "Northwind Health Plus Plan",
      "Northwind_Health_Plus_Benefits_Details.pdf",
    );
    expect(namesSection(terms("Does Northwind Health Plus cover eye exams?"), booklet)).toBe(false);
    expect(namesSection(terms("Anything about the cash flow statement?"), under(null))).toBe(false);
  });

  it("keeps the named sections' candidates in their ranked order", () => {
    const candidates = [
      under("Liquidity and Capital Resources"),
      under("Consolidated Statements of Cash Flows"),
      under("Cash Flows from Investing Activities"),
      under("Statement of Cash Flows (continued)"),
    ];
    expect(
      namedSectionHits("Capital expenditures in the cash flow statement?", candidates).map((hit) => hit.chunkId),
    ).toEqual(["chunk-Consolidated Statements of Cash Flows", "chunk-Statement of Cash Flows (continued)"]);
    expect(namedSectionHits("Who is the chief executive?", candidates)).toEqual([]);
  });
});
