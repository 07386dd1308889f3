import { describe, expect, it } from "vitest";
import {
  coverNames,
  coverPeriods,
  createDocumentFactsIndex,
  type DocumentFactsIndex,
  describeYears,
} from "../../src/answer/evidence/evidence-coverage.js";
import { analyzeQuestion } from "../../src/answer/question/question-analysis.js";
import type { SearchResult } from "../../src/domain/types.js";

function passage(documentId: string, text: string, overrides: Partial<SearchResult> = {}): SearchResult {
  return {
    chunkId: `${documentId}-${text.length}`,
    documentId,
    spaceId: "space-coverage",
    file: `${documentId}.pdf`,
    title: "Annual report",
    mediaType: "application/pdf",
    pageStart: 1,
    pageEnd: 1,
    score: 1,
    text,
    provenance: {},
    kind: "text",
    ...overrides,
  };
}

function revenueTable(documentId: string, years: string[]): SearchResult {
  const columns = ["(In millions)", ...years];
  return passage(documentId, `${columns.join(" | ")}\nRevenues | ${years.map(() => "$ 1,000").join(" | ")}`, {
    kind: "table",
    provenance: { rowStart: 1, rowEnd: 1, columns },
  });
}

/** A facts index over passages held in memory, recording which documents it loaded. */
function indexOver(documents: Record<string, SearchResult[]>): { index: DocumentFactsIndex; loads: string[] } {
  const loads: string[] = [];
  const index = createDocumentFactsIndex(async (documentId) => {
    loads.push(documentId);
    return documents[documentId] ?? [];
  });
  return { index, loads };
}

/** A fake index that answers from fixed tables. */
function fakeIndex(
  mentions: Record<string, Record<string, "subject" | "named" | "absent">>,
  years: Record<string, number[]> = {},
): DocumentFactsIndex {
  return {
    mentions: async (document, name) => mentions[document.documentId]?.[name] ?? "absent",
    reportedYears: async (documentId) => new Set(years[documentId] ?? []),
    januaryYearShift: async () => null,
    unitScale: async () => null,
  };
}

