/**
 * Measures an unpacked XLSX package before exceljs opens it, and gives exceljs a version of it whose
 * cost is bounded. exceljs builds an object for every cell a merged range covers (and compares each
 * merge with every earlier one) and a model entry for every cell a data-validation range covers: a 5 KB
 * file merging A10:XFD1048576, or validating A1:XFD1048576, takes the process down; so do rich-text
 * runs, defined names, styles and comments past all reason (#37). So the survey streams through every
 * part exceljs would parse — each worksheet (survey-xlsx-sheet.ts), the shared strings, styles, comments,
 * defined names and the rest (survey-workbook-parts.ts), under the names exceljs gives them
 * (xlsx-part-kinds.ts) — refusing a file past the limits; then:
 * - for reading (the grid), the merges and validation lists are taken from the survey and blanked out of
 *   the XML exceljs sees, and so are the defined names;
 * - for writing the filled copy, merges stay (the survey held them under the limits) and each validation
 *   range is clipped to the rows in use — a whole-column list (C1:C1048576, which Excel writes when a
 *   column is selected) cost exceljs 14 s per copy; clipped it still covers every row of the questionnaire.
 */
import type { QuestionnaireReadLimits } from "./questionnaire-read-limits.js";
import { damagedWorkbook, tooManySheets, tooManyValidationCells } from "./questionnaire-read-refusals.js";
import type { ElementSpan } from "./stream-xml-part.js";
import {
  surveyComments,
  surveyDefinedNames,
  surveyOtherPart,
  surveySharedStrings,
  surveyStyles,
} from "./survey-workbook-parts.js";
import { type SheetSurvey, surveyXlsxSheet } from "./survey-xlsx-sheet.js";
import { createWorkbookBudget, type WorkbookBudget } from "./workbook-budget.js";
import { normalPartName, partKind } from "./xlsx-part-kinds.js";
import { type CellRange, describeRange, rangeArea } from "./xlsx-references.js";
import { worksheetNames } from "./xlsx-sheet-names.js";

export type XlsxSurvey = {
  /** The package's parts under the names exceljs gives them (a leading "/" dropped). */
  files: Record<string, Uint8Array>;
  /** Every worksheet part exceljs reads, in package order. */
  sheets: SheetSurvey[];
  /** By the sheet's name in the workbook (how exceljs names its worksheets). */
  bySheetName: Map<string, SheetSurvey>;
  /** Where xl/workbook.xml holds its `<definedNames>`, when it has them. */
  definedNamesElement: ElementSpan | null;
};

/** The parts under exceljs's names; two entries that become one name are a damaged package. */
function normalisePartNames(files: Record<string, Uint8Array>, fileName: string): Record<string, Uint8Array> {
  const normal: Record<string, Uint8Array> = Object.create(null);
  for (const [name, data] of Object.entries(files)) {
    const part = normalPartName(name);
    if (Object.hasOwn(normal, part)) throw damagedWorkbook(fileName, `two parts are named "${part}"`);
    normal[part] = data;
  }
  return normal;
}

/** A validation range cut to the rows in use; null when none of its rows is. */
function clipToRows(range: CellRange, lastRow: number): CellRange | null {
  if (range.top > lastRow) return null;
  return { ...range, bottom: Math.min(range.bottom, lastRow) };
}

/**
 * Every part exceljs parses besides the worksheets, measured (survey-workbook-parts.ts); the shared
 * strings' lengths and where the defined names are come back for the sheets and the package.
 */
function surveyOtherParts(files: Record<string, Uint8Array>, budget: WorkbookBudget) {
  let sharedStringBytes: number[] = [];
  let definedNamesElement: ElementSpan | null = null;
  for (const [part, xml] of Object.entries(files)) {
    switch (partKind(part)) {
      case "sharedStrings":
        sharedStringBytes = surveySharedStrings(xml, part, budget);
        break;
      case "styles":
        surveyStyles(xml, part, budget);
        break;
      case "workbook":
        definedNamesElement = surveyDefinedNames(xml, part, budget);
        break;
      case "comments":
        surveyComments(xml, part, budget);
        break;
      case "parsed":
        surveyOtherPart(xml, part, budget);
        break;
    }
  }
  return { sharedStringBytes, definedNamesElement };
}

function surveySheets(
  files: Record<string, Uint8Array>,
  parts: string[],
  budget: WorkbookBudget,
  sharedStringBytes: number[],
): SheetSurvey[] {
  const { fileName, limits } = budget;
  let names: Map<string, string>;
  try {
    names = worksheetNames(files);
  } catch (error) {
    throw damagedWorkbook(fileName, "its list of sheets is not well-formed XML", error);
  }
  const sheets: SheetSurvey[] = [];
  let validationCells = 0;
  for (const part of parts) {
    const xml = files[part];
    if (!xml) continue;
    const survey = surveyXlsxSheet({ part, sheet: names.get(part) ?? part, xml, budget, sharedStringBytes });
    for (const validation of survey.validations) {
      for (const range of validation.ranges) {
        const clipped = clipToRows(range, survey.lastRow);
        validationCells += clipped ? rangeArea(clipped) : 0;
        if (validationCells > limits.maxValidationCells) throw tooManyValidationCells(fileName, limits);
      }
    }
    sheets.push(survey);
  }
  return sheets;
}

