import { describe, expect, it } from "vitest";
import { questionForPipeline } from "../../src/questionnaire/answer/answer-questionnaire-rows.js";
import { chooseAnswerChoice } from "../../src/questionnaire/answer/choose-answer-choice.js";
import type { GridRow, GridSheet, QuestionnaireGrid } from "../../src/questionnaire/questionnaire.js";
import { findQuestions } from "../../src/questionnaire/read/find-questions.js";

function sheet(name: string, rows: Array<string[] | null>, extra: Partial<GridSheet> = {}): GridSheet {
  const gridRows: GridRow[] = [];
  rows.forEach((cells, index) => {
    if (cells !== null) gridRows.push({ rowNumber: index + 1, cells });
  });
  return { name, rows: gridRows, rowCount: rows.length, ...extra };
}

function grid(...sheets: GridSheet[]): QuestionnaireGrid {
  return { format: "xlsx", sheets };
}

const LIMITS = { maxRows: 1000 };

describe("findQuestions", () => {
  it("finds the question column by its header, skips headings and empty rows, and keeps row, sheet and section", () => {
    const read = findQuestions(
      grid(
        sheet("Security", [
          ["ID", "Question", "Response"],
          ["Data protection"],
          ["1.1", "Do you encrypt customer data at rest?", ""],
          null,
          ["1.2", "Is it encrypted in transit?", ""],
          ["Access control"],
          ["2.1", "Describe your password policy", ""],
        ]),
      ),
      LIMITS,
    );
    expect(read.layouts).toEqual([
      {
        sheet: "Security",
        sheetIndex: 0,
        questionColumn: 1,
        choicesColumn: null,
        sectionColumn: null,
        headerRow: 1,
        columnCount: 3,
        headerRows: [1],
        questionHeader: "Question",
        skipped: { section: 2 },
      },
    ]);
    expect(read.questions.map((question) => [question.rowNumber, question.text, question.section])).toEqual([
      [3, "Do you encrypt customer data at rest?", "Data protection"],
      [5, "Is it encrypted in transit?", "Data protection"],
      [7, "Describe your password policy", "Access control"],
    ]);
  });

  it("takes the column with the longest text when no header names one, and a path column as section", () => {
    const read = findQuestions(
      grid(
        sheet("Sheet1", [
          ["Ref", "Text", "Area"],
          ["A", "Does the vendor maintain an incident response plan that is tested yearly?", "Ops"],
          ["B", "Are backups stored off site and restored in a drill at least once a year?", "Ops"],
        ]),
      ),
      LIMITS,
    );
    expect(read.layouts[0]?.questionColumn).toBe(1);
    expect(read.questions).toHaveLength(2);
  });

  it("reads choices from a choices column or a data-validation list, and asks a short question with its section", () => {
    const validation = new Map([["3:2", ["Yes", "No", "N/A"]]]);
    const read = findQuestions(
      grid(
        sheet(
          "Controls",
          [
            ["Section path", "Question", "Choices"],
            ["Backups > Media", "Is it encrypted?", "Yes, all media | No"],
            ["Network", "Do you use firewalls at every network boundary?", ""],
          ],
          { validationLists: validation },
        ),
      ),
      LIMITS,
    );
    const [first, second] = read.questions;
    expect(first?.choices).toEqual(["Yes, all media", "No"]);
    expect(first?.section).toBe("Backups > Media");
    expect(second?.choices).toEqual(["Yes", "No", "N/A"]);
    expect(first && questionForPipeline(first)).toBe("Media: Is it encrypted?");
    expect(second && questionForPipeline(second)).toBe("Do you use firewalls at every network boundary?");
    expect(first && questionForPipeline({ ...first, section: "Section 9" })).toBe("Is it encrypted?");
  });

  it("honours --sheet and --column by number, letter or header", () => {
    const twoSheets = grid(
      sheet("Intro", [["Welcome to the questionnaire, please answer every question below in full."]]),
      sheet("Q", [
        ["Topic", "Ask"],
        ["Backups", "How often are backups taken?"],
      ]),
    );
    expect(findQuestions(twoSheets, { ...LIMITS, sheet: "2", column: "B" }).questions.map((q) => q.text)).toEqual([
      "How often are backups taken?",
    ]);
    expect(findQuestions(twoSheets, { ...LIMITS, sheet: "q", column: "Ask" }).questions).toHaveLength(1);
    expect(() => findQuestions(twoSheets, { ...LIMITS, sheet: "Answers" })).toThrow(
      /There is no sheet "Answers" — the sheets are 1 "Intro", 2 "Q"/,
    );
    expect(() => findQuestions(twoSheets, { ...LIMITS, sheet: "2", column: "Requirement" })).toThrow(
      /no column "Requirement"/,
    );
  });

  it("refuses a sheet past the row limit, a sheet of numbers and a sheet of formulas, each with its own message", () => {
    expect(() => findQuestions(grid(sheet("Big", [["Question"]], { rowCount: 50_000 })), LIMITS)).toThrow(
      /Sheet "Big" has 50,000 rows; Folio answers questionnaires of up to 1,000 rows — split it, or raise FOLIO_QUESTIONNAIRE_MAX_ROWS/,
    );
    expect(() =>
      findQuestions(
        grid(
          sheet("N", [
            ["1", "2"],
            ["3", "4"],
          ]),
        ),
        LIMITS,
      ),
    ).toThrow(expect.objectContaining({ code: "questionnaire_no_questions" }));
    const formulas: GridSheet = {
      name: "F",
      rowCount: 2,
      rows: [
        { rowNumber: 1, cells: ["Is data encrypted at rest?"], formulaColumns: [0] },
        { rowNumber: 2, cells: ["Is data encrypted in transit?"], formulaColumns: [0] },
      ],
    };
    expect(() => findQuestions(grid(formulas), LIMITS)).toThrow(
      expect.objectContaining({ code: "questionnaire_formulas_only" }),
    );
  });
});

