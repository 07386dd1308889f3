/**
 * A value asked of a company's statements, looked up the way filings print line items (find-figure.ts:
 * the statement, the company, the printed phrase), checked against the table grid's reading of the same
 * question; failing both, a figure a sentence states (scored like any prose answer). It also says when the
 * documents do not cover the name, the year or the company asked about.
 */
import type { SearchResult } from "../../domain/types.js";
import { uncoveredMessage } from "../evidence/figure-evidence.js";
import { answersAsked, figureEvidence, namesForCaveat, statedFigure } from "../evidence/figure-lookup.js";
import { isPlainLookup } from "../evidence/question-shapes.js";
import { contentTerms, uniqueTerms } from "../evidence/sentence-scoring.js";
import { parseCellNumber, type TableCell } from "../evidence/table-cells.js";
import type { TableAnswer } from "../evidence/tables/table-answer.js";
import { tableEvidence } from "../evidence/tables/table-evidence.js";
import { asksWhy } from "../question/asked-answer.js";
import { newDirectAnswer, type Reader, type ReaderInput } from "./reader.js";

/** Share of the financial guard sets' statement lookups that were right (README.md, "Scores"). */
const FIGURE_SCORE = 0.93;

/** The question's content words less those of the names the statements' document is about (its company's). */
async function measureWordsOf(input: ReaderInput, result: SearchResult): Promise<Set<string>> {
  const own: string[] = [];
  for (const entity of input.analysis.entities)
    if ((await input.facts.mentions(result, entity)) === "subject") own.push(entity);
  const names = uniqueTerms(own.join(" "));
  return new Set([...contentTerms(input.need)].filter((term) => !names.has(term)));
}

/** Whether a grid answer states the statements' cell's own value. */
function sameFigure(grid: TableAnswer, cell: TableCell): boolean {
  const stated = grid.value.items.length === 1 ? parseCellNumber(grid.value.items[0] ?? "")?.number : undefined;
  return stated !== undefined && cell.number !== null && stated === cell.number;
}

/** Whether a grid answer's rows hold more of the question's measure words than the statements' cell's row does. */
function namesMoreOf(measureTerms: ReadonlySet<string>, gridLabels: readonly string[], cell: TableCell): boolean {
  const held = (text: string) => [...uniqueTerms(text)].filter((term) => measureTerms.has(term)).length;
  const gridHeld = Math.max(0, ...gridLabels.map(held));
  return gridHeld > held([cell.label, ...cell.parents].join(" "));
}

export const figureReader: Reader = {
  name: "figure",
  ceiling: FIGURE_SCORE,
  async read(input) {
    const { analysis } = input;
    if (analysis.kind !== "figure" || asksWhy(input.need)) return null;
    const entity = analysis.entities[0] ?? null;
    const evidence = await figureEvidence(analysis, input.results, input);
    const uncovered = uncoveredMessage(evidence, entity);
    const missingNames = namesForCaveat(evidence);
    // "How many employees…" is a count: an amount of money ("Employee benefits … $299 million") is no answer.
    const figure = evidence.figure !== null && answersAsked(input.need, evidence.figure.cell) ? evidence.figure : null;
    const grid = isPlainLookup(input) && uncovered === null ? await tableEvidence(input) : null;
    // The statements' lookup stands when it found the row exactly, unless the grid's row names more of the
    // question ("Total other operating expenses" where it took "Other operating expenses").
    // …and when the two read the same figure, the statements' page is the one a reader checks.
    const table =
      grid !== null &&
      (!figure?.exact ||
        (!sameFigure(grid, figure.cell) &&
          namesMoreOf(await measureWordsOf(input, figure.source.result), grid.rowLabels, figure.cell)))
        ? grid
        : null;
    const direct = newDirectAnswer(input);
    if (table !== null) direct.addTableAnswer(table);
    else if (figure !== null) direct.addFigure(figure, entity);
    if (!direct.isEmpty())
      return { reader: "figure", grounds: "figures", score: FIGURE_SCORE, direct, uncovered, missingNames };
    if (uncovered !== null)
      return { reader: "figure", grounds: "text", score: 0, direct: null, uncovered, missingNames };
    const stated = await statedFigure(input.need, analysis, input.results, input);
    if (stated === null) return { reader: "figure", grounds: "text", score: 0, direct: null, uncovered, missingNames };
    direct.addQuote(stated.source, stated.passage);
    return {
      reader: "figure",
      grounds: "text",
      score: await input.prose.scoreFound(stated.source, stated.passage),
      direct,
      uncovered,
      missingNames,
    };
  },
};
