import { describe, expect, it } from "vitest";
import {
  columnsOfHeader,
  pageScale,
  parseCellNumber,
  periodOfColumn,
  scaleOf,
  type TableCell,
  tableCells,
  takesTableScale,
} from "../../src/answer/evidence/table-cells.js";
import type { SearchResult } from "../../src/domain/types.js";

function tablePassage(
  text: string,
  provenance: SearchResult["provenance"],
): Pick<SearchResult, "text" | "kind" | "provenance"> {
  return { text, kind: "table", provenance };
}

describe("parseCellNumber", () => {
  it.each([
    ["$ 1,933", { number: 1933, currency: "$", percent: false }],
    ["(6)", { number: -6, currency: null, percent: false }],
    ["12.4%", { number: 12.4, currency: null, percent: true }],
    ["$(1,234)", { number: -1234, currency: "$", percent: false }],
    ["-5.5", { number: -5.5, currency: null, percent: false }],
    ["1,234.5", { number: 1234.5, currency: null, percent: false }],
    ["(12.0)%", { number: -12, currency: null, percent: true }],
  ])("reads %j", (value, parsed) => {
    expect(parseCellNumber(value)).toEqual(parsed);
  });

  it.each(["—", "n/a", "Net income", ""])("reads %j as no number", (value) => {
    expect(parseCellNumber(value)).toBeNull();
  });
});

describe("scaleOf", () => {
  it.each([
    ["(In millions)", "million"],
    ["$ in thousands, except per share", "thousand"],
    ["Dollars in millions", "million"],
    ["($000's)", "thousand"],
    ["(amounts in billions)", "billion"],
    ["Net income", null],
  ])("reads the unit note %# as %s", (text, scale) => {
    expect(scaleOf(text)).toBe(scale);
  });
});

describe("pageScale", () => {
  it("returns the page's one unit note as printed, parenthesis included", () => {
    expect(
      pageScale("NIKE, INC.\nCONSOLIDATED STATEMENTS OF INCOME\n(In millions, except per share data)\nRevenues"),
    ).toEqual({ scale: "million", note: "(In millions, except per share data)" });
  });

  it("returns null when the page states two scales", () => {
    expect(pageScale("SEGMENT DATA (In millions)\nSTOCK AWARDS (In thousands)")).toBeNull();
  });

  it("returns null for a page without a scale", () => {
    expect(pageScale("Employees accrue 1.5 days of paid time off per month.")).toBeNull();
  });
});

describe("takesTableScale", () => {
  it("scales amounts, not per-share rows or percentages", () => {
    expect(takesTableScale({ label: "Net income", parents: [], percent: false })).toBe(true);
    expect(takesTableScale({ label: "Diluted earnings per common share", parents: [], percent: false })).toBe(false);
    expect(takesTableScale({ label: "Weighted average shares outstanding", parents: [], percent: false })).toBe(false);
    expect(takesTableScale({ label: "Gross margin", parents: [], percent: false })).toBe(false);
    expect(takesTableScale({ label: "Revenue growth", parents: [], percent: true })).toBe(false);
  });
});

describe("periodOfColumn", () => {
  it.each([
    ["2018", { year: 2018 }],
    ["Fiscal 2018", { year: 2018 }],
    ["Q1 2023", { year: 2023, quarter: 1 }],
    ["Three Months Ended March 31, 2023", { year: 2023, quarter: 1 }],
    ["Three Months Ended June 30, 2023", { year: 2023, quarter: 2 }],
  ])("reads %j", (header, period) => {
    expect(periodOfColumn(header)).toEqual(period);
  });

  it("cannot tell the fiscal year of a January year end", () => {
    expect(periodOfColumn("January 28, 2023")).toBeNull();
    expect(periodOfColumn("Fiscal Year Ended January 28, 2023")).toBeNull();
  });

  it("reads a January year end as the fiscal year its document names it by", () => {
    expect(periodOfColumn("52 Weeks Ended January 28, 2023", -1)).toEqual({ year: 2022 });
    expect(periodOfColumn("Fiscal Year Ended January 31, 2023", 0)).toEqual({ year: 2023 });
    expect(periodOfColumn("13 Weeks Ended January 28, 2023", -1)).toEqual({ year: 2022, quarter: 4 });
  });

  it.each([
    "Six Months Ended June 30, 2023",
    "Nine Months Ended September 30, 2023",
    "26 Weeks Ended July 29, 2023",
    "Three Months Ended October 29, 2022",
  ])("reads no year or quarter from %j, a part of a year it cannot place", (header) => {
    expect(periodOfColumn(header)).toBeNull();
  });

  it("reads no period from a header naming two years", () => {
    expect(periodOfColumn("2018 and 2017")).toBeNull();
  });
});

