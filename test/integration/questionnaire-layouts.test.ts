/**
 * The layout corpus (test/support/questionnaire-layouts.ts) and the public VSAQ questionnaires, read
 * with the real readers and filled with the real writers: each layout's header row and question column
 * are found, exactly its questions are asked (never an identifier, a title, a section name or an
 * instruction), the filled copy keeps every original cell and names its added columns on the header
 * row (and on rows repeating it), and every filled copy reopens in LibreOffice.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuestionnaireGrid, ReadQuestionnaire } from "../../src/questionnaire/questionnaire.js";
import { columnLetters, findQuestions } from "../../src/questionnaire/read/find-questions.js";
import { readQuestionnaireGrid } from "../../src/questionnaire/read/read-questionnaire-grid.js";
import { type FilledCopy, writeFilledCopy } from "../../src/questionnaire/write/write-filled-copy.js";
import { answeredRow } from "../support/questionnaire-files.js";
import { type QuestionnaireLayout, questionnaireLayouts } from "../support/questionnaire-layouts.js";
import { hasSharedData, sharedData } from "../support/shared-paths.js";

const run = promisify(execFile);
const LIMITS = { maxRows: 5_000 };
const LAYOUTS = questionnaireLayouts();

let directory: string;
const filledFiles: Array<{ file: string; question: string }> = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "folio-questionnaire-layouts-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function fill(bytes: Uint8Array, fileName: string, read: ReadQuestionnaire): Promise<FilledCopy> {
  return writeFilledCopy({
    bytes,
    fileName,
    format: read.format,
    layouts: read.layouts,
    rows: read.questions.map((question, index) => ({
      sheetIndex: question.sheetIndex,
      rowNumber: question.rowNumber,
      answer: answeredRow(`Answer ${index + 1} from the policy.`, [index + 1]),
    })),
  });
}

/** Every original cell (value and style) of every sheet is the same in the copy. */
async function expectXlsxCellsKept(before: Uint8Array, after: Uint8Array): Promise<void> {
  const original = new ExcelJS.Workbook();
  await original.xlsx.load(Buffer.from(before) as unknown as ArrayBuffer);
  const filled = new ExcelJS.Workbook();
  await filled.xlsx.load(Buffer.from(after) as unknown as ArrayBuffer);
  expect(filled.worksheets.map((sheet) => sheet.name)).toEqual(original.worksheets.map((sheet) => sheet.name));
  const changed: string[] = [];
  for (const sheet of original.worksheets) {
    const copy = filled.getWorksheet(sheet.name);
    sheet.eachRow({ includeEmpty: true }, (row) =>
      row.eachCell({ includeEmpty: true }, (cell) => {
        const now = copy?.getCell(cell.address);
        if (
          JSON.stringify(now?.value) !== JSON.stringify(cell.value) ||
          JSON.stringify(now?.style) !== JSON.stringify(cell.style)
        )
          changed.push(`${sheet.name}!${cell.address}`);
      }),
    );
    for (const column of [1, 2, 3, 4, 5, 6, 7]) {
      if (sheet.getColumn(column).hidden) expect(copy?.getColumn(column).hidden).toBe(true);
    }
  }
  expect(changed).toEqual([]);
}

/** Every original row's cells start the copy's row (DOCX tables, CSV records), and no row is lost. */
function expectGridKept(before: QuestionnaireGrid, after: QuestionnaireGrid): void {
  // A CSV's one sheet is named after its file, which the copy renames.
  const named = (grid: QuestionnaireGrid) =>
    grid.sheets.map((sheet) => [grid.format === "csv" ? "" : sheet.name, sheet.rowCount]);
  expect(named(after)).toEqual(named(before));
  before.sheets.forEach((sheet, index) => {
    const rows = new Map(after.sheets[index]?.rows.map((row) => [row.rowNumber, row.cells]));
    for (const row of sheet.rows) {
      expect({ row: row.rowNumber, cells: rows.get(row.rowNumber)?.slice(0, row.cells.length) }).toEqual({
        row: row.rowNumber,
        cells: row.cells,
      });
    }
  });
}

/** The rows of the copy that carry the added column names: exactly the header row and its repeats. */
function namedRows(grid: QuestionnaireGrid, sheetIndex: number): number[] {
  return (grid.sheets[sheetIndex]?.rows ?? [])
    .filter((row) => row.cells.includes("Answer") && row.cells.includes("Status") && row.cells.includes("Quote"))
    .map((row) => row.rowNumber);
}

