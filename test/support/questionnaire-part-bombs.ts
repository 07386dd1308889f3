/**
 * The workbook parts issue #37 found the survey never counted, built in code: rich-text runs (the
 * review's 7.3 MB workbook whose one shared string holds 3,000,000 `<r><rPr>…</rPr><t>x</t></r>` runs,
 * and the same runs in an inline string or a comment), defined names whose areas exceljs builds cell by
 * cell, a styles part of 300,000 fonts and 1,500,000 cell formats, and many comments. Each comes with
 * the code it must be refused with. Run properties vary (a seeded sequence), so every part stays under
 * the zip guard's 100× ratio as the review's did and reaches the survey.
 */
import { buildXlsx, type QuestionnaireBomb, questionRows } from "./questionnaire-bombs.js";
import { createSeededRandom } from "./seeded-random.js";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

/** `count` runs of one character each, each its own colour from a seeded sequence (48 bytes a run). */
export function richTextRuns(count: number, seed = 37): string {
  const random = createSeededRandom(seed);
  const runs: string[] = new Array(count);
  for (let index = 0; index < count; index++) {
    const colour = Math.floor(random() * 65_536);
    runs[index] = `<r><rPr><color rgb="FF${colour.toString(16).padStart(4, "0")}00"/></rPr><t>x</t></r>`;
  }
  return runs.join("");
}

/** The review's workbook: one question sheet, and a shared string of `runs` runs referenced from C2. */
export function richTextSharedStringsWorkbook(runs: number): Uint8Array {
  return buildXlsx(
    [
      {
        name: "Questions",
        rows: questionRows(5),
        extraRowsXml: '<row r="7"><c r="C7" t="s"><v>0</v></c></row>',
      },
    ],
    {
      sharedStringsXml: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${MAIN}" count="1" uniqueCount="1"><si>${richTextRuns(runs)}</si></sst>`,
      level: 6,
    },
  );
}

/** The same runs as an inline string of one cell. */
export function richTextInlineWorkbook(runs: number): Uint8Array {
  return buildXlsx(
    [
      {
        name: "Questions",
        rows: questionRows(5),
        extraRowsXml: `<row r="7"><c r="C7" t="inlineStr"><is>${richTextRuns(runs)}</is></c></row>`,
      },
    ],
    { level: 6 },
  );
}

/** A comments part (with its relationship) on the first sheet: `comments` notes of `runsEach` runs. */
function commentParts(comments: number, runsEach: number): Record<string, string> {
  const notes = Array.from(
    { length: comments },
    (_, index) =>
      `<comment ref="C${index + 2}" authorId="0"><text>${richTextRuns(runsEach, index + 1)}</text></comment>`,
  ).join("");
  return commentPartsXml(notes);
}

/** The comments part holding these `<comment>` elements, and the first sheet's relationship to it. */
function commentPartsXml(notes: string): Record<string, string> {
  return {
    "xl/comments1.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><comments xmlns="${MAIN}"><authors><author>Reviewer</author></authors><commentList>${notes}</commentList></comments>`,
    "xl/worksheets/_rels/sheet1.xml.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="../comments1.xml"/></Relationships>`,
  };
}

/** A styles part of `fonts` fonts and `cellFormats` cell formats (the review's: 300,000 and 1,500,000). */
export function stylesXml(fonts: number, cellFormats: number): string {
  const fontList = Array.from(
    { length: fonts },
    (_, index) => `<font><sz val="${8 + (index % 30)}"/><name val="F${index}"/></font>`,
  ).join("");
  const formats = Array.from(
    { length: cellFormats },
    (_, index) => `<xf numFmtId="0" fontId="${index % Math.max(1, fonts)}" fillId="0" borderId="0"/>`,
  ).join("");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="${MAIN}"><fonts count="${fonts}">${fontList}</fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${cellFormats}">${formats}</cellXfs></styleSheet>`;
}

/** `count` defined names, each the area `Q!$A$1:$IV$2000` (512,000 cells) by default: the review's was 40. */
export function definedNamesXml(count: number, area = "Questions!$A$1:$IV$2000"): string {
  return Array.from({ length: count }, (_, index) => `<definedName name="Area${index + 1}">${area}</definedName>`).join(
    "",
  );
}

export type PartBombSizes = {
  /** Runs in the shared string (the review's 3,000,000). */
  sharedRuns: number;
  inlineRuns: number;
  /** Comments of 100 runs each. */
  commentRuns: number;
  comments: number;
};

/** The review's sizes; tests may pass smaller ones that still pass every limit they test. */
export const REVIEW_SIZES: PartBombSizes = {
  sharedRuns: 3_000_000,
  inlineRuns: 1_000_000,
  commentRuns: 1_000_000,
  comments: 50_000,
};

