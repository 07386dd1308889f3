/**
 * The chunker with fake token counters, so every expected chunk can be worked out by hand: structure
 * first (sections, paragraphs, sentences, words, characters), exact PDF offsets across pages,
 * overlap at word boundaries, tables with the header repeated, and validated options.
 */
import { describe, expect, it } from "vitest";
import { chunkDocument, TRUNCATION_NOTE } from "../../ingestion/chunker.js";
import type { Block, ParsedDocument } from "../../ingestion/parsed-document.js";
import { splitSentences } from "../../ingestion/split-sentences.js";
import type { TokenCounter } from "../../ingestion/token-counter.js";
import type { ChunkDraft, PageText } from "../../src/domain/types.js";
import { FolioError } from "../../src/errors.js";
import { createSeededRandom } from "../support/seeded-random.js";

/** One token per whitespace-separated word, plus two special tokens (like [CLS] and [SEP]). */
const wordCounter: TokenCounter = { count: (text) => (text.match(/\S+/g) ?? []).length + 2 };

/** One token per started 8 characters of each word, plus two: long words cost several tokens. */
const characterCounter: TokenCounter = {
  count: (text) => (text.match(/\S+/g) ?? []).reduce((sum, word) => sum + Math.ceil(word.length / 8), 2),
};

function pdfDocument(pageTexts: string[]): ParsedDocument {
  const pages: PageText[] = pageTexts.map((text, index) => ({ pageNumber: index + 1, text }));
  return {
    mediaType: "application/pdf",
    title: "test",
    pages,
    blocks: pages
      .filter((page) => page.text.length > 0)
      .map((page) => ({ kind: "text", text: page.text, headingPath: [], page: page.pageNumber, charStart: 0 })),
    warnings: [],
  };
}

function textDocument(blocks: Block[]): ParsedDocument {
  return { mediaType: "text/markdown", title: "test", pages: null, blocks, warnings: [] };
}

/** The text a PDF chunk's provenance points at: page slices joined with "\n", as the chunker defines it. */
function textAtProvenance(document: ParsedDocument, chunk: ChunkDraft): string {
  const { pageStart = 0, pageEnd = 0, charStart = 0, charEnd = 0 } = chunk.provenance;
  const parts: string[] = [];
  for (let page = pageStart; page <= pageEnd; page += 1) {
    const text = document.pages?.[page - 1]?.text ?? "";
    parts.push(text.slice(page === pageStart ? charStart : 0, page === pageEnd ? charEnd : text.length));
  }
  return parts.join("\n");
}

