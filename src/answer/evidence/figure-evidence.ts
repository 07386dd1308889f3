/**
 * The evidence a figure question stands on, gathered from one search's results: whether the
 * documents name what the question names, whether they report the year it asks about, and the table
 * cell that answers it. Shared by plain figure questions and by each side of a comparison.
 */

import type { SearchResult } from "../../domain/types.js";
import { possessive } from "../question/possessive.js";
import type { QuestionAnalysis } from "../question/question-analysis.js";
import {
  coverNames,
  coverPeriods,
  type DocumentFactsIndex,
  describeYears,
  type NameCoverage,
  type PeriodCoverage,
} from "./evidence-coverage.js";
import { type FoundFigure, findFigure } from "./find-figure.js";

export type FigureEvidence = {
  names: NameCoverage;
  periods: PeriodCoverage;
  /** For a figure question: names the documents mention only in passing (see NameCoverage.inPassingOnly). */
  inPassing: string[];
  /** The answering cell; its source's `n` is the result's 1-based rank in the search. */
  figure: FoundFigure | null;
};

const NO_PERIODS: PeriodCoverage = { missing: [], coveredYears: [] };

export async function gatherFigureEvidence(
  analysis: QuestionAnalysis,
  results: SearchResult[],
  facts: DocumentFactsIndex,
): Promise<FigureEvidence> {
  const names = await coverNames(analysis.entities, results, facts, analysis.measureTerms);
  // A figure comes from a document about what the question names, or from a passage that names it (a
  // table of companies names each in its row).
  const isAboutAsked = (result: SearchResult) =>
    names.aboutAsked.get(result.documentId) !== false || names.namingPassages.has(result.chunkId);
  // A comparison's periods are each side's, looked up by the side (compare-figures.ts).
  if (names.missing.length > 0 || analysis.kind !== "figure")
    return { names, inPassing: [], periods: NO_PERIODS, figure: null };
  const inPassing = names.inPassingOnly;
  if (inPassing.length > 0) return { names, inPassing, periods: NO_PERIODS, figure: null };
  const periods = await coverPeriods(analysis, results.filter(isAboutAsked), facts);
  if (periods.missing.length > 0) return { names, inPassing, periods, figure: null };
  const shifts = new Map<string, number | null>();
  for (const documentId of new Set(results.map((result) => result.documentId)))
    shifts.set(documentId, await facts.januaryYearShift(documentId));
  const figure = findFigure(
    analysis,
    results.map((result, index) => ({ n: index + 1, result })),
    (source) => isAboutAsked(source.result),
    (source) => ({ januaryYearShift: shifts.get(source.result.documentId) ?? null }),
  );
  return { names, inPassing, periods, figure };
}

/** What the answer says when the documents do not cover a name or a year the question asks about; null when they do. */
export function uncoveredMessage(evidence: FigureEvidence, entity: string | null): string | null {
  const { missing } = evidence.names;
  if (missing.length > 0)
    return `The documents available here don't mention ${listed(missing)}, so I can't answer this from them.`;
  if (evidence.inPassing.length > 0)
    return `The documents available here mention ${listed(evidence.inPassing)} only in passing; none of them reports its figures.`;
  if (evidence.periods.missing.length === 0) return null;
  const asked = describeYears(evidence.periods.missing.map((period) => period.year));
  const whose = entity === null ? "" : `${possessive(entity)} `;
  return `The documents available here have ${whose}figures for ${describeYears(evidence.periods.coveredYears)}, not ${asked}.`;
}

/** The line that precedes passages shown although the documents do not name what the question names. */
export function missingNamesCaveat(names: string[]): string {
  return `The documents available here don't mention ${listed(names)}; these passages are the closest to the rest of the question.`;
}

function listed(names: string[]): string {
  return names.length === 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}
