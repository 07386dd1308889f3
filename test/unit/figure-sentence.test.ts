import { describe, expect, it } from "vitest";
import { figureQuote, figureSentence, formatCellValue } from "../../src/answer/compose/figure-sentence.js";
import type { FoundFigure } from "../../src/answer/evidence/find-figure.js";
import type { TableCell } from "../../src/answer/evidence/table-cells.js";
import { tableCells } from "../../src/answer/evidence/table-cells.js";
import type { SearchResult } from "../../src/domain/types.js";
import { netIncomeCell, tablePassage } from "../support/answer-fixtures.js";

function cellOf(overrides: Partial<TableCell>): TableCell {
  return netIncomeCell(overrides);
}

function tableResult(lines: string[], columns: string[]): SearchResult {
  const nike = { documentId: "nike-10k-2018", spaceId: "space-figure-sentence", file: "nike-10k-2018.pdf" };
  return tablePassage(
    { ...nike, chunkId: "nike-10k-2018-table-1", title: "NIKE, Inc. Form 10-K 2018", pageStart: 57, pageEnd: 57 },
    lines,
    columns,
  );
}

function figureFrom(n: number, result: SearchResult, label: string, column: string): FoundFigure {
  const cell = tableCells(result).find((candidate) => candidate.label === label && candidate.column === column);
  if (cell === undefined) throw new Error(`no cell ${label} / ${column}`);
  return { source: { n, result }, cell, score: 1, exact: true };
}

describe("formatCellValue", () => {
  it.each([
    ["an amount in millions", cellOf({ value: "$ 812", number: 812 }), "$812 million"],
    ["millions past a billion", cellOf({ value: "$ 36,397", number: 36397 }), "$36,397 million ($36.4 billion)"],
    [
      "thousands past a million",
      cellOf({ value: "$ 558,929", number: 558929, scale: "thousand" }),
      "$558,929 thousand ($558.9 million)",
    ],
    [
      "thousands under a hundred million",
      cellOf({ value: "$ 45,210", number: 45210, scale: "thousand" }),
      "$45,210 thousand ($45.21 million)",
    ],
    ["thousands under a million", cellOf({ value: "812", number: 812, scale: "thousand" }), "$812 thousand"],
    [
      "a negative in brackets",
      cellOf({ value: "(6,120)", number: -6120, scale: "thousand" }),
      "-$6,120 thousand (-$6.12 million)",
    ],
    ["a small negative", cellOf({ value: "(6)", number: -6 }), "-$6 million"],
    ["a percentage", cellOf({ value: "12.4%", number: 12.4, percent: true, scale: null, currency: null }), "12.4%"],
    ["a per-share amount", cellOf({ value: "$ 1.17", number: 1.17, scale: null }), "$1.17"],
    ["billions", cellOf({ value: "$ 2.5", number: 2.5, scale: "billion" }), "$2.5 billion"],
    ["a count", cellOf({ value: "76,700", number: 76700, scale: null, currency: null }), "76,700"],
  ])("writes %s", (_, cell, written) => {
    expect(formatCellValue(cell)).toBe(written);
  });
});

