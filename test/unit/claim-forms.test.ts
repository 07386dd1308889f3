/**
 * The forms a model writes checkable parts in (issue #40): numbers in words (with their scale and
 * unit), codes, defanged links; the sentence that only repeats what the answer already shows; and the
 * sentence that is not about the question.
 */
import { describe, expect, it } from "vitest";
import { addressesQuestion } from "../../src/answer/generate/addresses-question.js";
import { findCodes, findNumbers } from "../../src/answer/generate/claim-extraction.js";
import { findDefangedLinks, refangLink } from "../../src/answer/generate/defanged-links.js";
import { repeatsShownText } from "../../src/answer/generate/repeated-statement.js";
import { findSpelledNumbers } from "../../src/answer/generate/spelled-numbers.js";

const read = (text: string) =>
  findNumbers(text).map(({ text: written, value, scale, decimals, unit }) => ({
    written,
    value,
    scale,
    decimals,
    unit,
  }));

describe("numbers in words", () => {
  it("reads integers, hundreds with 'and', tens with a hyphen, decimals after 'point' and a closing scale word", () => {
    expect(read("four point two million euros, two hundred and forty hours, twenty-five percent")).toEqual([
      { written: "four point two million", value: 4.2, scale: 1e6, decimals: 1, unit: "euro" },
      { written: "two hundred and forty", value: 240, scale: 1, decimals: 0, unit: "hour" },
      { written: "twenty-five", value: 25, scale: 1, decimals: 0, unit: "percent" },
    ]);
    expect(read("one million two hundred thousand dollars")).toEqual([
      { written: "one million two hundred thousand", value: 1_200_000, scale: 1, decimals: 0, unit: "dollar" },
    ]);
  });

  it("reads 'one' and 'zero' only before a unit or a scale word, and no word that only looks like a number", () => {
    expect(
      read("One of the plans covers one week of leave and one million visits.").map((number) => number.written),
    ).toEqual(["one", "one million"]);
    expect(findSpelledNumbers("The point is that hundreds of nights and a few others count.", () => false)).toEqual([]);
  });

  it("gives digits their unit: a currency sign, a unit word after the number, a word between", () => {
    expect(read("$4.2 million, 30-day trips, 12 paid weeks, 5% and 40 employees").map((number) => number.unit)).toEqual(
      ["dollar", "day", "week", "percent", null],
    );
  });
});

describe("codes and defanged links", () => {
  it("reads codes as written, an acronym and its number apart too, but not a fiscal year", () => {
    expect(findCodes("AES-256, SHA256, TLS 1.2, SOC 2, Q3 and FY 2018").map((code) => code.text)).toEqual([
      "AES-256",
      "SHA256",
      "TLS 1.2",
      "SOC 2",
      "Q3",
    ]);
  });

  it("finds the defanged forms of a link and gives their ordinary spelling", () => {
    expect(
      findDefangedLinks("see evil(.)com/login, hxxps://bad[.]example/x, evil[dot]org and evil dot net.").map(
        ({ text, link }) => [text, link],
      ),
    ).toEqual([
      ["evil(.)com/login", "evil.com/login"],
      ["hxxps://bad[.]example/x", "https://bad.example/x"],
      ["evil[dot]org", "evil.org"],
      ["evil dot net", "evil.net"],
    ]);
    expect(refangLink("hxxp://a[.]b[.]com")).toBe("http://a.b.com");
  });
});

describe("a sentence that repeats what is shown", () => {
  const shown = "Annual leave: 4 hours per pay period for fewer than 3 years of service [1].";

  it("repeats when its figures are all shown and it says them in words the shown text has", () => {
    expect(repeatsShownText("You earn 4 hours of annual leave per pay period [1].", shown)).toBe(true);
  });

  it("adds something when it states a figure not shown, or mostly other words", () => {
    expect(repeatsShownText("After 15 years you earn 8 hours per pay period [1].", shown)).toBe(false);
    expect(repeatsShownText("Leave requests go through your supervisor in the HR system [1].", shown)).toBe(false);
    expect(repeatsShownText("You earn 4 hours of annual leave per pay period [1].", "")).toBe(false);
  });
});

describe("a sentence about the question", () => {
  it("shares one of the question's content words, question words aside", () => {
    const question = "How much vacation time do I earn per pay period? I've been a fed for about 2 years.";
    expect(addressesQuestion("You earn 4 hours of annual leave per pay period [1].", question)).toBe(true);
    expect(
      addressesQuestion("You'll receive your first paycheck about three weeks after your start date [1].", question),
    ).toBe(false);
    expect(addressesQuestion("Once you pass 15 years, you earn 8 hours [1].", "And once I pass 15 years?")).toBe(true);
    // A question of framing words alone cannot be judged by its words.
    expect(
      addressesQuestion("You can space the leave out over a year [1].", "Do I have to take it all in one go?"),
    ).toBe(true);
  });
});
