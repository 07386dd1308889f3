/**
 * Questionnaire files end to end without the answer pipeline: real XLSX (exceljs), CSV and DOCX files
 * read into questions, and their filled copies written and reopened — with exceljs, and with
 * LibreOffice when `soffice` is installed. Every original cell stays as it was; bad input is refused
 * with its own code.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse as parseCsvText } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failedRowAnswer } from "../../src/questionnaire/answer/row-answer.js";
import { findQuestions } from "../../src/questionnaire/read/find-questions.js";
import { readQuestionnaireGrid } from "../../src/questionnaire/read/read-questionnaire-grid.js";
import { writeFilledCopy } from "../../src/questionnaire/write/write-filled-copy.js";
import { answeredRow, docxWithTable } from "../support/questionnaire-files.js";
import { compoundFile } from "../support/xls-builder.js";

const run = promisify(execFile);
const LIMITS = { maxRows: 5_000 };

async function sofficeAvailable(): Promise<boolean> {
  return run("soffice", ["--version"], { timeout: 60_000 }).then(
    () => true,
    () => false,
  );
}

/** Two sheets: the questions (styled header, merged section row, validation list, formula, date) and notes. */
async function buildWorkbook(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const questions = workbook.addWorksheet("Questions");
  questions.columns = [{ width: 8 }, { width: 70 }, { width: 12 }, { width: 10 }, { width: 14 }];
  questions.addRow(["ID", "Question", "Response", "Length", "Due"]);
  questions.getRow(1).font = { bold: true, color: { argb: "FFFFFFFF" } };
  questions.getRow(1).fill = { type: "pattern", pattern: "solid", fgColor: { argb: "FF1F4E79" } };
  questions.addRow(["Data protection"]);
  questions.mergeCells("A2:E2");
  questions.addRow([
    "1.1",
    "Do you encrypt customer data at rest?",
    "",
    { formula: "LEN(B3)", result: 37 },
    new Date(Date.UTC(2026, 0, 15)),
  ]);
  questions.addRow(["1.2", "Is it encrypted in transit?", "", { formula: "LEN(B4)", result: 27 }, null]);
  questions.addRow([]);
  questions.addRow(["Access"]);
  questions.addRow([
    "2.1",
    "Describe how administrator access is reviewed",
    "",
    { formula: "LEN(B7)", result: 45 },
    null,
  ]);
  questions.getCell("E3").numFmt = "yyyy-mm-dd";
  questions.getCell("B3").alignment = { wrapText: true };
  for (const row of [3, 4, 7]) {
    questions.getCell(`C${row}`).dataValidation = { type: "list", allowBlank: true, formulae: ['"Yes,No,N/A"'] };
  }
  const notes = workbook.addWorksheet("Notes");
  notes.addRow(["Answer every question; attach evidence where asked."]);
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

/** Every cell of every sheet of the original, by address: value, formula, style. */
function originalCells(workbook: ExcelJS.Workbook) {
  const cells: Array<{ sheet: string; address: string; value: unknown; style: unknown }> = [];
  for (const worksheet of workbook.worksheets) {
    worksheet.eachRow({ includeEmpty: true }, (row) => {
      row.eachCell({ includeEmpty: true }, (cell) => {
        cells.push({ sheet: worksheet.name, address: cell.address, value: cell.value, style: cell.style });
      });
    });
  }
  return cells;
}

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "folio-questionnaire-files-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("XLSX questionnaires", () => {
  it("reads the questions with their section and validation list, and fills a copy that keeps every original cell", async () => {
    const bytes = await buildWorkbook();
    const read = findQuestions(await readQuestionnaireGrid(bytes, "vendor.xlsx"), LIMITS);
    expect(
      read.questions.map((question) => [
        question.sheet,
        question.rowNumber,
        question.text,
        question.section,
        question.choices,
      ]),
    ).toEqual([
      ["Questions", 3, "Do you encrypt customer data at rest?", "Data protection", ["Yes", "No", "N/A"]],
      ["Questions", 4, "Is it encrypted in transit?", "Data protection", ["Yes", "No", "N/A"]],
      ["Questions", 7, "Describe how administrator access is reviewed", "Access", ["Yes", "No", "N/A"]],
    ]);

    const answers = [
      answeredRow("Customer data is encrypted at rest with AES-256.", [4, 9]),
      failedRowAnswer("answer_failed", "failed twice: timeout"),
      null,
    ];
    const copy = await writeFilledCopy({
      bytes,
      fileName: "vendor.xlsx",
      format: "xlsx",
      layouts: read.layouts,
      rows: read.questions.map((question, index) => ({
        sheetIndex: question.sheetIndex,
        rowNumber: question.rowNumber,
        answer: answers[index] ?? null,
      })),
    });
    expect(copy.fileName).toBe("vendor (filled).xlsx");

    const before = new ExcelJS.Workbook();
    await before.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
    const after = new ExcelJS.Workbook();
    await after.xlsx.load(Buffer.from(copy.bytes) as unknown as ArrayBuffer);
    expect(after.worksheets.map((sheet) => sheet.name)).toEqual(["Questions", "Notes"]);
    for (const cell of originalCells(before)) {
      const now = after.getWorksheet(cell.sheet)?.getCell(cell.address);
      expect({ address: `${cell.sheet}!${cell.address}`, value: now?.value, style: now?.style }).toEqual({
        address: `${cell.sheet}!${cell.address}`,
        value: cell.value,
        style: cell.style,
      });
    }
    const sheet = after.getWorksheet("Questions");
    expect(sheet?.getCell("C3").dataValidation).toEqual(before.getWorksheet("Questions")?.getCell("C3").dataValidation);
    expect(sheet?.getCell("A2").isMerged).toBe(true);
    expect(sheet?.getRow(1).values).toEqual([
      undefined,
      "ID",
      "Question",
      "Response",
      "Length",
      "Due",
      "Answer",
      "Status",
      "Sources",
      "Quote",
      "Source 2",
    ]);
    expect(sheet?.getCell("F3").value).toBe("Customer data is encrypted at rest with AES-256. [1][2]");
    expect(sheet?.getCell("G3").value).toBe("answered");
    expect(sheet?.getCell("H3").value).toEqual({
      text: "[1] Security Policy (security-policy.pdf), p. 4\n[2] Security Policy (security-policy.pdf), p. 9",
      hyperlink: "http://folio.test/files/0b3c2f9e-0000-4000-8000-000000000001?exp=1&sig=abc#page=4",
    });
    expect(sheet?.getCell("J3").value).toEqual({
      text: "[2] Security Policy (security-policy.pdf), p. 9",
      hyperlink: "http://folio.test/files/0b3c2f9e-0000-4000-8000-000000000001?exp=1&sig=abc#page=9",
    });
    expect(sheet?.getCell("G4").value).toBe("error — failed twice: timeout");
    expect(sheet?.getCell("F7").value).toBeNull();
    // The section row and the empty row got nothing.
    expect(sheet?.getCell("F2").value).toBeNull();
    expect(sheet?.getCell("F5").value).toBeNull();
    await writeFile(path.join(directory, copy.fileName), copy.bytes);
  });

  it("opens in LibreOffice: the filled copy converts to CSV with the original values and the added columns", async (context) => {
    if (!(await sofficeAvailable())) {
      context.skip("soffice is not installed (Debian: apt-get install libreoffice-calc)");
      return;
    }
    const file = path.join(directory, "vendor (filled).xlsx");
    await run("soffice", ["--headless", "--convert-to", "csv", "--outdir", directory, file], {
      timeout: 300_000,
      env: { ...process.env, HOME: directory },
    });
    const rows = parseCsvText(await readFile(path.join(directory, "vendor (filled).csv"), "utf8"), {
      relax_column_count: true,
    }) as string[][];
    expect(rows[0]).toEqual([
      "ID",
      "Question",
      "Response",
      "Length",
      "Due",
      "Answer",
      "Status",
      "Sources",
      "Quote",
      "Source 2",
    ]);
    expect(rows[2]?.slice(0, 5)).toEqual(["1.1", "Do you encrypt customer data at rest?", "", "37", "2026-01-15"]);
    expect(rows[2]?.[6]).toBe("answered");
    expect(rows[3]?.slice(0, 4)).toEqual(["1.2", "Is it encrypted in transit?", "", "27"]);
    expect(rows[6]?.slice(0, 4)).toEqual(["2.1", "Describe how administrator access is reviewed", "", "45"]);
  });
});

