/**
 * PDF page text cleaning on pdf.js text items built by hand: running headers, footers and page
 * numbers found by repetition in the page margins (never a table's first row, never a one-page
 * document's lines), footnotes found by type size, position and the marks pointing to them, and the
 * whole page text put together with exact offsets.
 */
import { describe, expect, it } from "vitest";
import { cutLine, findFootnotes } from "../../ingestion/footnotes.js";
import { findLineNumbers, findPageFurniture, furnitureKey } from "../../ingestion/page-furniture.js";
import { layoutLines, type PdfLine } from "../../ingestion/pdf-lines.js";
import { cleanPdfPages } from "../../ingestion/pdf-page-text.js";

const bodySize = 11;
const lineGap = 14;

/** A pdf.js text item: `str` at (x, y) in type of `size`, 0.5 em per character wide, optionally turned. */
function item(str: string, x: number, y: number, size = bodySize, hasEOL = true, turned = false) {
  return {
    str,
    hasEOL,
    transform: turned ? [0, size, -size, 0, x, y] : [size, 0, 0, size, x, y],
    width: str.length * size * 0.5,
    height: size,
    fontName: "g_d0_f1",
  };
}

/** A page: an optional header at the top, body lines from y = 700 down, an optional footer at the bottom. */
function pageLines(options: { header?: string; body: string[]; footer?: string; top?: number }): PdfLine[] {
  const top = options.top ?? 700;
  return layoutLines([
    ...(options.header === undefined ? [] : [item(options.header, 72, 750)]),
    ...options.body.map((text, index) => item(text, 72, top - index * lineGap)),
    ...(options.footer === undefined ? [] : [item(options.footer, 300, 40)]),
  ]);
}

const texts = (lines: readonly PdfLine[], indices: Iterable<number>) =>
  [...indices].sort((left, right) => left - right).map((index) => lines[index]?.text);

describe("furnitureKey", () => {
  it("makes page numbers, dates and roman numerals alike", () => {
    expect(furnitureKey("SP 800-30  Page 12")).toBe("sp #-# page #");
    expect(furnitureKey("SP 800-30 Page iv")).toBe("sp #-# page #");
    expect(furnitureKey("Civil Rights")).toBe("civil rights");
  });
});