describe("chunkDocument on PDFs", () => {
  it("packs paragraphs across pages and records exact page offsets, empty pages included", () => {
    const document = pdfDocument([
      "Alpha beta.\n\nGamma delta epsilon",
      "zeta eta.\n\nTheta iota kappa lambda mu.",
      "",
      "Nu xi.",
    ]);
    const chunks = chunkDocument(document, { maxTokens: 9, overlapTokens: 0, tokenCounter: wordCounter });
    expect(chunks).toEqual([
      {
        kind: "text",
        text: "Alpha beta.\n\nGamma delta epsilon\nzeta eta.",
        tokenCount: 9,
        position: 0,
        provenance: { pageStart: 1, pageEnd: 2, charStart: 0, charEnd: 9 },
      },
      {
        kind: "text",
        text: "Theta iota kappa lambda mu.\n\nNu xi.",
        tokenCount: 9,
        position: 1,
        provenance: { pageStart: 2, pageEnd: 4, charStart: 11, charEnd: 6 },
      },
    ]);
    for (const chunk of chunks) expect(textAtProvenance(document, chunk)).toBe(chunk.text);
  });

  it("splits an overlong sentence at words and starts each chunk with the previous tail", () => {
    const document = pdfDocument(["Intro.", "One two three four five six seven eight nine ten."]);
    const chunks = chunkDocument(document, { maxTokens: 6, overlapTokens: 2, tokenCounter: wordCounter });
    expect(chunks.map((chunk) => [chunk.text, chunk.tokenCount, chunk.provenance])).toEqual([
      ["Intro.\nOne two three", 6, { pageStart: 1, pageEnd: 2, charStart: 0, charEnd: 13 }],
      ["two three four five", 6, { pageStart: 2, pageEnd: 2, charStart: 4, charEnd: 23 }],
      ["four five six seven", 6, { pageStart: 2, pageEnd: 2, charStart: 14, charEnd: 33 }],
      ["six seven eight nine", 6, { pageStart: 2, pageEnd: 2, charStart: 24, charEnd: 44 }],
      ["eight nine ten.", 5, { pageStart: 2, pageEnd: 2, charStart: 34, charEnd: 49 }],
    ]);
    for (const chunk of chunks) expect(textAtProvenance(document, chunk)).toBe(chunk.text);
  });

  it("locates blocks that start inside a page by their offsets, not by searching", () => {
    // The same sentence twice on the page: only the offset tells which one the block is.
    const page = "Repeat me.\n\nRepeat me.";
    const document: ParsedDocument = {
      ...pdfDocument([page]),
      blocks: [{ kind: "text", text: "Repeat me.", headingPath: [], page: 1, charStart: 12 }],
    };
    const chunks = chunkDocument(document, { maxTokens: 50, overlapTokens: 0, tokenCounter: wordCounter });
    expect(chunks).toEqual([
      {
        kind: "text",
        text: "Repeat me.",
        tokenCount: 4,
        position: 0,
        provenance: { pageStart: 1, pageEnd: 1, charStart: 12, charEnd: 22 },
      },
    ]);
  });

  it("never bridges text left out of the prose (a table) and chunks the table after it, on its page", () => {
    const before = "Rates are below.";
    const table = "Plan Rate\nA 1\nB 2";
    const after = "Rates change in May.";
    const page = `${before}\n${table}\n${after}`;
    const document: ParsedDocument = {
      ...pdfDocument([page]),
      blocks: [
        { kind: "text", text: before, headingPath: [], page: 1, charStart: 0 },
        { kind: "text", text: after, headingPath: [], page: 1, charStart: page.indexOf(after) },
        {
          kind: "table",
          header: ["Plan", "Rate"],
          rows: [
            ["A", "1"],
            ["B", "2"],
          ],
          headingPath: [],
          firstRow: 1,
          page: 1,
        },
      ],
    };
    // The budget would fit both prose blocks and the table text between them in one chunk.
    const chunks = chunkDocument(document, { maxTokens: 50, overlapTokens: 0, tokenCounter: wordCounter });
    expect(chunks.map((chunk) => [chunk.kind, chunk.text, chunk.provenance])).toEqual([
      ["text", before, { pageStart: 1, pageEnd: 1, charStart: 0, charEnd: before.length }],
      ["text", after, { pageStart: 1, pageEnd: 1, charStart: page.indexOf(after), charEnd: page.length }],
      [
        "table",
        "Plan | Rate\nA | 1\nB | 2",
        { pageStart: 1, pageEnd: 1, rowStart: 1, rowEnd: 2, columns: ["Plan", "Rate"] },
      ],
    ]);
  });

  it("chunks footnotes (blocks after the body, going back in the text) on their own, and runs the body across the page break they sit before", () => {
    // The parser puts page 1's note before its body when the body runs on into page 2 mid-sentence.
    const note = "A note on rates.";
    const first = `${note}\n\nRates are set for`;
    const second = "each plan in May.\n\nOther note.";
    const document: ParsedDocument = {
      ...pdfDocument([first, second]),
      blocks: [
        { kind: "text", text: "Rates are set for", headingPath: [], page: 1, charStart: first.indexOf("Rates") },
        { kind: "text", text: "each plan in May.", headingPath: [], page: 2, charStart: 0 },
        { kind: "text", text: note, headingPath: [], page: 1, charStart: 0 },
        { kind: "text", text: "Other note.", headingPath: [], page: 2, charStart: second.indexOf("Other") },
      ],
    };
    // The budget would fit everything in one chunk; the notes still stay out of the sentence.
    const chunks = chunkDocument(document, { maxTokens: 50, overlapTokens: 3, tokenCounter: wordCounter });
    expect(chunks.map((chunk) => [chunk.text, chunk.provenance])).toEqual([
      [
        "Rates are set for\neach plan in May.",
        { pageStart: 1, pageEnd: 2, charStart: first.indexOf("Rates"), charEnd: "each plan in May.".length },
      ],
      [note, { pageStart: 1, pageEnd: 1, charStart: 0, charEnd: note.length }],
      ["Other note.", { pageStart: 2, pageEnd: 2, charStart: second.indexOf("Other"), charEnd: second.length }],
    ]);
  });

  it("refuses blocks whose offsets do not match their page", () => {
    const document: ParsedDocument = {
      ...pdfDocument(["Some page text."]),
      blocks: [{ kind: "text", text: "page text.", headingPath: [], page: 1, charStart: 0 }],
    };
    expect(() => chunkDocument(document, { maxTokens: 50, overlapTokens: 0, tokenCounter: wordCounter })).toThrowError(
      expect.objectContaining({ code: "invalid_block_offsets" }),
    );
  });
});

