/**
 * The workbook parts the survey never counted (issue #37), built in the test: the review's 7.3 MB-class
 * workbook whose one shared string holds 3,000,000 rich-text runs, the same runs inline or in comments,
 * many comments, defined names whose areas exceljs builds cell by cell, and a styles part of 300,000
 * fonts and 1,500,000 cell formats — each refused by the reader with its own code before exceljs builds
 * anything, for reading and for the filled copy (in the worker, which works on). A part named "/xl/…"
 * (exceljs drops the slash) is counted too. The honest files they imitate — a few formatted words,
 * comments, a named list and a whole-sheet print area — still read, and their copy keeps the names.
 */
import { strFromU8, unzipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { unpackZip } from "../../ingestion/unpack-zip.js";
import {
  closeQuestionnaireWorkers,
  readQuestionnaireInWorker,
  writeFilledCopyInWorker,
} from "../../src/questionnaire/questionnaire-worker-pool.js";
import { findQuestions } from "../../src/questionnaire/read/find-questions.js";
import {
  DEFAULT_QUESTIONNAIRE_READ_LIMITS,
  QUESTIONNAIRE_WORKER_LIMITS,
} from "../../src/questionnaire/read/questionnaire-read-limits.js";
import { readQuestionnaireGrid } from "../../src/questionnaire/read/read-questionnaire-grid.js";
import { packageForReading, surveyXlsxPackage } from "../../src/questionnaire/read/survey-xlsx-package.js";
import { buildXlsx, questionRows } from "../support/questionnaire-bombs.js";
import { answeredRow } from "../support/questionnaire-files.js";
import {
  definedNamesXml,
  largestAllowedWorkbook,
  REVIEW_SIZES,
  richTextRuns,
  richTextSharedStringsWorkbook,
  stylesXml,
  workbookPartBombs,
} from "../support/questionnaire-part-bombs.js";

afterAll(async () => {
  await closeQuestionnaireWorkers();
});

const refusalOf = (bytes: Uint8Array, fileName: string) =>
  readQuestionnaireGrid(bytes, fileName).then(
    () => null,
    (error: { code: string; file: string }) => ({ code: error.code, file: error.file }),
  );

describe("workbook parts the survey now counts (#37)", () => {
  it("refuses the review's workbook — one shared string of 3,000,000 runs — for reading and for its copy", async () => {
    const bytes = richTextSharedStringsWorkbook(REVIEW_SIZES.sharedRuns);
    const unpacked = unpackZip(bytes, "review.xlsx", QUESTIONNAIRE_WORKER_LIMITS);
    // As the review's: over 100 MB unpacked, every part under the zip guard's ratio.
    expect(unpacked.files["xl/sharedStrings.xml"]?.byteLength).toBeGreaterThan(100_000_000);
    await expect(readQuestionnaireInWorker(bytes, "review.xlsx")).rejects.toMatchObject({
      code: "questionnaire_too_many_text_runs",
      file: "review.xlsx",
      message:
        "This workbook's text is split into more than 100,000 differently formatted pieces (rich-text runs in cells and comments) — copy the questions into a new workbook (paste as values, or clear the formatting) and upload that.",
    });
    // A job stored before the survey counted runs: its copy is refused the same way, in the worker.
    const layouts = findQuestions(await readQuestionnaireGrid(richTextSharedStringsWorkbook(1), "review.xlsx"), {
      maxRows: 5_000,
    }).layouts;
    const copies = Array.from({ length: 4 }, () =>
      writeFilledCopyInWorker({ bytes, fileName: "review.xlsx", format: "xlsx", layouts, rows: [] }),
    );
    for (const copy of copies) await expect(copy).rejects.toMatchObject({ code: "questionnaire_too_many_text_runs" });
    // The process and the worker work on.
    const honest = await readQuestionnaireInWorker(richTextSharedStringsWorkbook(3), "honest.xlsx");
    expect(honest.sheets[0]?.rows.length).toBe(7);
  }, 300_000);

  it("refuses each variant with its code: runs inline or in comments, comments, defined names, styles", async () => {
    const bombs = workbookPartBombs({
      sharedRuns: 100_001,
      inlineRuns: 100_001,
      commentRuns: 100_100,
      comments: 10_001,
    });
    expect(bombs.map((bomb) => bomb.name)).toEqual([
      "rich-text-shared-strings",
      "rich-text-inline",
      "rich-text-comments",
      "many-comments",
      "defined-names",
      "many-defined-names",
      "styles",
    ]);
    for (const bomb of bombs) {
      expect(await refusalOf(bomb.bytes, bomb.fileName), bomb.name).toEqual({ code: bomb.code, file: bomb.fileName });
    }
  }, 300_000);

  it("counts a part exceljs reads under another name: '/xl/sharedStrings.xml', and refuses two of one name", async () => {
    const sharedStrings = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si>${richTextRuns(100_001)}</si></sst>`;
    const slashed = buildXlsx([{ name: "Questions", rows: questionRows(3) }], {
      parts: { "/xl/sharedStrings.xml": sharedStrings },
    });
    expect(await refusalOf(slashed, "slashed.xlsx")).toEqual({
      code: "questionnaire_too_many_text_runs",
      file: "slashed.xlsx",
    });
    const twice = buildXlsx([{ name: "Questions", rows: questionRows(3) }], {
      parts: { "/xl/workbook.xml": "<workbook/>" },
    });
    await expect(readQuestionnaireGrid(twice, "twice.xlsx")).rejects.toMatchObject({
      code: "questionnaire_unreadable",
      details: { reason: 'two parts are named "xl/workbook.xml"' },
    });
  });

  it("lets the largest workbook every limit allows through the survey", () => {
    const unpacked = unpackZip(largestAllowedWorkbook(), "largest.xlsx", QUESTIONNAIRE_WORKER_LIMITS);
    const survey = surveyXlsxPackage(unpacked.files, "largest.xlsx", DEFAULT_QUESTIONNAIRE_READ_LIMITS);
    expect(survey.sheets[0]?.lastRow).toBe(5_000);
    expect(survey.sheets[0]?.merges.length).toBe(4_999);
  }, 120_000);
});

describe("the honest files they imitate", () => {
  const comment = (reference: string, text: string) =>
    `<comment ref="${reference}" authorId="0"><text><r><rPr><b/></rPr><t>Reviewer:</t></r><r><t xml:space="preserve"> ${text}</t></r></text></comment>`;
  const honest = () =>
    buildXlsx(
      [
        {
          name: "Questions",
          rows: questionRows(4),
          extraRowsXml: `<row r="7"><c r="A7" t="inlineStr"><is>${richTextRuns(3)}</is></c></row>`,
          afterSheetData:
            '<dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="B2:B5"><formula1>Answers</formula1></dataValidation></dataValidations>',
        },
      ],
      {
        definedNamesXml: `${definedNamesXml(1, "Questions!$A$1:$B$5")}<definedName name="Answers">Questions!$D$1:$D$3</definedName><definedName name="_xlnm.Print_Area" localSheetId="0">Questions!$A$1:$XFD$1048576</definedName>`,
        parts: {
          "xl/styles.xml": stylesXml(3, 5),
          "xl/comments1.xml": `<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>R</author></authors><commentList>${comment("A2", "ask IT")}${comment("A3", "see policy")}</commentList></comments>`,
          "xl/worksheets/_rels/sheet1.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="../comments1.xml"/></Relationships>`,
        },
      },
    );

  it("reads formatted words, comments, named ranges and a whole-sheet print area; reading leaves the names out", async () => {
    const grid = await readQuestionnaireGrid(honest(), "honest.xlsx");
    expect(grid.sheets[0]?.rows.map((row) => row.cells[0])).toEqual([
      "Question",
      "Is control 1 in place?",
      "Is control 2 in place?",
      "Is control 3 in place?",
      "Is control 4 in place?",
      "xxx",
    ]);
    const unpacked = unpackZip(honest(), "honest.xlsx", QUESTIONNAIRE_WORKER_LIMITS);
    const survey = surveyXlsxPackage(unpacked.files, "honest.xlsx", DEFAULT_QUESTIONNAIRE_READ_LIMITS);
    const forReading = strFromU8(packageForReading(survey)["xl/workbook.xml"] ?? new Uint8Array());
    expect([forReading.includes("<sheets>"), forReading.includes("definedName")]).toEqual([true, false]);
  });

  it("writes a copy (in the worker) that keeps the named ranges, the print area and the comments", async () => {
    const bytes = honest();
    const read = findQuestions(await readQuestionnaireInWorker(bytes, "honest.xlsx"), { maxRows: 5_000 });
    const copy = await writeFilledCopyInWorker({
      bytes,
      fileName: "honest.xlsx",
      format: "xlsx",
      layouts: read.layouts,
      rows: [{ sheetIndex: 0, rowNumber: 2, answer: answeredRow("Control 1 is in place.", [3]) }],
    });
    const parts = unzipSync(copy.bytes);
    const workbookXml = strFromU8(parts["xl/workbook.xml"] ?? new Uint8Array());
    expect(workbookXml).toContain('<definedName name="Answers">Questions!$D$1:$D$3</definedName>');
    expect(workbookXml).toContain('name="_xlnm.Print_Area"');
    expect(strFromU8(parts["xl/comments1.xml"] ?? new Uint8Array())).toContain("ask IT");
  }, 60_000);
});