describe("CSV and DOCX questionnaires", () => {
  it("keeps every CSV line byte for byte and appends the answer fields", async () => {
    const original =
      'id,question,notes\r\n1,"Do you run ""red team"" exercises, and how often?",\r\n\r\nGovernance\r\n2,Who owns the security program?,see policy\r\n';
    const bytes = new TextEncoder().encode(original);
    const read = findQuestions(await readQuestionnaireGrid(bytes, "rfp.csv"), LIMITS);
    expect(read.questions.map((question) => [question.rowNumber, question.text, question.section])).toEqual([
      [2, 'Do you run "red team" exercises, and how often?', null],
      [5, "Who owns the security program?", "Governance"],
    ]);
    const copy = await writeFilledCopy({
      bytes,
      fileName: "rfp.csv",
      format: "csv",
      layouts: read.layouts,
      rows: [
        { sheetIndex: 0, rowNumber: 2, answer: answeredRow("Twice a year.", [3]) },
        { sheetIndex: 0, rowNumber: 5, answer: null },
      ],
    });
    const lines = new TextDecoder().decode(copy.bytes).split("\r\n");
    const originalLines = original.split("\r\n");
    expect(lines).toHaveLength(originalLines.length);
    for (const [index, line] of lines.entries()) expect(line.startsWith(originalLines[index] ?? "")).toBe(true);
    // Every field Folio adds is quoted (#37).
    expect(lines[0]).toBe('id,question,notes,"Answer","Status","Sources","Quote"');
    const filled = parseCsvText(lines[1] ?? "") as string[][];
    expect(filled[0]?.slice(3)).toEqual([
      "Twice a year. [1]",
      "answered",
      "[1] Security Policy (security-policy.pdf), p. 3 <http://folio.test/files/0b3c2f9e-0000-4000-8000-000000000001?exp=1&sig=abc#page=3>",
      "Twice a year. (quoted)",
    ]);
    expect(lines[4]).toBe("2,Who owns the security program?,see policy");
  });

  it("reads the questions of a Word table and fills them into a Word copy of the document", async () => {
    const bytes = docxWithTable([
      ["#", "Requirement", "Vendor response"],
      ["1", "The vendor shall encrypt backups.", ""],
      ["2", "The vendor shall review access quarterly.", ""],
    ]);
    const read = findQuestions(await readQuestionnaireGrid(bytes, "rfp.docx"), LIMITS);
    expect(read.format).toBe("docx");
    expect(read.questions.map((question) => [question.sheet, question.rowNumber, question.text])).toEqual([
      ["Table 1", 2, "The vendor shall encrypt backups."],
      ["Table 1", 3, "The vendor shall review access quarterly."],
    ]);
    const copy = await writeFilledCopy({
      bytes,
      fileName: "rfp.docx",
      format: "docx",
      layouts: read.layouts,
      rows: [{ sheetIndex: 0, rowNumber: 2, answer: answeredRow("Backups are encrypted.", [2]) }],
    });
    expect(copy.fileName).toBe("rfp (filled).docx");
    const filled = await readQuestionnaireGrid(copy.bytes, copy.fileName);
    expect(filled.sheets[0]?.rows.find((row) => row.rowNumber === 2)?.cells).toEqual([
      "1",
      "The vendor shall encrypt backups.",
      "",
      "Backups are encrypted. [1]",
      "answered",
      "[1] Security Policy (security-policy.pdf), p. 2",
      "Backups are encrypted. (quoted)",
    ]);
  });
});

