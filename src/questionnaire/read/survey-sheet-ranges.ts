/**
 * The ranges of one worksheet that exceljs would expand cell by cell — merged ranges and data-validation
 * ranges — as the survey streams through it (survey-xlsx-sheet.ts): merges counted and measured (a merge
 * past the column limit, or past the merged-cell budget, is refused on its element), validation ranges
 * checked against the column limit, each `<dataValidation>` kept with its byte positions and, for an
 * inline list ("Yes,No,N/A"), its values. The positions let survey-xlsx-package.ts leave the elements
 * out of, or clip them in, the package exceljs sees.
 */
import { mergeTooLarge, tooManyMerges, validationTooWide } from "./questionnaire-read-refusals.js";
import type { ElementSpan } from "./stream-xml-part.js";
import type { WorkbookBudget } from "./workbook-budget.js";
import { type CellRange, parseRange, rangeArea } from "./xlsx-references.js";

/** One `<dataValidation>` element: where it is, its ranges, and its values when it is an inline list. */
export type SurveyedValidation = {
  /** Byte offsets of the element, from its `<` to the end of its closing tag. */
  start: number;
  end: number;
  /** Where its opening tag ends (the `sqref` attribute is inside it). */
  openTagEnd: number;
  ranges: CellRange[];
  /** An inline list's values ("Yes,No,N/A"); empty for other kinds and lists that refer to cells. */
  listValues: string[];
};

export type SheetRanges = {
  merges: CellRange[];
  validations: SurveyedValidation[];
  /** Byte offsets of the `<mergeCells>` and `<dataValidations>` elements, when present. */
  mergeCellsElement: ElementSpan | null;
  dataValidationsElement: ElementSpan | null;
};

export type SheetRangeSurvey = {
  readonly found: SheetRanges;
  openStart(name: string, start: number): void;
  /** Handles the element's opening tag; false when it is none of theirs. */
  open(name: string, attributes: Record<string, string>, end: number): boolean;
  close(name: string, end: number): void;
  text(text: string): void;
};

/** Excel keeps a list's formula under 256 characters; anything longer is not read as a list. */
const MAX_LIST_FORMULA = 8_192;

/** `"Yes,No,N/A"` (an inline list) -> its values; a list that refers to cells is not followed. */
function inlineListValues(formula: string): string[] {
  if (!formula.startsWith('"')) return [];
  return formula
    .slice(1, formula.endsWith('"') ? -1 : undefined)
    .split(",")
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}

type OpenValidation = SurveyedValidation & { type: string; formula: string; inFormula: boolean };

export function surveySheetRanges(input: { sheet: string; budget: WorkbookBudget }): SheetRangeSurvey {
  const { sheet, budget } = input;
  const { fileName, limits, counts } = budget;
  const found: SheetRanges = { merges: [], validations: [], mergeCellsElement: null, dataValidationsElement: null };
  let containerStart = 0;
  let validation: OpenValidation | null = null;

  const addMerge = (reference: string) => {
    const range = parseRange(reference);
    if (!range) return;
    counts.merges += 1;
    if (counts.merges > limits.maxMerges) throw tooManyMerges(fileName, limits);
    counts.mergedCells += rangeArea(range);
    if (range.right > limits.maxColumns || counts.mergedCells > limits.maxMergedCells) {
      throw mergeTooLarge(fileName, sheet, range, limits);
    }
    found.merges.push(range);
  };
  const addValidationRanges = (open: OpenValidation, sqref: string) => {
    for (const reference of sqref.split(/\s+/).filter(Boolean)) {
      const range = parseRange(reference);
      if (!range) continue;
      if (range.right > limits.maxColumns) throw validationTooWide(fileName, sheet, range, limits);
      counts.validationRanges += 1;
      open.ranges.push(range);
    }
  };

  return {
    found,
    openStart(name, start) {
      if (name === "mergeCells" || name === "dataValidations") containerStart = start;
      else if (name === "dataValidation") {
        validation = {
          start,
          end: 0,
          openTagEnd: 0,
          ranges: [],
          listValues: [],
          type: "",
          formula: "",
          inFormula: false,
        };
      }
    },
    open(name, attributes, end) {
      if (name === "mergeCell") addMerge(attributes.ref ?? "");
      else if (name === "dataValidation" && validation) {
        validation.openTagEnd = end;
        validation.type = attributes.type ?? "";
        addValidationRanges(validation, attributes.sqref ?? "");
      } else if (name === "formula1" && validation) validation.inFormula = true;
      else return name === "mergeCells" || name === "dataValidations";
      return true;
    },
    close(name, end) {
      if (name === "formula1" && validation) validation.inFormula = false;
      else if (name === "dataValidation" && validation) {
        const { type, formula, inFormula: _inFormula, ...element } = validation;
        const values = type === "list" ? inlineListValues(Buffer.from(formula, "latin1").toString("utf8")) : [];
        found.validations.push({ ...element, end, listValues: values });
        validation = null;
      } else if (name === "mergeCells") found.mergeCellsElement = { start: containerStart, end };
      else if (name === "dataValidations") found.dataValidationsElement = { start: containerStart, end };
    },
    text(text) {
      if (validation?.inFormula && validation.formula.length < MAX_LIST_FORMULA) validation.formula += text;
    },
  };
}
