/**
 * Builds the direct answer that opens a reply, from the evidence of the question's search (and of one
 * search per side of a comparison): a figure's sentence, each side of a comparison with the comparison
 * computed, or what the documents do not cover. When the question's own search finds no answering
 * cell, the measure and period alone are searched once more: a statement's row shares few words with a
 * question phrased around a company's name.
 */

import type { PageText, SearchResult } from "../../domain/types.js";
import type { DocumentFactsIndex } from "../evidence/evidence-coverage.js";
import { coverNames, coverPeriods } from "../evidence/evidence-coverage.js";
import { type FigureEvidence, gatherFigureEvidence, uncoveredMessage } from "../evidence/figure-evidence.js";
import { findDecidingSentence } from "../evidence/find-deciding-sentence.js";
import { type FoundDefinition, findDefinition } from "../evidence/find-definition.js";
import { measureSearchWords } from "../evidence/find-figure.js";
import { findList, findListItem } from "../evidence/find-list.js";
import { findProseFigure, type ProseFigure } from "../evidence/find-prose-figure.js";
import { contentTerms, uniqueTerms } from "../evidence/sentence-scoring.js";
import {
  pageScale,
  parseCellNumber,
  type TableCell,
  takesTableScale,
  type UnitScale,
} from "../evidence/table-cells.js";
import type { LabelMeaning } from "../evidence/tables/label-meaning.js";
import { findRowFootnote } from "../evidence/tables/row-footnote.js";
import { bestSentenceCoverage, captionTerms } from "../evidence/tables/sentence-coverage.js";
import { answerFromTables, measurePhrase, type TableAnswer, tableLabels } from "../evidence/tables/table-answer.js";
import { asksAboutText, readTableQuestion } from "../evidence/tables/table-question.js";
import type { NumberedSource } from "../generate/generator.js";
import { possessive } from "../question/possessive.js";
import { analyzeQuestion, type Period, type QuestionAnalysis } from "../question/question-analysis.js";
import { type RatioQuestion, ratioQuestion } from "../question/ratio-question.js";
import { comparisonSentence, comparisonSides } from "./compare-figures.js";
import { type RatioInputs, ratioSentences, workOutRatio } from "./compute-ratio.js";
import { DirectAnswer } from "./direct-answer.js";
import { yesNoVerdict } from "./yes-no-verdict.js";

export type DirectAnswerInput = {
  /** The question's information need (informationNeed of the query). */
  need: string;
  analysis: QuestionAnalysis;
  /** The question's search results, best first. */
  results: SearchResult[];
  /** The answer's numbered sources; a figure found elsewhere is appended. */
  sources: NumberedSource[];
  facts: DocumentFactsIndex;
  /**
   * Searches the asker's spaces: by keyword where the query is the words a row or sentence prints (a line
   * item and its period, a term), in the configured mode where it is a question (a side of a comparison).
   */
  search: (query: string, by: "keywords" | "question") => Promise<SearchResult[]>;
  /** A document's page texts, to read the unit a statement states above its table. */
  pageTexts: (documentId: string) => Promise<PageText[]>;
  /** Row labels matched by meaning (label-meaning.ts); absent without an embedding model. */
  labelMeaning?: LabelMeaning;
};

export type ComposedDirectAnswer = {
  /** Null when no figure answers the question (the extractive quotes stand alone). */
  direct: DirectAnswer | null;
  /** Set when the documents do not cover a name or a year the question asks about. */
  uncovered: string | null;
  /** Names no found document gives, for which an answer may still go ahead under a caveat (never a variant). */
  missingNames: string[];
};

function periodWords(periods: Period[]): string {
  return periods
    .map((period) => (period.quarter === undefined ? `${period.year}` : `Q${period.quarter} ${period.year}`))
    .join(" ");
}

/** The evidence of `results`, or of a search for the measure and period when `results` hold no exact answering row. */
async function figureEvidence(
  analysis: QuestionAnalysis,
  results: SearchResult[],
  input: DirectAnswerInput,
): Promise<FigureEvidence> {
  const evidence = await gatherFigureEvidence(analysis, results, input.facts);
  // Only a figure of a period is searched for again: a statement's row names little else. A row that
  // names more than the measure ("Las Vegas Strip net revenues" for net revenues) may be a part of it:
  // the statement's own row is looked for too.
  if (evidence.figure?.exact || uncoveredMessage(evidence, null) !== null || analysis.periods.length === 0)
    return withPageUnit(evidence, input);
  // First the measure and period alone; then with the names too, when that finds no exact row: the
  // name finds its document's rows where other companies' crowd them out, but also its prose.
  const queries = [[], analysis.entities].filter((words, index) => index === 0 || words.length > 0);
  let best = evidence;
  for (const words of queries) {
    if (best.figure?.exact) break;
    const measure = measureSearchWords(analysis.measure, analysis.measureTerms);
    const query = [...words, measure, periodWords(analysis.periods)].join(" ").replace(/\s+/g, " ").trim();
    const retried = await gatherFigureEvidence(analysis, await input.search(query, "keywords"), input.facts);
    if (retried.figure !== null && (best.figure === null || retried.figure.score > best.figure.score)) best = retried;
  }
  return withPageUnit(best, input);
}

