/**
 * Builds the direct answer that opens a reply, from the evidence of the question's search (and of one
 * search per side of a comparison): a figure's sentence, each side of a comparison with the comparison
 * computed, or what the documents do not cover. When the question's own search finds no answering
 * cell, the measure and period alone are searched once more: a statement's row shares few words with a
 * question phrased around a company's name.
 */
import type { SearchResult } from "../domain/types.js";
import { comparisonSentence, comparisonSides } from "./compare-figures.js";
import { DirectAnswer } from "./direct-answer.js";
import type { DocumentFactsIndex } from "./evidence-coverage.js";
import { type FigureEvidence, gatherFigureEvidence, uncoveredMessage } from "./figure-evidence.js";
import type { NumberedSource } from "./generator.js";
import type { Period, QuestionAnalysis } from "./question-analysis.js";
import type { TableCell } from "./table-cells.js";

export type DirectAnswerInput = {
  /** The question's information need (informationNeed of the query). */
  need: string;
  analysis: QuestionAnalysis;
  /** The question's search results, best first. */
  results: SearchResult[];
  /** The answer's numbered sources; a figure found elsewhere is appended. */
  sources: NumberedSource[];
  facts: DocumentFactsIndex;
  /** Searches the asker's spaces. */
  search: (query: string) => Promise<SearchResult[]>;
};

export type ComposedDirectAnswer = {
  /** Null when no figure answers the question (the extractive quotes stand alone). */
  direct: DirectAnswer | null;
  /** Set when the documents do not cover a name or a year the question asks about. */
  uncovered: string | null;
};

function periodWords(periods: Period[]): string {
  return periods
    .map((period) => (period.quarter === undefined ? `${period.year}` : `Q${period.quarter} ${period.year}`))
    .join(" ");
}

/** The evidence of `results`, or of a search for the measure and period alone when `results` hold no answering cell. */
async function figureEvidence(
  analysis: QuestionAnalysis,
  results: SearchResult[],
  input: DirectAnswerInput,
): Promise<FigureEvidence> {
  const evidence = await gatherFigureEvidence(analysis, results, input.facts);
  if (evidence.figure !== null || uncoveredMessage(evidence, null) !== null || analysis.measure === "") return evidence;
  const narrower = await input.search(`${analysis.measure} ${periodWords(analysis.periods)}`.trim());
  const retried = await gatherFigureEvidence(analysis, narrower, input.facts);
  return retried.figure !== null ? retried : evidence;
}

export async function composeDirectAnswer(input: DirectAnswerInput): Promise<ComposedDirectAnswer> {
  const { analysis } = input;
  const entity = analysis.entities[0] ?? null;
  const direct = new DirectAnswer(input.sources);
  if (analysis.kind === "figure") {
    const evidence = await figureEvidence(analysis, input.results, input);
    if (evidence.figure !== null) direct.addFigure(evidence.figure, entity);
    return { direct: direct.isEmpty() ? null : direct, uncovered: uncoveredMessage(evidence, entity) };
  }
  const evidence = await gatherFigureEvidence(analysis, input.results, input.facts);
  const uncovered = uncoveredMessage(evidence, entity);
  const sides = uncovered === null ? comparisonSides(input.need, analysis) : [];
  if (sides.length === 0) return { direct: null, uncovered };
  // Each side is looked up in its own search, so each named document is searched.
  const byPeriod = sides.every((side) => side.entity === sides[0]?.entity);
  const found: Array<{ label: string; cell: TableCell }> = [];
  for (const side of sides) {
    const sideEvidence = await figureEvidence(side.analysis, await input.search(side.question), input);
    if (sideEvidence.figure === null) {
      const asked = side.question.replace(/^What was /, "").replace(/\?$/, "");
      direct.addLine(
        uncoveredMessage(sideEvidence, side.entity) ?? `I couldn't find ${asked} in the documents available here.`,
      );
      continue;
    }
    direct.addFigure(sideEvidence.figure, side.entity);
    const label = byPeriod ? periodWords(side.analysis.periods) : `${side.entity ?? side.question}'s`;
    found.push({ label, cell: sideEvidence.figure.cell });
  }
  if (found.length === 0) return { direct: null, uncovered: null };
  const comparison = found.length === sides.length ? comparisonSentence(input.need, found, byPeriod) : null;
  if (comparison !== null) direct.addLine(comparison);
  return { direct, uncovered: null };
}