describe("findPageFurniture", () => {
  const body = ["Widgets are small.", "They are made of parts.", "Parts are cheap."];

  it("finds the running header and the page number of every page, and nothing of the body", () => {
    const pages = Array.from({ length: 6 }, (_, index) =>
      pageLines({ header: "Guide to Widgets", body, footer: String(index + 1) }),
    );
    const furniture = findPageFurniture(pages);
    pages.forEach((lines, index) => {
      expect(texts(lines, furniture[index] ?? [])).toEqual(["Guide to Widgets", String(index + 1)]);
    });
  });

  it("finds a chapter's running header that repeats on only a few pages where the header stands on many", () => {
    const chapterOf = (page: number) => (page < 8 ? 1 : 2 + Math.floor((page - 8) / 3));
    const pages = Array.from({ length: 20 }, (_, index) =>
      pageLines({
        header: `Chapter ${chapterOf(index)}: ${["Setup", "Use", "Care", "Repair", "Recycling"][chapterOf(index) - 1]}`,
        body,
      }),
    );
    const furniture = findPageFurniture(pages);
    expect(furniture.every((lines) => lines.size === 1 && lines.has(0))).toBe(true);
  });

  it("keeps a text that repeats on a page top without a margin gap (a table's first row)", () => {
    const pages = Array.from({ length: 6 }, () => pageLines({ body: ["07/17/2015 Boeing 65", ...body], top: 750 }));
    expect(findPageFurniture(pages).every((lines) => lines.size === 0)).toBe(true);
  });

  it("keeps a repeated line that a table covers", () => {
    const pages = Array.from({ length: 6 }, () => pageLines({ header: "Plan Rate Notes", body }));
    const furniture = findPageFurniture(
      pages,
      pages.map(() => new Set([0])),
    );
    expect(furniture.every((lines) => lines.size === 0)).toBe(true);
  });

  it("finds text turned up the margin of every page", () => {
    const pages = Array.from({ length: 4 }, () =>
      layoutLines([
        item("Available free of charge from: https://doi.org/10.6028/NIST", 22, 560, 9, true, true),
        ...body.map((text, index) => item(text, 72, 700 - index * lineGap)),
      ]),
    );
    const furniture = findPageFurniture(pages);
    pages.forEach((lines, index) => {
      expect(texts(lines, furniture[index] ?? [])).toEqual([
        "Available free of charge from: https://doi.org/10.6028/NIST",
      ]);
    });
  });

  it("finds page numbers that count up with the pages on sparse pages (slides), and not a chart's labels", () => {
    const slides = Array.from({ length: 12 }, (_, index) =>
      layoutLines([
        item(`Slide title ${index}`, 72, 700),
        ...(index % 4 === 3 ? [item(String(index + 1), 700, 20)] : []),
        ...(index === 5 ? [item("2022", 72, 40)] : index === 9 ? [item("5000", 72, 42)] : []),
      ]),
    );
    const furniture = findPageFurniture(slides);
    expect(
      slides.flatMap((lines, index) => texts(lines, furniture[index] ?? []).map((text) => `${index + 1}:${text}`)),
    ).toEqual(["4:4", "8:8", "12:12"]);
  });

  it("finds a page number standing inside the page's rows where it counts up at one height on many pages", () => {
    const pages = Array.from({ length: 5 }, (_, index) =>
      layoutLines([
        ...body.map((text, row) => item(text, 72, 700 - row * lineGap)),
        item(String(index + 1), 30, 686),
        item(`${["Apples", "Pears", "Plums", "Figs", "Limes"][index]} grow below the number.`, 72, 600),
      ]),
    );
    const furniture = findPageFurniture(pages);
    pages.forEach((lines, index) => {
      expect(texts(lines, furniture[index] ?? [])).toEqual([String(index + 1)]);
    });
  });

  it("finds nothing in a one-page document", () => {
    expect(findPageFurniture([pageLines({ header: "Memo", body, footer: "1" })])).toEqual([new Set()]);
  });
});

describe("findLineNumbers", () => {
  const prose = Array.from({ length: 8 }, (_, row) =>
    item(`Line ${row} of the draft's prose text.`, 72, 700 - row * lineGap),
  );

  it("finds a draft's line numbers in a column of their own, right-aligned", () => {
    const lines = layoutLines([
      ...prose,
      ...Array.from({ length: 8 }, (_, row) => {
        const number = String(row + 8);
        return item(number, 66 - number.length * 3.5, 700 - row * lineGap, 7);
      }),
    ]);
    expect(texts(lines, findLineNumbers(lines))).toEqual(["8", "9", "10", "11", "12", "13", "14", "15"]);
  });

  it("keeps numbers that do not count up, and numbers inside the text's column", () => {
    const scattered = layoutLines([
      ...prose,
      ...["3", "17", "4", "90", "12", "5"].map((number, row) => item(number, 50, 700 - row * lineGap, 7)),
    ]);
    expect(findLineNumbers(scattered)).toEqual(new Set());
    const inColumn = layoutLines([
      ...prose,
      ...Array.from({ length: 6 }, (_, row) => item(String(row + 1), 72, 580 - row * lineGap)),
    ]);
    expect(findLineNumbers(inColumn)).toEqual(new Set());
  });
});

