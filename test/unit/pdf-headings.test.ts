/**
 * PDF section headings from pdf.js text items built by hand: a short line set larger than the body or
 * wholly in another font is a heading, consecutive heading lines are one; table rows, bold paragraphs
 * and wrapped sentences are not; a passage takes the heading in force where it starts.
 */
import { describe, expect, it } from "vitest";
import {
  bodyFont,
  findPageHeadings,
  headingPathAt,
  headingPaths,
  type PageHeading,
} from "../../ingestion/pdf-headings.js";
import { layoutLines, layoutPageText, type PdfLine } from "../../ingestion/pdf-lines.js";

const regular = "g_d0_f1";
const bold = "g_d0_f2";

type Line = { text: string; font?: string; size?: number; gapBefore?: boolean };

/** One pdf.js item per line, each line 1.4 of its size below the one before; a gap leaves a blank line. */
function pageLines(lines: Line[]): PdfLine[] {
  let y = 760;
  const items = lines.flatMap((line) => {
    const size = line.size ?? 10;
    y -= size * 1.4;
    const item = {
      str: line.text,
      hasEOL: true,
      transform: [size, 0, 0, size, 72, y],
      width: line.text.length * size * 0.5,
      height: size,
      fontName: line.font ?? regular,
    };
    return line.gapBefore
      ? [{ str: "", hasEOL: true, transform: [1, 0, 0, 1, 0, 0], width: 0, height: 0 }, item]
      : [item];
  });
  return layoutLines(items);
}

function headingsOf(
  lines: PdfLine[],
  tableLines = new Set<number>(),
  style = { font: bodyFont([{ lines, tableLines }]), size: 10 },
) {
  const layout = layoutPageText(lines);
  return findPageHeadings(lines, layout, tableLines, style).map((heading) => ({
    ...heading,
    startsAt: layout.text.slice(heading.start, heading.start + heading.text.length),
  }));
}

const body = (text: string): Line => ({ text });