describe("chunkDocument invariants on random PDFs", () => {
  it("keeps every chunk within budget, exactly at its offsets, and covers every word in order", () => {
    const random = createSeededRandom(20_261_122);
    const vocabulary = ["a", "data", "page.", "Section", "x".repeat(70), "tokens,", "Mr.", "e.g.", "end."];
    const pick = () => vocabulary[Math.floor(random() * vocabulary.length)] ?? "a";
    for (let round = 0; round < 40; round += 1) {
      const pageTexts = Array.from({ length: 1 + Math.floor(random() * 5) }, () => {
        const words = Array.from({ length: Math.floor(random() * 60) }, pick);
        return words
          .map((word) => word + (random() < 0.1 ? "\n\n" : random() < 0.2 ? "\n" : " "))
          .join("")
          .trim();
      });
      const document = pdfDocument(pageTexts);
      const maxTokens = 6 + Math.floor(random() * 20);
      const overlapTokens = Math.floor(random() * (maxTokens - 2));
      const chunks = chunkDocument(document, { maxTokens, overlapTokens, tokenCounter: characterCounter });
      const sourceWords = pageTexts.join("\n").match(/\S+/g) ?? [];
      let covered = "";
      for (const chunk of chunks) {
        expect(chunk.tokenCount).toBe(characterCounter.count(chunk.text));
        expect(chunk.tokenCount).toBeLessThanOrEqual(maxTokens);
        expect(textAtProvenance(document, chunk)).toBe(chunk.text);
        covered += chunk.text;
      }
      // Every source character outside whitespace appears in some chunk (overlap only repeats).
      const squeezed = covered.replace(/\s+/g, "");
      let cursor = 0;
      for (const word of sourceWords) {
        const found = squeezed.indexOf(word, cursor);
        expect(found).toBeGreaterThanOrEqual(0);
        cursor = found + word.length;
      }
    }
  });
});

describe("chunkDocument on sectioned documents", () => {
  it("starts a chunk at every heading, carries a lone heading into the next section and keeps tables in place", () => {
    const document = textDocument([
      { kind: "text", text: "Guide", headingPath: ["Guide"], isHeading: true },
      { kind: "text", text: "Setup", headingPath: ["Guide", "Setup"], isHeading: true },
      { kind: "text", text: "Install the tool.", headingPath: ["Guide", "Setup"] },
      { kind: "text", text: "Run it twice.", headingPath: ["Guide", "Setup"] },
      { kind: "text", text: "Usage", headingPath: ["Guide", "Usage"], isHeading: true },
      { kind: "text", text: "Call the command.", headingPath: ["Guide", "Usage"] },
      { kind: "table", header: ["Name", "Value"], rows: [["a", "1"]], headingPath: ["Guide", "Usage"], firstRow: 1 },
      { kind: "text", text: "Trailing note.", headingPath: ["Guide", "Usage"] },
    ]);
    const chunks = chunkDocument(document, { maxTokens: 100, overlapTokens: 5, tokenCounter: wordCounter });
    expect(chunks).toEqual([
      {
        kind: "text",
        text: "Guide\n\nSetup\n\nInstall the tool.\n\nRun it twice.",
        tokenCount: 10,
        position: 0,
        provenance: { headingPath: ["Guide", "Setup"] },
      },
      {
        kind: "text",
        text: "Usage\n\nCall the command.",
        tokenCount: 6,
        position: 1,
        provenance: { headingPath: ["Guide", "Usage"] },
      },
      {
        kind: "table",
        text: "Name | Value\na | 1",
        tokenCount: 8,
        position: 2,
        provenance: { headingPath: ["Guide", "Usage"], rowStart: 1, rowEnd: 1, columns: ["Name", "Value"] },
      },
      {
        kind: "text",
        text: "Trailing note.",
        tokenCount: 4,
        position: 3,
        provenance: { headingPath: ["Guide", "Usage"] },
      },
    ]);
  });

  it("packs whole sentences and overlaps by whole words within the section", () => {
    const document = textDocument([
      { kind: "text", text: "Cats purr. Dogs bark loudly. Birds sing.", headingPath: [] },
    ]);
    const chunks = chunkDocument(document, { maxTokens: 7, overlapTokens: 1, tokenCounter: wordCounter });
    expect(chunks).toEqual([
      { kind: "text", text: "Cats purr. Dogs bark loudly.", tokenCount: 7, position: 0, provenance: {} },
      { kind: "text", text: "loudly. Birds sing.", tokenCount: 5, position: 1, provenance: {} },
    ]);
  });

  it("splits a word longer than the budget into character windows that fit", () => {
    const hash = "0123456789abcdefghijklmnopqrstuvwxyzABCD";
    const document = textDocument([{ kind: "text", text: `Hash: ${hash}`, headingPath: [] }]);
    const chunks = chunkDocument(document, { maxTokens: 6, overlapTokens: 0, tokenCounter: characterCounter });
    expect(chunks.map((chunk) => [chunk.text, chunk.tokenCount])).toEqual([
      ["Hash:", 3],
      [hash.slice(0, 32), 6],
      [hash.slice(32), 3],
    ]);
  });
});

