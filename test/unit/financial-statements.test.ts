/**
 * Financial statements by name: the accounting synonyms of each statement, letter-spaced titles, and the
 * lines that mention a statement without being its title.
 */
import { describe, expect, it } from "vitest";
import { statementsNamedIn, statementTitledBy } from "../../src/domain/financial-statements.js";

describe("financial statements by name", () => {
  it("reads each statement's synonyms as that statement", () => {
    expect(statementsNamedIn("what is the net PPNE (balance sheet)")).toEqual(["balance-sheet"]);
    expect(statementsNamedIn("Consolidated Statements of Financial Position")).toEqual(["balance-sheet"]);
    expect(statementsNamedIn("income statement")).toEqual(["income-statement"]);
    expect(statementsNamedIn("CONSOLIDATED STATEMENTS OF OPERATIONS")).toEqual(["income-statement"]);
    expect(statementsNamedIn("Consolidated Statements of Earnings")).toEqual(["income-statement"]);
    expect(statementsNamedIn("the cash flow statement")).toEqual(["cash-flow-statement"]);
    expect(statementsNamedIn("Statements of Cash Flows")).toEqual(["cash-flow-statement"]);
    expect(statementsNamedIn("Consolidated Statements of Shareholders’ Equity")).toEqual(["equity-statement"]);
  });

  it("lists several statements in the order named, and none for other text", () => {
    expect(statementsNamedIn("using the income statement and the statement of financial position")).toEqual([
      "income-statement",
      "balance-sheet",
    ]);
    expect(statementsNamedIn("Consolidated Statements of Comprehensive Income")).toEqual([]);
    expect(statementsNamedIn("What drove operating margin change as of fiscal 2022?")).toEqual([]);
    // A question's information need keeps the statement its directions named, in parentheses.
    expect(statementsNamedIn("What is the fiscal 2018 capital expenditure for Acme? (cash flow statement)")).toEqual([
      "cash-flow-statement",
    ]);
    expect(statementsNamedIn("What drove the increase in inventories?")).toEqual([]);
  });

  it("recognizes letter-spaced titles", () => {
    expect(statementTitledBy("3M Company and Subsidiaries Consolidated Statement of Cash Flow s")).toBe(
      "cash-flow-statement",
    );
    expect(statementTitledBy("Consolidated Balance Shee t At December 31")).toBe("balance-sheet");
  });

  it("takes a title line with the company's name or the period beside it", () => {
    expect(statementTitledBy("Consolidated Statements of Income Corning Incorporated and Subsidiary Companies")).toBe(
      "income-statement",
    );
    expect(statementTitledBy("MGM RESORTS INTERNATIONAL AND SUBSIDIARIES CONSOLIDATED BALANCE SHEETS")).toBe(
      "balance-sheet",
    );
    expect(statementTitledBy("Consolidated statements of cash flows (unaudited)")).toBe("cash-flow-statement");
    expect(statementTitledBy("Condensed consolidated statements of operations (in millions, except")).toBe(
      "income-statement",
    );
    expect(statementTitledBy("Consolidated Statement of Profit & Loss")).toBe("income-statement");
  });

  it("refuses sentences, index lines, extracts and lines naming two statements", () => {
    expect(statementTitledBy("See the accompanying consolidated balance sheets.")).toBeNull();
    expect(statementTitledBy("Consolidated Balance Sheets 68")).toBeNull();
    expect(statementTitledBy("Consolidated Statements of Operations F-4")).toBeNull();
    expect(statementTitledBy("Selected income statement data")).toBeNull();
    expect(statementTitledBy("NOTE 7. Supplemental Balance Sheet Information")).toBeNull();
    expect(statementTitledBy("Gross Amounts not Offset in the Consolidated Balance Sheet that are Subject")).toBeNull();
    expect(statementTitledBy("CONSOLIDATED BALANCE SHEETS AND CASH FLOWS ANALYSIS")).toBeNull();
    expect(statementTitledBy("Balance Sheet:")).toBeNull();
  });

  it("refuses prose lines that run through a statement's name, and off-balance sheet items", () => {
    expect(statementTitledBy("impact of lower rates, partially offset by balance sheet")).toBeNull();
    expect(statementTitledBy("The Firm funds its global balance sheet through diverse")).toBeNull();
    expect(statementTitledBy("Impact of derivatives on the Consolidated balance sheets")).toBeNull();
    expect(statementTitledBy("Consolidated balance sheets changes")).toBeNull();
    expect(statementTitledBy("Consolidated balance sheets, and")).toBeNull();
    expect(statementTitledBy("Off-Balance Sheet Arrangements")).toBeNull();
    expect(statementsNamedIn("off-balance sheet lending-related commitments")).toEqual([]);
    expect(statementTitledBy("CONSOLIDATED BALANCE SHEETS (In thousands, except share data)")).toBe("balance-sheet");
    expect(statementTitledBy("Consolidated Statement of Income Years ended December 31")).toBe("income-statement");
  });
});