describe("createDocumentFactsIndex", () => {
  const nikeText = "NIKE designs footwear. Nike sells apparel. Nike grew. Nike. Nike again. We compete with adidas.";

  it("calls a name in the title or file name the document's subject", async () => {
    const { index, loads } = indexOver({ handbook: [passage("handbook", "Employees may enroll in a plan.")] });
    expect(
      await index.mentions(
        { documentId: "handbook", title: "Northwind Health Plus Benefits", file: "benefits.pdf" },
        "Northwind Helth Plus",
      ),
    ).toBe("subject");
    expect(
      await index.mentions(
        { documentId: "handbook", title: "Benefits", file: "northwind_standard-plan.pdf" },
        "Northwind Standard",
      ),
    ).toBe("subject");
    expect(loads).toEqual([]);
  });

  it("calls a name run together in the file name the subject", async () => {
    const { index } = indexOver({ jpm: [passage("jpm", "Net revenue rose.")] });
    expect(await index.mentions({ documentId: "jpm", title: "10-Q", file: "JPMORGAN_2021Q1_10Q.pdf" }, "JPM")).toBe(
      "subject",
    );
    expect(
      await index.mentions({ documentId: "jpm", title: "8-K", file: "FOOTLOCKER_2022_8K.pdf" }, "Foot Locker"),
    ).toBe("subject");
  });

  it("calls a document the subject of a name only where it writes the name out, not a word one slip from it", async () => {
    const coming = "Coming soon. New stores coming. Products coming. Growth coming. More coming. Changes coming.";
    const { index } = indexOver({ nike: [passage("nike", coming)] });
    const nike = { documentId: "nike", title: "NIKE, Inc. — Form 10-K", file: "NIKE_2021_10K.pdf" };
    expect(await index.mentions(nike, "Corning")).toBe("named");
  });

  it("calls a name written five times the subject, fewer times named, never absent", async () => {
    const { index } = indexOver({ nike: [passage("nike", nikeText)] });
    const document = { documentId: "nike", title: "Annual report", file: "form_10k.pdf" };
    expect(await index.mentions(document, "Nike")).toBe("subject");
    expect(await index.mentions(document, "adidas")).toBe("named");
    expect(await index.mentions(document, "Corning")).toBe("absent");
  });

  it("loads a document's passages once", async () => {
    const { index, loads } = indexOver({ nike: [passage("nike", nikeText), revenueTable("nike", ["2018", "2017"])] });
    const document = { documentId: "nike", title: "Annual report", file: "form_10k.pdf" };
    await index.mentions(document, "Nike");
    await index.mentions(document, "adidas");
    await index.reportedYears("nike");
    expect(loads).toEqual(["nike"]);
  });

  it("forgets the least recently used document past its capacity", async () => {
    const loads: string[] = [];
    const index = createDocumentFactsIndex(async (documentId) => {
      loads.push(documentId);
      return [revenueTable(documentId, ["2018"])];
    }, 2);
    await index.reportedYears("a");
    await index.reportedYears("b");
    await index.reportedYears("a");
    await index.reportedYears("c");
    await index.reportedYears("a");
    await index.reportedYears("b");
    expect(loads).toEqual(["a", "b", "c", "b"]);
  });

  it("loads again after a failed load", async () => {
    let calls = 0;
    const index = createDocumentFactsIndex(async () => {
      calls += 1;
      if (calls === 1) throw new Error("catalog unavailable");
      return [revenueTable("nike", ["2018"])];
    });
    await expect(index.reportedYears("nike")).rejects.toThrow("catalog unavailable");
    expect([...(await index.reportedYears("nike"))]).toEqual([2018]);
    expect(calls).toBe(2);
  });

  it("reports years up to the year most tables end on, leaving schedules of later years out", async () => {
    const { index } = indexOver({
      nike: [
        revenueTable("nike", ["2018", "2017", "2016"]),
        revenueTable("nike", ["2018", "2017"]),
        revenueTable("nike", ["2019", "2020", "2021", "2022"]),
        passage("nike", nikeText),
      ],
    });
    expect([...(await index.reportedYears("nike"))]).toEqual([2016, 2017, 2018]);
  });

  it("reports both years a January year end may belong to", async () => {
    const { index } = indexOver({ retail: [revenueTable("retail", ["January 28, 2023", "January 29, 2022"])] });
    expect([...(await index.reportedYears("retail"))]).toEqual([2021, 2022, 2023]);
  });

  it("reports no years for a document without dated tables", async () => {
    const { index } = indexOver({ handbook: [passage("handbook", "Employees accrue PTO monthly since 2019.")] });
    expect([...(await index.reportedYears("handbook"))]).toEqual([]);
  });
});