export function surveyXlsxPackage(
  unpacked: Record<string, Uint8Array>,
  fileName: string,
  limits: QuestionnaireReadLimits,
): XlsxSurvey {
  const files = normalisePartNames(unpacked, fileName);
  const parts = Object.keys(files).filter((name) => partKind(name) === "worksheet");
  if (parts.length > limits.maxSheets) throw tooManySheets(fileName, parts.length, limits);
  const budget = createWorkbookBudget(fileName, limits);
  const { sharedStringBytes, definedNamesElement } = surveyOtherParts(files, budget);
  const sheets = surveySheets(files, parts, budget, sharedStringBytes);
  const bySheetName = new Map<string, SheetSurvey>();
  for (const survey of sheets) bySheetName.set(survey.sheet, survey);
  return { files, sheets, bySheetName, definedNamesElement };
}

const WORKBOOK_PART = "xl/workbook.xml";

type Edit = { start: number; end: number; replacement: string | null };

/** The part with each edit applied: a replacement (Latin-1) or, for null, spaces over the bytes. */
function applyEdits(xml: Uint8Array, edits: Edit[]): Uint8Array {
  if (edits.length === 0) return xml;
  const pieces: Buffer[] = [];
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    if (edit.start < at) continue;
    pieces.push(Buffer.from(xml.subarray(at, edit.start)));
    pieces.push(
      edit.replacement === null ? Buffer.alloc(edit.end - edit.start, 0x20) : Buffer.from(edit.replacement, "latin1"),
    );
    at = edit.end;
  }
  pieces.push(Buffer.from(xml.subarray(at)));
  return new Uint8Array(Buffer.concat(pieces));
}

function withEdits(
  survey: XlsxSurvey,
  editsOf: (sheet: SheetSurvey, xml: Uint8Array) => Edit[],
): Record<string, Uint8Array> {
  const { files } = survey;
  const edited: Record<string, Uint8Array> = Object.create(null);
  for (const [name, data] of Object.entries(files)) edited[name] = data;
  for (const sheet of survey.sheets) {
    const xml = files[sheet.part];
    if (xml) edited[sheet.part] = applyEdits(xml, editsOf(sheet, xml));
  }
  return edited;
}

/**
 * The package for reading cells: merges and validation lists left out (the grid takes them from the
 * survey), and the defined names too — the grid never uses them, and the survey has already refused
 * names past the limits, so the upload is refused rather than the filled copy later.
 */
export function packageForReading(survey: XlsxSurvey): Record<string, Uint8Array> {
  const edited = withEdits(survey, (sheet) =>
    [sheet.mergeCellsElement, sheet.dataValidationsElement]
      .filter((element) => element !== null)
      .map((element) => ({ ...element, replacement: null })),
  );
  const workbook = survey.files[WORKBOOK_PART];
  if (workbook && survey.definedNamesElement) {
    edited[WORKBOOK_PART] = applyEdits(workbook, [{ ...survey.definedNamesElement, replacement: null }]);
  }
  return edited;
}

/**
 * The package for writing the filled copy: each validation range clipped to the rows in use. Defined
 * names stay (formulas and lists refer to them), within the limits the survey held them to.
 */
export function packageForFilling(survey: XlsxSurvey): Record<string, Uint8Array> {
  return withEdits(survey, (sheet, xml) => {
    const edits: Edit[] = [];
    for (const validation of sheet.validations) {
      const clipped = validation.ranges
        .map((range) => clipToRows(range, sheet.lastRow))
        .filter((range) => range !== null);
      if (clipped.length === 0) {
        edits.push({ start: validation.start, end: validation.end, replacement: null });
        continue;
      }
      const openTag = Buffer.from(xml.subarray(validation.start, validation.openTagEnd)).toString("latin1");
      const sqref = clipped.map(describeRange).join(" ");
      const rewritten = openTag.replace(/(\bsqref\s*=\s*)("[^"]*"|'[^']*')/, `$1"${sqref}"`);
      if (rewritten !== openTag)
        edits.push({ start: validation.start, end: validation.openTagEnd, replacement: rewritten });
    }
    return edits;
  });
}

/**
 * The sheet's inline validation lists per cell ("row:column", 1-based column) -> values, each range cut
 * to the rows in use (the survey held the total under `maxValidationCells`). Later lists win a cell, as
 * exceljs's model did.
 */
export function validationListsOf(sheet: SheetSurvey): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  for (const validation of sheet.validations) {
    if (validation.listValues.length === 0) continue;
    for (const range of validation.ranges) {
      const clipped = clipToRows(range, sheet.lastRow);
      if (!clipped) continue;
      for (let row = clipped.top; row <= clipped.bottom; row++) {
        for (let column = clipped.left; column <= clipped.right; column++) {
          lists.set(`${row}:${column}`, validation.listValues);
        }
      }
    }
  }
  return lists;
}