describe("tableCells", () => {
  const nikeText = [
    "NIKE, Inc. Consolidated Statements of Income",
    "(In millions) | 2018 | 2017",
    "Revenues | $ 36,397 | $ 34,350",
    "Cost of sales | 20,441 | 19,038",
    "Net income | $ 1,933 | $ 4,240",
  ].join("\n");
  const nike = () => tablePassage(nikeText, { rowStart: 1, rowEnd: 3, columns: ["(In millions)", "2018", "2017"] });

  it("reads each value with its label, column, period, scale and row offsets", () => {
    const cells = tableCells(nike());
    const revenues2018: TableCell = {
      label: "Revenues",
      parents: [],
      column: "2018",
      value: "$ 36,397",
      number: 36397,
      period: { year: 2018 },
      scale: "million",
      percent: false,
      currency: "$",
      unitNote: "(In millions)",
      rowStart: 73,
      rowEnd: 103,
    };
    expect(cells).toHaveLength(6);
    expect(cells[0]).toEqual(revenues2018);
    expect(nikeText.slice(revenues2018.rowStart, revenues2018.rowEnd)).toBe("Revenues | $ 36,397 | $ 34,350");
    expect(cells.map((cell) => [cell.label, cell.column, cell.number])).toEqual([
      ["Revenues", "2018", 36397],
      ["Revenues", "2017", 34350],
      ["Cost of sales", "2018", 20441],
      ["Cost of sales", "2017", 19038],
      ["Net income", "2018", 1933],
      ["Net income", "2017", 4240],
    ]);
  });

  it("applies the table's currency to rows printed without '$'", () => {
    const costOfSales = tableCells(nike()).find((cell) => cell.label === "Cost of sales");
    expect(costOfSales?.value).toBe("20,441");
    expect(costOfSales?.currency).toBe("$");
  });

  it("makes a row without values the parent of the rows below it", () => {
    const text = [
      "(In millions) | 2019 | 2018",
      "North America: |  | ",
      "Net sales | $ 170,773 | $ 141,366",
      "Operating income | 7,033 | 7,267",
    ].join("\n");
    const cells = tableCells(
      tablePassage(text, { rowStart: 1, rowEnd: 3, columns: ["(In millions)", "2019", "2018"] }),
    );
    expect(cells.map((cell) => [cell.parents, cell.label, cell.column])).toEqual([
      [["North America"], "Net sales", "2019"],
      [["North America"], "Net sales", "2018"],
      [["North America"], "Operating income", "2019"],
      [["North America"], "Operating income", "2018"],
    ]);
  });

  it("reads quarter columns and keeps percentages unscaled and without currency", () => {
    const columns = ["(Dollars in thousands)", "Three Months Ended June 30, 2023", "Three Months Ended June 30, 2022"];
    const text = [
      columns.join(" | "),
      "Total revenues | $ 558,929 | $ 512,004",
      "Net loss | (6,120) | (4,880)",
      "Gross margin | 41.2% | 39.8%",
    ].join("\n");
    const cells = tableCells(tablePassage(text, { rowStart: 1, rowEnd: 3, columns }));
    expect(
      cells.map((cell) => [cell.label, cell.number, cell.period, cell.scale, cell.currency, cell.percent]),
    ).toEqual([
      ["Total revenues", 558929, { year: 2023, quarter: 2 }, "thousand", "$", false],
      ["Total revenues", 512004, { year: 2022, quarter: 2 }, "thousand", "$", false],
      ["Net loss", -6120, { year: 2023, quarter: 2 }, "thousand", "$", false],
      ["Net loss", -4880, { year: 2022, quarter: 2 }, "thousand", "$", false],
      ["Gross margin", 41.2, { year: 2023, quarter: 2 }, null, null, true],
      ["Gross margin", 39.8, { year: 2022, quarter: 2 }, null, null, true],
    ]);
    expect(cells[0]?.unitNote).toBe("(Dollars in thousands)");
  });

  it("reads the scale from a caption line above the header", () => {
    const text = ["NIKE, Inc. (In millions)", "Label | 2018", "Revenues | 36,397"].join("\n");
    const cells = tableCells(tablePassage(text, { rowStart: 1, rowEnd: 1 }));
    expect(cells.map((cell) => [cell.label, cell.column, cell.scale, cell.currency, cell.unitNote])).toEqual([
      ["Revenues", "2018", "million", null, null],
    ]);
  });

  it("reads the scale from the heading path", () => {
    const text = ["Segment | 2018", "Revenues | 36,397"].join("\n");
    const cells = tableCells(
      tablePassage(text, { rowStart: 1, rowEnd: 1, headingPath: ["Item 8", "Segment data ($ in millions)"] }),
    );
    expect(cells[0]?.scale).toBe("million");
  });

  it("takes the periods from the first row when the header has none", () => {
    const text = ["(In millions) | Year Ended May 31, | ", " | 2018 | 2017", "Revenues | $ 36,397 | $ 34,350"].join(
      "\n",
    );
    const cells = tableCells(
      tablePassage(text, { rowStart: 1, rowEnd: 2, columns: ["(In millions)", "Year Ended May 31,", ""] }),
    );
    expect(cells.map((cell) => [cell.label, cell.column, cell.period])).toEqual([
      ["Revenues", "Year Ended May 31, 2018", { year: 2018 }],
      ["Revenues", "2017", { year: 2017 }],
    ]);
  });

  it("keeps a text cell with a null number", () => {
    const text = ["(In millions) | 2018", "Segment leader | Jane Doe", "Revenues | 36,397"].join("\n");
    const cells = tableCells(tablePassage(text, { rowStart: 1, rowEnd: 2, columns: ["(In millions)", "2018"] }));
    expect(cells.map((cell) => [cell.label, cell.value, cell.number])).toEqual([
      ["Segment leader", "Jane Doe", null],
      ["Revenues", "36,397", 36397],
    ]);
  });

  it("returns no cells for prose", () => {
    expect(
      tableCells({
        text: "Revenues were $36,397 million in 2018.",
        kind: "text",
        provenance: { rowStart: 0, rowEnd: 0 },
      }),
    ).toEqual([]);
  });

  it("returns no cells for a table without row provenance", () => {
    expect(tableCells(tablePassage("(In millions) | 2018\nRevenues | 36,397", {}))).toEqual([]);
  });

  it("reads the first line as the header when the provenance claims more rows than the text has", () => {
    // A PDF table whose header the detector counted as a row: every piece still starts with the header.
    const cells = tableCells(tablePassage("(In millions) | 2018\nRevenues | 36,397", { rowStart: 0, rowEnd: 5 }));
    expect(cells.map((cell) => [cell.label, cell.column, cell.value, cell.scale])).toEqual([
      ["Revenues", "2018", "36,397", "million"],
    ]);
  });

  // Suspected bug: UNSCALED_ROW is tested against the row label only, so "Diluted" under the section
  // row "Earnings per common share:" takes the table's millions ("$2.51 million" per share).
  it("leaves per-share rows under an 'Earnings per share' section unscaled", () => {
    const text = [
      "(In millions, except per share data) | 2018 | 2017",
      "Net income | $ 1,933 | $ 4,240",
      "Earnings per common share: |  | ",
      "Diluted | $ 1.17 | $ 2.51",
    ].join("\n");
    const cells = tableCells(
      tablePassage(text, { rowStart: 1, rowEnd: 3, columns: ["(In millions, except per share data)", "2018", "2017"] }),
    );
    const diluted = cells.find((cell) => cell.label === "Diluted" && cell.column === "2017");
    expect(diluted?.parents).toEqual(["Earnings per common share"]);
    expect(diluted?.scale).toBeNull();
  });
});

