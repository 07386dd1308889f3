/**
 * Measures an unpacked XLSX package before exceljs opens it, and gives exceljs a version of it whose
 * cost is bounded. exceljs builds an object for every cell a merged range covers (and compares each
 * merge with every earlier one) and a model entry for every cell a data-validation range covers: a 5 KB
 * file merging A10:XFD1048576, or validating A1:XFD1048576, takes the process down. So the survey
 * (survey-xlsx-sheet.ts) streams through the shared strings and every worksheet exceljs would read,
 * refusing a file past the limits; then:
 * - for reading (the grid), the merges and validation lists are taken from the survey and blanked out of
 *   the XML exceljs sees;
 * - for writing the filled copy, merges stay (the survey held them under the limits) and each validation
 *   range is clipped to the rows in use — a whole-column list (C1:C1048576, which Excel writes when a
 *   column is selected) cost exceljs 14 s per copy; clipped it still covers every row of the questionnaire.
 */
import { SaxesParser } from "saxes";
import { isFolioError } from "../../errors.js";
import type { QuestionnaireReadLimits } from "./questionnaire-read-limits.js";
import {
  damagedWorkbook,
  sharedStringsTooLarge,
  tooManySheets,
  tooManyValidationCells,
} from "./questionnaire-read-refusals.js";
import { type SheetSurvey, surveyXlsxSheet, type WorkbookBudget } from "./survey-xlsx-sheet.js";
import { type CellRange, describeRange, rangeArea } from "./xlsx-references.js";
import { worksheetNames } from "./xlsx-sheet-names.js";

/** The worksheet parts exceljs reads (its own pattern, unanchored as it is). */
const WORKSHEET_PART = /xl\/worksheets\/sheet(\d+)[.]xml/;
const SHARED_STRINGS_PART = "xl/sharedStrings.xml";

export type XlsxSurvey = {
  /** Every worksheet part exceljs reads, in package order. */
  sheets: SheetSurvey[];
  /** By the sheet's name in the workbook (how exceljs names its worksheets). */
  bySheetName: Map<string, SheetSurvey>;
};

/** Byte length of each shared string's text, by index; refuses a table past the limits. */
function sharedStringLengths(xml: Uint8Array | undefined, fileName: string, limits: QuestionnaireReadLimits): number[] {
  const lengths: number[] = [];
  if (!xml) return lengths;
  let current = -1;
  let inText = false;
  let total = 0;
  const parser = new SaxesParser({ xmlns: false, position: false });
  const onText = (text: string) => {
    if (!inText || current < 0) return;
    current += text.length;
    total += text.length;
    if (total > limits.maxSharedStringBytes) throw sharedStringsTooLarge(fileName, limits);
  };
  parser.on("opentag", (node) => {
    const name = node.name.slice(node.name.indexOf(":") + 1);
    if (name === "si") current = 0;
    else if (name === "t") inText = true;
  });
  parser.on("closetag", (node) => {
    const name = node.name.slice(node.name.indexOf(":") + 1);
    if (name === "t") inText = false;
    else if (name === "si") {
      lengths.push(Math.max(0, current));
      current = -1;
      if (lengths.length > limits.maxSharedStrings) throw sharedStringsTooLarge(fileName, limits);
    }
  });
  parser.on("text", onText);
  parser.on("cdata", onText);
  const bytes = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength);
  try {
    for (let offset = 0; offset < bytes.byteLength; offset += 256 * 1024) {
      parser.write(bytes.toString("latin1", offset, Math.min(bytes.byteLength, offset + 256 * 1024)));
    }
    parser.close();
  } catch (error) {
    if (isFolioError(error)) throw error;
    throw damagedWorkbook(fileName, "its table of texts is not well-formed XML", error);
  }
  return lengths;
}

/** A validation range cut to the rows in use; null when none of its rows is. */
function clipToRows(range: CellRange, lastRow: number): CellRange | null {
  if (range.top > lastRow) return null;
  return { ...range, bottom: Math.min(range.bottom, lastRow) };
}

export function surveyXlsxPackage(
  files: Record<string, Uint8Array>,
  fileName: string,
  limits: QuestionnaireReadLimits,
): XlsxSurvey {
  const parts = Object.keys(files).filter((name) => WORKSHEET_PART.test(name));
  if (parts.length > limits.maxSheets) throw tooManySheets(fileName, parts.length, limits);
  let names: Map<string, string>;
  try {
    names = worksheetNames(files);
  } catch (error) {
    throw damagedWorkbook(fileName, "its list of sheets is not well-formed XML", error);
  }
  const sharedStringBytes = sharedStringLengths(files[SHARED_STRINGS_PART], fileName, limits);
  const budget: WorkbookBudget = {
    cells: 0,
    cellElements: 0,
    rowElements: 0,
    textCharacters: 0,
    merges: 0,
    mergedCells: 0,
    validationRanges: 0,
  };
  const sheets: SheetSurvey[] = [];
  let validationCells = 0;
  for (const part of parts) {
    const xml = files[part];
    if (!xml) continue;
    const sheet = names.get(part) ?? part;
    const survey = surveyXlsxSheet({ part, sheet, xml, fileName, limits, budget, sharedStringBytes });
    for (const validation of survey.validations) {
      for (const range of validation.ranges) {
        const clipped = clipToRows(range, survey.lastRow);
        validationCells += clipped ? rangeArea(clipped) : 0;
        if (validationCells > limits.maxValidationCells) throw tooManyValidationCells(fileName, limits);
      }
    }
    sheets.push(survey);
  }
  const bySheetName = new Map<string, SheetSurvey>();
  for (const survey of sheets) bySheetName.set(survey.sheet, survey);
  return { sheets, bySheetName };
}

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
  files: Record<string, Uint8Array>,
  survey: XlsxSurvey,
  editsOf: (sheet: SheetSurvey, xml: Uint8Array) => Edit[],
): Record<string, Uint8Array> {
  const edited: Record<string, Uint8Array> = Object.create(null);
  for (const [name, data] of Object.entries(files)) edited[name] = data;
  for (const sheet of survey.sheets) {
    const xml = files[sheet.part];
    if (xml) edited[sheet.part] = applyEdits(xml, editsOf(sheet, xml));
  }
  return edited;
}

/** The package for reading cells: merges and validation lists left out (the grid takes them from the survey). */
export function packageForReading(files: Record<string, Uint8Array>, survey: XlsxSurvey): Record<string, Uint8Array> {
  return withEdits(files, survey, (sheet) =>
    [sheet.mergeCellsElement, sheet.dataValidationsElement]
      .filter((element) => element !== null)
      .map((element) => ({ ...element, replacement: null })),
  );
}

/** The package for writing the filled copy: each validation range clipped to the rows in use. */
export function packageForFilling(files: Record<string, Uint8Array>, survey: XlsxSurvey): Record<string, Uint8Array> {
  return withEdits(files, survey, (sheet, xml) => {
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
