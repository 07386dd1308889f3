/**
 * Spreadsheets through the real parsers and the parse worker.
 * Excel 97–2003 (.xls): both .xls files of the shared data read cell for cell as xlrd (Python's
 * reference BIFF reader) reads them, every worksheet becomes table chunks with the header in each and
 * sheet + rows as provenance, and damaged, encrypted or Excel 95 workbooks are refused with their own
 * code. The damaged ones are real files with one structure broken on purpose (a looping FAT chain, a
 * file cut short, a FILEPASS record, a BIFF5 BOF), plus 800 copies with random bytes overwritten;
 * record-level cases (formula results, hostile sheet layouts) use workbooks written by xls-builder.ts.
 * .xlsx: title rows above a table are its caption, not its header; dates, percentages and computed
 * numbers read as a person reads them (a workbook written by exceljs, read back).
 */
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import { resolveParseLimits } from "../../ingestion/limits.js";
import { parseDocument } from "../../ingestion/parse-document.js";
import type { TableBlock } from "../../ingestion/parsed-document.js";
import { closeParseWorkers, processFileInWorker } from "../../ingestion/run-in-worker.js";
import type { ParseError } from "../../src/errors.js";
import { robustnessChunking } from "../support/robustness-corpus.js";
import { createSeededRandom } from "../support/seeded-random.js";
import { hasSharedData, sharedData } from "../support/shared-paths.js";
import { compoundFile, formulaString, label, record, stringFormula, workbookStream } from "../support/xls-builder.js";

const limits = resolveParseLimits();
const markitdownPath = sharedData("office-docs", "spreadsheets", "markitdown-test.xls");
const blackboardPath = sharedData("robustness-office", "spreadsheets", "unstructured-tests-example.xls");

function tables(blocks: unknown[]): TableBlock[] {
  return blocks.filter((block): block is TableBlock => (block as TableBlock).kind === "table");
}

async function refusal(bytes: Uint8Array, fileName = "book.xls", parseLimits = limits): Promise<ParseError> {
  try {
    await parseDocument(bytes, fileName, parseLimits);
  } catch (error) {
    return error as ParseError;
  }
  throw new Error("the workbook was parsed, not refused");
}

/** Offset of the globals' BOF record (type 0x0809, BIFF8, workbook globals) in the file. */
function globalsBofOffset(bytes: Uint8Array): number {
  const offset = Buffer.from(bytes).indexOf(Buffer.from([0x09, 0x08, 0x10, 0x00, 0x00, 0x06, 0x05, 0x00]));
  if (offset < 0) throw new Error("no BIFF8 globals BOF in the file");
  return offset;
}