describe("bad questionnaires", () => {
  const refusal = async (bytes: Uint8Array, fileName: string) => {
    try {
      findQuestions(await readQuestionnaireGrid(bytes, fileName), LIMITS);
    } catch (error) {
      return error as { code: string; message: string };
    }
    throw new Error(`${fileName} was not refused`);
  };

  it("says what is wrong: not a spreadsheet, encrypted, too many rows, no text column, formulas only", async () => {
    const pdf = await refusal(new TextEncoder().encode("%PDF-1.4\n%%EOF\n"), "questions.pdf");
    expect(pdf.code).toBe("questionnaire_unsupported_type");
    expect(pdf.message).toMatch(/^This file is a PDF, not a questionnaire Folio can fill — upload an Excel workbook/);

    const encrypted = await refusal(compoundFile(new Uint8Array(5000), "EncryptedPackage"), "locked.xlsx");
    expect(encrypted.code).toBe("questionnaire_encrypted");
    expect(encrypted.message).toMatch(/encrypted — remove the password/);

    const rows = [
      "question",
      ...Array.from({ length: 50_000 }, (_, index) => `Question number ${index} about backups?`),
    ];
    const long = await refusal(new TextEncoder().encode(`${rows.join("\n")}\n`), "long.csv");
    expect(long.code).toBe("questionnaire_too_long");
    expect(long.message).toMatch(/has 50,001 rows; Folio answers questionnaires of up to 5,000 rows/);

    const numbers = await refusal(new TextEncoder().encode("1,2,3\n4,5,6\n7,8,9\n"), "numbers.csv");
    expect(numbers.code).toBe("questionnaire_no_questions");
    expect(numbers.message).toMatch(
      /No column of this file holds question text — name the question column with --column/,
    );

    const formulas = new ExcelJS.Workbook();
    const sheet = formulas.addWorksheet("Q");
    sheet.addRow([{ formula: 'CONCAT("Do you ","encrypt?")', result: "Do you encrypt?" }]);
    sheet.addRow([{ formula: 'CONCAT("Do you ","log?")', result: "Do you log?" }]);
    const onlyFormulas = await refusal(
      new Uint8Array((await formulas.xlsx.writeBuffer()) as ArrayBuffer),
      "formulas.xlsx",
    );
    expect(onlyFormulas.code).toBe("questionnaire_formulas_only");
    expect(onlyFormulas.message).toMatch(/Every text cell in this questionnaire is a formula/);
  });
});
