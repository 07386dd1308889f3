import { describe, expect, it } from "vitest";
import { labelDocument, labelDocumentWithin } from "../../src/domain/document-label.js";

const cut = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

describe("labelDocument", () => {
  it("puts the file name beside the title", () => {
    expect(labelDocument("NIKE, Inc. — Form 10-K", "NIKE_2018_10K.pdf")).toBe(
      "NIKE, Inc. — Form 10-K (NIKE_2018_10K.pdf)",
    );
  });

  it("shows the file name once when the title is the file name, with or without its extension", () => {
    expect(labelDocument("budget.xlsx", "budget.xlsx")).toBe("budget.xlsx");
    expect(labelDocument("Budget", "budget.xlsx")).toBe("budget.xlsx");
    expect(labelDocument(" ", "notes.txt")).toBe("notes.txt");
  });
});

describe("labelDocumentWithin", () => {
  it("shortens the title and keeps the file name whole", () => {
    expect(labelDocumentWithin("A very long title about the annual results", "ar.pdf", 30, cut)).toBe(
      "A very long title ab… (ar.pdf)",
    );
    expect(labelDocumentWithin("Short", "ar.pdf", 30, cut)).toBe("Short (ar.pdf)");
  });
});