describe.skipIf(!hasSharedData)("Excel 97–2003 workbooks", () => {
  afterAll(async () => {
    await closeParseWorkers();
  });

  it("reads every worksheet of the markitdown workbook, shared strings and numbers included", async () => {
    const document = await parseDocument(new Uint8Array(readFileSync(markitdownPath)), "test.xls", limits);
    expect(document.mediaType).toBe("application/vnd.ms-excel");
    const [first, second, ...rest] = tables(document.blocks);
    expect(rest).toHaveLength(0);
    expect(first).toMatchObject({ sheet: "Sheet1", header: ["Alpha", "Beta", "Gamma", "Delta"], firstRow: 1 });
    expect(first?.rows).toHaveLength(23);
    expect(first?.rows[0]).toEqual(["89", "82", "100", "12"]);
    expect(first?.rows[12]).toEqual(["58", "6ff4173b-42a5-4784-9b19-f49caff4d93d", "22", "9"]);
    expect(first?.rows[22]).toEqual(["87", "93", "95", "80"]);
    expect(second).toMatchObject({
      sheet: "09060124-b5e7-4717-9d07-3c046eb",
      header: ["ColA", "ColB", "ColC", "ColD"],
    });
    expect(second?.rows).toEqual([
      ["1", "2", "3", "4"],
      ["5", "6", "7", "8"],
      ["9", "10", "11", "12"],
      ["13", "14", "15", "affc7dad-52dc-4b98-9b5d-51e65d8a8ad0"],
    ]);
  });

  it("keeps non-Latin text, sparse rows and text-only sheets of the Blackboard workbook", async () => {
    const document = await parseDocument(new Uint8Array(readFileSync(blackboardPath)), "tests.xls", limits);
    const [questions, abbreviations, readme] = tables(document.blocks);
    expect(questions?.sheet).toBe("Example Test");
    expect(questions?.header).toEqual(["MC", "What is 2+2?", "4", "correct", "3", "incorrect"]);
    expect(questions?.rows.at(-1)).toEqual([
      "MAT",
      "Match the lower-case greek letter with its capital form.",
      "λ",
      "Λ",
      "α",
      "γ",
      "Γ",
      "φ",
      "Φ",
    ]);
    expect(questions?.rows[0]).toEqual([
      "MA",
      "What C datatypes are 8 bits? (assume i386)",
      "int",
      "",
      "float",
      "",
      "double",
      "",
      "char",
    ]);
    expect(abbreviations?.sheet).toBe("Format Abbr.");
    expect(abbreviations?.rows).toContainEqual(["JUMBLED_SENTENCE", "Jumbled Sentence"]);
    expect(readme?.sheet).toBe("Readme");
    expect(readme?.rows).toContainEqual(["1.0 (January 2012)"]);
  });

  it("chunks each sheet as tables with the header and sheet + rows in every chunk, in the parse worker", async () => {
    const { chunks } = await processFileInWorker({
      bytes: new Uint8Array(readFileSync(markitdownPath)),
      fileName: "test.xls",
      limits,
      chunking: robustnessChunking,
    });
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) {
      expect(chunk.kind).toBe("table");
      expect(chunk.tokenCount).toBeLessThanOrEqual(robustnessChunking.maxTokens);
      expect(chunk.provenance.rowStart).toBeGreaterThanOrEqual(1);
    }
    const uuidChunk = chunks.find((chunk) => chunk.text.includes("6ff4173b-42a5-4784-9b19-f49caff4d93d"));
    expect(uuidChunk?.provenance.sheet).toBe("Sheet1");
    expect(uuidChunk?.text).toMatch(/Alpha.*Beta.*Gamma.*Delta/);
    const second = chunks.find((chunk) => chunk.provenance.sheet === "09060124-b5e7-4717-9d07-3c046eb");
    expect(second?.provenance).toMatchObject({ rowStart: 1, rowEnd: 4 });
    expect(second?.text).toMatch(/ColA/);
  });

  it("refuses a workbook whose sector chain loops as a damaged workbook, and one cut short as a damaged file", async () => {
    const looping = new Uint8Array(readFileSync(markitdownPath));
    const view = new DataView(looping.buffer);
    const directorySector = view.getUint32(0x30, true);
    const firstFatSector = view.getUint32(0x4c, true);
    view.setUint32((firstFatSector + 1) * 512 + directorySector * 4, directorySector, true);
    const loopError = await refusal(looping);
    expect(loopError.code).toBe("xls_corrupt");
    expect(loopError.message).toMatch(/damaged.* — .*\.xlsx/);

    const original = readFileSync(markitdownPath);
    const cut = new Uint8Array(original.subarray(0, Math.floor(original.byteLength * 0.6)));
    // Cut before its directory, the container no longer says what it holds.
    const cutError = await refusal(cut);
    expect(cutError.code).toBe("file_corrupt");
    expect(cutError.message).toMatch(/damaged.* — /);
  });

  it("refuses an encrypted workbook (FILEPASS) and an Excel 95 one (BIFF5) with their own codes", async () => {
    const encrypted = new Uint8Array(readFileSync(blackboardPath));
    // The record after the 20-byte BOF becomes FILEPASS, as in a workbook saved with a password.
    const recordAfterBof = globalsBofOffset(encrypted) + 20;
    encrypted[recordAfterBof] = 0x2f;
    encrypted[recordAfterBof + 1] = 0x00;
    const encryptedError = await refusal(encrypted);
    expect(encryptedError.code).toBe("office_encrypted");
    expect(encryptedError.message).toBe(
      "This spreadsheet is encrypted or password protected — remove the protection, save it and upload it again.",
    );

    const excel95 = new Uint8Array(readFileSync(blackboardPath));
    excel95[globalsBofOffset(excel95) + 5] = 0x05;
    const excel95Error = await refusal(excel95);
    expect(excel95Error.code).toBe("legacy_excel_format");
    expect(excel95Error.message).toMatch(/Excel 5\.0\/95.* — .*save it as \.xlsx/);
  });

  it("parses or refuses specifically every one of 800 randomly damaged copies, each quickly", async () => {
    const random = createSeededRandom(20261123);
    const allowed = new Set([
      "parsed",
      "xls_corrupt",
      "file_corrupt",
      "unsupported_type",
      "content_mismatch",
      "legacy_excel_format",
      "office_encrypted",
    ]);
    const outcomes = new Map<string, number>();
    for (const file of [markitdownPath, blackboardPath]) {
      const original = new Uint8Array(readFileSync(file));
      for (let trial = 0; trial < 400; trial++) {
        const bytes = new Uint8Array(original);
        const changes = 1 + Math.floor(random() * 8);
        for (let change = 0; change < changes; change++) {
          bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
        }
        const started = performance.now();
        let outcome = "parsed";
        try {
          await parseDocument(bytes, "damaged.xls", limits);
        } catch (error) {
          outcome = (error as ParseError).code ?? `${(error as Error).name}: ${(error as Error).message}`;
        }
        expect(performance.now() - started).toBeLessThan(2_000);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    }
    for (const outcome of outcomes.keys()) expect(allowed, outcome).toContain(outcome);
    expect(outcomes.get("xls_corrupt")).toBeGreaterThan(0);
  });

  it("keeps a formula's text result when a shared or array formula record stands before its STRING", async () => {
    for (const definition of [0x04bc, 0x0221, 0x0236]) {
      const stream = workbookStream([
        {
          name: "S",
          records: [
            label(0, 0, "Item"),
            label(0, 1, "Status"),
            label(1, 0, "Audit"),
            stringFormula(1, 1),
            record(definition, [0, 0, 0, 0, 0, 0]),
            formulaString("Done"),
          ],
        },
      ]);
      const document = await parseDocument(compoundFile(stream), "status.xls", limits);
      expect(tables(document.blocks)[0]?.rows, `record 0x${definition.toString(16)}`).toEqual([["Audit", "Done"]]);
    }
  });

  it("stays bounded on hostile sheets: far-right columns, sheets pointing into one another, too many cells", async () => {
    // A cell past column IV (256 columns) would widen every row of the table to 65,536 cells.
    const wide = workbookStream([
      {
        name: "S",
        records: [label(0, 0, "Name"), label(0, 1, "Value"), label(1, 0, "a"), label(1, 1, "1"), label(1, 65_535, "x")],
      },
    ]);
    const [table] = tables((await parseDocument(compoundFile(wide), "wide.xls", limits)).blocks);
    expect(table?.rows).toEqual([["a", "1"]]);

    // 300 BOUNDSHEETs all pointing at one sheet of 20,000 filler records: read once, not 300 times.
    const filler = Array.from({ length: 20_000 }, () => record(0x0000));
    const sheets = [
      { name: "Real", records: [label(0, 0, "h"), label(1, 0, "v"), ...filler] },
      ...Array.from({ length: 300 }, (_, index) => ({ name: `Copy${index}`, records: [] })),
    ];
    const pointing = workbookStream(sheets, [], (_, actual) => actual[0] ?? 0);
    const started = performance.now();
    const document = await parseDocument(compoundFile(pointing), "copies.xls", limits);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(tables(document.blocks)).toHaveLength(1);

    const many = workbookStream([
      { name: "S", records: Array.from({ length: 60 }, (_, index) => label(index, 0, `r${index}`)) },
    ]);
    const error = await refusal(compoundFile(many), "many.xls", resolveParseLimits({ maxCells: 50 }));
    expect(error.code).toBe("too_many_cells");
  });

  it("still refuses a Word 97 document, even one named .xls", async () => {
    const word = new Uint8Array(readFileSync(sharedData("robustness-office", "docx", "unstructured-simple.doc")));
    expect((await refusal(word, "numbers.xls")).code).toBe("legacy_word_format");
  });
});

