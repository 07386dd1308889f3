/**
 * PDF layout from pdf.js text items built by hand: lines and their page text (identical to the
 * regex normalisation, with offsets), and which runs of lines are tables — real columns yes;
 * two-column prose, bullet lists and lone aligned lines no.
 */
import { describe, expect, it } from "vitest";
import { joinTablesAcrossPages, type PageTable } from "../../ingestion/parse-pdf.js";
import { layoutLines, layoutPageText, normalizePageText, type PdfLine } from "../../ingestion/pdf-lines.js";
import { continuesTable, findTables, type PdfTable } from "../../ingestion/pdf-tables.js";
import { createSeededRandom } from "../support/seeded-random.js";

const glyph = 10;
const lineHeight = 14;

const regular = "g_d0_f1";
const bold = "g_d0_f2";

/** A pdf.js text item: `str` at (x, y), 0.5 em per character wide, in `fontName`. */
function item(str: string, x: number, y: number, hasEOL = false, fontName = regular) {
  return {
    str,
    hasEOL,
    transform: [glyph, 0, 0, glyph, x, y],
    width: str.length * glyph * 0.5,
    height: glyph,
    fontName,
  };
}

/**
 * One line per row, each cell at its column's x. The first row is set in bold, as table headers
 * usually are, unless `boldHeader` is false.
 */
function rowsToItems(rows: string[][], columnsX: number[], top = 700, boldHeader = true) {
  return rows.flatMap((row, index) =>
    row.flatMap((cell, column) =>
      cell === ""
        ? []
        : [
            item(
              cell,
              columnsX[column] ?? 0,
              top - index * lineHeight,
              false,
              index === 0 && boldHeader ? bold : regular,
            ),
          ],
    ),
  );
}

function linesOf(rows: string[][], columnsX: number[], boldHeader = true): PdfLine[] {
  return layoutLines(rowsToItems(rows, columnsX, 700, boldHeader));
}

describe("PDF lines and page text", () => {
  it("joins items on a baseline, spaces apart separated items, and breaks lines on baseline moves and EOL", () => {
    const lines = layoutLines([
      item("Hello", 72, 700),
      item("world", 72 + 5 * 5 + 4, 700),
      item("next", 72, 686, true),
      item("last", 72, 672),
    ]);
    expect(lines.map((line) => line.text)).toEqual(["Hello world", "next", "last"]);
    expect(lines[0]?.fragments).toEqual([
      { x0: 72, x1: 97, start: 0, end: 5, font: regular },
      { x0: 101, x1: 126, start: 6, end: 11, font: regular },
    ]);
  });

  it("builds the same page text as normalizePageText, with every line's offsets", () => {
    const random = createSeededRandom(7);
    const pieces = ["", " ", "  ", "\u0000", "abc", "  indented", "trailing  ", "x\u00a0", "\t", "Δ word"];
    for (let trial = 0; trial < 500; trial++) {
      const count = Math.floor(random() * 8);
      const lines: PdfLine[] = Array.from({ length: count }, () => ({
        text: pieces[Math.floor(random() * pieces.length)] ?? "",
        fragments: [],
        y: 0,
        height: 0,
      }));
      const layout = layoutPageText(lines);
      expect(layout.text).toBe(normalizePageText(lines.map((line) => line.text).join("\n")));
      layout.lineSpans.forEach((span, index) => {
        if (span === null) return;
        const cleaned = (lines[index]?.text ?? "")
          .replace(/[ \t\u00a0]+$/u, "")
          .replaceAll("\u0000", "")
          .trim();
        expect(layout.text.slice(span.start, span.end).trim()).toBe(cleaned);
      });
    }
  });
});

