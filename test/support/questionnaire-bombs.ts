/**
 * Questionnaire and approved-answers files that once crashed or froze the server (issue #30), built in
 * code: a few KB of XLSX whose merged range, data-validation list or one far cell made exceljs build
 * billions of cells, CSVs too long or too wide, and variants of the same idea (a dimension that lies, a
 * shared string referenced by every cell, thousands of sheets or merges, a column definition or a Word
 * table span a billion wide). Each comes with the refusal code the reader must answer with. Nothing
 * large is committed; the biggest (a 19 MB CSV) takes milliseconds to build.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { docxWithTable } from "./questionnaire-files.js";

export type XlsxSheetSpec = {
  name: string;
  /** Cell text by row (row 1 first); written as inline strings. */
  rows?: string[][];
  /** Raw XML appended to `<sheetData>` (extra rows). */
  extraRowsXml?: string;
  /** Raw XML after `</sheetData>`: `<mergeCells>`, `<dataValidations>`… in schema order. */
  afterSheetData?: string;
  /** Raw XML before `<sheetData>` (`<cols>`). */
  beforeSheetData?: string;
  dimension?: string;
};

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function columnLetters(column: number): string {
  let letters = "";
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

function rowXml(rowNumber: number, cells: string[]): string {
  const cellsXml = cells
    .map((text, index) =>
      text === ""
        ? ""
        : `<c r="${columnLetters(index + 1)}${rowNumber}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`,
    )
    .join("");
  return `<row r="${rowNumber}">${cellsXml}</row>`;
}

function sheetXml(spec: XlsxSheetSpec): string {
  const rows = (spec.rows ?? []).map((cells, index) => rowXml(index + 1, cells)).join("");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${spec.dimension ? `<dimension ref="${spec.dimension}"/>` : ""}${spec.beforeSheetData ?? ""}<sheetData>${rows}${spec.extraRowsXml ?? ""}</sheetData>${spec.afterSheetData ?? ""}<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;
}

export type XlsxPackageOptions = {
  sharedStringsXml?: string;
  /** `<definedName>` elements for xl/workbook.xml. */
  definedNamesXml?: string;
  /** Further parts by name (xl/styles.xml, comments, their relationships), written as given. */
  parts?: Record<string, string>;
  /** The compression level of the package (9 unless a large bomb needs speed). */
  level?: 0 | 1 | 6 | 9;
};

/** A minimal, valid XLSX package (what exceljs and Excel open) with the given sheets. */
export function buildXlsx(sheets: XlsxSheetSpec[], options: XlsxPackageOptions = {}): Uint8Array {
  const overrides = sheets
    .map(
      (_, index) =>
        `<Override PartName="/xl/worksheets/sheet${index + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join("");
  const sharedOverride = options.sharedStringsXml
    ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    : "";
  const relationships = sheets
    .map(
      (_, index) =>
        `<Relationship Id="rId${index + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`,
    )
    .join("");
  const sharedRelationship = options.sharedStringsXml
    ? `<Relationship Id="rId${sheets.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`
    : "";
  const sheetList = sheets
    .map((sheet, index) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`)
    .join("");
  const parts: Record<string, Uint8Array> = {
    "[Content_Types].xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${overrides}${sharedOverride}</Types>`,
    ),
    "_rels/.rels": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    "xl/workbook.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheetList}</sheets>${options.definedNamesXml ? `<definedNames>${options.definedNamesXml}</definedNames>` : ""}</workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}${sharedRelationship}</Relationships>`,
    ),
  };
  sheets.forEach((sheet, index) => {
    parts[`xl/worksheets/sheet${index + 1}.xml`] = strToU8(sheetXml(sheet));
  });
  if (options.sharedStringsXml) parts["xl/sharedStrings.xml"] = strToU8(options.sharedStringsXml);
  for (const [name, xml] of Object.entries(options.parts ?? {})) parts[name] = strToU8(xml);
  return zipSync(parts, { level: options.level ?? 9 });
}

/** A header and `count` numbered questions, as a questionnaire's first sheet. */
export function questionRows(count: number, answered = false): string[][] {
  return [
    ["Question", "Answer"],
    ...Array.from({ length: count }, (_, index) => [
      `Is control ${index + 1} in place?`,
      answered ? `Yes, control ${index + 1} is reviewed yearly.` : "",
    ]),
  ];
}

export type QuestionnaireBomb = {
  name: string;
  fileName: string;
  bytes: Uint8Array;
  /** The refusal's code. */
  code: string;
  /** Where it is sent: a questionnaire to fill, or a completed one as approved answers. */
  as: "questionnaire" | "answers";
};