describe("columnsOfHeader", () => {
  it.each([
    [
      "Three Months Ended December 31, 2022 December 31, 2021",
      ["Three Months Ended December 31, 2022", "Three Months Ended December 31, 2021"],
    ],
    [
      "13 Weeks Ended January 28, January 29, January 30, 2023 2022 2021",
      ["13 Weeks Ended January 28, 2023", "13 Weeks Ended January 29, 2022", "13 Weeks Ended January 30, 2021"],
    ],
    ["Year Ended May 31, 2018 2017", ["Year Ended May 31, 2018", "Year Ended May 31, 2017"]],
    ["2023 2022 2021", ["2023", "2022", "2021"]],
    ["Twelve Months Ended December 31, 2022", ["Twelve Months Ended December 31, 2022"]],
    ["Net sales", ["Net sales"]],
  ])("splits %j", (header, columns) => {
    expect(columnsOfHeader(header)).toEqual(columns);
  });
});

describe("tableCells on an earnings release's grouped columns", () => {
  // MGM Resorts' Q4 2022 release as the PDF reader stores it: two periods' amounts in each cell.
  const mgm = tablePassage(
    [
      "(In thousands, except per share data) — (Unaudited)",
      " | Three Months Ended December 31, 2022 December 31, 2021 | Twelve Months Ended December 31, 2022 December 31, 2021",
      "Revenues |  | ",
      "Casino | $ 1,548,762 $ 1,527,818 | $ 5,734,173 $ 5,362,912",
      "Rooms | 897,943 636,130 | 3,057,145 1,690,037",
      " | 3,592,216 3,056,892 | 13,127,485 9,680,140",
      "Gain on REIT transactions, net | — — | (2,277,747) —",
      "Diluted | $ 0.69 $ 0.23 | $ 3.49 $ 2.41",
    ].join("\n"),
    { rowStart: 0, rowEnd: 5 },
  );

  it("gives each amount its own period column", () => {
    const casino = tableCells(mgm).filter((cell) => cell.label === "Casino");
    expect(casino.map((cell) => [cell.value, cell.column, cell.period])).toEqual([
      ["$ 1,548,762", "Three Months Ended December 31, 2022", { year: 2022, quarter: 4 }],
      ["$ 1,527,818", "Three Months Ended December 31, 2021", { year: 2021, quarter: 4 }],
      ["$ 5,734,173", "Twelve Months Ended December 31, 2022", { year: 2022 }],
      ["$ 5,362,912", "Twelve Months Ended December 31, 2021", { year: 2021 }],
    ]);
    expect(casino.every((cell) => cell.scale === "thousand" && cell.parents[0] === "Revenues")).toBe(true);
  });

  it("reads a section's unlabelled sum as its total, and dashes as values", () => {
    const total = tableCells(mgm).filter((cell) => cell.label === "Total revenues");
    expect(total.map((cell) => cell.number)).toEqual([3592216, 3056892, 13127485, 9680140]);
    expect(total[0]?.parents).toEqual([]);
    const reit = tableCells(mgm).filter((cell) => cell.label.startsWith("Gain on REIT"));
    expect(reit.map((cell) => cell.number)).toEqual([null, null, -2277747, null]);
  });

  it("does not read an unlabelled row outside a section", () => {
    const passage = tablePassage([" | 2018 | 2017", " | 1,234 | 1,000", "Net income | 5 | 4"].join("\n"), {
      rowStart: 0,
      rowEnd: 1,
    });
    expect(tableCells(passage).map((cell) => cell.label)).toEqual(["Net income", "Net income"]);
  });

  // Ulta Beauty's Q4 fiscal 2022 release: a "% of net sales" beside each amount, which the header does not name.
  const ulta = tablePassage(
    [
      "(In thousands, except per share data) — 13 Weeks Ended",
      " | January 28, | January 29,",
      " | 2023 | 2022",
      " | (Unaudited) | (Unaudited)",
      "Net sales | $ 3,226,773 | 100.0% $ 2,729,388 100.0%",
      "Net income | $ 340,751 | 10.6% $ | 289,366 | 10.6%",
    ].join("\n"),
    { rowStart: 0, rowEnd: 3 },
  );

  it("reads the amounts beside percentages, with the caption's period length and the document's fiscal year", () => {
    const netIncome = tableCells(ulta, { januaryYearShift: -1 }).filter((cell) => cell.label === "Net income");
    expect(netIncome.map((cell) => [cell.number, cell.column, cell.period])).toEqual([
      [340751, "13 Weeks Ended January 28, 2023", { year: 2022, quarter: 4 }],
      [289366, "13 Weeks Ended January 29, 2022", { year: 2021, quarter: 4 }],
    ]);
    expect(netIncome[1]?.currency).toBe("$");
  });

  it("leaves a January period unread when the document does not name its fiscal years", () => {
    expect(tableCells(ulta).every((cell) => cell.period === null)).toBe(true);
  });
});
