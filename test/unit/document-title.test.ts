/**
 * Titles people recognise: metadata only when it reads as a title, else the first page's title lines
 * (an SEC cover page's registrant and form), else the file name. Page texts are the first lines of real
 * filings in the shared FinanceBench set, as pdftotext reads them.
 */
import { describe, expect, it } from "vitest";
import { chooseDocumentTitle, isMeaningfulTitle, titleLines } from "../../ingestion/document-title.js";

const NIKE_COVER = [
  "Table of Contents",
  "UNITED STATES",
  "SECURITIES AND EXCHANGE COMMISSION",
  "Washington, D.C. 20549",
  "FORM 10-K",
  "(Mark One)",
  "þ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(D) OF THE SECURITIES EXCHANGE ACT OF 1934",
  "FOR THE FISCAL YEAR ENDED May 31, 2018",
  "Commission File No. 1-10635",
  "NIKE, Inc .",
  "(Exact name of Registrant as specified in its charter)",
  "OREGON",
].join("\n");

const JPMORGAN_COVER = [
  "UNITED STATES",
  "SECURITIES AND EXCHANGE COMMISSION",
  "FORM 10-Q",
  "Quarterly report pursuant to Section 13 or 15(d) of",
  // Folio's own page text of this two-column cover, as parse-pdf.ts reads it.
  "For the quarterly period ended Commission file",
  "June 30, 2022 number 1-5805",
  "JPMorgan Chase & Co.",
  "(Exact name of registrant as specified in its charter)",
].join("\n");

const MGM_RELEASE = [
  "Exhibit 99.1",
  "MGM RESORTS INTERNATIONAL REPORTS FOURTH QUARTER AND",
  "FULL YEAR 2022 FINANCIAL AND OPERATING RESULTS",
  "•",
  "Record Adjusted Property EBITDAR in 4Q and full year 2022",
].join("\n");

describe("isMeaningfulTitle", () => {
  it.each([
    ["0000320187-18-000142", false],
    ["0001065280-18-000069", false],
    ["a3f9c2d1e8b74c55", false],
    ["Document1", false],
    ["Untitled", false],
    ["C:\\Users\\pat\\Desktop\\handbook.docx", false],
    ["handbook.docx", false],
    ["10Q Doc & Exhibits-2022-08-03-15-21", false],
    ["MGM Exhibit 99.1 Q4 2022 ER", false],
    ["employee-handbook", false],
    ["Form 8-K for Foot Locker INC filed 08/18/2022", true],
    ["Employee Handbook 2024", true],
  ])("%s → %s", (title, meaningful) => {
    expect(isMeaningfulTitle(title, "employee-handbook.pdf")).toBe(meaningful);
  });
});

describe("chooseDocumentTitle", () => {
  it("names a 10-K whose metadata is an accession number by its registrant, form and period", () => {
    expect(
      chooseDocumentTitle({
        metadataTitle: "0000320187-18-000142",
        pageTexts: [NIKE_COVER],
        fileName: "NIKE_2018_10K.pdf",
      }),
    ).toBe("NIKE, Inc. — Form 10-K, fiscal year ended May 31, 2018");
  });

  it("reads a quarterly period whose date is on the next line", () => {
    expect(
      chooseDocumentTitle({
        metadataTitle: "10Q Doc & Exhibits-2022-08-03-15-21",
        pageTexts: ["", JPMORGAN_COVER],
        fileName: "JPMORGAN_2022Q2_10Q.pdf",
      }),
    ).toBe("JPMorgan Chase & Co. — Form 10-Q, quarter ended June 30, 2022");
  });

  it("joins the first page's title lines of an earnings release, skipping the exhibit label", () => {
    expect(
      chooseDocumentTitle({
        metadataTitle: "MGM Exhibit 99.1 Q4 2022 ER",
        pageTexts: [MGM_RELEASE],
        fileName: "MGMRESORTS_2022Q4_EARNINGS.pdf",
      }),
    ).toBe("MGM RESORTS INTERNATIONAL REPORTS FOURTH QUARTER AND FULL YEAR 2022 FINANCIAL AND OPERATING RESULTS");
  });

  it("keeps metadata that reads as a title, and falls back to the file name when no page has text", () => {
    expect(
      chooseDocumentTitle({
        metadataTitle: "Form 8-K for Foot Locker INC filed 08/18/2022",
        pageTexts: ["FORM 8-K"],
        fileName: "FOOTLOCKER_2022_8K.pdf",
      }),
    ).toBe("Form 8-K for Foot Locker INC filed 08/18/2022");
    expect(chooseDocumentTitle({ metadataTitle: "", pageTexts: ["", " "], fileName: "scan.pdf" })).toBe("scan.pdf");
  });
});

describe("titleLines", () => {
  it("takes one line of an ordinary first page", () => {
    expect(titleLines("Employee Handbook\nVersion 3, effective 1 March 2024\nWelcome to the team.")).toBe(
      "Employee Handbook",
    );
  });
});
