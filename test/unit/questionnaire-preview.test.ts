/**
 * What a person sees before a questionnaire is answered (the console's preview, `folio questionnaire
 * fill --dry-run`): the sheet, header row, question column, number of questions and the first three,
 * the rows passed over, and the columns to pick another from; and the summary that says how many rows
 * were skipped as no questions.
 */
import { describe, expect, it } from "vitest";
import { describeProgress, type QuestionnaireProgress } from "../../src/questionnaire/jobs/questionnaire-progress.js";
import type { GridRow, QuestionnaireGrid } from "../../src/questionnaire/questionnaire.js";
import { findQuestions } from "../../src/questionnaire/read/find-questions.js";
import { describePreview, previewQuestionnaire } from "../../src/questionnaire/read/questionnaire-preview.js";

/** The issue's questionnaire: a title naming "question", an empty row, the header, section rows, IDs. */
function issueGrid(): QuestionnaireGrid {
  const rows: Array<string[] | null> = [
    ["Vendor security and policy review — please answer every question"],
    null,
    ["ID", "Question", "Response options", "Reviewer notes"],
    ["Policies"],
    ["Q1", "Do you have a written information security policy?", "Yes | No"],
    ["Q2", "How often is the policy reviewed?", ""],
    ["Q3", "", "Yes | No"],
    ["Q4", "Encryption"],
    ["Access"],
    ["Q5", "Describe how administrator access is granted.", ""],
  ];
  const gridRows: GridRow[] = [];
  rows.forEach((cells, index) => {
    if (cells) gridRows.push({ rowNumber: index + 1, cells });
  });
  return { format: "xlsx", sheets: [{ name: "Review", rows: gridRows, rowCount: rows.length }] };
}

describe("the questionnaire preview", () => {
  it("names the header row and question column under the title, the first questions and the rows not asked", () => {
    const grid = issueGrid();
    const read = findQuestions(grid, { maxRows: 1000 });
    const preview = previewQuestionnaire(grid, read, "review.xlsx");
    expect(preview.sheets).toEqual([
      {
        sheet: "Review",
        sheetIndex: 0,
        headerRow: 3,
        headerRows: [3],
        questionColumn: "B",
        questionHeader: "Question",
        questions: 3,
        firstQuestions: [
          "Do you have a written information security policy?",
          "How often is the policy reviewed?",
          "Describe how administrator access is granted.",
        ],
        skipped: { section: 2, empty: 1, single_word: 1 },
        columns: [
          { letter: "A", header: "ID", sample: "Q1" },
          { letter: "B", header: "Question", sample: "Do you have a written information security policy?" },
          { letter: "C", header: "Response options", sample: "Yes | No" },
          { letter: "D", header: "Reviewer notes", sample: "" },
        ],
      },
    ]);
    expect(preview.skippedRows.map((row) => [row.rowNumber, row.reason])).toEqual([
      [4, "section"],
      [7, "empty"],
      [8, "single_word"],
      [9, "section"],
    ]);
    expect(describePreview(preview)).toBe(
      [
        "review.xlsx: 3 questions found; 4 rows skipped (not questions)",
        '  sheet "Review": header row 3, question column B ("Question"), 3 questions',
        "    1. Do you have a written information security policy?",
        "    2. How often is the policy reviewed?",
        "    3. Describe how administrator access is granted.",
        "    not asked: 2 section names, 1 empty question cell, 1 single word",
        "Another column: --column C (a letter, a number or its header); another sheet: --sheet N.",
        "",
      ].join("\n"),
    );
  });

  it("says in the summary how many rows were skipped as no questions", () => {
    const progress: QuestionnaireProgress = {
      jobId: "j",
      status: "succeeded",
      fileName: "review.xlsx",
      total: 3,
      done: 3,
      answered: 1,
      notFound: 1,
      needsReview: 1,
      errors: 0,
      pending: 0,
      skipped: 4,
      elapsedMs: 2000,
      secondsLeft: 0,
      errorCode: null,
      errorMessage: null,
      ahead: null,
    };
    expect(describeProgress(progress)).toBe(
      "3/3 done · 1 answered · 1 not found · 1 need review · 4 rows skipped (not questions) · took 2 s",
    );
    expect(describeProgress({ ...progress, skipped: 0 })).toBe(
      "3/3 done · 1 answered · 1 not found · 1 need review · took 2 s",
    );
  });
});
