import { describe, expect, it } from "vitest";
import { passageUnits, plainUnitText } from "../../src/answer/evidence/passage-units.js";

describe("passageUnits", () => {
  it("reads a heading, wrapped sentences and a list separated by blank lines, with exact offsets", () => {
    const text = [
      "Birth-supporting documentation",
      "",
      "You’ll need a medical note from your doctor. The note is used for PPL",
      "as well as Advanced Sick Leave.",
      "",
      "The medical note should include:",
      "",
      "• Date of birth",
      "",
      "• Diagnosis",
    ].join("\n");
    const units = passageUnits(text, ["Paid parental leave", "Birth-supporting documentation"]);
    expect(units.map((unit) => [unit.kind, unit.text, unit.depth])).toEqual([
      ["heading", "Birth-supporting documentation", 0],
      ["sentence", "You’ll need a medical note from your doctor.", 0],
      ["sentence", "The note is used for PPL\nas well as Advanced Sick Leave.", 0],
      ["sentence", "The medical note should include:", 0],
      ["item", "Date of birth", 0],
      ["item", "Diagnosis", 0],
    ]);
    for (const unit of units) expect(text.slice(unit.start, unit.end)).toBe(unit.text);
    // Both items belong to one list although a blank line stands between them.
    expect(units[4]?.block).toBe(units[5]?.block);
  });

  it("nests indented items and keeps a wrapped item's continuation line", () => {
    const text = [
      "- Three to five weeks in advance for:",
      "  - Conference events that cost more than $2,500,",
      "    including travel",
      "- Ten days in advance for training",
    ].join("\n");
    expect(passageUnits(text).map((unit) => [unit.text.replace(/\s+/g, " "), unit.depth])).toEqual([
      ["Three to five weeks in advance for:", 0],
      ["Conference events that cost more than $2,500, including travel", 1],
      ["Ten days in advance for training", 0],
    ]);
  });

  it("writes Markdown links as their text and drops emphasis marks", () => {
    expect(plainUnitText("Go to **[reset.gsa.gov](https://reset.gsa.gov)** and `reset`\\_it every\n90 days.")).toBe(
      "Go to reset.gsa.gov and reset_it every 90 days.",
    );
  });
});

describe("passageUnits on PDF text", () => {
  it("reads a sentence on across the blank lines PDF text leaves between its lines", () => {
    const text =
      "shareholders voted on the\n\nfour proposals set forth below.\n\nThe votes were counted by the\n\ninspector.";
    const units = passageUnits(text);
    expect(units.map((unit) => unit.text.replace(/\s+/g, " "))).toEqual([
      "shareholders voted on the four proposals set forth below.",
      "The votes were counted by the inspector.",
    ]);
    expect(units[0]?.block).not.toBe(units[1]?.block);
  });
});
