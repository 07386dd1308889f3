import { describe, expect, it } from "vitest";
import { contextualHeader, indexedDocument, indexTextOf, readableFileName } from "../../src/domain/index-text.js";

describe("contextual chunk header", () => {
  it("puts the title, a file name that says more, and the section path above the chunk's text", () => {
    const text = indexTextOf(
      { title: "Contoso Electronics", fileName: "Northwind_Standard_Benefits_Details.pdf" },
      {
        text: "Hearing aids are covered once every three years.",
        provenance: { headingPath: ["Coverage", "Hearing"] },
      },
    );
    expect(text).toBe(
      "Contoso Electronics — Northwind Standard Benefits Details — Coverage — Hearing\nHearing aids are covered once every three years.",
    );
  });

  it("leaves out a file name or heading that repeats the title", () => {
    expect(
      contextualHeader({ title: "Annual Report 2023", fileName: "annual-report-2023.pdf" }, { provenance: {} }),
    ).toBe("Annual Report 2023");
    expect(contextualHeader({ title: "Annual_Report", fileName: "Annual_Report.pdf" }, { provenance: {} })).toBe(
      "Annual_Report",
    );
    expect(contextualHeader({ title: "Budget", fileName: "budget.xlsx" }, { provenance: { sheet: "2024" } })).toBe(
      "Budget — 2024",
    );
  });

  it("reads file names as words", () => {
    expect(readableFileName("Northwind_Health_Plus_Benefits_Details.pdf")).toBe(
      "Northwind Health Plus Benefits Details",
    );
    expect(readableFileName("notes")).toBe("notes");
  });

  it("indexes a document under its own title, or its file name where the parser found none", () => {
    expect(indexedDocument("Annual Report 2023", "ar.pdf")).toEqual({
      title: "Annual Report 2023",
      fileName: "ar.pdf",
    });
    expect(indexedDocument("", "budget.xlsx")).toEqual({ title: "budget.xlsx", fileName: "budget.xlsx" });
  });
});
