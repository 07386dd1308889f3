/**
 * Files that are not documents, and files whose content is not what their name says: refused with
 * what the file is, what was expected, and the types Folio reads.
 */
import { describe, expect, it } from "vitest";
import { detectMediaType } from "../../ingestion/detect-media-type.js";
import { ParseError } from "../../src/errors.js";

const ACCEPTED = "Folio reads PDF, Word (.docx), Excel (.xlsx, .xls), CSV, TSV, Markdown, HTML and plain-text files";

function refusal(bytes: Uint8Array, fileName: string): { code: string; message: string } {
  try {
    detectMediaType(bytes, fileName);
  } catch (error) {
    if (error instanceof ParseError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`${fileName} was accepted`);
}

const text = (value: string) => new TextEncoder().encode(value);

/** The smallest Windows executable header: "MZ", a pointer at 0x3c, and "PE\0\0" where it points. */
function windowsProgram(): Uint8Array {
  const bytes = new Uint8Array(0x48);
  bytes.set([0x4d, 0x5a]);
  bytes.set([0x40, 0, 0, 0], 0x3c);
  bytes.set([0x50, 0x45, 0, 0], 0x40);
  return bytes;
}

describe("detectMediaType refusals", () => {
  it("refuses a text file named .exe as a program, listing the accepted types", () => {
    expect(refusal(text("meeting notes: nothing to see"), "notes.exe")).toEqual({
      code: "not_a_document",
      message: `This file is a program or installer (.exe), not a document, so Folio does not take it — ${ACCEPTED}.`,
    });
  });

  it("refuses executables by their bytes, whatever their name", () => {
    expect(refusal(windowsProgram(), "report.pdf")).toEqual({
      code: "not_a_document",
      message: `This file is a Windows program or library (EXE/DLL), not a document, so Folio does not take it — ${ACCEPTED}.`,
    });
    expect(refusal(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), "tool").code).toBe("not_a_document");
  });

  it("says what a .pdf of random bytes is and what was expected", () => {
    expect(refusal(new Uint8Array([0x13, 0x37, 0xbe, 0xef, 0x42, 0x99, 0x00, 0x7f]), "annual-report.pdf")).toEqual({
      code: "content_mismatch",
      message: `This file is named .pdf, so a PDF was expected, but it is binary data of no kind Folio knows (damaged, or another format renamed) — upload the real PDF, or give the file the extension of what it is (${ACCEPTED}).`,
    });
  });

  it("says a .docx holding plain text, or a .pdf holding an image, is not what its name says", () => {
    expect(refusal(text("just some words in a file"), "policy.docx").message).toBe(
      `This file is named .docx, so a Word document was expected, but it is plain text — upload the real Word document, or give the file the extension of what it is (${ACCEPTED}).`,
    );
    expect(refusal(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "scan.pdf").message).toBe(
      `This file is named .pdf, so a PDF was expected, but it is a PNG image — upload the real PDF, or give the file the extension of what it is (${ACCEPTED}).`,
    );
  });

  it("still reads text whose first letters happen to be MZ, and text files by content", () => {
    expect(detectMediaType(text("MZ Holdings annual letter to shareholders"), "letter.txt").mediaType).toBe(
      "text/plain",
    );
  });
});
