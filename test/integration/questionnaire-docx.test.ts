/**
 * A Word questionnaire comes back as Word: the filled copy of a DOCX with a history table, a question
 * table (styled header, section rows spanning the table, a nested table, text that needs escaping) and
 * a second question table, written from answers as the pipeline leaves them and read back with the
 * project's own reader — answers in their rows, original text unchanged, the other parts byte for byte,
 * Sources as external hyperlinks — then reopened by LibreOffice Writer when it is installed.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failedRowAnswer, type RowAnswer } from "../../src/questionnaire/answer/row-answer.js";
import type { ReadQuestionnaire } from "../../src/questionnaire/questionnaire.js";
import { findQuestions } from "../../src/questionnaire/read/find-questions.js";
import { readQuestionnaireGrid } from "../../src/questionnaire/read/read-questionnaire-grid.js";
import { type FilledCopy, writeFilledCopy } from "../../src/questionnaire/write/write-filled-copy.js";
import {
  answeredRow,
  docxWithTable,
  HISTORY_TABLE,
  NESTED_REGIONS_TABLE,
  securityQuestionnaireDocx,
} from "../support/questionnaire-files.js";

const run = promisify(execFile);
const LIMITS = { maxRows: 5_000 };
const HEADER = ["Answer", "Status", "Sources", "Quote"];

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "folio-questionnaire-docx-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function fill(bytes: Uint8Array, answers: Array<RowAnswer | null>) {
  const read = findQuestions(await readQuestionnaireGrid(bytes, "security.docx"), LIMITS);
  const copy = await writeFilledCopy({
    bytes,
    fileName: "security.docx",
    format: read.format,
    layouts: read.layouts,
    rows: read.questions.map((question, index) => ({
      sheetIndex: question.sheetIndex,
      rowNumber: question.rowNumber,
      answer: answers[index] ?? null,
    })),
  });
  return { read, copy };
}

/** LibreOffice Writer's plain-text rendering of a DOCX, or null when Writer cannot be run here. */
async function writerText(file: string): Promise<string | null> {
  const convert = async (input: string) => {
    await run("soffice", ["--headless", "--convert-to", "txt:Text", "--outdir", directory, input], {
      timeout: 300_000,
      env: { ...process.env, HOME: directory },
    });
    return readFile(path.join(directory, `${path.basename(input, ".docx")}.txt`), "utf8");
  };
  return convert(file);
}

