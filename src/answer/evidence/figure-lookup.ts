/**
 * Looking a figure up for a question, with searches of its own when the question's search does not find
 * it: the statement's cell for a measure and period (searched again by the measure and period alone when
 * the question's results hold no exact row: a statement's row shares few words with a question phrased
 * around a company's name), the unit its page states above the table, and a figure stated in a sentence.
 * Shared by the figure, ratio and comparison readers.
 */
import type { PageText, SearchResult } from "../../domain/types.js";
import type { NumberedSource } from "../generate/generator.js";
import type { Period, QuestionAnalysis } from "../question/question-analysis.js";
import type { DocumentFactsIndex } from "./evidence-coverage.js";
import { type FigureEvidence, gatherFigureEvidence, uncoveredMessage } from "./figure-evidence.js";
import { measureSearchWords } from "./find-figure.js";
import { findProseFigure, type ProseFigure } from "./find-prose-figure.js";
import { pageScale, type TableCell, takesTableScale } from "./table-cells.js";

/** What a lookup may search and read beyond the question's own results. */
export type LookupTools = {
  facts: DocumentFactsIndex;
  /** Searches the asker's spaces by keyword (words a row prints) or as a question. */
  search: (query: string, by: "keywords" | "question") => Promise<SearchResult[]>;
  /** A document's page texts, to read the unit a statement states above its table. */
  pageTexts: (documentId: string) => Promise<PageText[]>;
};

export function periodWords(periods: Period[]): string {
  return periods
    .map((period) => (period.quarter === undefined ? `${period.year}` : `Q${period.quarter} ${period.year}`))
    .join(" ");
}

/** Search results as sources numbered by rank (a direct answer renumbers the one it cites). */
export function numberedResults(results: readonly SearchResult[]): NumberedSource[] {
  return results.map((result, index) => ({ n: index + 1, result }));
}

/** "How many employees…", "the number of stores": a count, not an amount of money. */
export const ASKS_FOR_COUNT = /\bhow\s+many\b|\bnumber\s+of\b|\bheadcount\b/i;

/** Whether a cell is the kind of figure asked for: a count asked ("how many") is no amount of money. */
export function answersAsked(question: string, cell: TableCell): boolean {
  return !ASKS_FOR_COUNT.test(question) || (cell.currency === null && cell.scale === null && !cell.percent);
}

/** The evidence of `results`, or of a search for the measure and period when `results` hold no exact answering row. */
export async function figureEvidence(
  analysis: QuestionAnalysis,
  results: SearchResult[],
  tools: LookupTools,
): Promise<FigureEvidence> {
  const evidence = await gatherFigureEvidence(analysis, results, tools.facts);
  // Only a figure of a period is searched for again: a statement's row names little else. A row that
  // names more than the measure ("Las Vegas Strip net revenues" for net revenues) may be a part of it:
  // the statement's own row is looked for too.
  if (evidence.figure?.exact || uncoveredMessage(evidence, null) !== null || analysis.periods.length === 0)
    return withPageUnit(evidence, tools);
  // First the measure and period alone; then with the names too, when that finds no exact row: the
  // name finds its document's rows where other companies' crowd them out, but also its prose.
  const queries = [[], analysis.entities].filter((words, index) => index === 0 || words.length > 0);
  let best = evidence;
  for (const words of queries) {
    if (best.figure?.exact) break;
    const measure = measureSearchWords(analysis.measure, analysis.measureTerms);
    const query = [...words, measure, periodWords(analysis.periods)].join(" ").replace(/\s+/g, " ").trim();
    const retried = await gatherFigureEvidence(analysis, await tools.search(query, "keywords"), tools.facts);
    if (retried.figure !== null && (best.figure === null || retried.figure.score > best.figure.score)) best = retried;
  }
  return withPageUnit(best, tools);
}

/** A figure whose table states no unit takes the one its page states above the table, if the page states one. */
async function withPageUnit(evidence: FigureEvidence, tools: LookupTools): Promise<FigureEvidence> {
  const figure = evidence.figure;
  if (figure === null || figure.cell.scale !== null || !takesTableScale(figure.cell)) return evidence;
  const { documentId, pageStart } = figure.source.result;
  const page =
    pageStart === null
      ? undefined
      : (await tools.pageTexts(documentId)).find((candidate) => candidate.pageNumber === pageStart);
  // A document without pages (HTML, Word) that states one unit states it for its tables.
  const documentScale = page === undefined ? await tools.facts.unitScale(documentId) : null;
  const unit =
    page === undefined
      ? documentScale === null
        ? null
        : { scale: documentScale, note: `(in ${documentScale}s)` }
      : pageScale(page.text);
  if (unit === null) return evidence;
  return { ...evidence, figure: { ...figure, cell: { ...figure.cell, scale: unit.scale, unitNote: unit.note } } };
}

/**
 * A figure stated in a sentence, when no table holds it: among the question's results, else among a
 * search for the names, measure and period alone (a question's other words crowd such a sentence out).
 */
export async function statedFigure(
  question: string,
  analysis: QuestionAnalysis,
  results: SearchResult[],
  tools: LookupTools,
): Promise<ProseFigure | null> {
  const asksForCount = ASKS_FOR_COUNT.test(question);
  const found = findProseFigure(analysis, numberedResults(results), asksForCount);
  if (found !== null || analysis.measure === "") return found;
  const query = [...analysis.entities, analysis.measure, periodWords(analysis.periods)].join(" ").trim();
  return findProseFigure(analysis, numberedResults(await tools.search(query, "keywords")), asksForCount);
}

/** Missing names an answer may still go ahead under a caveat: none when one is a variant of what the documents hold. */
export function namesForCaveat(evidence: FigureEvidence): string[] {
  return evidence.names.variants.length > 0 ? [] : evidence.names.missing;
}