describe("tables on a PDF page", () => {
  const columnsX = [72, 200, 300];

  it("keeps a numbered column when the table has a header above it", () => {
    const tables = findTables(
      linesOf(
        [
          ["#", "Title"],
          ["1", "Hound of the Baskervilles"],
          ["2", "Dracula"],
        ],
        [72, 120],
      ),
    );
    expect(tables[0]?.rows).toEqual([
      ["1", "Hound of the Baskervilles"],
      ["2", "Dracula"],
    ]);
  });

  it("finds a table with its header, rows and the lines it covers", () => {
    const lines = layoutLines([
      item("Sales report", 72, 780, true),
      item("Table 2. Quarterly results by region", 72, 714, true),
      ...rowsToItems(
        [
          ["Region", "Revenue", "Growth"],
          ["North", "1,200", "4.5%"],
          ["South", "980", "-1.2%"],
          ["West", "1,450", "7.0%"],
        ],
        columnsX,
      ),
    ]);
    const tables = findTables(lines);
    expect(tables).toHaveLength(1);
    // The line right above is the caption; the one further up (more than five glyph heights away) is not.
    expect(tables[0]).toEqual({
      caption: ["Table 2. Quarterly results by region"],
      columnStarts: columnsX,
      firstLine: 2,
      lastLine: 5,
      header: ["Region", "Revenue", "Growth"],
      rows: [
        ["North", "1,200", "4.5%"],
        ["South", "980", "-1.2%"],
        ["West", "1,450", "7.0%"],
      ],
    });
  });

  it("reads a first row as a header only where the layout shows one", () => {
    const glossary = [
      ["AES", "Advanced Encryption Standard"],
      ["CSA", "Computer Security Act"],
      ["DES", "Data Encryption Standard"],
    ];
    // Same font throughout: the first entry is an entry, not the name of the columns.
    expect(findTables(linesOf(glossary, [72, 150], false))[0]).toMatchObject({ header: [], rows: glossary });
    // Set in bold above the rest: a header.
    expect(findTables(linesOf(glossary, [72, 150], true))[0]).toMatchObject({
      header: ["AES", "Advanced Encryption Standard"],
    });
    // Two of three header cells in bold, the third in the body's font: still a header.
    const mostlyBold = layoutLines([
      item("Number", 72, 700, false, bold),
      item("Title", 150, 700, false, bold),
      item("Released", 300, 700, false, regular),
      ...rowsToItems(
        [
          ["800-41", "Guidelines on Firewalls", "September 2009"],
          ["800-53", "Security Controls", "August 2009"],
        ],
        [72, 150, 300],
        686,
        false,
      ),
    ]);
    expect(findTables(mostlyBold)[0]?.header).toEqual(["Number", "Title", "Released"]);
    // Same font, but labelling a column of numbers, or an empty corner over row labels: a header.
    const figures = [
      ["Plan", "Deductible"],
      ["Standard", "$2,000"],
      ["Plus", "1,500"],
    ];
    expect(findTables(linesOf(figures, [72, 250], false))[0]?.header).toEqual(["Plan", "Deductible"]);
    const matrix = [
      ["", "North", "South"],
      ["Q1", "up", "down"],
      ["Q2", "flat", "up"],
    ];
    expect(findTables(linesOf(matrix, [72, 200, 300], false))[0]?.header).toEqual(["", "North", "South"]);
  });

  it("takes no paragraph tail, lead-in sentence or link above a table for its caption", () => {
    for (const above of [
      "the systems that were affected.",
      "This includes the following:",
      "within the organization are inventoried",
      "http://csrc.nist.gov/groups/STM",
    ]) {
      const lines = layoutLines([
        item(above, 72, 714, true),
        ...rowsToItems(
          [
            ["Region", "Revenue"],
            ["North", "1,200"],
            ["South", "980"],
          ],
          [72, 200],
        ),
      ]);
      expect(findTables(lines)[0]?.caption, above).toEqual([]);
    }
  });

  it("keeps empty cells empty and joins a wrapped cell to its row", () => {
    const tables = findTables(
      linesOf(
        [
          ["Control", "Owner", "Status"],
          ["AC-1", "Security office", "Done"],
          ["AC-2", "", "Open"],
          ["", "Identity team and", ""],
          ["", "the help desk", ""],
          ["AC-3", "IT", "Open"],
        ],
        columnsX,
      ),
    );
    expect(tables[0]?.rows).toEqual([
      ["AC-1", "Security office", "Done"],
      ["AC-2", "Identity team and the help desk", "Open"],
      ["AC-3", "IT", "Open"],
    ]);
  });

  it("ends a table at its last row when prose follows", () => {
    const lines = layoutLines([
      ...rowsToItems(
        [
          ["Plan", "Deductible"],
          ["Standard", "$2,000"],
          ["Plus", "$1,500"],
        ],
        [72, 250],
      ),
      item("The deductible resets every January.", 72, 700 - 3 * lineHeight, true),
    ]);
    expect(findTables(lines)[0]).toMatchObject({ firstLine: 0, lastLine: 2 });
  });

  it("splits tables a wide vertical gap separates", () => {
    const first = rowsToItems(
      [
        ["A", "1"],
        ["B", "2"],
        ["C", "3"],
      ],
      [72, 250],
      700,
    );
    const second = rowsToItems(
      [
        ["D", "4"],
        ["E", "5"],
        ["F", "6"],
      ],
      [72, 250],
      500,
    );
    expect(findTables(layoutLines([...first, ...second])).map((table) => table.header)).toEqual([
      ["A", "1"],
      ["D", "4"],
    ]);
  });

  it("keeps a statement set in blocks one table: headerless rows after a blank gap go on under the header above", () => {
    const columns = [72, 300, 400];
    const top = rowsToItems(
      [
        ["", "2023", "2022"],
        ["Net sales", "3,226", "2,729"],
        ["Cost of sales", "2,014", "1,702"],
        ["Gross profit", "1,212", "1,027"],
      ],
      columns,
      700,
    );
    const bottom = rowsToItems(
      [
        ["Operating income", "447", "375"],
        ["Income tax expense", "111", "85"],
        ["Net income", "340", "289"],
      ],
      columns,
      700 - 4 * lineHeight - 3 * lineHeight,
      false,
    );
    const tables = findTables(layoutLines([...top, ...bottom]));
    expect(tables).toHaveLength(1);
    expect(tables[0]?.header).toEqual(["", "2023", "2022"]);
    expect(tables[0]?.rows.map((row) => row[0])).toEqual([
      "Net sales",
      "Cost of sales",
      "Gross profit",
      "Operating income",
      "Income tax expense",
      "Net income",
    ]);
  });

  it("does not take two-column prose, lists (bullets, numbers, citation keys, line numbers) or two aligned lines for a table", () => {
    const prose = "the quick brown fox jumps over the lazy dog again and again";
    const twoColumnPage = linesOf(
      Array.from({ length: 6 }, () => [prose, prose]),
      [72, 72 + prose.length * 5 + 20],
    );
    expect(findTables(twoColumnPage)).toEqual([]);
    // Each would be a two-column table but for its first column of list markers.
    const lists: Record<string, { rows: string[][]; columnsX: number[] }> = {
      bullets: {
        rows: [
          ["•", "Hardware"],
          ["•", "Software"],
          ["•", "System interfaces"],
          ["•", "Data and information"],
        ],
        columnsX: [72, 90],
      },
      "Symbol-font bullets": {
        rows: [
          ["\uf0b7", "Physical devices are inventoried"],
          ["\uf0b7", "Software platforms are inventoried"],
          ["\uf0b7", "Data flows are mapped"],
        ],
        columnsX: [72, 90],
      },
      references: {
        rows: [
          ["[Cop87]", "D. Cope. An expert system for computer-assisted composition."],
          ["[Gat90]", "L. Gatys. Texture synthesis."],
          ["[12]", "A. Turing. Computing machinery and intelligence."],
        ],
        columnsX: [72, 120],
      },
      "code listing": {
        rows: [
          ["1", "for (;;) {"],
          ["2", "  x = x + 1;"],
          ["3", "}"],
        ],
        columnsX: [72, 100],
      },
      "numbered list": {
        rows: [
          ["1.", "Plan"],
          ["2.", "Do"],
          ["3.", "Check"],
        ],
        columnsX: [72, 100],
      },
    };
    for (const [name, list] of Object.entries(lists)) {
      expect(findTables(linesOf(list.rows, list.columnsX)), name).toEqual([]);
      // The same rows under a header that is no list marker are a table: the marker column is what decides.
      expect(findTables(linesOf([["#", "Entry"], ...list.rows], list.columnsX)), `${name} under a header`).toHaveLength(
        1,
      );
    }
    expect(
      findTables(
        linesOf(
          [
            ["Name", "Value"],
            ["a", "1"],
          ],
          [72, 250],
        ),
      ),
    ).toEqual([]);
  });

  it("does not split words a normal space separates", () => {
    // Items one space apart (0.5 em) stay one cell: a sentence set as separate words is not a table.
    const words = ["Employees", "may", "carry", "over", "five", "days"];
    const lineItems = (y: number) => {
      let x = 72;
      return words.map((word) => {
        const piece = item(word, x, y);
        x += piece.width + glyph * 0.5;
        return piece;
      });
    };
    expect(findTables(layoutLines([...lineItems(700), ...lineItems(686), ...lineItems(672)]))).toEqual([]);
  });
});