describe("DOCX questionnaires come back as DOCX", () => {
  let original: Uint8Array;
  let read: ReadQuestionnaire;
  let copy: FilledCopy;

  beforeAll(async () => {
    original = securityQuestionnaireDocx();
    const filled = await fill(original, [
      answeredRow("Customer data is encrypted at rest with AES-256 & keys rotate <yearly>.", [4, 9]),
      null,
      failedRowAnswer("answer_failed", "failed twice: timeout"),
      answeredRow("Backups are kept for 35 days.", [2]),
    ]);
    read = filled.read;
    copy = filled.copy;
    await writeFile(path.join(directory, "security (filled).docx"), copy.bytes);
  });

  it("reads the questions of both question tables, and names the copy .docx with the Word media type", () => {
    expect(
      read.questions.map((question) => [question.sheet, question.rowNumber, question.text, question.section]),
    ).toEqual([
      ["Table 2", 3, "Do you encrypt customer data at rest?", "Data protection"],
      ["Table 2", 4, "Which regions host customer data?", "Data protection"],
      ["Table 2", 6, "Describe how administrator access is reviewed & logged", "Access & <review>"],
      ["Table 3", 2, "The vendor shall keep backups for at least 30 days.", null],
      // A requirement sentence alone in its row is a question, not a section heading (#32).
      ["Table 3", 3, "The vendor shall report incidents within 24 hours.", null],
    ]);
    expect(copy.fileName).toBe("security (filled).docx");
    expect(copy.mediaType).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
  });

  it("puts each answer in its own row, keeps every original cell's text, and leaves other tables alone", async () => {
    const before = await readQuestionnaireGrid(original, "security.docx");
    const after = await readQuestionnaireGrid(copy.bytes, "security (filled).docx");
    expect(after.format).toBe("docx");
    expect(after.sheets.map((sheet) => [sheet.name, sheet.rowCount])).toEqual(
      before.sheets.map((sheet) => [sheet.name, sheet.rowCount]),
    );
    // The history table has no questions: it reads exactly as before.
    expect(after.sheets[0]).toEqual(before.sheets[0]);
    const rows = (index: number) => new Map(after.sheets[index]?.rows.map((row) => [row.rowNumber, row.cells]));
    for (const [index, sheet] of before.sheets.entries()) {
      for (const row of sheet.rows) {
        expect({
          sheet: sheet.name,
          row: row.rowNumber,
          cells: rows(index).get(row.rowNumber)?.slice(0, row.cells.length),
        }).toEqual({
          sheet: sheet.name,
          row: row.rowNumber,
          cells: row.cells,
        });
      }
    }
    const questions = rows(1);
    expect(questions.get(1)).toEqual(["#", "Question", "Response", ...HEADER]);
    expect(questions.get(3)).toEqual([
      "1.1",
      "Do you encrypt customer data at rest?",
      "",
      "Customer data is encrypted at rest with AES-256 & keys rotate <yearly>. [1][2]",
      "answered",
      "[1] Security Policy (security-policy.pdf), p. 4\n[2] Security Policy (security-policy.pdf), p. 9",
      "Customer data is encrypted at rest with AES-256 & keys rotate <yearly>. (quoted)",
    ]);
    // Pending: empty added cells, so nothing after the nested table's cell.
    expect(questions.get(4)).toEqual(["1.2", "Which regions host customer data?", "See:\nEU\nFrankfurt\nUS\nVirginia"]);
    expect(questions.get(6)?.slice(3)).toEqual(["", "error — failed twice: timeout"]);
    // Section rows still read as one cell: it spans the widened table.
    expect(questions.get(2)).toEqual(["Data protection"]);
    expect(questions.get(5)).toEqual(["Access & <review>"]);
    const requirements = rows(2);
    expect(requirements.get(1)).toEqual(["Requirement", "Vendor response", ...HEADER]);
    expect(requirements.get(2)?.slice(2)).toEqual([
      "Backups are kept for 35 days. [1]",
      "answered",
      "[1] Security Policy (security-policy.pdf), p. 2",
      "Backups are kept for 35 days. (quoted)",
    ]);
    // The filled copy reads as the same questionnaire again.
    const again = findQuestions(after, LIMITS);
    expect(again.questions.map((question) => [question.sheet, question.rowNumber, question.text])).toEqual(
      read.questions.map((question) => [question.sheet, question.rowNumber, question.text]),
    );
  });

  it("changes only the main part and its relationships; the grid, spans, widths and links follow", () => {
    const before = unzipSync(original);
    const after = unzipSync(copy.bytes);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const name of Object.keys(before)) {
      if (name === "word/document.xml" || name === "word/_rels/document.xml.rels") continue;
      expect({
        name,
        same: Buffer.compare(Buffer.from(after[name] ?? []), Buffer.from(before[name] ?? [])) === 0,
      }).toEqual({
        name,
        same: true,
      });
    }
    const xml = strFromU8(after["word/document.xml"] ?? new Uint8Array());
    // The outermost tables, in order (the nested one taken out first, so it does not split its parent).
    const tables = xml
      .replace(NESTED_REGIONS_TABLE, "")
      .split(/(?=<w:tbl>)/)
      .filter((part) => part.startsWith("<w:tbl>"));
    // History table and nested table byte for byte.
    expect(xml).toContain(HISTORY_TABLE);
    expect(xml).toContain(NESTED_REGIONS_TABLE);
    // The question tables: a gridCol per added column, the table's width their sum. The requirements
    // table fills the page's text width; the first keeps room for the table nested in its Response
    // column (3000 + the cell's margins), so it is wider than the page.
    const gridOf = (table: string) =>
      [...(/<w:tblGrid>(.*?)<\/w:tblGrid>/.exec(table)?.[1] ?? "").matchAll(/w:w="(\d+)"/g)].map((m) => Number(m[1]));
    const questionGrid = gridOf(tables[1] ?? "");
    expect(questionGrid).toHaveLength(7);
    expect(questionGrid[2]).toBe(3216);
    const questionWidth = questionGrid.reduce((sum, width) => sum + width, 0);
    expect(tables[1]).toContain(`<w:tblW w:w="${questionWidth}" w:type="dxa"/>`);
    const requirementsGrid = gridOf(tables[2] ?? "");
    expect(requirementsGrid).toHaveLength(6);
    expect(requirementsGrid.reduce((sum, width) => sum + width, 0)).toBe(9026);
    // Every cell's stated width is the sum of the grid columns it covers.
    expect(tables).toHaveLength(3);
    for (const table of [tables[1] ?? "", tables[2] ?? ""]) {
      const grid = gridOf(table);
      for (const row of table.split("<w:tr>").slice(1)) {
        let column = 0;
        for (const cellXml of row.split("<w:tc>").slice(1)) {
          const span = Number(/<w:gridSpan w:val="(\d+)"\/>/.exec(cellXml)?.[1] ?? 1);
          const width = Number(/<w:tcW w:w="(\d+)"/.exec(cellXml)?.[1]);
          expect(width).toBe(grid.slice(column, column + span).reduce((sum, value) => sum + value, 0));
          column += span;
        }
        expect(column).toBe(grid.length);
      }
    }
    // Both section rows span all seven columns.
    expect([...xml.matchAll(/<w:gridSpan w:val="(\d+)"\/>/g)].map((match) => match[1])).toEqual(["7", "7"]);
    // Header cells copy the header's shading and run look.
    expect(xml).toContain(
      '<w:shd w:val="clear" w:color="auto" w:fill="1F4E79"/><w:vAlign w:val="center"/></w:tcPr><w:p><w:r><w:rPr><w:b/><w:color w:val="FFFFFF"/></w:rPr><w:t xml:space="preserve">Answer</w:t>',
    );
    // Text from answers is escaped, never markup.
    expect(xml).toContain("AES-256 &amp; keys rotate &lt;yearly&gt;.");
    expect(xml).not.toContain("<yearly>");

    const relationships = strFromU8(after["word/_rels/document.xml.rels"] ?? new Uint8Array());
    const originalRelationships = strFromU8(before["word/_rels/document.xml.rels"] ?? new Uint8Array());
    expect(relationships.startsWith(originalRelationships.replace("</Relationships>", ""))).toBe(true);
    const links = [
      ...relationships.matchAll(
        /<Relationship Id="(rIdFolio\d+)" Type="([^"]+)" Target="([^"]+)" TargetMode="External"\/>/g,
      ),
    ];
    expect(links.map((match) => [match[2], match[3]])).toEqual(
      [4, 9, 2].map((page) => [
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink",
        `http://folio.test/files/0b3c2f9e-0000-4000-8000-000000000001?exp=1&amp;sig=abc#page=${page}`,
      ]),
    );
    const hyperlinkIds = [...xml.matchAll(/<w:hyperlink r:id="([^"]+)"/g)].map((match) => match[1]);
    expect(hyperlinkIds).toEqual(links.map((match) => match[1]));
  });

  it("reopens in LibreOffice Writer with the questions and the answers", async (context) => {
    const probe = path.join(directory, "security.docx");
    await writeFile(probe, original);
    const originalText = await writerText(probe).catch(() => null);
    if (originalText === null) {
      context.skip("LibreOffice Writer is not installed (Debian: apt-get install libreoffice-writer)");
      return;
    }
    const text = await writerText(path.join(directory, "security (filled).docx"));
    expect(text).toContain("Do you encrypt customer data at rest?");
    expect(text).toContain("Customer data is encrypted at rest with AES-256 & keys rotate <yearly>. [1][2]");
    expect(text).toContain("[1] Security Policy (security-policy.pdf), p. 4");
    expect(text).toContain("Backups are kept for 35 days. [1]");
    expect(text).toContain("error — failed twice: timeout");
    expect(text).toContain("Access & <review>");
  });
});

