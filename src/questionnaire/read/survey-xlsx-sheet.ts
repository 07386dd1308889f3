/**
 * Streams through one worksheet's XML (saxes, a few hundred KB at a time) and measures it before exceljs
 * may build anything from it: every cell's column, the cells and rows it defines, the text its cells
 * hold (shared strings by their measured length), its merged ranges and its data-validation lists. A
 * file past a limit is refused on the element that crosses it (questionnaire-read-refusals.ts); what
 * exceljs would expand cell by cell — merges, validation ranges — is recorded with its byte positions,
 * so the package handed to exceljs can leave it out or clip it (survey-xlsx-package.ts).
 *
 * The XML is decoded as Latin-1, one character per byte, so saxes's positions are byte offsets into the
 * part; only tag names, attributes and lengths are read, and the one text kept (a validation list's
 * values) is re-decoded as UTF-8.
 */
import { SaxesParser } from "saxes";
import { isFolioError } from "../../errors.js";
import { EXCEL_MAX_COLUMNS, EXCEL_MAX_ROWS, type QuestionnaireReadLimits } from "./questionnaire-read-limits.js";
import {
  cellPastLastColumn,
  damagedWorkbook,
  mergeTooLarge,
  tooManyCellElements,
  tooManyCells,
  tooManyMerges,
  tooManyRowElements,
  tooMuchText,
  validationTooWide,
} from "./questionnaire-read-refusals.js";
import { type CellRange, parseCellReference, parseRange, rangeArea } from "./xlsx-references.js";

/** What a whole workbook has used of its limits so far (all sheets together). */
export type WorkbookBudget = {
  cells: number;
  cellElements: number;
  rowElements: number;
  textCharacters: number;
  merges: number;
  mergedCells: number;
  validationRanges: number;
};

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

export type SheetSurvey = {
  part: string;
  sheet: string;
  merges: CellRange[];
  validations: SurveyedValidation[];
  /** Byte offsets of the `<mergeCells>` and `<dataValidations>` elements, when present. */
  mergeCellsElement: { start: number; end: number } | null;
  dataValidationsElement: { start: number; end: number } | null;
  /** The last row any `<row>` or `<c>` names. */
  lastRow: number;
  /** Rows as exceljs counts them: the last row named, or the bottom of a merge below it. */
  rowCount: number;
};

export type SheetSurveyInput = {
  part: string;
  sheet: string;
  xml: Uint8Array;
  fileName: string;
  limits: QuestionnaireReadLimits;
  budget: WorkbookBudget;
  /** Byte length of each shared string, by index (survey-xlsx-package.ts). */
  sharedStringBytes: ArrayLike<number>;
};

const CHUNK_BYTES = 256 * 1024;
/** Excel keeps a list's formula under 256 characters; anything longer is not read as a list. */
const MAX_LIST_FORMULA = 8_192;

function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

/** `"Yes,No,N/A"` (an inline list) -> its values; a list that refers to cells is not followed. */
function inlineListValues(formula: string): string[] {
  if (!formula.startsWith('"')) return [];
  return formula
    .slice(1, formula.endsWith('"') ? -1 : undefined)
    .split(",")
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}

type OpenCell = { row: number; column: number; type: string; hasValue: boolean; textBytes: number; index: string };