describe("financial statements on a PDF page", () => {
  it("heads right-aligned amounts with the years centred over them, and keeps '$' with its amount", () => {
    // As 10-K statements are set: years centred over their columns, amounts right-aligned, "$" apart.
    const top = 700;
    const lines = layoutLines([
      item("(Millions)", 60, top, false, bold),
      item("2018", 372, top, false, bold),
      item("2017", 440, top, false, bold),
      item("Net income", 60, top - lineHeight),
      item("$", 345, top - lineHeight),
      item("5,363", 386, top - lineHeight),
      item("$", 430, top - lineHeight),
      item("4,869", 454, top - lineHeight),
      item("Depreciation and amortization", 66, top - 2 * lineHeight),
      item("1,488", 386, top - 2 * lineHeight),
      item("1,544", 454, top - 2 * lineHeight),
      item("Purchases of property, plant and equipment (PP&E)", 60, top - 3 * lineHeight),
      item("(1,577)", 382, top - 3 * lineHeight),
      item("(1,373)", 450, top - 3 * lineHeight),
    ]);
    const [table] = findTables(lines);
    expect(table?.header).toEqual(["(Millions)", "2018", "2017"]);
    expect(table?.rows).toEqual([
      ["Net income", "$ 5,363", "$ 4,869"],
      ["Depreciation and amortization", "1,488", "1,544"],
      ["Purchases of property, plant and equipment (PP&E)", "(1,577)", "(1,373)"],
    ]);
  });
});