/** A figure whose table states no unit takes the one its page states above the table, if the page states one. */
async function withPageUnit(evidence: FigureEvidence, input: DirectAnswerInput): Promise<FigureEvidence> {
  const figure = evidence.figure;
  if (figure === null || figure.cell.scale !== null || !takesTableScale(figure.cell)) return evidence;
  const { documentId, pageStart } = figure.source.result;
  const page =
    pageStart === null
      ? undefined
      : (await input.pageTexts(documentId)).find((candidate) => candidate.pageNumber === pageStart);
  // A document without pages (HTML, Word) that states one unit states it for its tables.
  const documentScale = page === undefined ? await input.facts.unitScale(documentId) : null;
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
async function statedFigure(
  question: string,
  analysis: QuestionAnalysis,
  results: SearchResult[],
  input: DirectAnswerInput,
): Promise<ProseFigure | null> {
  const asksForCount = ASKS_FOR_COUNT.test(question);
  const found = findProseFigure(analysis, numberedResults(results), asksForCount);
  if (found !== null || analysis.measure === "") return found;
  const query = [...analysis.entities, analysis.measure, periodWords(analysis.periods)].join(" ").trim();
  return findProseFigure(analysis, numberedResults(await input.search(query, "keywords")), asksForCount);
}

/** The defining sentence among the results, or among a search for the term alone ("How does Acme define X?" → "X"). */
async function definitionEvidence(
  analysis: QuestionAnalysis,
  input: DirectAnswerInput,
): Promise<FoundDefinition | null> {
  const found = findDefinition(analysis, numberedResults(input.results));
  if (found !== null || analysis.measure === "") return found;
  return findDefinition(analysis, numberedResults(await input.search(analysis.measure, "keywords")));
}

/** Search results as sources numbered by rank (a direct answer renumbers the one it cites). */
function numberedResults(results: SearchResult[]): NumberedSource[] {
  return results.map((result, index) => ({ n: index + 1, result }));
}

/** A question about how a figure moved between periods: answered by the change first. */
const ASKS_FOR_CHANGE =
  /\b(?:grow|grew|grown|growth|rate|percent(?:age)?|change[sd]?|increase[sd]?|decrease[sd]?|rise|rose|fall|fell|decline[sd]?)\b|%/i;

/** "How many employees…", "the number of stores": a count, not an amount of money. */
const ASKS_FOR_COUNT = /\bhow\s+many\b|\bnumber\s+of\b|\bheadcount\b/i;

function entityTerms(analysis: QuestionAnalysis): Set<string> {
  return uniqueTerms(analysis.entities.join(" "));
}

/** Whether a cell is the kind of figure asked for: a count asked ("how many") is no amount of money. */
function answersAsked(question: string, cell: TableCell): boolean {
  return !ASKS_FOR_COUNT.test(question) || (cell.currency === null && cell.scale === null && !cell.percent);
}

/** Results a list is looked for in: a list that answers is in one of the first few. */
const LIST_SOURCES = 10;

/** Missing names an answer may still go ahead under a caveat: none when one is a variant of what the documents hold. */
function namesForCaveat(evidence: FigureEvidence): string[] {
  return evidence.names.variants.length > 0 ? [] : evidence.names.missing;
}

/**
 * A ratio question worked out from its two line items' cells, each looked up as a figure question of its
 * own ("What was Block's total current assets in 2016?"); false when a cell is not found or the units
 * do not allow it (the answer then goes on as for any other question).
 */
async function addRatio(
  ratio: RatioQuestion,
  entity: string | null,
  input: DirectAnswerInput,
  direct: DirectAnswer,
): Promise<boolean> {
  const owner = entity === null ? "" : `${possessive(entity)} `;
  // A line item found for one year is looked for first in the same table for the next.
  const tablesOf = new Map<string, SearchResult[]>();
  const figureOf = async (measure: string, period: Period) => {
    const analysis = analyzeQuestion(`What was ${owner}${measure} in ${period.year}?`);
    const known = tablesOf.get(measure) ?? [];
    const figure = (await figureEvidence(analysis, [...known, ...input.results], input)).figure;
    if (figure !== null && !known.includes(figure.source.result))
      tablesOf.set(measure, [figure.source.result, ...known]);
    return figure;
  };
  const inputs: RatioInputs = [];
  for (const period of ratio.periods) {
    const numerator = await figureOf(ratio.numerator, period);
    const denominator = numerator === null ? null : await figureOf(ratio.denominator, period);
    if (numerator === null || denominator === null) return false;
    inputs.push({ period, numerator, denominator });
  }
  const worked = workOutRatio(ratio, inputs);
  if (worked === null) return false;
  direct.addComputed(
    inputs.flatMap((item) => [item.numerator, item.denominator]),
    (numbers) =>
      ratioSentences(
        ratio,
        inputs,
        worked,
        entity,
        inputs.map((_, index) => ({ numerator: numbers[2 * index] ?? 0, denominator: numbers[2 * index + 1] ?? 0 })),
      ),
  );
  return true;
}

/** Results a table answer is looked for among. */
const TABLE_SOURCES = 10;
/** How much more of the question a sentence must name than a table answer for the sentence to win. */
const PROSE_MARGIN = 0.3;

/** "What does X include?", "Why…", "Describe…": a question about text, not a cell. */
const ASKS_ABOUT_TEXT =
  /^\s*(?:why|how\s+(?:does|do|did|is|are|was|were|will|would|can|could)|describe|explain|who|where|what\s+(?:does|do|did)\b(?![^?]*\b(?:amount|total|value)\b)|what\s+(?:is|are|was|were)\s+(?:the\s+)?(?:reason|purpose|nature|definition|meaning|basis|method|policy|approach))/i;
/** A question asks for a figure: a period, or a word that asks for an amount. */
const ASKS_FOR_FIGURE =
  /\b(?:how\s+(?:much|many)|amount|value|balance|total|sum|number|figure|average|change|difference|increase|decrease|ratio|proportion|percent(?:age)?|rate|margin|respective(?:ly)?)\b|%|\b(?:19|20)\d{2}\b|\bfy\s?\d{2}\b/i;

/**
 * A question answered from one table passage among the results (table-answer.ts): a cell, a change, an
 * average, a ratio, a period or a count, worked out from the cells it names, in a document about what the
 * question names. Null when the question is about text or no table holds what it names.
 */
async function tableEvidence(input: DirectAnswerInput): Promise<TableAnswer | null> {
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
  // A table that states no unit takes its page's (a statement's "(in millions)" set above it), else its document's.
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

/** The question's content words less those of the names the statements' document is about (its company's). */
async function measureWordsOf(input: DirectAnswerInput, result: SearchResult): Promise<Set<string>> {
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

/** Operations worked out from a period's figures: a period the documents do not report leaves them nothing to work with. */
const CALCULATIONS = new Set([
  "change",
  "percentChange",
  "average",
  "sum",
  "ratio",
  "difference",
  "values",
  "whichPeriod",
  "countPeriods",
]);

/**
 * What to say when a calculation names a period the found documents do not report (their tables' years,
 * or a sentence stating the measure in that year); null when every period is reported or none is named.
 */
async function uncoveredPeriods(input: DirectAnswerInput): Promise<string | null> {
  const { analysis } = input;
  if (analysis.periods.length === 0 || !CALCULATIONS.has(readTableQuestion(input.need).operation)) return null;
  if (ASKS_ABOUT_TEXT.test(input.need) || asksAboutText(input.need)) return null;
  const names = await coverNames(analysis.entities, input.results, input.facts, analysis.measureTerms);
  if (names.missing.length > 0) return null;
  const about = input.results.filter((result) => names.aboutAsked.get(result.documentId) !== false);
  const periods = await coverPeriods(analysis, about, input.facts);
  if (periods.missing.length === 0) return null;
  // A year next to the ones reported may be the same fiscal year named another way (Ulta's "FY2023" is the
  // year its report calls fiscal 2022): only a year well outside them is said to be missing.
  const [first, last] = [periods.coveredYears[0], periods.coveredYears.at(-1)];
  if (first === undefined || last === undefined) return null;
  if (periods.missing.some((period) => period.year >= first - 1 && period.year <= last + 1)) return null;
  return uncoveredMessage({ names, inPassing: [], periods, figure: null }, analysis.entities[0] ?? null);
}

/** "Amazon's", "Nike’s", "Sales of the Ulta Beauty's": a name written as an owner is a company or a person. */
function writtenAsOwner(question: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\b${escaped}['’]s?\\b`, "i").test(question);
}

/**
 * Whether two of the names a comparison gives are two sides — each with a found document about it and
 * not about the other ("Amazon" and "Nike", each with its own filing), or written as an owner ("Amazon's
 * 2016 net income", whose filing the question's search may not have found) — unlike two segments or
 * line items of one company ("Cubic Mission Solutions" and "Cubic Global Defense", "Cost of revenue").
 */
async function eachSideHasItsDocument(input: DirectAnswerInput): Promise<boolean> {
  const { entities } = input.analysis;
  if (entities.length < 2) return false;
  const aboutDocuments = new Map<string, Set<string>>();
  for (const entity of entities) {
    const documents = new Set<string>();
    for (const result of input.results)
      if ((await input.facts.mentions(result, entity)) === "subject") documents.add(result.documentId);
    aboutDocuments.set(entity, documents);
  }
  const ownDocument = (entity: string, other: string) =>
    [...(aboutDocuments.get(entity) ?? [])].some((documentId) => !aboutDocuments.get(other)?.has(documentId));
  const isSide = (entity: string, other: string) => ownDocument(entity, other) || writtenAsOwner(input.need, entity);
  return entities.some((entity, index) =>
    entities.slice(index + 1).some((other) => isSide(entity, other) && isSide(other, entity)),
  );
}

/** "In 2019, why did the gross margin decrease?": a reason is asked, wherever "why" stands; no figure answers it. */
const ASKS_WHY = /\bwhy\b|\breasons?\s+(?:for|behind|why)\b/i;

export async function composeDirectAnswer(input: DirectAnswerInput): Promise<ComposedDirectAnswer> {
  // A reason is quoted from the text (the extractive answer); only whether the documents name what it asks about is checked.
  if (ASKS_WHY.test(input.need)) {
    const evidence = await gatherFigureEvidence({ ...input.analysis, kind: "other" }, input.results, input.facts);
    const entity = input.analysis.entities[0] ?? null;
    return { direct: null, uncovered: uncoveredMessage(evidence, entity), missingNames: namesForCaveat(evidence) };
  }
  const { analysis } = input;
  const entity = analysis.entities[0] ?? null;
  const direct = new DirectAnswer(input.sources);
  const ratio = ratioQuestion(input.need);
  if (ratio !== null && (await addRatio(ratio, entity, input, direct)))
    return { direct, uncovered: null, missingNames: [] };
  // A value asked of a company's statements is looked up the way filings print line items first
  // (find-figure.ts: the statement, the company, the printed phrase); a calculation, a list or a value
  // that is no statement's line item is read from the table grid.
  const plainLookup = analysis.kind === "figure" && readTableQuestion(input.need).operation === "lookup";
  // Two companies compared ("Amazon's 2016 net income with Nike's"): each side is looked up in its own
  // document below; one table holds one company's figures.
  const acrossCompanies = analysis.kind === "comparison" && (await eachSideHasItsDocument(input));
  if (!plainLookup && !acrossCompanies) {
    const table = await tableEvidence(input);
    if (table !== null) {
      direct.addTableAnswer(table);
      return { direct, uncovered: null, missingNames: [] };
    }
    // "The change in revenue from 2014 to 2015" of documents that report 2017–2019: said, not answered from other years.
    const missingPeriod = await uncoveredPeriods(input);
    if (missingPeriod !== null) return { direct: null, uncovered: missingPeriod, missingNames: [] };
  }
  if (analysis.kind === "figure") {
    const evidence = await figureEvidence(analysis, input.results, input);
    // "How many employees…" is a count: an amount of money ("Employee benefits … $299 million") is no answer.
    const figure = evidence.figure !== null && answersAsked(input.need, evidence.figure.cell) ? evidence.figure : null;
    const grid = plainLookup && uncoveredMessage(evidence, entity) === null ? await tableEvidence(input) : null;
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
    if (table !== null) direct.addTableAnswer(table);
    else if (figure !== null) direct.addFigure(figure, entity);
    else if (uncoveredMessage(evidence, entity) === null) {
      const stated = await statedFigure(input.need, analysis, input.results, input);
      if (stated !== null) direct.addQuote(stated.source, stated.passage);
    }
    return {
      direct: direct.isEmpty() ? null : direct,
      uncovered: uncoveredMessage(evidence, entity),
      missingNames: namesForCaveat(evidence),
    };
  }
  const evidence = await gatherFigureEvidence(analysis, input.results, input.facts);
  const uncovered = uncoveredMessage(evidence, entity);
  if (analysis.kind === "list" && uncovered === null) {
    const list = findList(analysis, numberedResults(input.results.slice(0, LIST_SOURCES)));
    if (list !== null) direct.addList(list.source, list.introduction, list.items, list.passage);
    return { direct: direct.isEmpty() ? null : direct, uncovered, missingNames: namesForCaveat(evidence) };
  }
  if (analysis.kind === "yesno" && uncovered === null) {
    const questionTerms = new Set([...contentTerms(input.need)].filter((term) => !entityTerms(analysis).has(term)));
    const sources = numberedResults(input.results.slice(0, LIST_SOURCES));
    const deciding = findDecidingSentence(analysis.entities, questionTerms, sources);
    const item = deciding === null ? findListItem(questionTerms, sources) : null;
    // "Yes," or "No," when the deciding sentence (or the list's introduction) states it plainly; none when it hedges.
    const lead = (text: string) => {
      const verdict = yesNoVerdict(input.need, text, questionTerms);
      return verdict === null ? "" : verdict === "yes" ? "Yes," : "No,";
    };
    if (deciding !== null) direct.addQuote(deciding.source, deciding.passage, lead(deciding.passage.text));
    else if (item !== null)
      direct.addList(
        item.source,
        item.introduction,
        item.items,
        item.passage,
        lead(`${item.introduction} ${item.items.join(" ")}`),
      );
    return { direct: direct.isEmpty() ? null : direct, uncovered, missingNames: namesForCaveat(evidence) };
  }
  // "What is included in Service delivery costs?": the note the row points to ("(1) Include cost of …").
  const footnote =
    uncovered === null ? findRowFootnote(input.need, numberedResults(input.results.slice(0, LIST_SOURCES))) : null;
  if (footnote !== null) {
    direct.addQuote(footnote.source, footnote.passage);
    return { direct, uncovered, missingNames: namesForCaveat(evidence) };
  }
  if (analysis.kind === "definition" && uncovered === null) {
    const definition = await definitionEvidence(analysis, input);
    if (definition !== null) direct.addQuote(definition.source, definition.passage);
    return { direct: direct.isEmpty() ? null : direct, uncovered, missingNames: namesForCaveat(evidence) };
  }
  // A comparison's names are looked up side by side: one search rarely finds both companies' documents.
  const sides = uncovered === null || analysis.kind === "comparison" ? comparisonSides(input.need, analysis) : [];
  if (sides.length === 0) return { direct: null, uncovered, missingNames: namesForCaveat(evidence) };
  // Each side is looked up in its own search, so each named document is searched.
  const byPeriod = sides.every((side) => side.entity === sides[0]?.entity);
  const found: Array<{ label: string; cell: TableCell }> = [];
  const cited: number[] = [];
  for (const side of sides) {
    const sideResults = await input.search(side.question, "question");
    const sideEvidence = await figureEvidence(side.analysis, sideResults, input);
    const stated =
      sideEvidence.figure === null && uncoveredMessage(sideEvidence, side.entity) === null
        ? await statedFigure(side.question, side.analysis, sideResults, input)
        : null;
    const label = byPeriod ? periodWords(side.analysis.periods) : possessive(side.entity ?? side.question);
    if (stated !== null) {
      direct.addQuote(stated.source, stated.passage);
      found.push({ label, cell: stated.cell });
      continue;
    }
    if (sideEvidence.figure === null) {
      const asked = side.question.replace(/^What was /, "").replace(/\?$/, "");
      direct.addLine(
        uncoveredMessage(sideEvidence, side.entity) ?? `I couldn't find ${asked} in the documents available here.`,
      );
      continue;
    }
    const n = direct.addFigure(sideEvidence.figure, side.entity);
    if (n !== undefined) cited.push(n);
    found.push({ label, cell: sideEvidence.figure.cell });
  }
  if (found.length === 0) return { direct: null, uncovered: null, missingNames: [] };
  const comparison = found.length === sides.length ? comparisonSentence(input.need, found, byPeriod) : null;
  // "What was the revenue growth rate from 2019 to 2020?", "How much did sales grow?": the change itself, first.
  if (comparison !== null && byPeriod && ASKS_FOR_CHANGE.test(input.need)) {
    const subject = `${entity === null ? "" : `${possessive(entity)} `}${sides[0]?.analysis.measure ?? ""}`.trim();
    const refs = [...new Set(cited)].map((n) => `[${n}]`).join("");
    const line = `${subject === "" ? "" : `${subject.charAt(0).toUpperCase()}${subject.slice(1)}: `}${comparison.replace(/\.$/, "")} ${refs}.`;
    direct.addLineFirst(line);
  } else if (comparison !== null) direct.addLine(comparison);
  return { direct, uncovered: null, missingNames: [] };
}
