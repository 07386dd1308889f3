import { describe, expect, it } from "vitest";
import { lineTables } from "../../src/answer/evidence/tables/line-tables.js";
import { answerFromTables } from "../../src/answer/evidence/tables/table-answer.js";
import { readTableGrid } from "../../src/answer/evidence/tables/table-grid.js";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import { pdfPassage, tablePassage } from "../support/answer-fixtures.js";

const FIELDS = { chunkId: "c1", documentId: "d1", spaceId: "s", file: "excerpt.html", title: "Annual report excerpt" };

/** A table passage whose first line is its header, as ingestion renders an HTML table. */
function table(rows: string[][]): NumberedSource {
  const [header = [], ...body] = rows;
  return {
    n: 1,
    result: tablePassage(
      FIELDS,
      body.map((row) => row.join(" | ")),
      header,
    ),
  };
}

const SALES = table([
  ["", "", "Years Ended September 30,", ""],
  ["", "2019", "2018", "2017"],
  ["Fixed Price", "$ 1,452.4", "$ 1,146.2", "$ 1,036.9"],
  ["Other", "44.1", "56.7", "70.8"],
  ["Total sales", "$1,496.5", "$1,202.9", "$1,107.7"],
]);

function answer(question: string, source: NumberedSource = SALES, scale: "million" | null = "million") {
  const found = answerFromTables(question, [source], { scaleOf: () => scale });
  return found === null ? null : { text: found.write(1), value: found.value };
}

describe("readTableGrid", () => {
  it("joins a group header with the period row under it and reads each row's values", () => {
    const grid = readTableGrid(SALES.result);
    expect(grid?.columns.map((column) => [column.header, column.period?.year])).toEqual([
      ["2019", 2019],
      ["Years Ended September 30, 2018", 2018],
      // The group header is printed over the middle column; it is not carried over a column whose own header is a period.
      ["2017", 2017],
    ]);
    expect(grid?.rows.map((row) => [row.label, row.values.map((value) => value?.number)])).toEqual([
      ["Fixed Price", [1452.4, 1146.2, 1036.9]],
      ["Other", [44.1, 56.7, 70.8]],
      ["Total sales", [1496.5, 1202.9, 1107.7]],
    ]);
  });

  it("carries a group header over the columns it spans, but not over a column of its own period", () => {
    const grid = readTableGrid(
      table([
        ["", "December 31, 2019", "", "Percent Change", ""],
        ["", "Carrying amount", "Fair value", "Actual", "2018"],
        ["Total debt", "3,774.4", "4,073.9", "3%", "3,474.2"],
      ]).result,
    );
    expect(grid?.columns.map((column) => column.header)).toEqual([
      "December 31, 2019 Carrying amount",
      "December 31, 2019 Fair value",
      "Percent Change Actual",
      "2018",
    ]);
  });

  it("reads sections as context, parentheses as negatives and a dash as nil", () => {
    const grid = readTableGrid(
      table([
        ["(in thousands)", "2019", "2018"],
        ["Deferred:", "", ""],
        ["Federal", "(4,206)", "—"],
      ]).result,
    );
    expect(grid?.scale).toBe("thousand");
    expect(grid?.rows.map((row) => [row.section, row.label, row.values.map((value) => value?.number)])).toEqual([
      ["Deferred", "Federal", [-4206, 0]],
    ]);
  });

  it("realigns a PDF row whose label and figures the reader split badly", () => {
    const grid = readTableGrid(
      table([
        ["2019", "2018 2017"],
        ["Fixed Price $ 1,452.4", "$ 1,146.2 $ 1,036.9"],
        ["Notes due 2024 1,000", "900 800"],
      ]).result,
    );
    expect(grid?.columns.map((column) => column.header)).toEqual(["2019", "2018", "2017"]);
    expect(grid?.rows.map((row) => [row.label, row.values.map((value) => value?.number)])).toEqual([
      ["Fixed Price", [1452.4, 1146.2, 1036.9]],
      ["Notes due 2024", [1000, 900, 800]],
    ]);
  });

  it("reads lines of figures under a period line as a table (a statement set without rules)", () => {
    const text =
      "F19 F18 CHANGE\n$ MILLION\nSales 8,657 8,244 5.0%\nEBITDA 579 603 (4.1)%\nEBIT 474 516 (8.2)%\nSales rose on price and mix.";
    const [found] = lineTables({ text, kind: "text" });
    expect(found?.grid.scale).toBe("million");
    expect(found?.grid.columns.map((column) => column.period?.year ?? null)).toEqual([2019, 2018, null]);
    expect(found?.grid.rows.map((row) => [row.label, row.values.map((value) => value?.number)])).toEqual([
      ["Sales", [8657, 8244, 5]],
      ["EBITDA", [579, 603, -4.1]],
      ["EBIT", [474, 516, -8.2]],
    ]);
  });

  it("turns a table whose rows are periods, so its rows are measures", () => {
    const grid = readTableGrid(
      table([
        ["", "Revenue", "Net income"],
        ["2019", "500", "40"],
        ["2018", "450", "35"],
      ]).result,
    );
    expect(grid?.turned).toBe(true);
    expect(grid?.rows.map((row) => [row.label, row.values.map((value) => value?.number)])).toEqual([
      ["Revenue", [500, 450]],
      ["Net income", [40, 35]],
    ]);
  });
});

