/**
 * The table answer of a question among its search results (table-answer.ts): a cell, a change, an average,
 * a ratio, a period or a count, worked out from the cells it names, in a document about what the question
 * names. Null when the question is about text, when no table holds what it names, or when a sentence names
 * far more of the question than the table does. Used by the table reader and by the figure reader's check
 * of a statement's lookup against the grid.
 */
import type { PageText, SearchResult } from "../../../domain/types.js";
import type { NumberedSource } from "../../generate/generator.js";
import type { QuestionAnalysis } from "../../question/question-analysis.js";
import { coverNames, type DocumentFactsIndex } from "../evidence-coverage.js";
import { numberedResults } from "../figure-lookup.js";
import { pageScale, type UnitScale } from "../table-cells.js";
import type { LabelMeaning } from "./label-meaning.js";
import { bestSentenceCoverage, captionTerms } from "./sentence-coverage.js";
import { answerFromTables, measurePhrase, type TableAnswer, tableLabels } from "./table-answer.js";
import { asksAboutText, readTableQuestion } from "./table-question.js";

export type TableEvidenceInput = {
  need: string;
  analysis: QuestionAnalysis;
  results: SearchResult[];
  facts: DocumentFactsIndex;
  pageTexts: (documentId: string) => Promise<PageText[]>;
  labelMeaning?: LabelMeaning;
};

/** Results a table answer is looked for among. */
const TABLE_SOURCES = 10;
/** How much more of the question a sentence must name than a table answer for the sentence to win. */
const PROSE_MARGIN = 0.3;

/** "What does X include?", "Why…", "Describe…": a question about text, not a cell. */
export const ASKS_ABOUT_TEXT =
  /^\s*(?:why|how\s+(?:does|do|did|is|are|was|were|will|would|can|could)|describe|explain|who|where|what\s+(?:does|do|did)\b(?![^?]*\b(?:amount|total|value)\b)|what\s+(?:is|are|was|were)\s+(?:the\s+)?(?:reason|purpose|nature|definition|meaning|basis|method|policy|approach))/i;
/** A question asks for a figure: a period, or a word that asks for an amount. */
const ASKS_FOR_FIGURE =
  /\b(?:how\s+(?:much|many)|amount|value|balance|total|sum|number|figure|average|change|difference|increase|decrease|ratio|proportion|percent(?:age)?|rate|margin|respective(?:ly)?)\b|%|\b(?:19|20)\d{2}\b|\bfy\s?\d{2}\b/i;

/** The unit each result's table takes: its page's (a statement's "(in millions)" set above it), else its document's. */
async function tableScales(input: TableEvidenceInput, about: SearchResult[]): Promise<Map<string, UnitScale | null>> {
  const scales = new Map<string, UnitScale | null>();
  for (const result of about) {
    const key = `${result.documentId}#${result.provenance.pageStart ?? ""}`;
    if (scales.has(key)) continue;
    const page =
      result.provenance.pageStart === undefined
        ? undefined
        : (await input.pageTexts(result.documentId)).find(
            (candidate) => candidate.pageNumber === result.provenance.pageStart,
          );
    scales.set(
      key,
      (page === undefined ? null : pageScale(page.text)?.scale) ?? (await input.facts.unitScale(result.documentId)),
    );
  }
  return scales;
}

/** The table answer among the results, or null (see the module's comment). */
export async function tableEvidence(input: TableEvidenceInput): Promise<TableAnswer | null> {
  if (ASKS_ABOUT_TEXT.test(input.need) || asksAboutText(input.need)) return null;
  // A value is only looked up in a table for a question that asks for a figure; a list, a count or a
  // comparison of the table's items ("What types of receivables are there?") is a table question anyway.
  if (
    readTableQuestion(input.need).operation === "lookup" &&
    input.analysis.kind !== "figure" &&
    !ASKS_FOR_FIGURE.test(input.need)
  )
    return null;
  const { analysis } = input;
  const names = await coverNames(analysis.entities, input.results, input.facts, analysis.measureTerms);
  if (names.missing.length > 0) return null;
  const about = input.results
    .slice(0, TABLE_SOURCES)
    .filter((result) => names.aboutAsked.get(result.documentId) !== false || names.namingPassages.has(result.chunkId));
  if (about.length === 0) return null;
  const scales = await tableScales(input, about);
  const ranked = numberedResults(input.results).filter((source) => about.includes(source.result));
  const captions = captionTerms(input.results.slice(0, TABLE_SOURCES));
  const scaleOf = (source: NumberedSource) =>
    scales.get(`${source.result.documentId}#${source.result.provenance.pageStart ?? ""}`) ?? null;
  const captionOf = (source: NumberedSource) => captions.get(source.result.documentId) ?? new Set<string>();
  // The names a document is about are its company's, not a row's: "MGM Resorts' net revenues" in MGM's report.
  const ownNames = new Map<string, string[]>();
  for (const result of about) {
    if (ownNames.has(result.documentId)) continue;
    const own: string[] = [];
    for (const entity of analysis.entities)
      if ((await input.facts.mentions(result, entity)) === "subject") own.push(entity);
    ownNames.set(result.documentId, own);
  }
  const ownNamesOf = (source: NumberedSource) => ownNames.get(source.result.documentId) ?? [];
  let answer = answerFromTables(input.need, ranked, { scaleOf, captionOf, ownNamesOf });
  // No row named in the question's words: a row named in other words ("research" for "R&D expenses").
  if (answer === null && input.labelMeaning !== undefined) {
    const labels = tableLabels(ranked);
    const measure = measurePhrase(input.need);
    const meanings = new Map<NumberedSource, Map<string, number>>();
    if (measure !== "")
      for (const [source, texts] of labels) {
        const similarities = await input.labelMeaning(measure, texts);
        meanings.set(source, new Map(texts.map((text, index) => [text, similarities[index] ?? 0])));
      }
    if (meanings.size > 0)
      answer = answerFromTables(input.need, ranked, {
        scaleOf,
        captionOf,
        ownNamesOf,
        meaningOf: (source) => meanings.get(source) ?? new Map(),
      });
  }
  // A sentence that names far more of the question than the table does is the answer's evidence instead.
  if (
    answer !== null &&
    bestSentenceCoverage(input.need, input.results.slice(0, TABLE_SOURCES)) >= answer.coverage + PROSE_MARGIN
  )
    return null;
  return answer;
}
