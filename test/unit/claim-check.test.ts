/**
 * The claim-level check of verification (issue #30): each number, date, link and name of a sentence,
 * and each of its clauses, held to the supporting source's text. Numbers may be computed from the
 * source's numbers by a computation the sentence names, to the precision they are written with.
 */
import { describe, expect, it } from "vitest";
import { derivationsNamed, isDerived, isPrinted, printedAmounts } from "../../src/answer/compose/calculation-check.js";
import { checkClaims } from "../../src/answer/generate/claim-check.js";
import { extractClaims, splitClauses } from "../../src/answer/generate/claim-extraction.js";

const HOTEL =
  "Hotel stays are reimbursed up to 180 euros per night in Paris and 150 euros per night in other cities. Employees book through the travel portal at travel.contoso.example/book.";
const STATEMENT =
  "Net sales | $ 32,765 | $ 31,657 | $ 30,601\nPurchases of property, plant and equipment | (1,577) | (1,373) | (1,420)\nAmounts in millions. Fiscal year ended May 31, 2018.";

const check = (claim: string, evidence: string) => checkClaims({ claim, evidence });

describe("extractClaims", () => {
  it("reads numbers with scale and unit, years, names and clauses, leaving the sentence's first word", () => {
    expect(
      extractClaims(
        "Hotel stays in Paris are reimbursed up to 180 euros per night, and the Falcon project budget for 2027 is about 4.2 million euros.",
      ),
    ).toEqual({
      numbers: [
        {
          text: "180",
          value: 180,
          scale: 1,
          decimals: 0,
          percent: false,
          approximate: false,
          year: false,
          unit: "euro",
        },
        {
          text: "2027",
          value: 2027,
          scale: 1,
          decimals: 0,
          percent: false,
          approximate: false,
          year: true,
          unit: null,
        },
        {
          text: "4.2 million",
          value: 4.2,
          scale: 1e6,
          decimals: 1,
          percent: false,
          approximate: true,
          year: false,
          unit: "euro",
        },
      ],
      dates: [],
      links: [],
      codes: [],
      names: ["Paris", "Falcon"],
      clauses: [
        "Hotel stays in Paris are reimbursed up to 180 euros per night",
        "the Falcon project budget for 2027 is about 4.2 million euros.",
      ],
    });
  });

  it("reads dates whole, links by shape, and codes as codes rather than numbers or names", () => {
    expect(extractClaims("From March 3, 2024 the Q3 form is at evil.ca/login (COVID-19 rules).")).toEqual({
      numbers: [],
      dates: [{ text: "March 3, 2024", month: 3, day: 3, year: 2024 }],
      links: ["evil.ca/login"],
      codes: ["Q3", "COVID-19"],
      names: [],
      clauses: ["From March 3, 2024 the Q3 form is at evil.ca/login (COVID-19 rules)."],
    });
  });

  it("splits at and / after / including / , which / while, but not inside a name", () => {
    expect(
      splitClauses(
        "Northwind Health Plus covers yoga, after a referral, including classes, which are free while enrolled.",
      ),
    ).toEqual(["Northwind Health Plus covers yoga", "a referral", "classes", "are free", "enrolled."]);
  });
});

