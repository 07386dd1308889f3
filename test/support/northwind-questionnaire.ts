/**
 * Northwind's page-QA questions written into an XLSX questionnaire, the way a customer would send it:
 * a cover sheet, then a sheet with a numbered question column, a section heading row every 25
 * questions and a Yes/No choices column on every seventh question — and, with `preamble`, a title row,
 * two instruction rows and an empty row above the header (#32). Used by the questionnaire benchmark to
 * compare the filled copy's Sources with `folio eval answers` on the same questions.
 */
import { readFile } from "node:fs/promises";
import ExcelJS from "exceljs";
import { goldPagesOf } from "../../src/evaluation/answer-evaluation.js";

export type NorthwindQuestionnaire = {
  bytes: Uint8Array;
  /** One entry per question, in order: its sheet row and its gold pages. */
  questions: Array<{ question: string; rowNumber: number; gold: Array<{ file: string; page: number }> }>;
  sheetName: string;
  /** The header row of the questions sheet (1, or 5 with the preamble). */
  headerRow: number;
};

/** A title naming "question" and instructions above the header, as vendor reviews often start. */
const PREAMBLE = [
  ["Benefits due-diligence review — please answer every question"],
  ["Instructions: answer each question in the Answer column and cite the plan document and page."],
  ["Use the Choices column where one is given; leave the Owner column as it is."],
];

const SECTIONS_EVERY = 25;
const CHOICES_EVERY = 7;

export async function buildNorthwindQuestionnaire(
  datasetPath: string,
  options: { preamble?: boolean } = {},
): Promise<NorthwindQuestionnaire> {
  const entries = (await readFile(datasetPath, "utf8"))
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as { question?: string; truth?: string; answer?: string })
    // The same questions `folio eval answers` asks: those whose reference cites a page.
    .map((entry) => ({ question: entry.question ?? "", gold: goldPagesOf(entry.truth ?? entry.answer ?? "") }))
    .filter((entry) => entry.question.length > 0 && entry.gold.length > 0);
  const workbook = new ExcelJS.Workbook();
  const cover = workbook.addWorksheet("Cover");
  cover.addRow(["Benefits due-diligence questionnaire"]);
  cover.getCell("A1").font = { bold: true, size: 14 };
  cover.addRow(["Answer every question on the next sheet and cite the plan document."]);
  const sheetName = "Questions";
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = [{ width: 6 }, { width: 80 }, { width: 16 }, { width: 12 }];
  if (options.preamble) {
    for (const row of PREAMBLE) sheet.addRow(row);
    sheet.getCell("A1").font = { bold: true, size: 14 };
    sheet.addRow([]);
  }
  const header = sheet.addRow(["No.", "Question", "Choices", "Owner"]);
  header.font = { bold: true };
  const questions: NorthwindQuestionnaire["questions"] = [];
  entries.forEach((entry, index) => {
    if (index % SECTIONS_EVERY === 0) {
      const heading = sheet.addRow([`Section ${index / SECTIONS_EVERY + 1}`]);
      heading.font = { italic: true };
    }
    const row = sheet.addRow([
      index + 1,
      entry.question,
      index % CHOICES_EVERY === CHOICES_EVERY - 1 ? "Yes | No" : "",
      index % 2 === 0 ? "HR" : "Benefits",
    ]);
    questions.push({ question: entry.question, rowNumber: row.number, gold: entry.gold });
  });
  return {
    bytes: new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer),
    questions,
    sheetName,
    headerRow: header.number,
  };
}
