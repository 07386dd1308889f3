import { describe, expect, it } from "vitest";
import {
  countNamings,
  editDistanceWithin,
  namesIn,
  normalizeForNames,
} from "../../src/answer/question/name-matching.js";

function normalizedText(text: string): { normalized: string; words: string[] } {
  const normalized = normalizeForNames(text);
  return { normalized, words: normalized.trim().split(" ") };
}

describe("normalizeForNames", () => {
  it.each([
    ["NIKE, Inc.'s Annual Report", " nike inc annual report "],
    ["Café Déjà-vu", " cafe deja vu "],
    ["Johnson & Johnson", " johnson & johnson "],
    ["Contoso’s  handbook\n(2023)", " contoso handbook 2023 "],
  ])("normalizes %j", (text, normalized) => {
    expect(normalizeForNames(text)).toBe(normalized);
  });
});

describe("editDistanceWithin", () => {
  it.each([
    ["health", "health", 0, true],
    ["health", "helth", 1, true],
    ["health", "haelth", 1, true],
    ["northwind", "nortwhind", 1, true],
    ["health", "hlth", 1, false],
    ["plus", "plsu", 0, false],
    ["plus", "plsu", 1, true],
    ["abc", "abcdef", 2, false],
    ["premium", "standard", 2, false],
    ["", "ab", 2, true],
  ])("%j vs %j within %i is %s", (left, right, limit, within) => {
    expect(editDistanceWithin(left, right, limit)).toBe(within);
  });
});

describe("namesIn and countNamings", () => {
  it("names a name of three words with one word past recognition, but not a two-word name", () => {
    const text = normalizeForNames(
      "The report by Contoso Financial Analytics covers Northwind Standard and a premium.",
    );
    const words = text.trim().split(" ");
    expect(namesIn(text, words, "Contoso Finance Analytics")).toBe(true);
    expect(namesIn(text, words, "Northwind Premium")).toBe(false);
  });

  const handbook = () =>
    normalizedText(
      "Northwind Health Plus covers vision. Northwind Standard covers less; premium options vary. Northwind Health Plus is offered.",
    );

  it("finds a name whatever its case", () => {
    const { normalized, words } = handbook();
    expect(namesIn(normalized, words, "northwind health plus")).toBe(true);
  });

  it("forgives a typo in a long word", () => {
    const { normalized, words } = handbook();
    expect(namesIn(normalized, words, "Northwind Helth Plus")).toBe(true);
    expect(namesIn(normalized, words, "Northwnd Standrd")).toBe(true);
  });

  it("does not name a name whose words stand apart", () => {
    const { normalized, words } = handbook();
    expect(namesIn(normalized, words, "Northwind Premium")).toBe(false);
  });

  it("does not forgive a slip in a short word", () => {
    const { normalized, words } = normalizedText("Mike Jones reported nothing.");
    expect(namesIn(normalized, words, "Nike")).toBe(false);
  });

  it("does not name an absent company", () => {
    const { normalized, words } = handbook();
    expect(namesIn(normalized, words, "Nike")).toBe(false);
  });

  it("counts namings up to enough", () => {
    const { normalized, words } = handbook();
    expect(countNamings(normalized, words, "Northwind Health Plus", 5)).toBe(2);
    expect(countNamings(normalized, words, "Northwind Helth Plus", 5)).toBe(2);
    expect(countNamings(normalized, words, "Northwind", 2)).toBe(2);
    expect(countNamings(normalized, words, "Northwind", 5)).toBe(3);
  });

  it("reads a name with a possessive and punctuation", () => {
    const { normalized, words } = normalizedText("NIKE, Inc.'s revenues grew.");
    expect(namesIn(normalized, words, "Nike, Inc.")).toBe(true);
    expect(namesIn(normalized, words, "Nike's")).toBe(true);
  });

  it("counts a name with nothing to match as named enough", () => {
    const { normalized, words } = handbook();
    expect(countNamings(normalized, words, "???", 3)).toBe(3);
  });
});
