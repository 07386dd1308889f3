/**
 * Questionnaire files built in tests: a minimal DOCX whose table holds the questions, and answers
 * for rows without running the answer pipeline (for tests of the filled copy alone).
 */
import { strToU8, zipSync } from "fflate";
import type { RowAnswer } from "../../src/questionnaire/row-answer.js";

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A Word document with a paragraph and one table of these rows (first row the header). */
export function docxWithTable(rows: string[][]): Uint8Array {
  const cell = (text: string) =>
    `<w:tc><w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p></w:tc>`;
  const table = `<w:tbl>${rows.map((row) => `<w:tr>${row.map(cell).join("")}</w:tr>`).join("")}</w:tbl>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Vendor questionnaire</w:t></w:r></w:p>${table}</w:body></w:document>`;
  return zipSync({
    "[Content_Types].xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    "_rels/.rels": strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    "word/document.xml": strToU8(document),
  });
}

/** An answered row citing `pages` of one document, as the pipeline would leave it. */
export function answeredRow(
  text: string,
  pages: number[],
  documentId = "0b3c2f9e-0000-4000-8000-000000000001",
): RowAnswer {
  return {
    status: "answered",
    answer: `${text} ${pages.map((_, index) => `[${index + 1}]`).join("")}`,
    choice: null,
    sources: pages.map((page, index) => ({
      n: index + 1,
      documentId,
      title: "Security Policy",
      file: "security-policy.pdf",
      pageStart: page,
      pageEnd: page,
      url: `http://folio.test/files/${documentId}?exp=1&sig=abc#page=${page}`,
    })),
    quote: `${text} (quoted)`,
    note: null,
    approved: null,
    errorCode: null,
  };
}
