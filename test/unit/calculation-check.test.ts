/**
 * Figures an answer works out from its sources: the calculation is read from the sentence (the
 * expression before "=", the result after it), its inputs must be printed in the cited sources or the
 * question, and its result must be right to the precision written.
 */
import { describe, expect, it } from "vitest";
import { checkCalculation, findCalculation, printedNumbers } from "../../src/answer/compose/calculation-check.js";

const cashFlows = "Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373) | (1,420)";
const income = "Net sales | $ 32,765 | $ 31,657";

const checks = (sentence: string, evidence = [cashFlows, income]) => {
  const calculation = findCalculation(sentence);
  return calculation !== null && checkCalculation(calculation, evidence);
};

describe("findCalculation", () => {
  it("reads the expression before '=' from its first number, and the stated result", () => {
    expect(findCalculation("As a share of revenue that is 1,577 / 32,765 = 4.8% [1][2].")).toEqual({
      expression: "1,577 / 32,765",
      operands: [1577, 32765],
      value: 1577 / 32765,
      stated: 4.8,
      percent: true,
      otherWords: 7,
    });
    expect(findCalculation("The average was (1,577 + 1,373) / 2 = 1,475.")?.value).toBe(1475);
    expect(findCalculation("Growth was (32,765 − 31,657) ÷ 31,657 × 100 ≈ 3.5 percent.")?.percent).toBe(true);
  });

  it("finds none without '=', without an operator, or with words inside the expression", () => {
    expect(findCalculation("Purchases were 1,577 in 2018.")).toBeNull();
    expect(findCalculation("The total = 1,577.")).toBeNull();
    expect(findCalculation("Capex = 4.8% of revenue.")).toBeNull();
  });
});

describe("checkCalculation", () => {
  it("accepts a right result whose inputs the sources print (a statement's parentheses are the amount)", () => {
    expect(checks("That is 1,577 / 32,765 = 4.8% of revenue.")).toBe(true);
    expect(checks("That is 1,577 / 32,765 = 0.048 of revenue.")).toBe(true);
    expect(checks("Average capex was (1,577 + 1,373 + 1,420) / 3 = 1,456.7.")).toBe(true);
    expect(checks("Sales grew (32,765 - 31,657) / 31,657 * 100 = 3.5%.")).toBe(true);
  });

  it("refuses a wrong result, a result more precise than the sum gives, and inputs no source prints", () => {
    expect(checks("That is 1,577 / 32,765 = 5.8% of revenue.")).toBe(false);
    expect(checks("That is 1,577 / 32,765 = 4.85% of revenue.")).toBe(false);
    expect(checks("That is 1,600 / 32,765 = 4.9% of revenue.")).toBe(false);
    expect(checks("That is 1,577 / 32,765 = 4.8% of revenue.", [cashFlows])).toBe(false);
  });

  it("refuses a sentence that says more than a short label besides its calculation", () => {
    expect(
      checks(
        "That is 1,577 / 32,765 = 4.8% of revenue, which rose because the company opened two new plants in Asia and Europe.",
      ),
    ).toBe(false);
  });

  it("takes a formula's constant from the question", () => {
    const sentence = "DPO is 365 * 1,373 / 32,765 = 15.3 days.";
    expect(checks(sentence)).toBe(false);
    expect(checks(sentence, [cashFlows, income, "DPO is defined as 365 * accounts payable / COGS."])).toBe(true);
  });

  it("reads printed numbers with thousands separators and decimals", () => {
    expect([...printedNumbers("Net sales $ 32,765 and 4.8 percent, (1,577)")]).toEqual([32765, 4.8, 1577]);
  });
});
