/**
 * A corpus of questionnaire layouts as people send them, generated here (no file is checked in): title
 * rows, instruction paragraphs, blank rows, a logo's alt text and merged banners above the header; two
 * header rows (a group name merged over "Yes | No | N/A"); hidden columns; a cover sheet beside the
 * question sheets; the questions in column C or E, under headers called Question, Requirement, Control,
 * Control description, Item, Description, Query, Criteria, or nothing at all; identifiers of every
 * common shape ("Q1", "1.2.3", "AC-2", "A.5.1", "ID.AM-1"); numbered sub-questions ("1.a"); a Response
 * column that already holds some answers; section rows; the header repeated down the table; DOCX tables
 * whose header row repeats on every page; CSV and TSV with a preamble. Each layout says which sheets
 * hold questions, their header row and question column, and exactly which texts are asked — so an
 * identifier, a title or a section name asked is a failure.
 */
import ExcelJS from "exceljs";
import { strToU8, zipSync } from "fflate";

export type ExpectedSheet = {
  sheet: string;
  /** The row a filled copy names its columns on; null when the sheet has no header. */
  headerRow: number | null;
  /** The question column as a letter. */
  questionColumn: string;
};

export type QuestionnaireLayout = {
  name: string;
  fileName: string;
  /** What the layout exercises, in a few words. */
  shows: string;
  build(): Promise<Uint8Array>;
  expected: { sheets: ExpectedSheet[]; questions: string[] };
};

/** The questions every layout asks (a few per layout), with a section and a short item name each. */
const BANK = [
  { section: "Data protection", item: "Encryption at rest", text: "Do you encrypt customer data at rest?" },
  {
    section: "Data protection",
    item: "Encryption in transit",
    text: "Is customer data encrypted in transit over public networks?",
  },
  { section: "Data protection", item: "Hosting regions", text: "Which regions host customer data?" },
  {
    section: "Access control",
    item: "Access reviews",
    text: "Describe how administrator access is reviewed and logged.",
  },
  {
    section: "Access control",
    item: "Password policy",
    text: "Provide your password policy, including the minimum length.",
  },
  {
    section: "Access control",
    item: "Remote access",
    text: "Is multi-factor authentication required for remote access?",
  },
  { section: "Backups", item: "Backup retention", text: "How long are backups kept?" },
  { section: "Backups", item: "Restore tests", text: "Are backups restored in a test at least once a year?" },
  {
    section: "Incident response",
    item: "Incident notice",
    text: "Explain how security incidents are reported to customers.",
  },
  {
    section: "Incident response",
    item: "Response plan",
    text: "Does the vendor maintain an incident response plan that is tested yearly?",
  },
  { section: "Third parties", item: "Sub-processors", text: "List the third parties that process customer data." },
  { section: "Third parties", item: "Access rights", text: "The vendor shall review access rights every quarter." },
] as const;

type BankEntry = (typeof BANK)[number];

const TITLE = "Vendor security and policy review — please answer every question";
const INSTRUCTIONS = [
  "Instructions: answer each question in the Response column and attach evidence where asked.",
  "Select Yes, No or N/A from the drop-down list; add comments in the last column.",
];

/** Questions of the bank from `start`, `count` of them, in order. */
function take(start: number, count: number): BankEntry[] {
  return Array.from({ length: count }, (_, index) => BANK[(start + index) % BANK.length] as BankEntry);
}

function letter(column: number): string {
  return String.fromCharCode(64 + column);
}

type Cell = string | number | null;

/** Rows of a sheet as they are written: `null` is an empty row. */
type SheetSpec = {
  name: string;
  rows: Array<Cell[] | null>;
  merges?: string[];
  hiddenColumns?: number[];
  widths?: number[];
  /** Cells given a Yes/No/N/A list ("C5"). */
  validations?: string[];
};

