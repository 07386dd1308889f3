/**
 * Document targeting over titles and file names: the documents a question names win; generic words,
 * questions that name nothing, and names most documents share target nothing.
 */
import { describe, expect, it } from "vitest";
import { targetDocuments } from "../../src/retrieval/document-targeting.js";

const filings = [
  { id: "mmm-2018", title: "10-K - 02/07/2019 - 3M Company", fileName: "3M_2018_10K.pdf" },
  { id: "mmm-2022", title: "10-K - 02/08/2023 - 3M Company", fileName: "3M_2022_10K.pdf" },
  { id: "mgm-2018", title: "0001564590-19-004807", fileName: "MGMRESORTS_2018_10K.pdf" },
  { id: "mgm-2020", title: "0001564590-21-009205", fileName: "MGMRESORTS_2020_10K.pdf" },
  { id: "jpm-2021", title: "CORP Q1 2021", fileName: "JPMORGAN_2021Q1_10Q.pdf" },
  { id: "nike-2018", title: "0000320187-18-000142", fileName: "NIKE_2018_10K.pdf" },
  { id: "handbook", title: "Employee Handbook", fileName: "employee_handbook.pdf" },
];

describe("targetDocuments", () => {
  it("targets the document whose title names the company and the fiscal year of the question", () => {
    expect(targetDocuments("What is the fiscal 2018 capital expenditure for 3M?", filings)).toEqual(["mmm-2018"]);
    expect(targetDocuments("What is the FY2018 capital expenditure for 3M?", filings)).toEqual(["mmm-2018"]);
  });

  it("matches names written as one word or abbreviated in file names", () => {
    expect(targetDocuments("Has MGM Resorts paid dividends in 2020?", filings)).toEqual(["mgm-2020"]);
    expect(targetDocuments("Which of JPM's segments had the lowest revenue in 2021 Q1?", filings)).toEqual([
      "jpm-2021",
    ]);
  });

  it("targets every document of a named subject when the question names no year", () => {
    expect(targetDocuments("How did 3M's segments grow?", filings)).toEqual(["mmm-2018", "mmm-2022"]);
  });

  it("targets nothing when the question names no document (title words that are no names included)", () => {
    expect(targetDocuments("What is the vacation policy?", filings)).toBeNull();
    expect(targetDocuments("What is the company's policy on travel?", filings)).toBeNull();
    expect(targetDocuments("What does the employee handbook say about leave?", filings)).toBeNull();
    expect(targetDocuments("What is 3M's revenue?", filings.slice(0, 1))).toBeNull();
  });

  it("lets no name target a document when it is on most passages of the documents it does not title", () => {
    const plans = [
      {
        id: "plus",
        title: "Northwind Health Plus Benefits Details",
        fileName: "Northwind_Health_Plus_Benefits_Details.pdf",
      },
      {
        id: "standard",
        title: "Northwind Standard Benefits Details",
        fileName: "Northwind_Standard_Benefits_Details.pdf",
      },
      { id: "perks", title: "PerksPlus", fileName: "PerksPlus.pdf" },
      { id: "roles", title: "Role Library", fileName: "role_library.pdf" },
    ];
    // "health" is on 80% of the passages, most of them in booklets its title does not name.
    const companyEverywhere = new Map([
      ["northwind", 0.8],
      ["health", 0.8],
      ["plus", 0.3],
    ]);
    expect(targetDocuments("What does Northwind Health cover for ambulances?", plans)).toEqual(["plus"]);
    expect(
      targetDocuments("What does Northwind Health cover for ambulances?", plans, undefined, companyEverywhere),
    ).toBeNull();
    expect(
      targetDocuments("What does Northwind Health Plus cover for ambulances?", plans, undefined, companyEverywhere),
    ).toEqual(["plus"]);
  });
});