async function checkLayout(layout: QuestionnaireLayout): Promise<void> {
  const bytes = await layout.build();
  const grid = await readQuestionnaireGrid(bytes, layout.fileName);
  const read = findQuestions(grid, LIMITS);
  expect(
    read.layouts.map((entry) => ({
      sheet: entry.sheet,
      headerRow: entry.headerRow,
      questionColumn: columnLetters(entry.questionColumn),
    })),
  ).toEqual(layout.expected.sheets);
  expect(read.questions.map((question) => question.text)).toEqual(layout.expected.questions);

  const copy = await fill(bytes, layout.fileName, read);
  const after = await readQuestionnaireGrid(copy.bytes, copy.fileName);
  if (read.format === "xlsx") await expectXlsxCellsKept(bytes, copy.bytes);
  else expectGridKept(grid, after);
  if (read.format === "csv") {
    const originalLines = new TextDecoder().decode(bytes).split("\r\n");
    const copyLines = new TextDecoder().decode(copy.bytes).split("\r\n");
    expect(copyLines).toHaveLength(originalLines.length);
    originalLines.forEach((line, index) => {
      expect(copyLines[index]?.startsWith(line)).toBe(true);
    });
  }
  for (const entry of read.layouts) {
    const expectedNamed = entry.headerRow === null ? [] : [entry.headerRow, ...(entry.repeatedHeaderRows ?? [])];
    expect({ sheet: entry.sheet, named: namedRows(after, entry.sheetIndex) }).toEqual({
      sheet: entry.sheet,
      named: expectedNamed,
    });
  }
  const file = path.join(directory, copy.fileName);
  await writeFile(file, copy.bytes);
  filledFiles.push({ file, question: layout.expected.questions[0] ?? "" });
}

describe("questionnaire layouts: header row and question column found, only questions asked, originals kept", () => {
  it("has at least 30 generated layouts, each with a distinct name", () => {
    expect(LAYOUTS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(LAYOUTS.map((layout) => layout.name)).size).toBe(LAYOUTS.length);
  });

  for (const layout of LAYOUTS) {
    it(`${layout.name}: ${layout.shows}`, async () => {
      await checkLayout(layout);
    });
  }
});

describe.skipIf(!hasSharedData)("public questionnaires (VSAQ)", () => {
  for (const fileName of ["vsaq_questions_flat.csv", "vsaq_questions_flat.xlsx"]) {
    it(`${fileName}: header row 1, question_text (column E), all 245 questions`, async () => {
      const bytes = new Uint8Array(await readFile(sharedData("questionnaires", "vsaq", fileName)));
      const read = findQuestions(await readQuestionnaireGrid(bytes, fileName), LIMITS);
      expect(
        read.layouts.map((entry) => [entry.headerRow, columnLetters(entry.questionColumn), entry.questionHeader]),
      ).toEqual([[1, "E", "question_text"]]);
      expect(read.questions).toHaveLength(245);
      expect(read.skipped).toEqual([]);
      const copy = await fill(bytes, fileName, read);
      if (read.format === "xlsx") await expectXlsxCellsKept(bytes, copy.bytes);
      const file = path.join(directory, copy.fileName);
      await writeFile(file, copy.bytes);
      filledFiles.push({ file, question: read.questions[0]?.text ?? "" });
    });
  }
});

describe("every filled copy reopens in LibreOffice", () => {
  it("converts each copy (spreadsheets to CSV, every sheet; Word to text) with its first question and its answers", async (context) => {
    const soffice = await run("soffice", ["--version"], { timeout: 60_000 }).then(
      () => true,
      () => false,
    );
    if (!soffice) {
      context.skip("soffice is not installed (Debian: apt-get install libreoffice-calc libreoffice-writer)");
      return;
    }
    expect(filledFiles.length).toBeGreaterThanOrEqual(LAYOUTS.length);
    const outDirectory = path.join(directory, "converted");
    const spreadsheets = filledFiles.filter((entry) => !entry.file.endsWith(".docx"));
    const documents = filledFiles.filter((entry) => entry.file.endsWith(".docx"));
    const environment = { ...process.env, HOME: directory };
    // One LibreOffice start per kind; -1 as the last CSV option writes every sheet ("name-Sheet.csv").
    await run(
      "soffice",
      [
        "--headless",
        "--convert-to",
        "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
        "--outdir",
        outDirectory,
        ...spreadsheets.map((entry) => entry.file),
      ],
      { timeout: 600_000, env: environment },
    );
    await run(
      "soffice",
      ["--headless", "--convert-to", "txt:Text", "--outdir", outDirectory, ...documents.map((entry) => entry.file)],
      {
        timeout: 600_000,
        env: environment,
      },
    );
    const converted = existsSync(outDirectory) ? await readdir(outDirectory) : [];
    const reopened: string[] = [];
    for (const entry of filledFiles) {
      const stem = path.basename(entry.file).replace(/\.[^.]+$/, "");
      const outputs = converted.filter((name) => name === `${stem}.txt` || name.startsWith(stem));
      const text = (await Promise.all(outputs.map((name) => readFile(path.join(outDirectory, name), "utf8")))).join(
        "\n",
      );
      // The question (quotes doubled in CSV), and the answer and status written beside it.
      const question = entry.question.replace(/"/g, '""');
      if (text.includes(question) && text.includes("Answer 1 from the policy.") && text.includes("answered"))
        reopened.push(path.basename(entry.file));
    }
    const notReopened = filledFiles
      .map((entry) => path.basename(entry.file))
      .filter((name) => !reopened.includes(name));
    expect({ reopened: reopened.length, notReopened }).toEqual({ reopened: filledFiles.length, notReopened: [] });
  });
});