describe("tables across a page break", () => {
  const table = (columnStarts: number[]): PdfTable => ({
    firstLine: 0,
    lastLine: 2,
    header: [],
    rows: [],
    columnStarts,
    caption: [],
  });

  it("joins tables whose columns line up, not ones that differ in count or place", () => {
    expect(continuesTable(table([72, 200, 300]), table([72, 204, 296]))).toBe(true);
    expect(continuesTable(table([72, 200, 300]), table([72, 200]))).toBe(false);
    expect(continuesTable(table([72, 200, 300]), table([72, 240, 300]))).toBe(false);
  });
});

describe("a table continued on the next page", () => {
  const columns = [72, 200];
  function pageTable(page: number, header: string[], rows: string[][], margins = { before: 1, after: 1 }): PageTable {
    return {
      block: { kind: "table", header, rows, headingPath: [], firstRow: 1, page, caption: [`Table on ${page}`] },
      table: { firstLine: 0, lastLine: rows.length, header, rows, columnStarts: columns, caption: [] },
      page,
      start: 0,
      end: 0,
      linesBefore: margins.before,
      linesAfter: margins.after,
    };
  }

  it("takes the first page's header and caption, and numbers its rows on", () => {
    const first = pageTable(
      4,
      ["Plan", "Deductible"],
      [
        ["Standard", "$2,000"],
        ["Plus", "$1,500"],
      ],
    );
    const second = pageTable(5, ["Gold", "$500"], [["Platinum", "$0"]]);
    joinTablesAcrossPages([first, second]);
    expect(second.block).toMatchObject({
      header: ["Plan", "Deductible"],
      caption: ["Table on 4"],
      rows: [
        ["Gold", "$500"],
        ["Platinum", "$0"],
      ],
      firstRow: 3,
    });
  });

  it("adds no empty row when the next page's rows carry no header of their own", () => {
    const first = pageTable(
      4,
      ["Term", "Meaning"],
      [
        ["a", "1"],
        ["b", "2"],
      ],
    );
    const second = pageTable(
      5,
      [],
      [
        ["c", "3"],
        ["d", "4"],
      ],
    );
    joinTablesAcrossPages([first, second]);
    expect(second.block).toMatchObject({
      header: ["Term", "Meaning"],
      rows: [
        ["c", "3"],
        ["d", "4"],
      ],
      firstRow: 3,
    });
  });

  it("drops a header the next page repeats, and leaves apart tables with prose between them", () => {
    const first = pageTable(4, ["Plan", "Deductible"], [["Standard", "$2,000"]]);
    const repeated = pageTable(5, ["Plan", "Deductible"], [["Gold", "$500"]]);
    joinTablesAcrossPages([first, repeated]);
    expect(repeated.block).toMatchObject({ rows: [["Gold", "$500"]], firstRow: 2 });
    const separate = pageTable(6, ["Region", "Sales"], [["North", "3"]], { before: 12, after: 1 });
    joinTablesAcrossPages([repeated, separate]);
    expect(separate.block).toMatchObject({ header: ["Region", "Sales"], firstRow: 1 });
  });
});