describe("findFootnotes", () => {
  /** Body at 11 pt with a superscript mark after "capability"; the note at 9 pt with its mark at 6 pt. */
  const lines = layoutLines([
    item("Measured service uses a metering capability", 72, 700, bodySize, false),
    item("1", 72 + 44 * 5.5, 705, 7, false),
    item(" at some level of abstraction.", 72 + 44 * 5.5 + 4, 700),
    item("Reports", 72, 686, bodySize, false),
    item("2", 72 + 7 * 5.5 + 3, 691, 7, false),
    item("from the meter, alert,", 72 + 7 * 5.5 + 9, 686, bodySize, false),
    item("1", 72 + 29 * 5.5 + 9, 691, 7, false),
    item(" and more.", 72 + 29 * 5.5 + 14, 686),
    item("1 ", 72, 130, 6, false),
    item("Typically this is done on a pay-per-use basis.", 77, 126, 9),
    item("2 ", 72, 118, 6, false),
    item("Reports go to the operator and", 77, 114, 9),
    item("to the auditor.", 77, 104, 9),
  ]);

  it("finds each note with its lines, and the marks pointing to it, with no double space left", () => {
    const found = findFootnotes(lines, bodySize, new Set());
    expect(
      found.notes.map((note) => ({ mark: note.mark, lines: texts(lines, note.lines), markEnd: note.markEnd })),
    ).toEqual([
      { mark: "1", lines: ["1 Typically this is done on a pay-per-use basis."], markEnd: 2 },
      { mark: "2", lines: ["2 Reports go to the operator and", "to the auditor."], markEnd: 2 },
    ]);
    const cut = [...found.references].map(([index, ranges]) => cutLine(lines[index] as PdfLine, ranges).text);
    expect(cut).toEqual([
      "Measured service uses a metering capability at some level of abstraction.",
      "Reports from the meter, alert, and more.",
    ]);
  });

  it("finds no note where the body points to none (a small-type numbered list at the foot of a page)", () => {
    const list = layoutLines([
      item("The steps are listed below.", 72, 700),
      item("1 Unpack the widget.", 72, 130, 9),
      item("2 Plug it in.", 72, 118, 9),
    ]);
    expect(findFootnotes(list, bodySize, new Set())).toEqual({ notes: [], references: new Map() });
  });
});

describe("cleanPdfPages", () => {
  const pages = [
    layoutLines([
      item("Guide to Widgets", 72, 750),
      item("All information is kept by the plan.", 72, 700),
      item("The plan covers infor-", 72, 686),
      item("mation systems", 72, 672, bodySize, false),
      item("1", 72 + 14 * 5.5, 677, 7, false),
      item(" for staff and", 72 + 14 * 5.5 + 4, 672),
      item("1 ", 72, 130, 6, false),
      item("Systems as defined by the act.", 77, 126, 9),
      item("1", 300, 40),
    ]),
    layoutLines([item("Guide to Widgets", 72, 750), item("contractors alike.", 72, 700), item("2", 300, 40)]),
    layoutLines([item("Guide to Widgets", 72, 750), item("The end.", 72, 700), item("3", 300, 40)]),
  ].map((lines) => ({ lines, formText: "" }));

  it("leaves out headers and page numbers, mends the broken word, and sets the note before a body that runs on", () => {
    const { pages: cleaned, counts } = cleanPdfPages(pages);
    const note = "Systems as defined by the act.";
    const body = "All information is kept by the plan.\nThe plan covers information systems for staff and";
    expect(cleaned.map(({ text, body, notes }) => ({ text, body, notes }))).toEqual([
      {
        text: `${note}\n\n${body}`,
        body: { start: note.length + 2, end: note.length + 2 + body.length },
        notes: { start: 0, end: note.length },
      },
      { text: "contractors alike.", body: { start: 0, end: 18 }, notes: null },
      { text: "The end.", body: { start: 0, end: 8 }, notes: null },
    ]);
    expect(counts).toEqual({
      furnitureLines: 6,
      footnotes: 1,
      footnoteMarks: 1,
      hyphensDropped: 1,
      linesJoined: 1,
      notesBeforeBody: 1,
    });
  });

  it("sets a note after its body when the body ends its sentence on the page", () => {
    const ended = pages.map((page, index) =>
      index === 0
        ? {
            ...page,
            lines: page.lines.map((line) =>
              line.text.endsWith("for staff and") ? { ...line, text: `${line.text} others.` } : line,
            ),
          }
        : page,
    );
    const first = cleanPdfPages(ended).pages[0];
    expect(first?.text.endsWith("for staff and others.\n\nSystems as defined by the act.")).toBe(true);
    expect(first?.notes).toEqual({ start: (first?.text.length ?? 0) - 30, end: first?.text.length });
  });
});