describe("PDF section headings", () => {
  it("finds a bold heading block of consecutive lines and a larger heading, with where each starts", () => {
    const lines = pageLines([
      { text: "Acme Corporation and Subsidiaries", font: bold },
      { text: "Consolidated Statement of Cash Flows", font: bold },
      { text: "Years ended December 31", font: bold },
      body("Cash paid for purchases of property and equipment rose because the new plant was built,"),
      body("and the company expects spending to fall back next year as the work is finished."),
      { text: "Liquidity and Capital Resources", size: 14, gapBefore: true },
      body("The company funds its operations from the cash its businesses generate each year and,"),
      body("when it needs to, from short-term borrowing under its revolving credit facility."),
    ]);
    const headings = headingsOf(lines);
    expect(headings.map((heading) => heading.text)).toEqual([
      "Acme Corporation and Subsidiaries Consolidated Statement of Cash Flows Years ended December 31",
      "Liquidity and Capital Resources",
    ]);
    expect(headings[0]?.startsAt.startsWith("Acme Corporation")).toBe(true);
    expect(headings[1]?.startsAt).toBe("Liquidity and Capital Resources");
  });

  it("takes no table rows, body-font lines, sentences, numbers, small print or long bold paragraphs", () => {
    const lines = pageLines([
      { text: "Total current assets", font: bold },
      body("Short plain line"),
      { text: "This line ends a sentence.", font: bold, gapBefore: true },
      { text: "2018 2017 2016", font: bold, gapBefore: true },
      { text: "Tiny Bold Note", font: bold, size: 7, gapBefore: true },
      { text: "The first line of a bold paragraph", font: bold, gapBefore: true },
      { text: "The second line of that paragraph", font: bold },
      { text: "The third line of that paragraph", font: bold },
      { text: "The fourth line of that paragraph", font: bold },
      body("Body text carries most of the characters on this page so that its font is the body font,"),
      body("which every other line is measured against when the rules look for headings here."),
      body("More body text keeps the regular font the body's font by a clear margin over the rest."),
      body("And one more line of body text to be certain of it, in the same regular font as above."),
    ]);
    expect(headingsOf(lines, new Set([0]))).toEqual([]);
  });

  it("takes no line that wraps into the next one in lower case or ends on a linking word", () => {
    const lines = pageLines([
      { text: "Third, it is important to understand deductibles and", font: bold },
      body("coinsurance before you choose a plan, because they decide what you pay yourself."),
      { text: "Before scheduling a visit, make sure the", font: bold, gapBefore: true },
      { text: "Before Scheduling A Visit", font: bold, gapBefore: true },
      body("provider is in the network, or the visit costs more than it would otherwise cost you."),
      body("Body text carries most of the characters on this page so that its font is the body font."),
    ]);
    expect(headingsOf(lines).map((heading) => heading.text)).toEqual([]);
  });

  it("indexes a passage under the last heading at or before where it starts", () => {
    const heading = (start: number, text: string): PageHeading => ({ start, text });
    const paths = headingPaths([
      [heading(0, "Part II"), heading(100, "Financial Statements")],
      [],
      [heading(40, "Notes")],
    ]);
    expect(paths.map((entry) => [entry.page, entry.charStart, entry.path])).toEqual([
      [1, 0, ["Part II"]],
      [1, 100, ["Financial Statements"]],
      [3, 40, ["Notes"]],
    ]);
    expect(headingPathAt(paths, 1, 50)).toEqual(["Part II"]);
    expect(headingPathAt(paths, 1, 100)).toEqual(["Financial Statements"]);
    expect(headingPathAt(paths, 2, 0)).toEqual(["Financial Statements"]);
    expect(headingPathAt(paths, 3, 39)).toEqual(["Financial Statements"]);
    expect(headingPathAt(paths, 3, 40)).toEqual(["Notes"]);
    expect(headingPathAt([], 1, 0)).toEqual([]);
    // Before a document's first heading, a passage is under none.
    expect(headingPathAt(paths.slice(1), 1, 99)).toEqual([]);
  });

  it("takes a financial statement's title at the top of a page as a heading even when set like the body", () => {
    const lines = pageLines([
      body("Consolidated Statements of Income   Acme Incorporated and Subsidiary Companies"),
      body("Year ended December 31,"),
      { text: "Net sales $ 11,303 $ 11,503 $ 11,290", gapBefore: true },
      body("Body text carries most of the characters on this page so that its font is the body font,"),
      body("which every other line is measured against when the rules look for headings here, and"),
      body("a later line naming a statement in the body font is no title this far down the page:"),
      body("Consolidated Balance Sheets"),
    ]);
    const headings = headingsOf(lines);
    expect(headings.map(({ text, statement }) => ({ text, statement }))).toEqual([
      {
        text: "Consolidated Statements of Income Acme Incorporated and Subsidiary Companies",
        statement: "income-statement",
      },
    ]);
    expect(headings[0]?.startsAt.startsWith("Consolidated Statements of Income")).toBe(true);
  });

  it("takes a statement's title that sits in its table's first row, and no other table line", () => {
    const lines = pageLines([
      body("Consolidated Balance Sheets   Acme Incorporated and Subsidiary Companies"),
      { text: "Total Assets   $ 29,499   $ 30,154", font: bold },
      body("Body text carries most of the characters on this page so that its font is the body font."),
    ]);
    expect(headingsOf(lines, new Set([0, 1])).map(({ text, statement }) => ({ text, statement }))).toEqual([
      { text: "Consolidated Balance Sheets Acme Incorporated and Subsidiary Companies", statement: "balance-sheet" },
    ]);
  });

  it("keeps a statement's title above the captions that follow it on its page, not past the page", () => {
    const paths = headingPaths([
      [
        { start: 0, text: "CONSOLIDATED BALANCE SHEETS", statement: "balance-sheet" },
        { start: 80, text: "Current assets" },
        { start: 300, text: "Other assets" },
      ],
      [{ start: 0, text: "Notes to Consolidated Financial Statements" }],
    ]);
    expect(paths.map((entry) => entry.path)).toEqual([
      ["CONSOLIDATED BALANCE SHEETS"],
      ["CONSOLIDATED BALANCE SHEETS", "Current assets"],
      ["CONSOLIDATED BALANCE SHEETS", "Other assets"],
      ["Notes to Consolidated Financial Statements"],
    ]);
  });
});
