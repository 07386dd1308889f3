/**
 * Questionnaire and approved-answers files that once took the server down (issue #30) are refused by the
 * reader with a code and a message of their own, before anything is built from them; the honest files
 * they imitate (a dimension claiming the whole sheet, a whole-column validation list, merged titles,
 * cells far apart) still read, and a filled copy keeps the validation list for the rows in use. In the
 * worker, a bomb the reader's limits let through is stopped by the worker's own bounds.
 */
import ExcelJS from "exceljs";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import {
  closeQuestionnaireWorkers,
  readQuestionnaireInWorker,
  writeFilledCopyInWorker,
} from "../../src/questionnaire/questionnaire-worker-pool.js";
import { findQuestions } from "../../src/questionnaire/read/find-questions.js";
import { DEFAULT_QUESTIONNAIRE_READ_LIMITS } from "../../src/questionnaire/read/questionnaire-read-limits.js";
import { readQuestionnaireGrid } from "../../src/questionnaire/read/read-questionnaire-grid.js";
import { buildXlsx, honestQuestionnaire, questionnaireBombs, questionRows } from "../support/questionnaire-bombs.js";
import { answeredRow } from "../support/questionnaire-files.js";

afterAll(async () => {
  await closeQuestionnaireWorkers();
});

const bombs = questionnaireBombs();
const bomb = (name: string) => {
  const found = bombs.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no bomb ${name}`);
  return found;
};

describe("questionnaire bombs are refused by the reader", () => {
  it("says what is wrong with each of the issue's five, and what to do", async () => {
    const refusal = async (name: string) => {
      const { bytes, fileName } = bomb(name);
      return readQuestionnaireGrid(bytes, fileName).then(
        () => null,
        (error: { code: string; message: string; file: string }) => ({
          code: error.code,
          file: error.file,
          message: error.message,
        }),
      );
    };
    expect(await refusal("merged-whole-sheet")).toEqual({
      code: "questionnaire_merge_too_large",
      file: "merged-whole-sheet.xlsx",
      message:
        'Sheet "Questions" merges A10:XFD1048576 (17,179,721,728 cells); Folio reads merged cells up to column IV (256 columns) and 200,000 merged cells in all — unmerge that range (Home → Merge & Center → Unmerge Cells) and upload the file again.',
    });
    expect(await refusal("validation-whole-sheet")).toEqual({
      code: "questionnaire_validation_too_large",
      file: "validation-whole-sheet.xlsx",
      message:
        'Sheet "Questions" has a data-validation list over A1:XFD1048576, past column IV (256 columns) — apply the list to the answer column only (Data → Data Validation) and upload the file again.',
    });
    expect(await refusal("far-column")).toEqual({
      code: "questionnaire_too_wide",
      file: "far-column.xlsx",
      message:
        'Sheet "Questions" has a cell at XFD3002, in column 16,384; Folio reads questionnaires up to column IV (256 columns) — delete the columns right of your table (select them, right-click, Delete) and upload the file again.',
    });
    expect(await refusal("one-line-csv")).toEqual({
      code: "questionnaire_line_too_long",
      file: "one-line.csv",
      message:
        "Line 1 of one-line.csv is 19,000,009 characters long; Folio reads lines of up to 1,000,000 characters — check that it is a table with one question per line (saved from a spreadsheet as CSV), or split the long cells.",
    });
    expect(await refusal("wide-csv")).toEqual({
      code: "questionnaire_too_wide",
      file: "wide.csv",
      message:
        "Record 1 of wide.csv has 2,000 fields; Folio reads questionnaires of up to 256 columns — remove the extra columns (or check the delimiter) and upload the file again.",
    });
  });

  it("refuses the variants (a lying dimension, a shared-string bomb, many sheets or merges, huge definitions) with their codes", async () => {
    const variants = bombs.slice(5);
    expect(variants.map((variant) => variant.name)).toEqual([
      "dimension-lies",
      "shared-string-everywhere",
      "many-sheets",
      "many-merges",
      "column-definition",
      "empty-rows",
      "docx-span",
    ]);
    for (const variant of variants) {
      await expect(readQuestionnaireGrid(variant.bytes, variant.fileName), variant.name).rejects.toMatchObject({
        code: variant.code,
        file: variant.fileName,
      });
    }
  });

  it("is as small as the issue said: a few KB of XLSX, a 19 MB line, a 4000 × 2000 CSV", () => {
    expect(bomb("merged-whole-sheet").bytes.byteLength).toBeLessThan(5_000);
    expect(bomb("validation-whole-sheet").bytes.byteLength).toBeLessThan(5_001);
    expect(bomb("far-column").bytes.byteLength).toBeLessThan(30_000);
    expect(bomb("one-line-csv").bytes.byteLength).toBe(19_000_010);
    const wide = strFromU8(bomb("wide-csv").bytes).split("\n");
    expect([wide.length - 1, wide[0]?.split(",").length]).toEqual([4000, 2000]);
  });
});

describe("the honest files the bombs imitate", () => {
  it("reads a sheet whose dimension claims the whole sheet, with a whole-column list cut to the rows in use", async () => {
    const grid = await readQuestionnaireGrid(honestQuestionnaire(), "honest.xlsx");
    const sheet = grid.sheets[0];
    expect(sheet?.rows.length).toBe(301);
    expect(sheet?.rowCount).toBe(301);
    expect(sheet?.rows[1]).toEqual({ rowNumber: 2, cells: ["Is control 1 in place?"] });
    expect(sheet?.validationLists?.size).toBe(300);
    expect(sheet?.validationLists?.get("2:2")).toEqual(["Yes", "No", "N/A"]);
    expect(sheet?.validationLists?.get("301:2")).toEqual(["Yes", "No", "N/A"]);
    expect(sheet?.validationLists?.has("302:2")).toBe(false);
    const read = findQuestions(grid, { maxRows: 5_000 });
    expect(read.questions[0]).toMatchObject({
      rowNumber: 2,
      text: "Is control 1 in place?",
      choices: ["Yes", "No", "N/A"],
    });
  });

  it("shows a merged title once, reads cells far apart without the columns between, keeps formulas marked", async () => {
    const bytes = buildXlsx([
      {
        name: "Review",
        rows: [["Vendor review", "stale text under the merge"], ...questionRows(2)],
        extraRowsXml:
          '<row r="9"><c r="A9" t="inlineStr"><is><t>Is it reviewed?</t></is></c><c r="IV9" t="inlineStr"><is><t>far note</t></is></c></row>' +
          '<row r="10"><c r="A10" t="str"><f>"Is it "&amp;"encrypted?"</f><v>Is it encrypted?</v></c></row>',
        afterSheetData: '<mergeCells count="1"><mergeCell ref="A1:C1"/></mergeCells>',
      },
    ]);
    const grid = await readQuestionnaireGrid(bytes, "review.xlsx");
    const rows = grid.sheets[0]?.rows ?? [];
    expect(rows[0]).toEqual({ rowNumber: 1, cells: ["Vendor review"] });
    const far = rows.find((row) => row.rowNumber === 9);
    expect([far?.cells.length, far?.cells[0], far?.cells[255]]).toEqual([256, "Is it reviewed?", "far note"]);
    expect(rows.find((row) => row.rowNumber === 10)).toEqual({
      rowNumber: 10,
      cells: ["Is it encrypted?"],
      formulaColumns: [0],
    });
  });

  it("writes a filled copy (in the worker) whose whole-column list now covers the rows in use, answers added", async () => {
    const bytes = honestQuestionnaire();
    const grid = await readQuestionnaireInWorker(bytes, "honest.xlsx");
    const read = findQuestions(grid, { maxRows: 5_000 });
    const copy = await writeFilledCopyInWorker({
      bytes,
      fileName: "honest.xlsx",
      format: "xlsx",
      layouts: read.layouts,
      rows: [{ sheetIndex: 0, rowNumber: 2, answer: answeredRow("Control 1 is in place.", [3]) }],
    });
    expect(copy.fileName).toBe("honest (filled).xlsx");
    const sheetXml = strFromU8(unzipSync(copy.bytes)["xl/worksheets/sheet1.xml"] ?? new Uint8Array());
    // exceljs writes the list back as overlapping ranges (its own optimisation); none goes past row 301.
    const ranges = [...sheetXml.matchAll(/sqref="([^"]*)"/g)].map((match) => match[1]);
    expect(ranges).toContain("B2:B301");
    expect(ranges.every((range) => /^B\d+:B301$/.test(range ?? ""))).toBe(true);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(copy.bytes) as unknown as ArrayBuffer);
    const worksheet = workbook.worksheets[0];
    expect([worksheet?.getCell("C1").text, worksheet?.getCell("C2").text]).toEqual([
      "Answer",
      "Control 1 is in place. [1]",
    ]);
  });
});

describe("the worker's bounds", () => {
  it("stops the merged-range bomb by memory in a filled copy when the reader's limits are lifted, then works on", async () => {
    // Reading takes merges from the survey, never from exceljs; writing a copy lets exceljs see them.
    const lifted = {
      ...DEFAULT_QUESTIONNAIRE_READ_LIMITS,
      maxColumns: 16_384,
      maxMergedCells: Number.POSITIVE_INFINITY,
    };
    const { bytes, fileName } = bomb("merged-whole-sheet");
    const grid = await readQuestionnaireInWorker(bytes, fileName, { limits: lifted });
    const read = findQuestions(grid, { maxRows: 2_000_000 });
    await expect(
      writeFilledCopyInWorker(
        { bytes, fileName, format: "xlsx", layouts: read.layouts, rows: [] },
        // A smaller memory budget than the default's 1 GB stops it sooner; either stops it.
        { limits: lifted, bounds: { timeMs: 120_000, maxMemoryMb: 300 } },
      ),
    ).rejects.toMatchObject({
      code: "questionnaire_read_memory_exceeded",
      file: "merged-whole-sheet.xlsx",
    });
    const honest = await readQuestionnaireInWorker(honestQuestionnaire(), "honest.xlsx");
    expect(honest.sheets[0]?.rows.length).toBe(301);
  }, 120_000);

  it("stops a read past its time limit with questionnaire_read_timeout", async () => {
    // 3,001 rows take a few hundred milliseconds to read; the limit is one.
    const { bytes } = bomb("far-column");
    const wide = { ...DEFAULT_QUESTIONNAIRE_READ_LIMITS, maxColumns: 16_384 };
    await expect(
      readQuestionnaireInWorker(bytes, "slow.xlsx", { limits: wide, bounds: { timeMs: 1, maxMemoryMb: 1024 } }),
    ).rejects.toMatchObject({
      code: "questionnaire_read_timeout",
      message:
        "Reading slow.xlsx took longer than 1 ms, so Folio stopped — it may be damaged or far larger than a questionnaire; save it again from Excel or Word (or split it) and upload it again.",
    });
  }, 60_000);
});