describe("figureSentence", () => {
  const columns = ["(In millions)", "2018", "2017"];
  const nike = () =>
    tableResult(
      [
        "Revenues | $ 36,397 | $ 34,350",
        "Net income | $ 1,933 | $ 4,240",
        "TOTAL NIKE, INC. REVENUES | 36,397 | 34,350",
      ],
      columns,
    );

  it("writes the label, period, value and marker", () => {
    expect(figureSentence(figureFrom(1, nike(), "Net income", "2017"), null)).toBe(
      "Net income for 2017 was $4,240 million ($4.24 billion) [1].",
    );
  });

  it("names whose figure it is", () => {
    expect(figureSentence(figureFrom(3, nike(), "Net income", "2018"), "Nike")).toBe(
      "Nike's net income for 2018 was $1,933 million ($1.933 billion) [3].",
    );
  });

  it("agrees the verb with a plural label", () => {
    expect(figureSentence(figureFrom(2, nike(), "Revenues", "2018"), "Nike")).toBe(
      "Nike's revenues for 2018 were $36,397 million ($36.4 billion) [2].",
    );
  });

  it.each([
    ["Net sales", "were"],
    ["Operating expenses", "were"],
    ["Gross margin", "was"],
    ["Income taxes", "were"],
    ["Net loss", "was"],
    ["Cost of goods sold", "was"],
    ["Accounts receivable, gross", "was"],
    ["Status", "was"],
  ])("writes %j with %j", (label, verb) => {
    const figure: FoundFigure = {
      source: { n: 1, result: nike() },
      cell: cellOf({ label, column: "" }),
      score: 1,
      exact: true,
    };
    expect(figureSentence(figure, null)).toBe(`${label} ${verb} $1,933 million ($1.933 billion) [1].`);
  });

  it("lowers a shouted label and gives the entity back as the question wrote it", () => {
    expect(figureSentence(figureFrom(1, nike(), "TOTAL NIKE, INC. REVENUES", "2018"), "Nike")).toBe(
      "Total Nike, Inc. revenues for 2018 were $36,397 million ($36.4 billion) [1].",
    );
  });

  it("names the section a part-row belongs to, and the fiscal year of a January year end", () => {
    const figure: FoundFigure = {
      source: { n: 1, result: nike() },
      cell: cellOf({
        label: "Net sales",
        parents: [],
        column: "52 Weeks Ended January 28, 2023",
        period: { year: 2022 },
        value: "$ 10,208.6",
        number: 10208.6,
      }),
      score: 1,
      exact: true,
    };
    expect(figureSentence(figure, "Ulta")).toBe(
      "Ulta's net sales for the 52 weeks ended January 28, 2023 (fiscal 2022) were $10,208.6 million ($10.21 billion) [1].",
    );
    const casino = {
      ...figure,
      cell: cellOf({ label: "Casino", parents: ["Revenues"], column: "2022", period: { year: 2022 } }),
    };
    expect(figureSentence(casino, "MGM")).toBe(
      "MGM's casino revenues for 2022 were $1,933 million ($1.933 billion) [1].",
    );
    // A label that names its measure is not run into its section's name.
    const gain = {
      ...figure,
      cell: cellOf({
        label: "Foreign currency gain",
        parents: ["Other income (expense)"],
        column: "2017",
        period: { year: 2017 },
      }),
    };
    expect(figureSentence(gain, null)).toBe("Foreign currency gain for 2017 was $1,933 million ($1.933 billion) [1].");
  });

  it("writes a quarter column as 'the three months ended …'", () => {
    const figure: FoundFigure = {
      source: { n: 4, result: nike() },
      cell: cellOf({
        label: "Total revenues",
        column: "Three Months Ended June 30, 2023",
        period: { year: 2023, quarter: 2 },
        value: "$ 558,929",
        number: 558929,
        scale: "thousand",
      }),
      score: 1,
      exact: true,
    };
    expect(figureSentence(figure, null)).toBe(
      "Total revenues for the three months ended June 30, 2023 were $558,929 thousand ($558.9 million) [4].",
    );
  });

  it("keeps 'Fiscal 2018' as printed", () => {
    const figure: FoundFigure = {
      source: { n: 1, result: nike() },
      cell: cellOf({ column: "Fiscal 2018" }),
      score: 1,
      exact: true,
    };
    expect(figureSentence(figure, null)).toBe("Net income for Fiscal 2018 was $1,933 million ($1.933 billion) [1].");
  });
});

describe("figureQuote", () => {
  it("quotes the whole row by column, with the unit note and the row's offsets", () => {
    const result = tableResult(
      ["Revenues | $ 36,397 | $ 34,350", "Net income | $ 1,933 | $ 4,240"],
      ["(In millions)", "2018", "2017"],
    );
    const quote = figureQuote(figureFrom(1, result, "Net income", "2017"));
    expect(quote).toEqual({ text: "Net income — 2018: $ 1,933; 2017: $ 4,240 (In millions)", start: 59, end: 89 });
    expect(result.text.slice(quote.start, quote.end)).toBe("Net income | $ 1,933 | $ 4,240");
  });

  it("names the section row and falls back to the scale when there is no unit note", () => {
    const result = tableResult(
      ["North America: |  | ", "Net sales | $ 170,773 | $ 141,366"],
      ["Segment ($ in millions)", "2019", "2018"],
    );
    const figure = figureFrom(2, result, "Net sales", "2019");
    expect(figure.cell.unitNote).toBe("Segment ($ in millions)");
    expect(figureQuote(figure).text).toBe(
      "North America › Net sales — 2019: $ 170,773; 2018: $ 141,366 Segment ($ in millions)",
    );
    const withoutNote: FoundFigure = { ...figure, cell: { ...figure.cell, unitNote: null } };
    expect(figureQuote(withoutNote).text).toBe(
      "North America › Net sales — 2019: $ 170,773; 2018: $ 141,366 (in millions)",
    );
  });
});
