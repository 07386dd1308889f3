import { describe, expect, it } from "vitest";
import { numberMatches, readNumbers, textStatesNumber } from "../../src/evaluation/answer-numbers.js";

const values = (text: string) => readNumbers(text).map((number) => number.baseValue);

describe("readNumbers", () => {
  it("reads thousands separators, decimals, $ and scale words", () => {
    expect(values("Net income was $558,929 thousand.")).toEqual([558_929_000]);
    expect(values("about $558.9 million")).toEqual([558_900_000]);
    expect(values("$1.9 billion and 1,907")).toEqual([1_900_000_000, 1907]);
    expect(values("revenue of US$ 2 trillion")).toEqual([2e12]);
  });

  it("reads attached suffixes (M, B, K, bn, mn) but not a separate letter", () => {
    expect(values("$558.9M, $1.9B, 12K, 3.2bn, 40mn")).toEqual([
      558_900_000, 1_900_000_000, 12_000, 3_200_000_000, 40_000_000,
    ]);
    expect(values("5 m of cable")).toEqual([5]);
  });

  it("reads parentheses and minus signs as negatives", () => {
    expect(readNumbers("(1,234)")).toEqual([
      { value: -1234, scale: "one", baseValue: -1234, percent: false, looksLikeYear: false, text: "(1,234)" },
    ]);
    expect(values("−12.5 and -3")).toEqual([-12.5, -3]);
  });

  it("reads percentages without scaling them", () => {
    expect(readNumbers("up 12.4% and 3 percent")).toEqual([
      { value: 12.4, scale: "one", baseValue: 12.4, percent: true, looksLikeYear: false, text: "12.4%" },
      { value: 3, scale: "one", baseValue: 3, percent: true, looksLikeYear: false, text: "3 percent" },
    ]);
  });

  it("marks bare 19xx/20xx integers as years, and not those with $, commas or decimals", () => {
    expect(readNumbers("In fiscal 2017, $2017 and 2,017 and 2017.5").map((number) => number.looksLikeYear)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it("does not read digits inside words and codes", () => {
    expect(values("FY2017 10-K Q2 COVID-19 item7")).toEqual([]);
    expect(values("2016–2017")).toEqual([2016, 2017]);
  });

  it("keeps a trailing sentence full stop out of the number", () => {
    expect(values("It was 1,907.")).toEqual([1907]);
  });
});

describe("numberMatches", () => {
  const [thousands] = readNumbers("558,929 thousand");
  const [rounded] = readNumbers("$559 million");
  it("matches the same figure in another scale within the relative tolerance", () => {
    expect(numberMatches(thousands!, { value: 558.929, scale: "million" })).toBe(true);
    expect(numberMatches(rounded!, { value: 558.929, scale: "million" })).toBe(true);
    expect(numberMatches(rounded!, { value: 558.929, scale: "million", tolerance: 0.0001 })).toBe(false);
    expect(numberMatches(thousands!, { value: 558.929, scale: "thousand" })).toBe(false);
  });

  it("compares magnitudes, so a loss written in words matches a negative figure", () => {
    expect(textStatesNumber("a net loss of $12 million", { value: -12, scale: "million" })).toBe(true);
    expect(textStatesNumber("(12)", { value: 12 })).toBe(true);
  });

  it("lets a year match only itself", () => {
    expect(textStatesNumber("in fiscal 2017", { value: 2016 })).toBe(false);
    expect(textStatesNumber("in fiscal 2017", { value: 2017 })).toBe(true);
    expect(textStatesNumber("2,017 employees", { value: 2016 })).toBe(true);
  });

  it("matches zero only exactly", () => {
    expect(textStatesNumber("0 and 0.001", { value: 0 })).toBe(true);
    expect(textStatesNumber("0.001", { value: 0 })).toBe(false);
  });

  it("unscaled table figures do not match a scaled expectation", () => {
    expect(textStatesNumber("Net income 558,929", { value: 558.929, scale: "million" })).toBe(false);
  });
});