describe("chunkDocument on tables", () => {
  it("splits by rows and repeats the sheet and header rows in every piece", () => {
    const document = textDocument([
      {
        kind: "table",
        sheet: "Staff",
        header: ["Name", "Role"],
        rows: [
          ["Ann", "Chef"],
          ["Bob", "Cook"],
          ["Cy", "Host"],
        ],
        headingPath: [],
        firstRow: 1,
      },
    ]);
    const chunks = chunkDocument(document, { maxTokens: 13, overlapTokens: 0, tokenCounter: wordCounter });
    expect(chunks).toEqual([
      {
        kind: "table",
        text: "Sheet: Staff\nName | Role\nAnn | Chef\nBob | Cook",
        tokenCount: 13,
        position: 0,
        provenance: { sheet: "Staff", rowStart: 1, rowEnd: 2, columns: ["Name", "Role"] },
      },
      {
        kind: "table",
        text: "Sheet: Staff\nName | Role\nCy | Host",
        tokenCount: 10,
        position: 1,
        provenance: { sheet: "Staff", rowStart: 3, rowEnd: 3, columns: ["Name", "Role"] },
      },
    ]);
  });

  it("writes a cell's own bar as ¦ so every row still splits into its cells", () => {
    const document = textDocument([
      { kind: "table", header: ["Name", "Notes"], rows: [["A | B", "ok"]], headingPath: [], firstRow: 1 },
    ]);
    const [chunk] = chunkDocument(document, { maxTokens: 50, overlapTokens: 0, tokenCounter: wordCounter });
    expect(chunk?.text).toBe("Name | Notes\nA ¦ B | ok");
  });

  it("repeats a table's caption after the sheet line, within a quarter of the budget, or leaves it out", () => {
    const table = (caption: string[], sheet = "Cups"): Block => ({
      kind: "table",
      sheet,
      caption,
      header: ["Team", "Cups"],
      rows: [
        ["Blues", "1"],
        ["Kings", "2"],
      ],
      headingPath: [],
      firstRow: 1,
    });
    const options = { maxTokens: 60, overlapTokens: 0, tokenCounter: wordCounter };
    const [withCaption] = chunkDocument(textDocument([table(["Stanley Cups", "Since 1967"])]), options);
    expect(withCaption?.text).toBe("Sheet: Cups\nStanley Cups — Since 1967\nTeam | Cups\nBlues | 1\nKings | 2");
    // 58 tokens of budget: a quarter is 14; the sheet line takes 2, so the caption gets 12.
    const long = Array.from({ length: 40 }, (_, index) => `w${index}`).join(" ");
    const [cut] = chunkDocument(textDocument([table([long])]), options);
    const captionLine = cut?.text.split("\n")[1] ?? "";
    expect(captionLine).toMatch(/^w0 w1 .*…\[truncated\]$/);
    expect(wordCounter.count(captionLine) - 2).toBeLessThanOrEqual(12);
    // A sheet name that fills the quarter leaves no room: the caption is left out, the header stays.
    const crowded = chunkDocument(textDocument([table(["Title"], long)]), options);
    expect(crowded[0]?.text.split("\n").slice(1, 3)).toEqual(["Team | Cups", "Blues | 1"]);
  });

  it("truncates an overlong cell with a note instead of dropping the row", () => {
    const notes = Array.from({ length: 30 }, (_, index) => `w${index + 1}`).join(" ");
    const document = textDocument([
      { kind: "table", header: ["Id", "Notes"], rows: [["7", notes]], headingPath: [], firstRow: 5, page: 3 },
    ]);
    const chunks = chunkDocument(document, { maxTokens: 12, overlapTokens: 0, tokenCounter: wordCounter });
    expect(chunks).toEqual([
      {
        kind: "table",
        text: `Id | Notes\n7 | w1 w2 w3 w4${TRUNCATION_NOTE}`,
        tokenCount: 12,
        position: 0,
        provenance: { pageStart: 3, pageEnd: 3, rowStart: 5, rowEnd: 5, columns: ["Id", "Notes"] },
      },
    ]);
  });

  it("cuts a row with too many cells for a note on each, and marks the cut", () => {
    const cells = Array.from({ length: 12 }, (_, index) => `c${index + 1}`);
    const document = textDocument([{ kind: "table", header: ["A"], rows: [cells], headingPath: [], firstRow: 1 }]);
    const chunks = chunkDocument(document, { maxTokens: 12, overlapTokens: 0, tokenCounter: wordCounter });
    expect(chunks).toEqual([
      {
        kind: "table",
        text: `A\nc1 | c2 | c3 | c4 |${TRUNCATION_NOTE}`,
        tokenCount: 12,
        position: 0,
        provenance: { rowStart: 1, rowEnd: 1, columns: ["A"] },
      },
    ]);
  });

  it("keeps a table that has only a header", () => {
    const document = textDocument([{ kind: "table", header: ["A", "B"], rows: [], headingPath: [], firstRow: 1 }]);
    expect(chunkDocument(document, { maxTokens: 20, overlapTokens: 0, tokenCounter: wordCounter })).toEqual([
      { kind: "table", text: "A | B", tokenCount: 5, position: 0, provenance: { columns: ["A", "B"] } },
    ]);
  });
});

