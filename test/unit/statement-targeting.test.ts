/**
 * Statement targeting: a question naming a financial statement gets that statement's passages fused
 * ahead; a question naming documents only gets their statements; other questions keep their ranking.
 */
import { describe, expect, it } from "vitest";
import type { SearchResult } from "../../src/domain/types.js";
import { preferNamedStatements } from "../../src/retrieval/statement-targeting.js";

function result(
  chunkId: string,
  documentId: string,
  heading: string | null,
  kind: SearchResult["kind"] = "table",
): SearchResult {
  return {
    chunkId,
    documentId,
    spaceId: "console:test",
    file: `${documentId}.pdf`,
    title: documentId,
    mediaType: "application/pdf",
    pageStart: 1,
    pageEnd: 1,
    score: 0,
    text: "",
    provenance: { pageStart: 1, pageEnd: 1, ...(heading === null ? {} : { headingPath: [heading] }) },
    kind,
  };
}

const ranking = [
  result("prose-1", "acme", "Liquidity and Capital Resources"),
  result("prose-2", "acme", "Capital Expenditures"),
  result("other-cash-flows", "zenith", "Consolidated Statements of Cash Flows"),
  result("no-heading", "acme", null),
  result("acme-income", "acme", "Acme Inc. Consolidated Statements of Operations"),
  result("acme-cash-flows", "acme", "Acme Inc. Consolidated Statement of Cash Flows"),
];
const ids = (results: SearchResult[]) => results.map((entry) => entry.chunkId);

describe("statement targeting", () => {
  it("fuses the named statement's passages ahead of prose that shares more words", () => {
    const preferred = preferNamedStatements(ranking, ["cash-flow-statement"], { k: 60, limit: 6 });
    // Preferred passages count twice: 1/61 + 1/63 for the first of them beats 1/61 alone.
    expect(ids(preferred)).toEqual([
      "other-cash-flows",
      "acme-cash-flows",
      "prose-1",
      "prose-2",
      "no-heading",
      "acme-income",
    ]);
  });

  it("prefers only the named documents' statements when the question names documents", () => {
    const preferred = preferNamedStatements(ranking, ["cash-flow-statement"], {
      k: 60,
      limit: 3,
      documentIds: ["acme"],
    });
    expect(ids(preferred)).toEqual(["acme-cash-flows", "prose-1", "prose-2"]);
  });

  it("keeps the ranking when no statement is named or none is among the results", () => {
    expect(ids(preferNamedStatements(ranking, [], { k: 60, limit: 2 }))).toEqual(["prose-1", "prose-2"]);
    expect(ids(preferNamedStatements(ranking, ["balance-sheet"], { k: 60, limit: 2 }))).toEqual(["prose-1", "prose-2"]);
  });

  it("prefers a statement's table over the prose left on its page", () => {
    const withProse = [
      result("prose", "acme", "Liquidity"),
      result("statement-page-prose", "acme", "Consolidated Statements of Operations", "text"),
      result("statement-table", "acme", "Consolidated Statements of Operations"),
    ];
    expect(ids(preferNamedStatements(withProse, ["income-statement"], { k: 60, limit: 3 }))).toEqual([
      "statement-table",
      "prose",
      "statement-page-prose",
    ]);
    // Where a statement page has no table passage (none was detected), its prose is preferred instead.
    const otherPage = { ...result("other-page-prose", "acme", "Consolidated Statements of Operations", "text") };
    otherPage.pageStart = 2;
    otherPage.pageEnd = 2;
    expect(ids(preferNamedStatements([...withProse, otherPage], ["income-statement"], { k: 60, limit: 4 }))).toEqual([
      "statement-table",
      "other-page-prose",
      "prose",
      "statement-page-prose",
    ]);
  });
});
