/**
 * How a table answer names a row and states an amount (issue #41): the row's label without its section
 * in brackets, the section named only where two rows share a label, and a thousands figure also in a
 * readable unit to four significant digits — the printed figure kept in the answer's value.
 */
import { describe, expect, it } from "vitest";
import { answerFromTables } from "../../src/answer/evidence/tables/table-answer.js";
import { inReadableUnit } from "../../src/answer/evidence/tables/table-wording.js";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import { tablePassage } from "../support/answer-fixtures.js";

const FIELDS = { chunkId: "c1", documentId: "d1", spaceId: "s", file: "report.html", title: "Annual report" };

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

function answer(question: string, source: NumberedSource) {
  const found = answerFromTables(question, [source]);
  return found === null ? null : { text: found.write(1), value: found.value };
}

describe("a row named as a reader names it", () => {
  const INCOME = table([
    ["(in thousands)", "2017", "2016"],
    ["Other income (expense):", "", ""],
    ["Interest expense", "(12,345)", "(11,002)"],
    ["Net income", "558,929", "402,118"],
  ]);

  it("leaves out the section a row sits under when no other row shares its label", () => {
    expect(answer("What was net income in 2017?", INCOME)).toEqual({
      text: "Net income in 2017 was 558,929 thousand (558.9 million) [1].",
      value: { items: ["558,929"], scale: "thousand" },
    });
  });

  it("reads a one-word label with its section, which it names only a part of", () => {
    const perShare = table([
      ["", "2019", "2018"],
      ["Earnings per share:", "", ""],
      ["Diluted", "$ 2.51", "$ 2.16"],
    ]);
    expect(answer("What was diluted earnings per share in 2019?", perShare)?.text).toBe(
      "Diluted earnings per share in 2019 was $2.51 [1].",
    );
  });

  it("names the section as context where two rows share a label", () => {
    const taxes = table([
      ["(in millions)", "2019", "2018"],
      ["Current:", "", ""],
      ["Federal", "1,200", "1,100"],
      ["Deferred:", "", ""],
      ["Federal", "(4,206)", "310"],
    ]);
    expect(answer("What was the deferred federal tax in 2019?", taxes)?.text).toBe(
      "Federal deferred in 2019 was -4,206 million [1].",
    );
  });

  it("writes a shouted section in lower case when it is named", () => {
    const expenses = table([
      ["(in millions)", "August 29, 2021", "August 30, 2020"],
      ["OPERATING EXPENSES", "", ""],
      ["Operating income", "6,708", "5,435"],
      ["OTHER ITEMS", "", ""],
      ["Operating income", "1", "2"],
    ]);
    expect(answer("What was operating income (operating expenses) at August 29, 2021?", expenses)?.text).toBe(
      "Operating income under operating expenses at August 29, 2021 was 6,708 million [1].",
    );
  });
});

describe("amounts in thousands in a readable unit", () => {
  it("states the figure as printed and again to four significant digits, value unchanged", () => {
    const sales = table([
      ["($ in thousands)", "2023", "2022"],
      ["Net sales", "$ 1,234,567", "$ 987,654"],
    ]);
    expect(answer("What were net sales in 2023?", sales)).toEqual({
      text: "Net sales in 2023 was $1,234,567 thousand ($1.235 billion) [1].",
      value: { items: ["$ 1,234,567"], scale: "thousand" },
    });
  });

  it("rounds to at least four significant digits and drops trailing zeros", () => {
    expect(inReadableUnit(558_929_000, "$")).toBe("$558.9 million");
    expect(inReadableUnit(1_234_567_000, "$")).toBe("$1.235 billion");
    expect(inReadableUnit(45_210_000, "$")).toBe("$45.21 million");
    expect(inReadableUnit(5_000_000, null)).toBe("5 million");
    expect(inReadableUnit(-6_120_000, "$")).toBe("-$6.12 million");
    expect(inReadableUnit(999_999, "$")).toBeNull();
  });
});