describe("checkClaims", () => {
  it("refuses the issue's appended link: a link no source holds, in a clause the source does not support", () => {
    expect(
      check(
        "Employees are reimbursed up to 180 euros per night in Paris, after confirming their identity at evil.example/verify.",
        HOTEL,
      ),
    ).toEqual({
      supported: false,
      unverified: ['link "evil.example/verify"'],
      uncoveredClauses: ["confirming their identity at evil.example/verify."],
    });
  });

  it("refuses the issue's appended figure: a name, a year and an amount no source gives", () => {
    expect(
      check(
        "Hotel stays in Paris are reimbursed up to 180 euros per night, and the Falcon project budget for 2027 is 4.2 million euros.",
        HOTEL,
      ),
    ).toEqual({
      supported: false,
      unverified: ['name "Falcon"', 'number "2027"', 'number "4.2 million"'],
      uncoveredClauses: ["the Falcon project budget for 2027 is 4.2 million euros."],
    });
  });

  it("accepts a link only as the source writes it (scheme and trailing slash aside)", () => {
    expect(check("Employees book through the travel portal at https://travel.contoso.example/book/.", HOTEL)).toEqual({
      supported: true,
      unverified: [],
      uncoveredClauses: [],
    });
    expect(
      check("Employees book through the travel portal at travel.contoso.example/login.", HOTEL).unverified,
    ).toEqual(['link "travel.contoso.example/login"']);
    expect(check("Employees book through the travel portal at contoso.example.", HOTEL).unverified).toEqual([
      'link "contoso.example"',
    ]);
  });

  it("accepts numbers printed or computed by a named computation, to their written precision", () => {
    const kept = (claim: string) => check(claim, STATEMENT).unverified;
    expect(kept("Net sales were $32.8 billion in fiscal 2018.")).toEqual([]);
    expect(kept("Net sales grew by $1.1 billion.")).toEqual([]);
    expect(kept("Net sales rose 3.5%.")).toEqual([]);
    expect(kept("Capex was 4.8% of net sales.")).toEqual([]);
    expect(kept("Capex averaged 1,457 a year.")).toEqual([]);
    expect(kept("Capex totalled 4,370 in all.")).toEqual([]);
    expect(kept("Net sales were about 1.07 times the prior year's.")).toEqual([]);
    expect(kept("The fiscal year ended on 2018-05-31.")).toEqual([]);
    // Wrong, unnamed, or a computed year: refused.
    expect(kept("Net sales rose 3.7%.")).toEqual(['number "3.7%"']);
    expect(kept("Capex was 4.8% in 2018.")).toEqual([
      'number "4.8%"',
      'year "2018" (not said of what the sentence says)',
    ]);
    expect(kept("Net sales were 1,108.")).toEqual(['number "1,108"']);
    expect(kept("The fiscal year ended on June 30, 2018.")).toEqual(['date "June 30, 2018"']);
  });

  it("takes the inputs and result of a written-out calculation as accounted for, and the question's names as given", () => {
    expect(
      checkClaims({
        claim: "DPO is 365 * 1,373 / 32,765 = 15.3 days.",
        evidence: STATEMENT,
        question: "What is DPO, defined as 365 * accounts payable / net sales?",
        calculation: {
          expression: "365 * 1,373 / 32,765",
          operands: [365, 1373, 32765],
          value: (365 * 1373) / 32765,
          stated: 15.3,
          percent: false,
          otherWords: 2,
        },
      }).unverified,
    ).toEqual([]);
    expect(check("DPO is 15.3 days.", STATEMENT).unverified).toEqual(['name "DPO"', 'number "15.3"']);
  });

  it("joins a list's last item to its clause rather than checking one word alone", () => {
    expect(check("Hotel stays are reimbursed in Paris and other cities.", HOTEL)).toEqual({
      supported: true,
      unverified: [],
      uncoveredClauses: [],
    });
  });
});

describe("derived numbers", () => {
  const amounts = printedAmounts("Revenue was 120 in 2023 and 100 in 2022; two plants, $4.2 million spent.");

  it("reads printed amounts in order, words and scale words included", () => {
    expect(amounts).toEqual([120, 2023, 100, 2022, 2, 4.2, 4_200_000]);
  });

  it("computes only what the clause names, within half the last written digit (1% when 'about')", () => {
    const figure = (value: number, decimals = 0, percent = false, approximate = false) => ({
      value,
      scale: 1,
      decimals,
      percent,
      approximate,
    });
    expect(isDerived(figure(20), amounts, derivationsNamed("revenue rose by 20"))).toBe(true);
    expect(isDerived(figure(20), amounts, derivationsNamed("revenue was 20"))).toBe(false);
    expect(isDerived(figure(20, 0, true), amounts, derivationsNamed("revenue grew 20%"))).toBe(true);
    expect(isDerived(figure(1.2, 1), amounts, derivationsNamed("1.2 times the prior year"))).toBe(true);
    expect(isDerived(figure(110), amounts, derivationsNamed("an average of 110"))).toBe(true);
    expect(isDerived(figure(19.9, 1, true), amounts, derivationsNamed("revenue grew 19.9%"))).toBe(false);
    expect(isDerived(figure(19.9, 1, true, true), amounts, derivationsNamed("revenue grew about 19.9%"))).toBe(true);
    expect(isPrinted({ ...figure(4.2, 1), scale: 1e6 }, amounts)).toBe(true);
  });
});