export function surveyXlsxSheet(input: SheetSurveyInput): SheetSurvey {
  const { limits, budget, fileName, sheet } = input;
  const survey: SheetSurvey = {
    part: input.part,
    sheet,
    merges: [],
    validations: [],
    mergeCellsElement: null,
    dataValidationsElement: null,
    lastRow: 0,
    rowCount: 0,
  };
  const bom = input.xml[0] === 0xef && input.xml[1] === 0xbb && input.xml[2] === 0xbf ? 3 : 0;
  const parser = new SaxesParser({ xmlns: false, position: true });
  const startOf = (name: string) => bom + parser.position - name.length - 2;
  let row = 0;
  let column = 0;
  let cell: OpenCell | null = null;
  let inValue = false;
  let inInlineText = false;
  let inFormula = false;
  let validation: (SurveyedValidation & { type: string; formula: string; inFormula: boolean }) | null = null;
  let containerStart = 0;

  const addText = (length: number) => {
    budget.textCharacters += length;
    if (budget.textCharacters > limits.maxTextCharacters) throw tooMuchText(fileName, limits);
  };
  const onText = (text: string) => {
    if (cell && inValue) {
      cell.textBytes += text.length;
      if (cell.type === "s" && cell.index.length < 16) cell.index += text;
      else addText(text.length);
    } else if (cell && (inInlineText || inFormula)) {
      cell.textBytes += text.length;
      addText(text.length);
    } else if (validation?.inFormula && validation.formula.length < MAX_LIST_FORMULA) {
      validation.formula += text;
    }
  };

  parser.on("opentagstart", (node) => {
    const name = localName(node.name);
    if (name === "mergeCells" || name === "dataValidations") containerStart = startOf(node.name);
    else if (name === "dataValidation") {
      validation = {
        start: startOf(node.name),
        end: 0,
        openTagEnd: 0,
        ranges: [],
        listValues: [],
        type: "",
        formula: "",
        inFormula: false,
      };
    }
  });
  parser.on("opentag", (node) => {
    const attributes = node.attributes as Record<string, string>;
    switch (localName(node.name)) {
      case "row": {
        budget.rowElements += 1;
        if (budget.rowElements > limits.maxRowElements) throw tooManyRowElements(fileName, limits);
        row = attributes.r === undefined ? row + 1 : Number(attributes.r);
        if (!Number.isInteger(row) || row < 1 || row > EXCEL_MAX_ROWS) {
          throw damagedWorkbook(fileName, `a row numbered "${attributes.r}" on sheet "${sheet}"`);
        }
        survey.lastRow = Math.max(survey.lastRow, row);
        column = 0;
        return;
      }
      case "c": {
        budget.cellElements += 1;
        if (budget.cellElements > limits.maxCellElements) throw tooManyCellElements(fileName, limits);
        const reference = attributes.r === undefined ? null : parseCellReference(attributes.r);
        if (attributes.r !== undefined && reference === null) {
          throw damagedWorkbook(fileName, `a cell at "${attributes.r}" on sheet "${sheet}"`);
        }
        const at = reference ?? { row: Math.max(row, 1), column: column + 1 };
        if (at.row > EXCEL_MAX_ROWS) throw damagedWorkbook(fileName, `a cell at "${attributes.r}" on sheet "${sheet}"`);
        if (at.column > limits.maxColumns) throw cellPastLastColumn(fileName, sheet, at, limits);
        column = at.column;
        survey.lastRow = Math.max(survey.lastRow, at.row);
        cell = { ...at, type: attributes.t ?? "n", hasValue: false, textBytes: 0, index: "" };
        return;
      }
      case "v":
        if (cell) {
          cell.hasValue = true;
          inValue = true;
        }
        return;
      case "f":
        if (cell) cell.hasValue = true;
        inFormula = cell !== null;
        return;
      case "is":
        if (cell) cell.hasValue = true;
        return;
      case "t":
        inInlineText = cell !== null;
        return;
      case "mergeCell": {
        const range = parseRange(attributes.ref ?? "");
        if (!range) return;
        budget.merges += 1;
        if (budget.merges > limits.maxMerges) throw tooManyMerges(fileName, limits);
        budget.mergedCells += rangeArea(range);
        if (range.right > limits.maxColumns || budget.mergedCells > limits.maxMergedCells) {
          throw mergeTooLarge(fileName, sheet, range, limits);
        }
        survey.merges.push(range);
        return;
      }
      case "dataValidation": {
        if (!validation) return;
        validation.openTagEnd = bom + parser.position;
        validation.type = attributes.type ?? "";
        for (const reference of (attributes.sqref ?? "").split(/\s+/).filter(Boolean)) {
          const range = parseRange(reference);
          if (!range) continue;
          if (range.right > limits.maxColumns) throw validationTooWide(fileName, sheet, range, limits);
          budget.validationRanges += 1;
          validation.ranges.push(range);
        }
        return;
      }
      case "formula1":
        if (validation) validation.inFormula = true;
        return;
      case "col": {
        const max = Number(attributes.max ?? attributes.min ?? 1);
        if (!Number.isFinite(max) || max > EXCEL_MAX_COLUMNS) {
          throw damagedWorkbook(fileName, `a column definition up to column ${attributes.max} on sheet "${sheet}"`);
        }
        return;
      }
    }
  });
  parser.on("text", onText);
  parser.on("cdata", onText);
  parser.on("closetag", (node) => {
    switch (localName(node.name)) {
      case "c": {
        if (cell?.hasValue) {
          budget.cells += 1;
          if (budget.cells > limits.maxCells) throw tooManyCells(fileName, limits);
          if (cell.type === "s") addText(input.sharedStringBytes[Number(cell.index.trim())] ?? 0);
        }
        cell = null;
        return;
      }
      case "v":
        inValue = false;
        return;
      case "t":
        inInlineText = false;
        return;
      case "f":
        inFormula = false;
        return;
      case "formula1":
        if (validation) validation.inFormula = false;
        return;
      case "dataValidation": {
        if (!validation) return;
        const { type, formula, inFormula: _inFormula, ...element } = validation;
        const values = type === "list" ? inlineListValues(Buffer.from(formula, "latin1").toString("utf8")) : [];
        survey.validations.push({ ...element, end: bom + parser.position, listValues: values });
        validation = null;
        return;
      }
      case "mergeCells":
        survey.mergeCellsElement = { start: containerStart, end: bom + parser.position };
        return;
      case "dataValidations":
        survey.dataValidationsElement = { start: containerStart, end: bom + parser.position };
        return;
    }
  });

  const xml = Buffer.from(input.xml.buffer, input.xml.byteOffset, input.xml.byteLength);
  try {
    for (let offset = bom; offset < xml.byteLength; offset += CHUNK_BYTES) {
      parser.write(xml.toString("latin1", offset, Math.min(xml.byteLength, offset + CHUNK_BYTES)));
    }
    parser.close();
  } catch (error) {
    if (isFolioError(error)) throw error;
    throw damagedWorkbook(fileName, `sheet "${sheet}" is not well-formed XML`, error);
  }
  survey.rowCount = Math.max(survey.lastRow, ...survey.merges.map((merge) => merge.bottom));
  return survey;
}