describe("chooseAnswerChoice", () => {
  const firewalls = [
    "Yes, we have firewalls for filtering all inbound and outbound traffic.",
    "We do not use firewalls.",
  ];

  it("picks the choice one cited passage states, and never a negated choice the passage does not negate", () => {
    expect(
      chooseAnswerChoice("Does your company use firewalls?", firewalls, [
        "Firewalls filter all inbound and outbound traffic at the network edge.",
      ]).choice,
    ).toBe(firewalls[0]);
    expect(
      chooseAnswerChoice("Does your company use firewalls?", firewalls, ["Staff badges are checked at the door."])
        .choice,
    ).toBeNull();
  });

  it("answers Yes only when a passage states what the question asks, and picks nothing without evidence", () => {
    const yesNo = ["Yes", "No"];
    expect(
      chooseAnswerChoice("Are backups encrypted at rest?", yesNo, ["All backups are encrypted at rest with AES-256."])
        .choice,
    ).toBe("Yes");
    expect(
      chooseAnswerChoice("Are backups encrypted at rest?", yesNo, ["Backups are not encrypted at rest."]).choice,
    ).toBeNull();
    expect(chooseAnswerChoice("Are backups encrypted at rest?", yesNo, ["Laptops are encrypted."]).choice).toBeNull();
    expect(chooseAnswerChoice("Are backups encrypted at rest?", yesNo, []).choice).toBeNull();
  });

  it("never answers Yes or No to a question that asks when, what or how, however well a passage states it", () => {
    const yesNo = ["Yes", "No", "N/A"];
    const passage = ["Access reviews happen every quarter, when managers confirm each account."];
    expect(chooseAnswerChoice("When do access reviews happen?", yesNo, passage)).toEqual({
      choice: null,
      reason: "Yes or No does not answer this question",
    });
    expect(chooseAnswerChoice("1.2 Describe how access reviews happen.", yesNo, passage).choice).toBeNull();
    expect(chooseAnswerChoice("Access reviews happen every quarter.", yesNo, passage).choice).toBe("Yes");
  });
});
