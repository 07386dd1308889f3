/**
 * Document targeting over titles and file names: the documents a question names win; generic words,
 * questions that name nothing, and names most documents share target nothing.
 */
import { describe, expect, it } from "vitest";
import { type TargetableDocument, targetDocuments } from "../../src/retrieval/document-targeting.js";

const filings = [
  { id: "mmm-2018", title: "10-K - 02/07/2019 - 3M Company", fileName: "3M_2018_10K.pdf", pageCount: 160 },
  { id: "mmm-2022", title: "10-K - 02/08/2023 - 3M Company", fileName: "3M_2022_10K.pdf", pageCount: 252 },
  { id: "mgm-2018", title: "0001564590-19-004807", fileName: "MGMRESORTS_2018_10K.pdf", pageCount: 188 },
  { id: "mgm-2020", title: "0001564590-21-009205", fileName: "MGMRESORTS_2020_10K.pdf", pageCount: 150 },
  { id: "jpm-2021", title: "CORP Q1 2021", fileName: "JPMORGAN_2021Q1_10Q.pdf", pageCount: 179 },
  { id: "nike-2018", title: "0000320187-18-000142", fileName: "NIKE_2018_10K.pdf", pageCount: 97 },
  { id: "handbook", title: "Employee Handbook", fileName: "employee_handbook.pdf", pageCount: 30 },
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
        pageCount: 100,
      },
      {
        id: "standard",
        title: "Northwind Standard Benefits Details",
        fileName: "Northwind_Standard_Benefits_Details.pdf",
        pageCount: 100,
      },
      { id: "perks", title: "PerksPlus", fileName: "PerksPlus.pdf", pageCount: 5 },
      { id: "roles", title: "Role Library", fileName: "role_library.pdf", pageCount: 30 },
    ];
    // "health" is on 80% of the passages, most of them in documents its title does not name: it no longer
    // singles out the Health Plus booklet; "northwind" still names both booklets.
    const companyEverywhere = new Map([
      ["northwind", 0.8],
      ["health", 0.8],
      ["plus", 0.3],
    ]);
    expect(targetDocuments("What does Northwind Health cover for ambulances?", plans)).toEqual(["plus"]);
    expect(
      targetDocuments("What does Northwind Health cover for ambulances?", plans, undefined, companyEverywhere),
    ).toEqual(["plus", "standard"]);
    expect(
      targetDocuments("What does Northwind Health Plus cover for ambulances?", plans, undefined, companyEverywhere),
    ).toEqual(["plus"]);
  });

  it("targets only long documents: a one-passage note carries its title in its passage already", () => {
    const notes: TargetableDocument[] = [
      { id: "a", title: "BRCA1 mutations in breast cancer", fileName: "a.txt", pageCount: null, byteSize: 1500 },
      { id: "b", title: "Notch signalling", fileName: "b.txt", pageCount: null, byteSize: 1400 },
      { id: "c", title: "One-page memo on BRCA1", fileName: "c.pdf", pageCount: 1 },
      { id: "d", title: "Insulin resistance", fileName: "d.txt", pageCount: null, byteSize: 1600 },
      { id: "e", title: "Sleep and memory", fileName: "e.txt", pageCount: null, byteSize: 1700 },
    ];
    expect(targetDocuments("Do BRCA1 mutations raise cancer risk?", notes)).toBeNull();
    const long = notes.map((note) => ({ ...note, pageCount: null, byteSize: 50_000 }));
    expect(targetDocuments("Do BRCA1 mutations raise cancer risk?", long)).toEqual(["a", "c"]);
    expect(
      targetDocuments("Do BRCA1 mutations raise cancer risk?", [...notes.slice(1), ...long.slice(0, 1)]),
    ).toBeNull();
  });

  it("takes no plain number for a name, only years and words with digits and letters", () => {
    expect(targetDocuments("How many of the 2018 stores closed, 5 or 10?", filings)).toEqual([
      "mmm-2018",
      "mgm-2018",
      "nike-2018",
    ]);
    expect(
      targetDocuments("Did 5 stores close?", [
        ...filings,
        { id: "five", title: "5 year plan", fileName: "plan.pdf", pageCount: 9 },
      ]),
    ).toBeNull();
  });
});
