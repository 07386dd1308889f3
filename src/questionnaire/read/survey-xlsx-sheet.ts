/**
 * Streams through one worksheet's XML (stream-xml-part.ts) and measures it before exceljs may build
 * anything from it: its cells, rows, text and inline rich-text runs (survey-sheet-cells.ts), and the
 * merged and validated ranges exceljs would expand cell by cell (survey-sheet-ranges.ts). A file past a
 * limit is refused on the element that crosses it (workbook-budget.ts); merges and validations are
 * recorded with their byte positions, so the package handed to exceljs can leave them out or clip them
 * (survey-xlsx-package.ts).
 */
import { damagedWorkbook } from "./questionnaire-read-refusals.js";
import { streamXmlPart } from "./stream-xml-part.js";
import { surveySheetCells } from "./survey-sheet-cells.js";
import { type SheetRanges, surveySheetRanges } from "./survey-sheet-ranges.js";
import type { WorkbookBudget } from "./workbook-budget.js";

export type { SurveyedValidation } from "./survey-sheet-ranges.js";

export type SheetSurvey = SheetRanges & {
  part: string;
  sheet: string;
  /** The last row any `<row>` or `<c>` names. */
  lastRow: number;
  /** Rows as exceljs counts them: the last row named, or the bottom of a merge below it. */
  rowCount: number;
};

export type SheetSurveyInput = {
  part: string;
  sheet: string;
  xml: Uint8Array;
  budget: WorkbookBudget;
  /** Byte length of each shared string, by index (survey-shared-strings.ts). */
  sharedStringBytes: ArrayLike<number>;
};

export function surveyXlsxSheet(input: SheetSurveyInput): SheetSurvey {
  const { budget, sheet } = input;
  const cells = surveySheetCells({ sheet, budget, sharedStringBytes: input.sharedStringBytes });
  const ranges = surveySheetRanges({ sheet, budget });
  streamXmlPart(
    input.xml,
    {
      onOpenStart: (name, start) => ranges.openStart(name, start),
      onOpen: (name, attributes, end) => {
        if (!cells.open(name, attributes)) ranges.open(name, attributes, end);
      },
      onText: (text) => {
        cells.text(text);
        ranges.text(text);
      },
      onClose: (name, end) => {
        cells.close(name);
        ranges.close(name, end);
      },
    },
    (cause) => damagedWorkbook(budget.fileName, `sheet "${sheet}" is not well-formed XML`, cause),
  );
  const found = ranges.found;
  return {
    ...found,
    part: input.part,
    sheet,
    lastRow: cells.lastRow,
    rowCount: Math.max(cells.lastRow, ...found.merges.map((merge) => merge.bottom)),
  };
}
