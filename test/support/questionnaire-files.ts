/**
 * Questionnaire files built in tests: a minimal DOCX whose table holds the questions, and answers
 * for rows without running the answer pipeline (for tests of the filled copy alone).
 */
import { strToU8, zipSync } from "fflate";
import type { RowAnswer } from "../../src/questionnaire/answer/row-answer.js";

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

const WORD_NAMESPACE = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const RELATIONSHIPS_NAMESPACE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

type BuiltCell = { text: string; span?: number; header?: boolean; inner?: string };

function builtCell(cell: BuiltCell, width: number): string {
  const properties =
    `<w:tcPr><w:tcW w:w="${width}" w:type="dxa"/>${cell.span ? `<w:gridSpan w:val="${cell.span}"/>` : ""}` +
    `${cell.header ? '<w:shd w:val="clear" w:color="auto" w:fill="1F4E79"/><w:vAlign w:val="center"/>' : ""}</w:tcPr>`;
  const run = cell.header
    ? `<w:r><w:rPr><w:b/><w:color w:val="FFFFFF"/></w:rPr><w:t xml:space="preserve">${escapeXml(cell.text)}</w:t></w:r>`
    : `<w:r><w:t xml:space="preserve">${escapeXml(cell.text)}</w:t></w:r>`;
  return `<w:tc>${properties}<w:p>${run}</w:p>${cell.inner ?? ""}</w:tc>`;
}

function builtTable(widths: number[], rows: BuiltCell[][], header = false): string {
  const total = widths.reduce((sum, width) => sum + width, 0);
  const grid = `<w:tblGrid>${widths.map((width) => `<w:gridCol w:w="${width}"/>`).join("")}</w:tblGrid>`;
  const body = rows
    .map((row, rowIndex) => {
      let column = 0;
      const cells = row.map((cell) => {
        const span = cell.span ?? 1;
        const width = widths.slice(column, column + span).reduce((sum, value) => sum + value, 0);
        column += span;
        return builtCell({ ...cell, header: header && rowIndex === 0 }, width);
      });
      const properties = header && rowIndex === 0 ? "<w:trPr><w:tblHeader/></w:trPr>" : "";
      return `<w:tr>${properties}${cells.join("")}</w:tr>`;
    })
    .join("");
  return `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="${total}" w:type="dxa"/><w:tblLayout w:type="fixed"/></w:tblPr>${grid}${body}</w:tbl>`;
}

/** The small table nested in a cell of the security questionnaire: it must come back untouched. */
export const NESTED_REGIONS_TABLE = builtTable(
  [1200, 1800],
  [
    [{ text: "EU" }, { text: "Frankfurt" }],
    [{ text: "US" }, { text: "Virginia" }],
  ],
);

/** The document-history table of the security questionnaire: no questions, so it must come back untouched. */
export const HISTORY_TABLE = builtTable(
  [3000, 3000],
  [
    [{ text: "Version" }, { text: "Date" }],
    [{ text: "1.0" }, { text: "2026-01-15" }],
  ],
);

/**
 * A Word security questionnaire as a customer would send it, with the parts Word writes (styles,
 * document properties, relationships): a history table without questions, a question table with a
 * styled header row, section rows spanning the table, a cell holding a nested table and text that
 * needs escaping, and a second question table of requirements.
 */
export function securityQuestionnaireDocx(): Uint8Array {
  const questions = builtTable(
    [1000, 5000, 3000],
    [
      [{ text: "#" }, { text: "Question" }, { text: "Response" }],
      [{ text: "Data protection", span: 3 }],
      [{ text: "1.1" }, { text: "Do you encrypt customer data at rest?" }, { text: "" }],
      [{ text: "1.2" }, { text: "Which regions host customer data?" }, { text: "See:", inner: NESTED_REGIONS_TABLE }],
      [{ text: "Access & <review>", span: 3 }],
      [{ text: "2.1" }, { text: "Describe how administrator access is reviewed & logged" }, { text: "" }],
    ],
    true,
  );
  const requirements = builtTable(
    [4500, 4500],
    [
      [{ text: "Requirement" }, { text: "Vendor response" }],
      [{ text: "The vendor shall keep backups for at least 30 days." }, { text: "" }],
      [{ text: "The vendor shall report incidents within 24 hours." }, { text: "" }],
    ],
    true,
  );
  const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${WORD_NAMESPACE}" xmlns:r="${RELATIONSHIPS_NAMESPACE}"><w:body>${paragraph("Vendor security questionnaire")}${HISTORY_TABLE}${paragraph("Answer every question.")}${questions}${paragraph("Requirements")}${requirements}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`;
  return zipSync({
    "[Content_Types].xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
    ),
    "_rels/.rels": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    ),
    "word/document.xml": strToU8(document),
    "word/_rels/document.xml.rels": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    ),
    "word/styles.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${WORD_NAMESPACE}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:left w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:right w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="auto"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders></w:tblPr></w:style></w:styles>`,
    ),
    "docProps/core.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Vendor security questionnaire</dc:title></cp:coreProperties>`,
    ),
  });
}
