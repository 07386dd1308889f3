/**
 * A PDF without text is told apart by what its pages draw: pictures of pages (a scan) get the OCR
 * advice, nothing at all (a blank export) is called empty — never "looks like a scan".
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import { parsePdf } from "../../ingestion/parse-pdf.js";
import { hasSharedData, sharedData } from "../support/shared-paths.js";

if (!hasSharedData) console.warn("pdf-blank-or-scan: skipped — no shared data (../shared) for its PDFs.");

async function rejectionOf(file: string): Promise<{ code: string; message: string }> {
  try {
    await parsePdf(new Uint8Array(await readFile(file)), file.split("/").pop() ?? file, DEFAULT_PARSE_LIMITS);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error(`${file} was parsed; a PDF without text was expected`);
}

describe.skipIf(!hasSharedData)("PDFs without text", () => {
  it("calls a blank page empty, not a scan", async () => {
    const rejection = await rejectionOf(sharedData("robustness-pdfjs", "pdfs", "empty.pdf"));
    expect(rejection.code).toBe("pdf_no_text");
    expect(rejection.message).toBe(
      "This PDF is empty: none of its pages has any text (or images) — check that it is the right file.",
    );
  });

  it("still gives scanned pages the OCR advice", async () => {
    const rejection = await rejectionOf(
      sharedData("robustness-pdf-misc", "pdfs", "docling-nemotron_multipage-scanned.pdf"),
    );
    expect(rejection.code).toBe("pdf_no_text");
    expect(rejection.message).toMatch(/looks like a scan.*run OCR first/);
  });
});