/** Issue #37's workbooks and their variants, each with its refusal code. */
export function workbookPartBombs(sizes: PartBombSizes = REVIEW_SIZES): QuestionnaireBomb[] {
  const bomb = (name: string, code: string, bytes: Uint8Array): QuestionnaireBomb => ({
    name,
    fileName: `${name}.xlsx`,
    bytes,
    code,
    as: "questionnaire",
  });
  const sheet = { name: "Questions", rows: questionRows(5) };
  return [
    bomb(
      "rich-text-shared-strings",
      "questionnaire_too_many_text_runs",
      richTextSharedStringsWorkbook(sizes.sharedRuns),
    ),
    bomb("rich-text-inline", "questionnaire_too_many_text_runs", richTextInlineWorkbook(sizes.inlineRuns)),
    bomb(
      "rich-text-comments",
      "questionnaire_too_many_text_runs",
      buildXlsx([sheet], { parts: commentParts(Math.ceil(sizes.commentRuns / 100), 100), level: 6 }),
    ),
    bomb(
      "many-comments",
      "questionnaire_too_many_comments",
      buildXlsx([sheet], { parts: commentParts(sizes.comments, 1), level: 6 }),
    ),
    bomb(
      "defined-names",
      "questionnaire_defined_names_too_large",
      buildXlsx([sheet], { definedNamesXml: definedNamesXml(40) }),
    ),
    bomb(
      "many-defined-names",
      "questionnaire_defined_names_too_large",
      buildXlsx([sheet], { definedNamesXml: definedNamesXml(20_000, "Questions!$A$1") }),
    ),
    bomb(
      "styles",
      "questionnaire_too_many_styles",
      buildXlsx([sheet], { parts: { "xl/styles.xml": stylesXml(300_000, 1_500_000) }, level: 6 }),
    ),
  ];
}

/**
 * The largest XLSX questionnaire the limits let through, every new count just under its limit at once:
 * 5,000 rows × 40 columns of shared strings (200,000 filled cells), the questions as rich text of 19 runs
 * each (95,000 runs), 9,998 comments, 99,000 cell formats, named ranges covering 450,000 cells, 4,999
 * two-cell merges and a validation list on the answer column. What the worker must read and fill
 * within its bounds (bench/questionnaire-bombs.ts downloads its copy eight times at once).
 */
export function largestAllowedWorkbook(): Uint8Array {
  const rows = 5_000;
  const columns = 40;
  const strings: string[] = [];
  const cell = (reference: string, text: string, style: number) => {
    strings.push(text);
    return `<c r="${reference}" t="s" s="${style}"><v>${strings.length - 1}</v></c>`;
  };
  const sheetRows: string[] = [];
  for (let row = 1; row <= rows; row++) {
    const cells: string[] = [];
    for (let column = 1; column <= columns; column++) {
      const reference = `${columnName(column)}${row}`;
      const style = (row * columns + column) % 99_000;
      if (row === 1) cells.push(cell(reference, column === 1 ? "Question" : `Note ${column}`, style));
      else if (column === 1) {
        const words = Array.from(
          { length: 19 },
          (_, index) => `<r><rPr><b val="${index % 2}"/></rPr><t xml:space="preserve">w${row}-${index} </t></r>`,
        );
        strings.push(`\u0000${words.join("")}`);
        cells.push(`<c r="${reference}" t="s" s="${style}"><v>${strings.length - 1}</v></c>`);
      } else cells.push(cell(reference, `n${row}-${column}`, style));
    }
    sheetRows.push(`<row r="${row}">${cells.join("")}</row>`);
  }
  const sharedItems = strings
    .map((text) => (text.startsWith("\u0000") ? `<si>${text.slice(1)}</si>` : `<si><t>${text}</t></si>`))
    .join("");
  const comments = Array.from({ length: 9_998 }, (_, index) => {
    const reference = `${index % 2 === 0 ? "A" : "B"}${2 + Math.floor(index / 2)}`;
    return `<comment ref="${reference}" authorId="0"><text><t>Reviewer note ${index + 1}</t></text></comment>`;
  }).join("");
  const merges = Array.from({ length: 4_999 }, (_, index) => `<mergeCell ref="AO${index + 2}:AP${index + 2}"/>`).join(
    "",
  );
  const names = Array.from(
    { length: 9 },
    (_, index) =>
      `<definedName name="Block${index + 1}">Questions!$A$${index * 500 + 1}:$AN$${index * 500 + 1250}</definedName>`,
  ).join("");
  return buildXlsx(
    [
      {
        name: "Questions",
        extraRowsXml: sheetRows.join(""),
        afterSheetData: `<mergeCells count="4999">${merges}</mergeCells><dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="B2:B5000"><formula1>"Yes,No,N/A"</formula1></dataValidation></dataValidations>`,
      },
    ],
    {
      sharedStringsXml: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">${sharedItems}</sst>`,
      definedNamesXml: names,
      parts: {
        "xl/styles.xml": stylesXml(900, 98_000),
        ...commentPartsXml(comments),
      },
      level: 6,
    },
  );
}

function columnName(column: number): string {
  let letters = "";
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}