describe("a minimal Word table", () => {
  it("gets a grid and a relationships part when it had neither", async () => {
    const bytes = docxWithTable([
      ["#", "Requirement", "Vendor response"],
      ["1", "The vendor shall encrypt backups.", ""],
    ]);
    const { copy } = await fill(bytes, [answeredRow("Backups are encrypted.", [2])]);
    const after = unzipSync(copy.bytes);
    expect(Object.keys(after)).toEqual([...Object.keys(unzipSync(bytes)), "word/_rels/document.xml.rels"]);
    const xml = strFromU8(after["word/document.xml"] ?? new Uint8Array());
    expect(xml).toMatch(
      /^<\?xml[^>]*>\s*<w:document xmlns:w="[^"]+" xmlns:r="http:\/\/schemas.openxmlformats.org\/officeDocument\/2006\/relationships">/,
    );
    expect([...xml.matchAll(/<w:gridCol /g)]).toHaveLength(7);
    // Its rows, answers included, are checked in questionnaire-files.test.ts.
    expect(strFromU8(after["word/_rels/document.xml.rels"] ?? new Uint8Array())).toContain(
      'Target="http://folio.test/files/0b3c2f9e-0000-4000-8000-000000000001?exp=1&amp;sig=abc#page=2" TargetMode="External"',
    );
  });
});