describe("coverNames", () => {
  it("lists the names no found document names and marks the documents about them", async () => {
    const results = [
      passage("nike", "NIKE, Inc. annual report."),
      passage("handbook", "Contoso employees may enroll."),
    ];
    const index = fakeIndex({ nike: { Nike: "subject" } });
    const coverage = await coverNames(["Nike", "Corning"], results, index);
    expect(coverage.missing).toEqual(["Corning"]);
    expect([...coverage.aboutAsked]).toEqual([
      ["nike", true],
      ["handbook", false],
    ]);
  });

  it("counts a name in a found passage as named, though no document is about it", async () => {
    const results = [passage("nike", "We compete with adidas and others.")];
    const coverage = await coverNames(["adidas"], results, fakeIndex({}));
    expect(coverage.missing).toEqual([]);
    expect([...coverage.aboutAsked]).toEqual([["nike", false]]);
  });

  it("lists a name only a sentence gives in passing, but not one a found table names", async () => {
    const prose = [passage("nike", "Our app runs on Apple devices.")];
    expect((await coverNames(["Apple"], prose, fakeIndex({ nike: { Apple: "named" } }))).inPassingOnly).toEqual([
      "Apple",
    ]);
    const table = [
      passage("nifty", "Company | Net profit\nInfosys | 6,212", {
        kind: "table",
        provenance: { rowStart: 1, rowEnd: 1, columns: ["Company", "Net profit"] },
      }),
    ];
    expect((await coverNames(["Infosys"], table, fakeIndex({ nifty: { Infosys: "named" } }))).inPassingOnly).toEqual(
      [],
    );
    // A sentence that gives the measure beside the name may report the figure ("votes for Tristan Walker").
    const tally = [passage("footlocker", "Votes for Tristan Walker: 55,528,794.")];
    const votes = new Set(["vote"]);
    expect((await coverNames(["Tristan Walker"], tally, fakeIndex({}), votes)).inPassingOnly).toEqual([]);
  });

  it("counts a name the index finds elsewhere in the document as named", async () => {
    const results = [passage("nike", "Revenues grew 6%.")];
    const coverage = await coverNames(["Converse"], results, fakeIndex({ nike: { Converse: "named" } }));
    expect(coverage.missing).toEqual([]);
    expect(coverage.aboutAsked.get("nike")).toBe(false);
  });

  it("passes the document's title and file to the index", async () => {
    const seen: Array<{ documentId: string; title: string; file: string; name: string }> = [];
    const index: DocumentFactsIndex = {
      mentions: async (document, name) => {
        seen.push({ ...document, name });
        return "absent";
      },
      reportedYears: async () => new Set(),
      januaryYearShift: async () => null,
      unitScale: async () => null,
    };
    const results = [
      passage("nike", "Revenues grew.", { title: "NIKE 10-K", file: "nike-10k-2018.pdf" }),
      passage("nike", "Net income fell.", { title: "NIKE 10-K", file: "nike-10k-2018.pdf" }),
    ];
    await coverNames(["Nike"], results, index);
    expect(seen).toEqual([{ documentId: "nike", title: "NIKE 10-K", file: "nike-10k-2018.pdf", name: "Nike" }]);
  });

  it("marks every document about what was asked when the question names nothing", async () => {
    const results = [passage("nike", "Revenues grew."), passage("handbook", "PTO accrues monthly.")];
    const coverage = await coverNames([], results, fakeIndex({}));
    expect(coverage.missing).toEqual([]);
    expect(coverage.aboutAsked).toEqual(
      new Map([
        ["nike", true],
        ["handbook", true],
      ]),
    );
  });

  it("calls a missing name whose first word the documents use a variant", async () => {
    const results = [passage("handbook", "Northwind Standard covers vision and dental care.")];
    const index = fakeIndex({ handbook: { northwind: "named" } });
    const coverage = await coverNames(["Northwind Premium", "Corning"], results, index);
    expect(coverage.missing).toEqual(["Northwind Premium", "Corning"]);
    expect(coverage.variants).toEqual(["Northwind Premium"]);
  });

  it("lists the found passages that name every name the question gives", async () => {
    const both = passage("nike", "NIKE, Inc. also sells Converse sneakers.", { chunkId: "nike-both" });
    const converse = passage("nike", "Converse revenues fell 8%.", { chunkId: "nike-converse" });
    const nike = passage("nike", "Nike revenues grew 6%.", { chunkId: "nike-nike" });
    const results = [both, converse, nike];
    const coverage = await coverNames(["Nike", "Converse"], results, fakeIndex({}));
    expect(coverage.namingPassages).toEqual(new Set(["nike-both"]));
    expect((await coverNames([], results, fakeIndex({}))).namingPassages).toEqual(
      new Set(["nike-both", "nike-converse", "nike-nike"]),
    );
  });

  it("works with the real index: a name in the file name makes the document its subject", async () => {
    const results = [passage("nike", "Revenues grew.", { file: "nike-10k-2018.pdf" })];
    const { index } = indexOver({ nike: results });
    const coverage = await coverNames(["Nike", "Corning"], results, index);
    expect(coverage.missing).toEqual(["Corning"]);
    expect([...coverage.aboutAsked]).toEqual([["nike", true]]);
  });
});