describe("answerFromTables", () => {
  it("looks up a value in the asked period, with its unit", () => {
    expect(answer("What is the amount of total sales in 2019?")).toEqual({
      text: "Total sales in 2019 was $1,496.5 million [1].",
      value: { items: ["$1,496.5"], scale: "million" },
    });
  });

  it("works out a change and a percentage change, the decrease said in words", () => {
    expect(answer("What is the change in Other in 2019 from 2018?")?.text).toBe(
      "Other fell by $12.6 million, from $56.7 million in 2018 to $44.1 million in 2019 (-22.2%) [1].",
    );
    expect(answer("What is the percentage change in Other in 2019 from 2018?")).toEqual({
      text: "Other fell by 22.2%, from $56.7 million in 2018 to $44.1 million in 2019 (a change of -$12.6 million) [1].",
      value: { items: ["-22.2222"], scale: "percent" },
    });
  });

  it("averages and adds up over the periods asked, every period of a range included", () => {
    expect(answer("What is the average Other for 2018 and 2019?")?.text).toBe(
      "The average Other over 2018 and 2019 was $50.4 million ((56.7 + 44.1) / 2) [1].",
    );
    expect(answer("What was the total of Other from 2017 to 2019?")?.value).toEqual({
      items: ["171.6"],
      scale: "million",
    });
  });

  it("compares two rows and divides one by another", () => {
    expect(answer("How much more Fixed Price than Other sales in 2019?")?.text).toBe(
      "Fixed Price in 2019 was $1,408.3 million more than Other ($1,452.4 million against $44.1 million) [1].",
    );
    expect(answer("What is Other as a percentage of Total sales in 2018?")?.value).toEqual({
      items: ["4.7136"],
      scale: "percent",
    });
  });

  it("names the period in which a row was highest, and counts the periods past a threshold", () => {
    expect(answer("In which year was the amount of total sales the largest?")?.text).toBe(
      "Total sales was highest in 2019: $1,496.5 million, against $1,202.9 million in 2018 and $1,107.7 million in 2017 [1].",
    );
    expect(answer("How many years did Total sales exceed $1,200 million?")?.value).toEqual({ items: ["2"], scale: "" });
  });

  it("lists the periods a table covers and the rows under a section", () => {
    expect(answer("Which years does the table provide information for sales?")?.value).toEqual({
      items: ["2019", "2018", "2017"],
      scale: "",
    });
    const assets = table([
      ["", "2019", "2018"],
      ["Current assets", "", ""],
      ["Debtors", "12", "10"],
      ["Cash and cash equivalents", "30", "25"],
      ["Total current assets", "42", "35"],
    ]);
    expect(answer("What were the components making up current assets?", assets)?.value).toEqual({
      items: ["Debtors", "Cash and cash equivalents"],
      scale: "",
    });
  });

  it("reads a figure a sentence states for several periods ('respectively') as a row", () => {
    const prose: NumberedSource = {
      n: 1,
      result: pdfPassage({
        ...FIELDS,
        kind: "text",
        text: "Amounts capitalized to internal use software for the years ended December 31, 2019 and 2018 were $3,800 and $6,690, respectively.",
      }),
    };
    expect(
      answer("What was the change in amounts capitalized to internal use software from 2018 to 2019?", prose, null),
    ).toEqual({
      text: "Amounts capitalized to internal use software fell by $2,890, from $6,690 in 2018 to $3,800 at December 31, 2019 (-43.2%) [1].",
      value: { items: ["-2890"], scale: "" },
    });
  });

  it("takes the one row whose label means the question's measure when no row shares its words", () => {
    const expenses = table([
      ["(in millions)", "2019", "2018"],
      ["R&D expenses", "120", "100"],
      ["Selling and marketing", "80", "75"],
    ]);
    const question = "How much did they spend on innovation in 2019?";
    expect(answerFromTables(question, [expenses])).toBeNull();
    const meanings = new Map([
      ["R&D expenses", 0.86],
      ["Selling and marketing", 0.71],
    ]);
    expect(answerFromTables(question, [expenses], { meaningOf: () => meanings })?.write(1)).toBe(
      "R&D expenses in 2019 was 120 million [1].",
    );
    // Two labels about as close in meaning decide nothing.
    const tied = new Map([
      ["R&D expenses", 0.86],
      ["Selling and marketing", 0.85],
    ]);
    expect(answerFromTables(question, [expenses], { meaningOf: () => tied })).toBeNull();
  });

  it("leaves the words of the name a document is about out of its rows' match", () => {
    const segments = table([
      ["(in thousands)", "2022", "2021"],
      ["Resorts net revenues", "8,398,372", "2,297,282"],
      ["Net revenues", "13,127,485", "9,680,140"],
    ]);
    const question = "What were MGM Resorts' net revenues in 2021?";
    expect(answerFromTables(question, [segments])?.write(1)).toBe(
      "Resorts net revenues in 2021 was 2,297,282 thousand (2.297 billion) [1].",
    );
    expect(answerFromTables(question, [segments], { ownNamesOf: () => ["MGM Resorts"] })?.write(1)).toBe(
      "Net revenues in 2021 was 9,680,140 thousand (9.68 billion) [1].",
    );
    // …unless a row is named by it: "Bell Wireless" is a segment's row in Bell's own report.
    const bell = table([
      ["", "Q4 2019", "Q4 2018"],
      ["Bell Wireless", "2,493", "2,407"],
      ["Total BCE operating revenues", "6,316", "6,215"],
    ]);
    expect(
      answerFromTables("What was the operating revenues for Q4 2019 for Bell Wireless?", [bell], {
        ownNamesOf: () => ["Bell Wireless"],
      })?.write(1),
    ).toBe("Bell Wireless in Q4 2019 was 2,493 [1].");
  });

  it("answers nothing when no row names what the question asks", () => {
    expect(answer("What was the company's headcount in 2019?")).toBeNull();
  });
});
