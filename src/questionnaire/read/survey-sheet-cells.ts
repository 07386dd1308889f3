/**
 * The cells of one worksheet as the survey streams through it (survey-xlsx-sheet.ts): every `<row>` and
 * `<c>` counted and placed (a cell past the column limit, or past Excel's last row, is refused on the
 * spot), the text its cells hold measured — shared strings by their measured length, inline strings and
 * formulas as they stream, rich-text runs of inline strings counted — and each column definition's
 * extent checked. Nothing of the text is kept.
 */
import { EXCEL_MAX_COLUMNS, EXCEL_MAX_ROWS } from "./questionnaire-read-limits.js";
import { cellPastLastColumn, damagedWorkbook } from "./questionnaire-read-refusals.js";
import type { WorkbookBudget } from "./workbook-budget.js";
import { isTextRunElement } from "./workbook-budget.js";
import { parseCellReference } from "./xlsx-references.js";

export type SheetCells = {
  /** The last row any `<row>` or `<c>` names. */
  readonly lastRow: number;
  /** Handles an element of the sheet's data; false when it is none of theirs. */
  open(name: string, attributes: Record<string, string>): boolean;
  close(name: string): void;
  text(text: string): void;
};

type OpenCell = { row: number; column: number; type: string; hasValue: boolean; index: string };

export function surveySheetCells(input: {
  sheet: string;
  budget: WorkbookBudget;
  /** Byte length of each shared string, by index (survey-shared-strings.ts). */
  sharedStringBytes: ArrayLike<number>;
}): SheetCells {
  const { sheet, budget } = input;
  const { fileName, limits } = budget;
  let lastRow = 0;
  let row = 0;
  let column = 0;
  let cell: OpenCell | null = null;
  let inValue = false;
  let inInlineString = false;
  let inInlineText = false;
  let inFormula = false;

  const openRow = (attributes: Record<string, string>) => {
    budget.addRowElement();
    row = attributes.r === undefined ? row + 1 : Number(attributes.r);
    if (!Number.isInteger(row) || row < 1 || row > EXCEL_MAX_ROWS) {
      throw damagedWorkbook(fileName, `a row numbered "${attributes.r}" on sheet "${sheet}"`);
    }
    lastRow = Math.max(lastRow, row);
    column = 0;
  };
  const openCell = (attributes: Record<string, string>) => {
    budget.addCellElement();
    const reference = attributes.r === undefined ? null : parseCellReference(attributes.r);
    if (attributes.r !== undefined && reference === null) {
      throw damagedWorkbook(fileName, `a cell at "${attributes.r}" on sheet "${sheet}"`);
    }
    const at = reference ?? { row: Math.max(row, 1), column: column + 1 };
    if (at.row > EXCEL_MAX_ROWS) throw damagedWorkbook(fileName, `a cell at "${attributes.r}" on sheet "${sheet}"`);
    if (at.column > limits.maxColumns) throw cellPastLastColumn(fileName, sheet, at, limits);
    column = at.column;
    lastRow = Math.max(lastRow, at.row);
    cell = { ...at, type: attributes.t ?? "n", hasValue: false, index: "" };
  };
  const closeCell = () => {
    if (cell?.hasValue) {
      budget.addCell();
      if (cell.type === "s") budget.addText(input.sharedStringBytes[Number(cell.index.trim())] ?? 0);
    }
    cell = null;
  };

  return {
    get lastRow() {
      return lastRow;
    },
    open(name, attributes) {
      switch (name) {
        case "row":
          openRow(attributes);
          return true;
        case "c":
          openCell(attributes);
          return true;
        case "v":
          if (cell) cell.hasValue = true;
          inValue = cell !== null;
          return true;
        case "f":
          if (cell) cell.hasValue = true;
          inFormula = cell !== null;
          return true;
        case "is":
          if (cell) cell.hasValue = true;
          inInlineString = cell !== null;
          return true;
        case "t":
          inInlineText = cell !== null;
          return true;
        case "col": {
          const max = Number(attributes.max ?? attributes.min ?? 1);
          if (!Number.isFinite(max) || max > EXCEL_MAX_COLUMNS) {
            throw damagedWorkbook(fileName, `a column definition up to column ${attributes.max} on sheet "${sheet}"`);
          }
          return true;
        }
        default:
          // An inline string's runs cost exceljs what a shared string's do.
          if (inInlineString && isTextRunElement(name)) budget.addTextRun();
          return false;
      }
    },
    close(name) {
      if (name === "c") closeCell();
      else if (name === "v") inValue = false;
      else if (name === "is") inInlineString = false;
      else if (name === "t") inInlineText = false;
      else if (name === "f") inFormula = false;
    },
    text(text) {
      if (!cell) return;
      if (inValue) {
        // A shared string's index is kept (a few digits); its text is counted when the cell closes.
        if (cell.type === "s" && cell.index.length < 16) cell.index += text;
        else budget.addText(text.length);
      } else if (inInlineText || inFormula) {
        budget.addText(text.length);
      }
    },
  };
}