describe("coverPeriods", () => {
  it("reports an asked year no table reports as missing, with the years covered", async () => {
    const results = [passage("nike", "Revenues grew.")];
    const coverage = await coverPeriods(
      analyzeQuestion("What was Nike's revenue in 2020?"),
      results,
      fakeIndex({}, { nike: [2016, 2017, 2018] }),
    );
    expect(coverage).toEqual({ missing: [{ year: 2020 }], coveredYears: [2016, 2017, 2018] });
  });

  it("covers a year a table reports", async () => {
    const coverage = await coverPeriods(
      analyzeQuestion("What was Nike's revenue in 2017?"),
      [passage("nike", "Revenues grew.")],
      fakeIndex({}, { nike: [2016, 2017, 2018] }),
    );
    expect(coverage).toEqual({ missing: [], coveredYears: [2016, 2017, 2018] });
  });

  it("covers a year a found sentence reports with a word of the measure and a number", async () => {
    const coverage = await coverPeriods(
      analyzeQuestion("What was Nike's revenue in 2015?"),
      [passage("nike", "Revenues in 2015 were $30.6 billion.")],
      fakeIndex({}, { nike: [2016, 2017, 2018] }),
    );
    expect(coverage.missing).toEqual([]);
  });

  it("does not count a sentence that only names the year", async () => {
    const coverage = await coverPeriods(
      analyzeQuestion("What was Nike's revenue in 2015?"),
      [passage("nike", "Revenues grew in 2015 as stores opened.")],
      fakeIndex({}, { nike: [2016, 2017, 2018] }),
    );
    expect(coverage.missing).toEqual([{ year: 2015 }]);
  });

  it("unites the years of every found document", async () => {
    const coverage = await coverPeriods(
      analyzeQuestion("What was revenue in 2021?"),
      [passage("nike", "Revenues grew."), passage("corning", "Sales rose.")],
      fakeIndex({}, { nike: [2017, 2018], corning: [2019, 2020] }),
    );
    expect(coverage).toEqual({ missing: [{ year: 2021 }], coveredYears: [2017, 2018, 2019, 2020] });
  });

  it("never refuses a year when the documents have no dated tables", async () => {
    const coverage = await coverPeriods(
      analyzeQuestion("What was the deductible in 2015?"),
      [passage("handbook", "The deductible is $500.")],
      fakeIndex({}),
    );
    expect(coverage).toEqual({ missing: [], coveredYears: [] });
  });

  it("has nothing to cover for a question without a period", async () => {
    const coverage = await coverPeriods(
      analyzeQuestion("What was Nike's revenue?"),
      [passage("nike", "Revenues grew.")],
      fakeIndex({}, { nike: [2018] }),
    );
    expect(coverage).toEqual({ missing: [], coveredYears: [] });
  });

  it("reads the years from the real index's tables", async () => {
    const results = [passage("nike", "Revenues grew.")];
    const { index } = indexOver({ nike: [revenueTable("nike", ["2018", "2017", "2016"])] });
    expect(await coverPeriods(analyzeQuestion("What was Nike's revenue in 2019?"), results, index)).toEqual({
      missing: [{ year: 2019 }],
      coveredYears: [2016, 2017, 2018],
    });
  });
});

describe("describeYears", () => {
  it.each([
    [[2018, 2016, 2017], "2016–2018"],
    [[2016, 2018], "2016 and 2018"],
    [[2016, 2018, 2020], "2016, 2018 and 2020"],
    [[2018, 2018], "2018"],
    [[], ""],
  ])("writes %j as %j", (years, text) => {
    expect(describeYears(years)).toBe(text);
  });
});