async function workbook(sheets: SheetSpec[]): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  for (const spec of sheets) {
    const sheet = book.addWorksheet(spec.name);
    spec.rows.forEach((cells, index) => {
      const row = sheet.getRow(index + 1);
      cells?.forEach((value, column) => {
        if (value !== null && value !== "") row.getCell(column + 1).value = value;
      });
    });
    for (const range of spec.merges ?? []) sheet.mergeCells(range);
    spec.widths?.forEach((width, index) => {
      sheet.getColumn(index + 1).width = width;
    });
    for (const column of spec.hiddenColumns ?? []) sheet.getColumn(column).hidden = true;
    for (const address of spec.validations ?? []) {
      sheet.getCell(address).dataValidation = { type: "list", allowBlank: true, formulae: ['"Yes,No,N/A"'] };
    }
    if (spec.rows.length > 0) sheet.getRow(1).font = { bold: true };
  }
  return new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer);
}

function csvField(value: Cell, delimiter: string): string {
  const text = value === null ? "" : String(value);
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function delimited(rows: Array<Cell[] | null>, delimiter = ","): Uint8Array {
  const lines = rows.map((cells) => (cells ?? []).map((cell) => csvField(cell, delimiter)).join(delimiter));
  return new TextEncoder().encode(`${lines.join("\r\n")}\r\n`);
}

// ---------- DOCX ----------

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

type DocxCell = { text: string; span?: number };
type DocxRow = { cells: Array<DocxCell | string>; repeatAsHeader?: boolean };

function docxTable(widths: number[], rows: DocxRow[]): string {
  const grid = `<w:tblGrid>${widths.map((width) => `<w:gridCol w:w="${width}"/>`).join("")}</w:tblGrid>`;
  const body = rows
    .map((row) => {
      let column = 0;
      const cells = row.cells.map((entry) => {
        const cell = typeof entry === "string" ? { text: entry } : entry;
        const span = cell.span ?? 1;
        const width = widths.slice(column, column + span).reduce((sum, value) => sum + value, 0);
        column += span;
        const properties = `<w:tcPr><w:tcW w:w="${width}" w:type="dxa"/>${span > 1 ? `<w:gridSpan w:val="${span}"/>` : ""}</w:tcPr>`;
        return `<w:tc>${properties}<w:p><w:r><w:t xml:space="preserve">${escapeXml(cell.text)}</w:t></w:r></w:p></w:tc>`;
      });
      const properties = row.repeatAsHeader ? "<w:trPr><w:tblHeader/></w:trPr>" : "";
      return `<w:tr>${properties}${cells.join("")}</w:tr>`;
    })
    .join("");
  const total = widths.reduce((sum, width) => sum + width, 0);
  return `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="${total}" w:type="dxa"/></w:tblPr>${grid}${body}</w:tbl>`;
}

function docx(parts: string[]): Uint8Array {
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>${parts.join("")}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`;
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

const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;

// ---------- the layouts ----------

/** Data rows: a section row before each new section (when asked), then each question's cells. */
function dataRows(
  entries: BankEntry[],
  cellsOf: (entry: BankEntry, index: number) => Cell[],
  sectionRow?: (section: string, index: number) => Cell[],
): Cell[][] {
  const rows: Cell[][] = [];
  let section = "";
  entries.forEach((entry, index) => {
    if (sectionRow && entry.section !== section) rows.push(sectionRow(entry.section, index));
    section = entry.section;
    rows.push(cellsOf(entry, index));
  });
  return rows;
}

function texts(entries: BankEntry[]): string[] {
  return entries.map((entry) => entry.text);
}

/** A sheet whose header sits at `headerRow` (1-based) after `preamble`, questions in `questionColumn` (1-based). */
function xlsxLayout(input: {
  name: string;
  shows: string;
  preamble?: Array<Cell[] | null>;
  header: Cell[];
  entries: BankEntry[];
  cellsOf: (entry: BankEntry, index: number) => Cell[];
  sectionRow?: (section: string, index: number) => Cell[];
  questionColumn: number;
  sheet?: Partial<SheetSpec>;
}): QuestionnaireLayout {
  const preamble = input.preamble ?? [];
  const rows = [...preamble, input.header, ...dataRows(input.entries, input.cellsOf, input.sectionRow)];
  return {
    name: input.name,
    fileName: `${input.name}.xlsx`,
    shows: input.shows,
    build: () => workbook([{ name: "Questions", rows, ...input.sheet }]),
    expected: {
      sheets: [{ sheet: "Questions", headerRow: preamble.length + 1, questionColumn: letter(input.questionColumn) }],
      questions: texts(input.entries),
    },
  };
}

const idQ = (_: BankEntry, index: number) => `Q${index + 1}`;

function xlsxLayouts(): QuestionnaireLayout[] {
  const layouts: QuestionnaireLayout[] = [];
  layouts.push(
    xlsxLayout({
      name: "plain-header",
      shows: "a header in row 1",
      header: ["ID", "Question", "Response", "Comments"],
      entries: take(0, 6),
      cellsOf: (entry, index) => [idQ(entry, index), entry.text, null, null],
      questionColumn: 2,
    }),
    xlsxLayout({
      name: "issue-title-row",
      shows: "the issue's layout: a title naming 'question', an empty row, IDs Q1…, section rows",
      preamble: [[TITLE], null],
      header: ["ID", "Question", "Response options", "Reviewer notes"],
      entries: take(0, 8),
      cellsOf: (entry, index) => [idQ(entry, index), entry.text, "Yes | No | N/A", null],
      sectionRow: (section) => [section],
      questionColumn: 2,
    }),
    xlsxLayout({
      name: "title-and-instructions",
      shows: "a title, two instruction paragraphs and a blank row above the header",
      preamble: [["Acme Corp — Vendor Due Diligence"], [INSTRUCTIONS[0] ?? ""], [INSTRUCTIONS[1] ?? ""], null],
      header: ["#", "Question", "Answer", "Evidence"],
      entries: take(2, 7),
      cellsOf: (_, index) => [index + 1, take(2, 7)[index]?.text ?? "", null, null],
      questionColumn: 2,
    }),
    xlsxLayout({
      name: "merged-banner-and-logo",
      shows: "a logo's alt text and a banner merged across the table above the header",
      preamble: [["ACME logo"], ["SUPPLIER SECURITY ASSESSMENT 2024"], null],
      header: ["Ref", "Question", "Response", "Comments", "Owner"],
      entries: take(4, 6),
      cellsOf: (entry, index) => [`1.${index + 1}`, entry.text, null, null, null],
      questionColumn: 2,
      sheet: { merges: ["A2:E2"] },
    }),
    xlsxLayout({
      name: "questions-in-column-c",
      shows: "section and ID columns before the questions (column C)",
      header: ["Section", "ID", "Question", "Answer"],
      entries: take(0, 9),
      cellsOf: (entry, index) => [entry.section, `${index + 1}.0`, entry.text, null],
      questionColumn: 3,
    }),
    xlsxLayout({
      name: "control-description-in-column-e",
      shows: "Ref | Domain | Control ID | Control name | Control description (E) | Response | Evidence",
      preamble: [["Control assessment"], null],
      header: ["Ref", "Domain", "Control ID", "Control name", "Control description", "Response", "Evidence"],
      entries: take(1, 8),
      cellsOf: (entry, index) => [index + 1, entry.section, `AC-${index + 2}`, entry.item, entry.text, null, null],
      questionColumn: 5,
    }),
  );
  const named = [
    ["requirement-column", "Requirement"],
    ["control-column", "Control"],
    ["item-column", "Item"],
    ["description-column", "Description"],
    ["query-column", "Query"],
    ["criteria-column", "Criteria"],
  ] as const;
  named.forEach(([name, header], offset) => {
    layouts.push(
      xlsxLayout({
        name,
        shows: `the question column called "${header}"`,
        preamble: offset % 2 === 0 ? [["Security questionnaire"], null] : [],
        header: ["No.", header, "Vendor response", "Notes"],
        entries: take(offset, 6),
        cellsOf: (_, index) => [`${offset + 1}.${index + 1}`, take(offset, 6)[index]?.text ?? "", null, null],
        questionColumn: 2,
      }),
    );
  });
  layouts.push(
    xlsxLayout({
      name: "unnamed-question-column",
      shows: "the question column's header cell left empty",
      preamble: [[TITLE], null],
      header: ["ID", null, "Response", "Comments"],
      entries: take(3, 7),
      cellsOf: (entry, index) => [`Q${index + 1}`, entry.text, null, null],
      questionColumn: 2,
    }),
    xlsxLayout({
      name: "hidden-column",
      shows: "a hidden column holding an older, longer wording of each question",
      header: ["ID", "Question (2019 wording)", "Question", "Response"],
      entries: take(0, 6),
      cellsOf: (entry, index) => [
        `Q${index + 1}`,
        `In the previous review cycle we asked the following, which is kept for reference only: ${entry.text}`,
        entry.text,
        null,
      ],
      questionColumn: 3,
      sheet: { hiddenColumns: [2] },
    }),
    xlsxLayout({
      name: "sub-questions",
      shows: "numbered sub-questions 1.a, 1.b under their question",
      preamble: [["Information security questionnaire"], null],
      header: ["No.", "Question", "Answer"],
      entries: take(0, 3),
      cellsOf: () => [],
      questionColumn: 2,
    }),
  );
  // The sub-question layout's rows are its own: each question followed by two sub-questions.
  const subLayout = layouts[layouts.length - 1] as QuestionnaireLayout;
  const subQuestions = take(0, 3).flatMap((entry, index) => [
    [String(index + 1), entry.text],
    [`${index + 1}.a`, "If yes, when was it last reviewed?"],
    [`${index + 1}.b`, "Who approves changes to it?"],
  ]);
  subLayout.build = () =>
    workbook([
      {
        name: "Questions",
        rows: [
          ["Information security questionnaire"],
          null,
          ["No.", "Question", "Answer"],
          ...subQuestions.map((cells) => [...cells, null]),
        ],
      },
    ]);
  subLayout.expected.questions = subQuestions.map((cells) => cells[1] ?? "");

  const answered = take(0, 7);
  layouts.push({
    name: "response-already-answered",
    fileName: "response-already-answered.xlsx",
    shows: "a Response column that already holds long answers on some rows",
    build: () =>
      workbook([
        {
          name: "Questions",
          rows: [
            ["Question", "Response"],
            ...answered.map((entry, index) => [
              entry.text,
              index % 2 === 0
                ? "Yes. All customer data is encrypted with AES-256 in every region we operate, keys are rotated every year and held in a hardware security module."
                : null,
            ]),
          ],
        },
      ]),
    expected: { sheets: [{ sheet: "Questions", headerRow: 1, questionColumn: "A" }], questions: texts(answered) },
  });
  layouts.push({
    name: "unnamed-column-with-answers",
    fileName: "unnamed-column-with-answers.xlsx",
    shows: "no header names the question column, and the answers beside it are longer than the questions",
    build: () =>
      workbook([
        {
          name: "Sheet1",
          rows: [
            ["#", null, "Response"],
            ...answered.map((entry, index) => [
              index + 1,
              entry.text,
              index % 2 === 0
                ? "We encrypt all customer data at rest with AES-256 and in transit with TLS 1.2 or later, in every region."
                : null,
            ]),
          ],
        },
      ]),
    expected: { sheets: [{ sheet: "Sheet1", headerRow: 1, questionColumn: "B" }], questions: texts(answered) },
  });

  const twoRow = take(0, 6);
  layouts.push({
    name: "two-row-header",
    fileName: "two-row-header.xlsx",
    shows: "a group name merged over Yes | No | N/A under a header row",
    build: () =>
      workbook([
        {
          name: "Questions",
          rows: [
            [TITLE],
            null,
            ["ID", "Question", "Compliance", null, null, "Comments"],
            [null, null, "Yes", "No", "N/A", null],
            ...twoRow.map((entry, index) => [`Q${index + 1}`, entry.text, null, null, null, null]),
          ],
          merges: ["A3:A4", "B3:B4", "C3:E3", "F3:F4"],
        },
      ]),
    expected: { sheets: [{ sheet: "Questions", headerRow: 3, questionColumn: "B" }], questions: texts(twoRow) },
  });
  layouts.push({
    name: "two-row-header-group-only",
    fileName: "two-row-header-group-only.xlsx",
    shows: "only the group name in the upper row; the column names in the lower one",
    build: () =>
      workbook([
        {
          name: "Questions",
          rows: [
            [null, null, "Implemented?", null, null],
            ["Control ID", "Requirement", "Yes", "No", "Partially"],
            ...twoRow.map((entry, index) => [`A.5.${index + 1}`, entry.text, null, null, null]),
          ],
          merges: ["C1:E1"],
        },
      ]),
    expected: { sheets: [{ sheet: "Questions", headerRow: 2, questionColumn: "B" }], questions: texts(twoRow) },
  });

  const annex = take(0, 6);
  layouts.push({
    name: "annex-a-sections",
    fileName: "annex-a-sections.xlsx",
    shows: "section rows numbered like their questions (A.5 over A.5.1, A.5.2)",
    build: () =>
      workbook([
        {
          name: "Annex A",
          rows: [
            ["Control", "Control description", "Applicable", "Justification"],
            ["A.5", "Information security policies"],
            ["A.5.1", annex[0]?.text ?? "", null, null],
            ["A.5.2", annex[1]?.text ?? "", null, null],
            ["A.5.3", annex[2]?.text ?? "", null, null],
            ["A.6", "Organization of information security"],
            ["A.6.1", annex[3]?.text ?? "", null, null],
            ["A.6.2", annex[4]?.text ?? "", null, null],
            ["A.6.3", annex[5]?.text ?? "", null, null],
          ],
        },
      ]),
    expected: {
      sheets: [{ sheet: "Annex A", headerRow: 1, questionColumn: "B" }],
      questions: texts(annex),
    },
  });

  const nist = take(3, 6);
  const nistIds = ["AC-2", "AC-2(1)", "ID.AM-1", "PR.AC-1", "A.5.1", "1.2.3"];
  layouts.push(
    xlsxLayout({
      name: "nist-identifiers",
      shows: "identifiers AC-2, AC-2(1), ID.AM-1, PR.AC-1, A.5.1, 1.2.3 in the first column",
      preamble: [["NIST SP 800-53 control questionnaire"], ["Please complete all questions below."], null],
      header: ["Control ID", "Question", "Implementation status", "Evidence"],
      entries: nist,
      cellsOf: (entry, index) => [nistIds[index] ?? "", entry.text, null, null],
      questionColumn: 2,
    }),
  );

  const repeated = take(0, 12);
  layouts.push({
    name: "header-repeated-down-the-sheet",
    fileName: "header-repeated-down-the-sheet.xlsx",
    shows: "the header row repeated every four questions (a PDF table pasted into Excel)",
    build: () =>
      workbook([
        {
          name: "Questions",
          rows: [
            ["Security questionnaire (converted from PDF)"],
            ["ID", "Question", "Response"],
            ...repeated.flatMap((entry, index) => {
              const row: Cell[] = [`Q${index + 1}`, entry.text, null];
              return index > 0 && index % 4 === 0 ? [["ID", "Question", "Response"], row] : [row];
            }),
          ],
        },
      ]),
    expected: {
      sheets: [{ sheet: "Questions", headerRow: 2, questionColumn: "B" }],
      questions: texts(repeated),
    },
  });

  const formFirst = take(5, 6);
  layouts.push(
    xlsxLayout({
      name: "form-fields-above-header",
      shows: "vendor name and date fields, then the header in row 6",
      preamble: [["Vendor assessment"], ["Vendor name:", "Acme Corp"], ["Date completed:", "2024-05-01"], null, null],
      header: ["Ref", "Question", "Response", "Comments"],
      entries: formFirst,
      cellsOf: (entry, index) => [`R${index + 1}`, entry.text, null, null],
      questionColumn: 2,
    }),
  );

  const instructionsBelow = take(6, 5);
  layouts.push({
    name: "instruction-under-header",
    fileName: "instruction-under-header.xlsx",
    shows: "an instruction row between the header and the first question, and a Yes/No list",
    build: () =>
      workbook([
        {
          name: "Questions",
          rows: [
            ["ID", "Question", "Answer"],
            ["Please answer all questions in column C using the drop-down list."],
            ...instructionsBelow.map((entry, index) => [`Q${index + 1}`, entry.text, null]),
          ],
          validations: instructionsBelow.map((_, index) => `C${index + 3}`),
        },
      ]),
    expected: {
      sheets: [{ sheet: "Questions", headerRow: 1, questionColumn: "B" }],
      questions: texts(instructionsBelow),
    },
  });

  const guidance = take(2, 6);
  layouts.push(
    xlsxLayout({
      name: "guidance-column-longer-than-questions",
      shows: "a Guidance column whose sentences are longer than the questions, and a long column name",
      preamble: [["Vendor Security Questionnaire", "Version 2.1"], null],
      header: [
        "Question ID",
        "Security question",
        "Guidance for the assessor",
        "Response (choose Yes, No or N/A from the list and explain your answer)",
      ],
      entries: guidance,
      cellsOf: (entry, index) => [
        `SQ-${index + 1}`,
        entry.text,
        `Look for written evidence that covers ${entry.item.toLowerCase()}; a policy alone is not enough, ask for records from the last twelve months and check who approved them.`,
        null,
      ],
      questionColumn: 2,
    }),
  );
  const numbered = take(4, 6);
  layouts.push({
    name: "numbered-in-the-text",
    fileName: "numbered-in-the-text.xlsx",
    shows: "no ID column: each question starts with its number, sections in bold rows",
    build: () =>
      workbook([
        {
          name: "Questions",
          rows: [
            ["Questions", "Answers"],
            ...dataRows(
              numbered,
              (entry, index) => [`${index + 1}. ${entry.text}`, null],
              (section, index) => [`Section ${index + 1}: ${section}`],
            ),
          ],
        },
      ]),
    expected: {
      sheets: [{ sheet: "Questions", headerRow: 1, questionColumn: "A" }],
      questions: numbered.map((entry, index) => `${index + 1}. ${entry.text}`),
    },
  });

  const security = take(0, 6);
  const privacy = take(6, 6);
  layouts.push({
    name: "cover-sheet-and-two-question-sheets",
    fileName: "cover-sheet-and-two-question-sheets.xlsx",
    shows: "a cover sheet of title, sentences and form fields, then two question sheets",
    build: () =>
      workbook([
        {
          name: "Cover",
          rows: [
            ["Third-party risk assessment"],
            null,
            ["This questionnaire helps us understand how your company protects our data."],
            ["It takes about thirty minutes to complete and covers security and privacy."],
            ["Please answer every question on the following sheets."],
            null,
            ["Company name:", null],
            ["Completed by:", null],
          ],
        },
        {
          name: "Security",
          rows: [
            ["ID", "Question", "Response"],
            ...security.map((entry, index) => [`S${index + 1}`, entry.text, null]),
          ],
        },
        {
          name: "Privacy",
          rows: [
            ["Privacy questions"],
            null,
            ["ID", "Question", "Response"],
            ...privacy.map((entry, index) => [`P${index + 1}`, entry.text, null]),
          ],
        },
      ]),
    expected: {
      sheets: [
        { sheet: "Security", headerRow: 1, questionColumn: "B" },
        { sheet: "Privacy", headerRow: 3, questionColumn: "B" },
      ],
      questions: [...texts(security), ...texts(privacy)],
    },
  });
  const guided = take(2, 6);
  layouts.push({
    name: "instructions-sheet-with-a-table",
    fileName: "instructions-sheet-with-a-table.xlsx",
    shows: "an Instructions sheet whose own table explains the columns, before the questions",
    build: () =>
      workbook([
        {
          name: "Instructions",
          rows: [
            ["How to complete this questionnaire"],
            ["Column", "What to enter"],
            ["ID", "The reference of each question; do not change it."],
            ["Question", "The question we ask; read it with its section."],
            ["Response", "Your answer, with the evidence that supports it."],
          ],
        },
        {
          name: "Questionnaire",
          rows: [
            ["ID", "Question", "Response"],
            ...dataRows(
              guided,
              (entry, index) => [`${index + 1}`, entry.text, null],
              (section) => [section],
            ),
          ],
        },
      ]),
    expected: {
      sheets: [{ sheet: "Questionnaire", headerRow: 1, questionColumn: "B" }],
      questions: texts(guided),
    },
  });
  return layouts;
}

function delimitedLayouts(): QuestionnaireLayout[] {
  const preambleEntries = take(0, 6);
  const headerless = take(3, 5);
  const tsv = take(5, 6);
  const columnE = take(1, 5);
  const form = take(7, 5);
  return [
    {
      name: "csv-preamble",
      fileName: "csv-preamble.csv",
      shows: "a CSV with a title, an instruction line and a blank line above the header",
      build: async () =>
        delimited([
          ["Vendor Questionnaire 2024"],
          ["Please complete every question and return this file to security@acme.example"],
          null,
          ["ID", "Question", "Answer"],
          ...preambleEntries.map((entry, index) => [`Q${index + 1}`, entry.text, null]),
        ]),
      expected: {
        sheets: [{ sheet: "csv-preamble", headerRow: 4, questionColumn: "B" }],
        questions: texts(preambleEntries),
      },
    },
    {
      name: "csv-form-fields",
      fileName: "csv-form-fields.csv",
      shows: "a CSV with form fields (name, date) above the header",
      build: async () =>
        delimited([
          ["Vendor name:", "Acme"],
          ["Assessment date:", "2024-06-01"],
          null,
          ["Ref", "Requirement", "Compliant", "Comments"],
          ...form.map((entry, index) => [`REQ-${index + 1}`, entry.text, null, null]),
        ]),
      expected: { sheets: [{ sheet: "csv-form-fields", headerRow: 4, questionColumn: "B" }], questions: texts(form) },
    },
    {
      name: "csv-no-header",
      fileName: "csv-no-header.csv",
      shows: "a CSV of questions alone, no header",
      build: async () => delimited(headerless.map((entry) => [entry.text])),
      expected: {
        sheets: [{ sheet: "csv-no-header", headerRow: null, questionColumn: "A" }],
        questions: texts(headerless),
      },
    },
    {
      name: "tsv-title",
      fileName: "tsv-title.tsv",
      shows: "a TSV with a title line",
      build: async () =>
        delimited(
          [
            ["Security review — questions for suppliers"],
            ["No.", "Query", "Response"],
            ...tsv.map((entry, index) => [String(index + 1), entry.text, null]),
          ],
          "\t",
        ),
      expected: { sheets: [{ sheet: "tsv-title", headerRow: 2, questionColumn: "B" }], questions: texts(tsv) },
    },
    {
      name: "csv-column-e",
      fileName: "csv-column-e.csv",
      shows: "a CSV whose questions are in column E",
      build: async () =>
        delimited([
          ["Domain", "Sub-domain", "ID", "Weight", "Question", "Answer", "Comment"],
          ...columnE.map((entry, index) => [entry.section, entry.item, `D-${index + 1}`, 3, entry.text, null, null]),
        ]),
      expected: { sheets: [{ sheet: "csv-column-e", headerRow: 1, questionColumn: "E" }], questions: texts(columnE) },
    },
  ];
}

function docxLayouts(): QuestionnaireLayout[] {
  const long = Array.from({ length: 36 }, (_, index) => BANK[index % BANK.length] as BankEntry);
  const longTexts = long.map((entry, index) => `${entry.text.replace(/[?.]$/, "")} (item ${index + 1})?`);
  const repeatedBy = take(0, 12);
  const banner = take(2, 6);
  const twoTables = take(4, 6);
  const group = take(6, 5);
  return [
    {
      name: "docx-header-repeated-on-every-page",
      fileName: "docx-header-repeated-on-every-page.docx",
      shows: "a Word table of 36 questions whose header row repeats on every page (tblHeader), a title above",
      build: async () =>
        docx([
          paragraph("Supplier security questionnaire"),
          paragraph(INSTRUCTIONS[0] ?? ""),
          docxTable(
            [900, 5200, 2900],
            [
              { cells: ["ID", "Question", "Response"], repeatAsHeader: true },
              ...longTexts.map((text, index) => ({ cells: [`Q${index + 1}`, text, ""] })),
            ],
          ),
        ]),
      expected: { sheets: [{ sheet: "Table 1", headerRow: 1, questionColumn: "B" }], questions: longTexts },
    },
    {
      name: "docx-header-typed-again",
      fileName: "docx-header-typed-again.docx",
      shows: "a Word table whose header row was typed again every few rows",
      build: async () =>
        docx([
          docxTable(
            [900, 5200, 2900],
            [
              { cells: ["#", "Requirement", "Vendor response"] },
              ...repeatedBy.flatMap((entry, index) => {
                const row = { cells: [`${index + 1}`, entry.text, ""] };
                return index > 0 && index % 5 === 0 ? [{ cells: ["#", "Requirement", "Vendor response"] }, row] : [row];
              }),
            ],
          ),
        ]),
      expected: { sheets: [{ sheet: "Table 1", headerRow: 1, questionColumn: "B" }], questions: texts(repeatedBy) },
    },
    {
      name: "docx-title-row-in-table",
      fileName: "docx-title-row-in-table.docx",
      shows: "a Word table whose first row is a title spanning it, then an instruction row, then the header",
      build: async () =>
        docx([
          docxTable(
            [1000, 5000, 3000],
            [
              { cells: [{ text: "VENDOR SECURITY QUESTIONNAIRE", span: 3 }] },
              { cells: [{ text: INSTRUCTIONS[0] ?? "", span: 3 }] },
              { cells: ["Ref", "Question", "Answer"] },
              ...dataRows(
                banner,
                (entry, index) => [`${index + 1}.1`, entry.text, ""],
                (section) => [section, "", ""],
              ).map((cells) => ({ cells: cells.map((cell) => String(cell ?? "")) })),
            ],
          ),
        ]),
      expected: { sheets: [{ sheet: "Table 1", headerRow: 3, questionColumn: "B" }], questions: texts(banner) },
    },
    {
      name: "docx-contact-table-then-questions",
      fileName: "docx-contact-table-then-questions.docx",
      shows: "a contact-details table before the question table",
      build: async () =>
        docx([
          paragraph("Due diligence questionnaire"),
          docxTable(
            [3000, 6000],
            [
              { cells: ["Company", "Acme Corp"] },
              { cells: ["Contact", "Jane Doe"] },
              { cells: ["Email", "jane@acme.example"] },
            ],
          ),
          paragraph("Questions"),
          docxTable(
            [1200, 4800, 3000],
            [
              { cells: ["Item", "Description", "Response"], repeatAsHeader: true },
              ...twoTables.map((entry, index) => ({ cells: [`${index + 1}`, entry.text, ""] })),
            ],
          ),
        ]),
      expected: { sheets: [{ sheet: "Table 2", headerRow: 1, questionColumn: "B" }], questions: texts(twoTables) },
    },
    {
      name: "docx-two-row-header",
      fileName: "docx-two-row-header.docx",
      shows: "a Word table with a group name spanning Yes | No | N/A in a second header row",
      build: async () =>
        docx([
          paragraph("Compliance checklist"),
          docxTable(
            [900, 4500, 900, 900, 900],
            [
              { cells: ["ID", "Criteria", { text: "Compliant", span: 3 }] },
              { cells: ["", "", "Yes", "No", "N/A"] },
              ...group.map((entry, index) => ({ cells: [`C${index + 1}`, entry.text, "", "", ""] })),
            ],
          ),
        ]),
      expected: { sheets: [{ sheet: "Table 1", headerRow: 1, questionColumn: "B" }], questions: texts(group) },
    },
  ];
}

/** Every generated layout: spreadsheets, delimited text and Word documents. */
export function questionnaireLayouts(): QuestionnaireLayout[] {
  return [...xlsxLayouts(), ...delimitedLayouts(), ...docxLayouts()];
}
