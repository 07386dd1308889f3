/**
 * The parts of a workbook besides its worksheets that exceljs parses, measured before it does (#37):
 * the shared strings (entries, bytes, rich-text runs), the styles (fonts, fills, borders, formats), the
 * comments (notes, their runs and text), the defined names in xl/workbook.xml (their number and the
 * cells their areas cover: exceljs builds an object for each), and every other XML part it reads
 * (drawings, VML, tables, relationships, document properties) by its elements. Each streams through
 * stream-xml-part.ts; the first count past its limit is refused there (workbook-budget.ts).
 */
import { damagedWorkbook, definedNamesTooLarge, sharedStringsTooLarge } from "./questionnaire-read-refusals.js";
import { type ElementSpan, streamXmlPart } from "./stream-xml-part.js";
import { isTextRunElement, type WorkbookBudget } from "./workbook-budget.js";
import { parseCellReference } from "./xlsx-references.js";

const notWellFormed = (budget: WorkbookBudget, part: string) => (cause: unknown) =>
  damagedWorkbook(budget.fileName, `its part ${part} is not well-formed XML`, cause);

/** Byte length of each shared string's text, by index; refuses a table past the limits. */
export function surveySharedStrings(xml: Uint8Array, part: string, budget: WorkbookBudget): number[] {
  const { limits, fileName } = budget;
  const lengths: number[] = [];
  let current = -1;
  let inText = false;
  let total = 0;
  streamXmlPart(
    xml,
    {
      onOpen: (name) => {
        budget.addPartElement(part);
        if (name === "si") current = 0;
        else if (name === "t") inText = true;
        else if (isTextRunElement(name)) budget.addTextRun();
      },
      onText: (text) => {
        if (!inText || current < 0) return;
        current += text.length;
        total += text.length;
        if (total > limits.maxSharedStringBytes) throw sharedStringsTooLarge(fileName, limits);
      },
      onClose: (name) => {
        if (name === "t") inText = false;
        else if (name === "si") {
          lengths.push(Math.max(0, current));
          current = -1;
          if (lengths.length > limits.maxSharedStrings) throw sharedStringsTooLarge(fileName, limits);
        }
      },
    },
    notWellFormed(budget, part),
  );
  return lengths;
}

/** The styles part: each entry of its lists (a `<font>` of `<fonts>`, an `<xf>` of `<cellXfs>`…) counted. */
export function surveyStyles(xml: Uint8Array, part: string, budget: WorkbookBudget): void {
  let depth = 0;
  streamXmlPart(
    xml,
    {
      onOpen: () => {
        budget.addPartElement(part);
        // <styleSheet> (0) > <fonts> (1) > <font> (2): an entry exceljs keeps a model of.
        if (depth === 2) budget.addStyleEntry();
        depth += 1;
      },
      onClose: () => {
        depth -= 1;
      },
    },
    notWellFormed(budget, part),
  );
}

/** A comments part: its notes, their rich-text runs and their text (exceljs keeps each note on its cell). */
export function surveyComments(xml: Uint8Array, part: string, budget: WorkbookBudget): void {
  let inText = false;
  streamXmlPart(
    xml,
    {
      onOpen: (name) => {
        budget.addPartElement(part);
        if (name === "comment") budget.addComment();
        else if (name === "t") inText = true;
        else if (isTextRunElement(name)) budget.addTextRun();
      },
      onText: (text) => {
        if (inText) budget.addText(text.length);
      },
      onClose: (name) => {
        if (name === "t") inText = false;
      },
    },
    notWellFormed(budget, part),
  );
}

/** Longer than any sheet name (31 characters, quoted) and area reference together. */
const MAX_REFERENCE_LENGTH = 1_024;

/** Print areas and titles: exceljs turns them into each sheet's page setup instead of building their cells. */
const PAGE_SETUP_NAMES = new Set(["_xlnm.Print_Area", "_xlnm.Print_Titles"]);

/**
 * Cells the areas of one defined name's text cover, as exceljs expands them: each comma-separated
 * reference whose part after the sheet name is a cell or an area between two cells ("Q!$A$1:$IV$2000");
 * whole columns and rows, and formulas, it does not expand.
 */
function definedNameCells(text: string): number {
  let cells = 0;
  for (const item of text.split(",")) {
    const reference = item.slice(item.lastIndexOf("!") + 1).trim();
    const [first = "", second, extra] = reference.split(":");
    if (extra !== undefined) continue;
    const start = parseCellReference(first);
    const end = second === undefined ? start : parseCellReference(second);
    if (!start || !end) continue;
    cells += (Math.abs(end.row - start.row) + 1) * (Math.abs(end.column - start.column) + 1);
  }
  return cells;
}

/** The workbook part: its defined names counted and measured; where its `<definedNames>` element is. */
export function surveyDefinedNames(xml: Uint8Array, part: string, budget: WorkbookBudget): ElementSpan | null {
  const { limits, fileName } = budget;
  const found = { names: 0, cells: 0 };
  let element: ElementSpan | null = null;
  let containerStart = 0;
  let name: { counted: boolean; text: string } | null = null;
  const measure = () => {
    if (!name?.counted) return;
    found.cells += definedNameCells(Buffer.from(name.text, "latin1").toString("utf8"));
    name.text = "";
    if (found.cells > limits.maxDefinedNameCells) throw definedNamesTooLarge(fileName, found, limits);
  };
  streamXmlPart(
    xml,
    {
      onOpenStart: (tag, start) => {
        if (tag === "definedNames") containerStart = start;
      },
      onOpen: (tag, attributes) => {
        budget.addPartElement(part);
        if (tag !== "definedName") return;
        found.names += 1;
        if (found.names > limits.maxDefinedNames) throw definedNamesTooLarge(fileName, found, limits);
        name = { counted: !PAGE_SETUP_NAMES.has(attributes.name ?? ""), text: "" };
      },
      onText: (text) => {
        if (!name?.counted) return;
        // Measured reference by reference, so a name's text is never held whole; a piece longer than any
        // reference (a formula) is no area, and only its end is kept.
        name.text += text;
        const lastComma = name.text.lastIndexOf(",");
        if (lastComma < 0) {
          if (name.text.length > MAX_REFERENCE_LENGTH) name.text = "#";
          return;
        }
        const rest = name.text.slice(lastComma + 1);
        name.text = name.text.slice(0, lastComma);
        measure();
        name.text = rest;
      },
      onClose: (tag, end) => {
        if (tag === "definedName") {
          measure();
          name = null;
        } else if (tag === "definedNames") element = { start: containerStart, end };
      },
    },
    notWellFormed(budget, part),
  );
  return element;
}

/** Any other part exceljs parses: its elements counted. */
export function surveyOtherPart(xml: Uint8Array, part: string, budget: WorkbookBudget): void {
  streamXmlPart(xml, { onOpen: () => budget.addPartElement(part) }, notWellFormed(budget, part));
}