/** The issue's bombs and their variants, each with the code it must be refused with. */
export function questionnaireBombs(): QuestionnaireBomb[] {
  const xlsx = (
    name: string,
    code: string,
    sheet: Partial<XlsxSheetSpec>,
    as: QuestionnaireBomb["as"] = "questionnaire",
  ) => ({
    name,
    fileName: `${name}.xlsx`,
    bytes: buildXlsx([{ name: "Questions", rows: questionRows(5, as === "answers"), ...sheet }]),
    code,
    as,
  });
  const farCell = '<row r="3002"><c r="XFD3002" t="inlineStr"><is><t>x</t></is></c></row>';
  const manyMerges = Array.from(
    { length: 20_000 },
    (_, index) => `<mergeCell ref="C${index + 10}:D${index + 10}"/>`,
  ).join("");
  const emptyRows = Array.from({ length: 250_000 }, (_, index) => `<row r="${index + 10}"/>`).join("");
  const oneLine = `Question,${"x,".repeat(9_500_000)}\n`;
  const wideRow = Array.from({ length: 2000 }, (_, index) => String(index % 10)).join(",");
  // Letters that do not compress away (the zip-bomb guard would refuse a string of one repeated phrase first).
  let seed = 30;
  const longString = Array.from({ length: 20_000 }, () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return String.fromCharCode(97 + (seed % 26));
  }).join("");
  const sharedCells = Array.from(
    { length: 2_000 },
    (_, index) => `<row r="${index + 2}"><c r="A${index + 2}" t="s"><v>0</v></c></row>`,
  ).join("");
  return [
    xlsx("merged-whole-sheet", "questionnaire_merge_too_large", {
      afterSheetData: '<mergeCells count="1"><mergeCell ref="A10:XFD1048576"/></mergeCells>',
    }),
    xlsx(
      "validation-whole-sheet",
      "questionnaire_validation_too_large",
      {
        afterSheetData:
          '<dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="A1:XFD1048576"><formula1>"Yes,No"</formula1></dataValidation></dataValidations>',
      },
      "answers",
    ),
    {
      name: "far-column",
      fileName: "far-column.xlsx",
      bytes: buildXlsx([{ name: "Questions", rows: questionRows(3_001), extraRowsXml: farCell }]),
      code: "questionnaire_too_wide",
      as: "questionnaire",
    },
    {
      name: "one-line-csv",
      fileName: "one-line.csv",
      bytes: strToU8(oneLine),
      code: "questionnaire_line_too_long",
      as: "questionnaire",
    },
    {
      name: "wide-csv",
      fileName: "wide.csv",
      bytes: strToU8(`${Array.from({ length: 4000 }, () => wideRow).join("\n")}\n`),
      code: "questionnaire_too_wide",
      as: "questionnaire",
    },
    xlsx("dimension-lies", "questionnaire_too_wide", { dimension: "A1:B2", extraRowsXml: farCell }),
    {
      name: "shared-string-everywhere",
      fileName: "shared-string-everywhere.xlsx",
      bytes: buildXlsx([{ name: "Questions", rows: [["Question", "Answer"]], extraRowsXml: sharedCells }], {
        sharedStringsXml: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>${longString}</t></si></sst>`,
      }),
      code: "questionnaire_too_much_text",
      as: "questionnaire",
    },
    {
      name: "many-sheets",
      fileName: "many-sheets.xlsx",
      bytes: buildXlsx(
        Array.from({ length: 600 }, (_, index) => ({
          name: `Sheet ${index + 1}`,
          rows: [["Question"], ["Is it on?"]],
        })),
      ),
      code: "questionnaire_too_many_sheets",
      as: "answers",
    },
    xlsx("many-merges", "questionnaire_merge_too_large", {
      afterSheetData: `<mergeCells count="20000">${manyMerges}</mergeCells>`,
    }),
    xlsx("column-definition", "questionnaire_unreadable", {
      beforeSheetData: '<cols><col min="1" max="1000000000" width="12" customWidth="1"/></cols>',
    }),
    xlsx("empty-rows", "questionnaire_too_many_rows", { extraRowsXml: emptyRows }),
    {
      name: "docx-span",
      fileName: "docx-span.docx",
      bytes: docxWithSpan(),
      code: "questionnaire_table_too_large",
      as: "questionnaire",
    },
  ];
}

/** A Word table whose second row's cell spans a billion grid columns. */
function docxWithSpan(): Uint8Array {
  const parts = unzipSync(
    docxWithTable([
      ["Question", "Answer"],
      ["Is data encrypted?", "Yes"],
    ]),
  );
  const xml = strFromU8(parts["word/document.xml"] ?? new Uint8Array());
  const spanned = xml.replace(
    '<w:tc><w:p><w:r><w:t xml:space="preserve">Is data encrypted?',
    '<w:tc><w:tcPr><w:gridSpan w:val="1000000000"/></w:tcPr><w:p><w:r><w:t xml:space="preserve">Is data encrypted?',
  );
  return zipSync({ ...parts, "word/document.xml": strToU8(spanned) });
}

/** The harmless file every bomb is measured against: 300 questions, a whole-column validation list. */
export function honestQuestionnaire(): Uint8Array {
  return buildXlsx([
    {
      name: "Questions",
      rows: questionRows(300),
      dimension: "A1:XFD1048576",
      afterSheetData:
        '<dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="B2:B1048576"><formula1>"Yes,No,N/A"</formula1></dataValidation></dataValidations>',
    },
  ]);
}

/**
 * Sends a bomb the way the console does: a questionnaire as the body of POST /api/questionnaires, a
 * completed one as multipart to POST /api/answers (with the console's header).
 */
export function submitBomb(url: string, bomb: Pick<QuestionnaireBomb, "bytes" | "fileName" | "as">): Promise<Response> {
  const headers = { "X-Folio-Console": "1" };
  if (bomb.as === "questionnaire") {
    return fetch(`${url}/api/questionnaires?file=${encodeURIComponent(bomb.fileName)}`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/octet-stream" },
      body: bomb.bytes,
    });
  }
  const form = new FormData();
  form.append("file", new Blob([bomb.bytes]), bomb.fileName);
  return fetch(`${url}/api/answers`, { method: "POST", body: form, headers });
}