describe.skipIf(!hasSharedData)("Excel workbooks (.xlsx)", () => {
  it("reads title rows above a table as its caption and repeats them with the header in every chunk", async () => {
    const bytes = new Uint8Array(
      readFileSync(sharedData("office-docs", "spreadsheets", "unstructured-stanley-cups.xlsx")),
    );
    const document = await parseDocument(bytes, "cups.xlsx", limits);
    const [first] = tables(document.blocks);
    expect(first).toMatchObject({
      sheet: "Stanley Cups",
      caption: ["Stanley Cups"],
      header: ["Team", "Location", "Stanley Cups"],
    });
    expect(first?.rows[0]).toEqual(["Blues", "STL", "1"]);
    const { chunks } = await processFileInWorker({
      bytes,
      fileName: "cups.xlsx",
      limits,
      chunking: robustnessChunking,
    });
    const firstSheet = chunks.filter((chunk) => chunk.provenance.sheet === "Stanley Cups");
    expect(firstSheet.length).toBeGreaterThan(0);
    for (const chunk of firstSheet) {
      expect(chunk.text.split("\n").slice(0, 3)).toEqual([
        "Sheet: Stanley Cups",
        "Stanley Cups",
        "Team | Location | Stanley Cups",
      ]);
    }
  });

  it("takes a one-cell row for a title only in the first column and above a real header", async () => {
    const labelOverData = await parseDocument(Buffer.from(",Amount\nRent,100\nFood,50\n"), "budget.csv", limits);
    expect(tables(labelOverData.blocks)[0]).toMatchObject({
      header: ["", "Amount"],
      rows: [
        ["Rent", "100"],
        ["Food", "50"],
      ],
    });
    expect(tables(labelOverData.blocks)[0]?.caption).toBeUndefined();
    const list = await parseDocument(Buffer.from("Name\nAlice\nBob\nCarol\nTotal,3\nDave\n"), "names.csv", limits);
    expect(tables(list.blocks)[0]).toMatchObject({ header: ["Name"], firstRow: 1 });
    expect(tables(list.blocks)[0]?.rows[0]).toEqual(["Alice"]);
  });

  it("shows dates as ISO dates, percentages as percentages, and computed numbers without float noise", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Plan");
    sheet.addRow(["Item", "Due", "Share", "Cost", "Total"]);
    sheet.addRow(["Audit", new Date(Date.UTC(2024, 2, 1)), 0.255, 0.1, { formula: "D2+0.2", result: 0.1 + 0.2 }]);
    sheet.getCell("C2").numFmt = "0.0%";
    sheet.getCell("B2").numFmt = "d-mmm-yy";
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const [table] = tables((await parseDocument(bytes, "plan.xlsx", limits)).blocks);
    expect(table?.rows).toEqual([["Audit", "2024-03-01", "25.5%", "0.1", "0.3"]]);
  });
});
