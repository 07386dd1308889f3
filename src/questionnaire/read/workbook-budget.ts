/**
 * What a whole workbook has used of its reading limits so far, all parts together, and the one place
 * each count is checked: the survey's parts (survey-xlsx-sheet.ts, survey-workbook-parts.ts) add to it
 * as they stream and the first count past its limit throws that limit's refusal
 * (questionnaire-read-refusals.ts), on the element that crosses it.
 */
import type { QuestionnaireReadLimits } from "./questionnaire-read-limits.js";
import {
  tooManyCellElements,
  tooManyCells,
  tooManyComments,
  tooManyElements,
  tooManyRowElements,
  tooManyStyles,
  tooManyTextRuns,
  tooMuchText,
} from "./questionnaire-read-refusals.js";

export type WorkbookCounts = {
  cells: number;
  cellElements: number;
  rowElements: number;
  textCharacters: number;
  merges: number;
  mergedCells: number;
  validationRanges: number;
  /** Rich-text runs (shared strings, inline strings, comments). */
  textRuns: number;
  comments: number;
  styleEntries: number;
  /** XML elements of the parts besides worksheets. */
  partElements: number;
};

export type WorkbookBudget = {
  readonly counts: WorkbookCounts;
  readonly limits: QuestionnaireReadLimits;
  readonly fileName: string;
  addCell(): void;
  addCellElement(): void;
  addRowElement(): void;
  addText(characters: number): void;
  addTextRun(): void;
  addComment(): void;
  addStyleEntry(): void;
  /** One element of `part` (a part other than a worksheet). */
  addPartElement(part: string): void;
};

export function createWorkbookBudget(fileName: string, limits: QuestionnaireReadLimits): WorkbookBudget {
  const counts: WorkbookCounts = {
    cells: 0,
    cellElements: 0,
    rowElements: 0,
    textCharacters: 0,
    merges: 0,
    mergedCells: 0,
    validationRanges: 0,
    textRuns: 0,
    comments: 0,
    styleEntries: 0,
    partElements: 0,
  };
  return {
    counts,
    limits,
    fileName,
    addCell() {
      if (++counts.cells > limits.maxCells) throw tooManyCells(fileName, limits);
    },
    addCellElement() {
      if (++counts.cellElements > limits.maxCellElements) throw tooManyCellElements(fileName, limits);
    },
    addRowElement() {
      if (++counts.rowElements > limits.maxRowElements) throw tooManyRowElements(fileName, limits);
    },
    addText(characters) {
      counts.textCharacters += characters;
      if (counts.textCharacters > limits.maxTextCharacters) throw tooMuchText(fileName, limits);
    },
    addTextRun() {
      if (++counts.textRuns > limits.maxTextRuns) throw tooManyTextRuns(fileName, limits);
    },
    addComment() {
      if (++counts.comments > limits.maxComments) throw tooManyComments(fileName, limits);
    },
    addStyleEntry() {
      if (++counts.styleEntries > limits.maxStyleEntries) throw tooManyStyles(fileName, limits);
    },
    addPartElement(part) {
      if (++counts.partElements > limits.maxPartElements) throw tooManyElements(fileName, part, limits);
    },
  };
}

/**
 * Whether an element (by local name) is a rich-text run: `<r>`, or a phonetic run `<rPh>`, each of which
 * exceljs keeps as an object with its font. More `<rPr>` in one run replace each other (counted as elements).
 */
export function isTextRunElement(name: string): boolean {
  return name === "r" || name === "rPh";
}