describe("a row that stops short of the grid", () => {
  it("gets a filler cell (in place of its 'grid after', or for missing cells), so its answer lands in the added columns", async () => {
    const cell = (text: string) => `<w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
    const document = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:tbl><w:tblGrid><w:gridCol w:w="1000"/><w:gridCol w:w="5000"/><w:gridCol w:w="3000"/></w:tblGrid><w:tr>${cell("#")}${cell("Question")}${cell("Notes")}</w:tr><w:tr><w:trPr><w:gridAfter w:val="1"/></w:trPr>${cell("1")}${cell("Do you keep audit logs for a year?")}</w:tr><w:tr>${cell("2")}${cell("Do you review firewall rules every month?")}</w:tr></w:tbl></w:body></w:document>`;
    const original = unzipSync(docxWithTable([["x"]]));
    const bytes = zipSync({ ...original, "word/document.xml": strToU8(document) });
    const { copy } = await fill(bytes, [
      answeredRow("Audit logs are kept for 13 months.", [5]),
      answeredRow("Firewall rules are reviewed monthly.", [6]),
    ]);
    const xml = strFromU8(unzipSync(copy.bytes)["word/document.xml"] ?? new Uint8Array());
    expect(xml).not.toContain("gridAfter");
    const grid = await readQuestionnaireGrid(copy.bytes, "short.docx");
    expect(grid.sheets[0]?.rows[1]?.cells).toEqual([
      "1",
      "Do you keep audit logs for a year?",
      "",
      "Audit logs are kept for 13 months. [1]",
      "answered",
      "[1] Security Policy (security-policy.pdf), p. 5",
      "Audit logs are kept for 13 months. (quoted)",
    ]);
    expect(grid.sheets[0]?.rows[2]?.cells.slice(2, 4)).toEqual(["", "Firewall rules are reviewed monthly. [1]"]);
    expect([...xml.matchAll(/<w:gridSpan w:val="1"\/>/g)]).toHaveLength(0);
  });
});