describe("splitSentences", () => {
  it("returns trimmed sentence offsets and keeps abbreviations and decimals inside a sentence", () => {
    const text = '  See e.g. Fig. 3 for details. Pi is 3.14! Ask Dr. Who?  "Quoted." Next one';
    const sentences = splitSentences(text).map((range) => text.slice(range.start, range.end));
    expect(sentences).toEqual(["See e.g. Fig. 3 for details.", "Pi is 3.14!", "Ask Dr. Who?", '"Quoted."', "Next one"]);
  });

  it("ends a sentence at a blank line before a new start, so a heading or a footnote is never quoted with what follows", () => {
    const text =
      "2. The NIST Definition of Cloud Computing\n\nCloud computing is a model.\nIt scales.\n \nA note without a stop\n\nIt retrieves the top\n\nk passages.";
    const sentences = splitSentences(text).map((range) => text.slice(range.start, range.end));
    expect(sentences).toEqual([
      "2. The NIST Definition of Cloud Computing",
      "Cloud computing is a model.",
      "It scales.",
      "A note without a stop",
      // A blank line pdf.js leaves inside a sentence does not end it.
      "It retrieves the top\n\nk passages.",
    ]);
  });
});

describe("chunkDocument options", () => {
  const document = textDocument([{ kind: "text", text: "Anything at all.", headingPath: [] }]);

  it.each([
    { maxTokens: 20, overlapTokens: 20 },
    { maxTokens: 20, overlapTokens: 25 },
    { maxTokens: 20, overlapTokens: -1 },
    { maxTokens: 20.5, overlapTokens: 0 },
    { maxTokens: 5, overlapTokens: 0 },
  ])("refuses maxTokens $maxTokens with overlapTokens $overlapTokens", (options) => {
    let thrown: unknown;
    try {
      chunkDocument(document, { ...options, tokenCounter: wordCounter });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FolioError);
    expect((thrown as FolioError).code).toBe("invalid_chunking");
  });

  it("returns no chunks for a document without text", () => {
    expect(chunkDocument(textDocument([]), { maxTokens: 20, overlapTokens: 0, tokenCounter: wordCounter })).toEqual([]);
  });
});
