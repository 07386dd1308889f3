/**
 * Titles people recognise: an SEC cover page's registrant, form and period first; metadata only when it
 * reads as a title (not a regulator's or a form's name); else the first page's title lines, else the
 * file name. Page texts are the first lines of real
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
    ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", false],
    ["Securities and Exchange Commission", false],
    ["FORM 10-K", false],
    ["Annual Report Pursuant to Section 13 or 15(d)", false],
    ["Annual Report 2023", true],
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

  it("names a filing by its cover even when its metadata is the regulator's name or another document's", () => {
    // Verizon's 10-K carries the SEC's name as its title; Nike's 2023 10-K says "Nike 2023 Proxy".
    expect(
      chooseDocumentTitle({
        metadataTitle: "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
        pageTexts: [NIKE_COVER],
        fileName: "VERIZON_2022_10K.pdf",
      }),
    ).toBe("NIKE, Inc. — Form 10-K, fiscal year ended May 31, 2018");
    // The cover on the second page, after a wrapper page that only says the form.
    expect(
      chooseDocumentTitle({
        metadataTitle: "Nike 2023 Proxy",
        pageTexts: ["FORM 10-KFORM 10-K", NIKE_COVER],
        fileName: "NIKE_2023_10K.pdf",
      }),
    ).toBe("NIKE, Inc. — Form 10-K, fiscal year ended May 31, 2018");
    // The regulator's name is never a title from the page either, when a cover names no registrant.
    expect(
      chooseDocumentTitle({
        metadataTitle: "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
        pageTexts: [
          "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-K\nAcme Widgets Corp.",
        ],
        fileName: "acme.pdf",
      }),
    ).toBe("Acme Widgets Corp.");
  });

  it("finds the registrant after the commission file number on a cover without the registrant label", () => {
    const cover = [
      "UNITED STATES",
      "SECURITIES AND EXCHANGE COMMISSION",
      "FORM 10-K",
      "For the fiscal year ended December 31, 2018",
      "Commission file number 1-3285",
      "3M COMPANY",
      "State of Incorporation: Delaware I.R.S. Employer Identification No. 41-0417775",
    ].join("\n");
    expect(
      chooseDocumentTitle({ metadataTitle: "10-K - 02/07/2019 - 3M Company", pageTexts: [cover], fileName: "3M.pdf" }),
    ).toBe("3M COMPANY — Form 10-K, fiscal year ended December 31, 2018");
  });

  it("writes a capitalised month and small capitals split from their words as a reader would", () => {
    const cover = [
      "FORM 10-K",
      "FOR THE FISCAL YEAR ENDED MAY 31, 2019",
      "MGM R ESORTS I NTERNATIONAL",
      "(Exact name of registrant as specified in its charter)",
    ].join("\n");
    expect(chooseDocumentTitle({ metadataTitle: "", pageTexts: [cover], fileName: "x.pdf" })).toBe(
      "MGM RESORTS INTERNATIONAL — Form 10-K, fiscal year ended May 31, 2019",
    );
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

  it("continues a line that ends in a linking word, and skips a publisher's web address and 'Front cover'", () => {
    expect(titleLines("Roles Descriptions at\nContoso Electronics\nOverview")).toBe(
      "Roles Descriptions at Contoso Electronics",
    );
    expect(titleLines("ibm.com/redbooks Redpaper\nFront cover\nRow and Column Access Control\nJim Bainbridge")).toBe(
      "Row and Column Access Control",
    );
    // A web address after the first line ends the title, even after a linking word.
    expect(titleLines("The code has been released at\nhttps://github.com/x/y.\nFor instance, the score drops")).toBe(
      "The code has been released at",
    );
  });
});
