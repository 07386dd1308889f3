import { describe, expect, it } from "vitest";
import { conditionFit, expressionFit, statedQuantities } from "../../src/answer/evidence/answer-expressions.js";

describe("expressionFit", () => {
  it("finds the kind of answer asked for in a sentence", () => {
    const duration = { kind: "duration" as const, unit: null };
    expect(expressionFit("Incidents need to be reported within one hour of being identified.", duration)).toBe(1);
    expect(expressionFit("You may have a 45-day window from the date of the incident.", duration)).toBe(1);
    expect(expressionFit("Report violations to your supervisor.", duration)).toBe(0);
    const frequency = { kind: "frequency" as const, unit: null };
    expect(expressionFit("You must change it every 90 days thereafter.", frequency)).toBe(1);
    const characters = { kind: "quantity" as const, unit: "character" };
    expect(expressionFit("It must be longer than 14 characters.", characters)).toBe(1);
    expect(expressionFit("Use a password manager.", characters)).toBe(0);
    const identifier = { kind: "identifier" as const, unit: null };
    expect(expressionFit("Tock any out of office time to line #670.", identifier)).toBe(1);
  });
});

describe("conditionFit", () => {
  const rules = {
    under: "Fewer than 3 years: 4 hours per pay period",
    between: "Between 3 and 15 years: 6 hours per pay period",
    over: "15+ years: 8 hours per pay period",
  };

  it("holds a rule whose condition contains the asker's case and refuses the others", () => {
    const twoYears = statedQuantities("I've been a fed for about 2 years.");
    expect([
      conditionFit(twoYears, rules.under),
      conditionFit(twoYears, rules.between),
      conditionFit(twoYears, rules.over),
    ]).toEqual([1, -1, -1]);
    const pastFifteen = statedQuantities("And once I pass 15 years?");
    expect([conditionFit(pastFifteen, rules.between), conditionFit(pastFifteen, rules.over)]).toEqual([-1, 1]);
  });

  it("reads money and time bounds, and compares months with days", () => {
    const overLimit = statedQuantities("The conference costs over $2,500 with travel.");
    expect(conditionFit(overLimit, "Conference events that cost more than $2,500, including travel")).toBe(1);
    expect(conditionFit(overLimit, "Conference events that cost less than $2500, including travel")).toBe(-1);
    expect(conditionFit(statedQuantities("for about two months"), "If you will be away for more than 120 days")).toBe(
      -1,
    );
    expect(conditionFit(overLimit, "Submit the form as early as possible.")).toBe(0);
  });
});
