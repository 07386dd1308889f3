/**
 * Finds the table cell that answers a figure question: the row whose label (with its section row)
 * holds the measure's words, in the column of the period asked (the table's first period column when
 * none is asked), in a document that names the entity asked about. A cell only counts when its row
 * names the whole measure; a near miss is no answer, and the caller falls back to quoting sentences.
 */
import { statementOfPassage } from "../../domain/financial-statements.js";
import type { NumberedSource } from "../generate/generator.js";
import type { Period, QuestionAnalysis } from "../question/question-analysis.js";
import { uniqueTerms } from "./sentence-scoring.js";
import { type TableCell, type TableReading, tableCells } from "./table-cells.js";

export type FoundFigure = {
  source: NumberedSource;
  cell: TableCell;
  score: number;
  /** The row names the measure and nothing else (no other words, no section it is a part of). */
  exact: boolean;
};

/**
 * Words the same line item goes by in different reports. Only words of the accounting vocabulary every
 * report uses; a measure not named here is matched by its own words.
 */
const SAME_MEANING: ReadonlyArray<ReadonlyArray<string>> = [
  ["revenu", "sale"],
  ["incom", "earn", "profit"],
  ["expenditur", "purchas"],
  ["repurchas", "buyback"],
];

export function synonymsOf(term: string): ReadonlyArray<string> {
  return SAME_MEANING.find((group) => group.includes(term)) ?? [term];
}

/**
 * Line items statements print under another phrase than people ask by: "capital expenditures" are
 * "Purchases of property and equipment" in a cash flow statement, "PP&E" is "Property, plant and
 * equipment", "cost of goods sold" is "Cost of sales" or "Cost of revenue". Each pair: the asked
 * phrase's words, and the printed phrase's. Only the accounting vocabulary every report uses.
 */
const PRINTED_AS: ReadonlyArray<[string, ReadonlyArray<string>]> = [
  ["capital expenditures", ["purchases of property and equipment", "additions to property and equipment"]],
  ["capex", ["purchases of property and equipment", "additions to property and equipment"]],
  ["ppne", ["property plant and equipment"]],
  ["ppe", ["property plant and equipment"]],
  ["cost of goods sold", ["cost of sales", "cost of revenue"]],
  ["cogs", ["cost of sales", "cost of revenue", "cost of goods sold"]],
  // "Net income attributable to shareholders" is the "Net income" of a company with no minority interests.
  ["attributable to shareholders", [""]],
  ["attributable to stockholders", [""]],
];

/** The measure's words read as the phrases statements print it under (see PRINTED_AS); none when it has no such phrase. */
export function measureAliases(measureTerms: ReadonlySet<string>): Array<Set<string>> {
  const aliases: Array<Set<string>> = [];
  for (const [asked, printed] of PRINTED_AS) {
    const askedTerms = uniqueTerms(asked);
    if (![...askedTerms].every((term) => measureTerms.has(term))) continue;
    const rest = [...measureTerms].filter((term) => !askedTerms.has(term));
    for (const phrase of printed) {
      const alias = new Set([...rest, ...uniqueTerms(phrase)]);
      if (alias.size > 0) aliases.push(alias);
    }
  }
  return aliases;
}

/** The measure's words with the other words its line item goes by: what a search for its row looks for. */
export function measureSearchWords(measure: string, measureTerms: ReadonlySet<string>): string {
  const others = [...measureTerms].flatMap((term) => synonymsOf(term).filter((synonym) => !measureTerms.has(synonym)));
  // "capital expenditure" is searched as the statements print it too: "purchases of property and equipment".
  const printed = PRINTED_AS.filter(([asked]) =>
    [...uniqueTerms(asked)].every((term) => measureTerms.has(term)),
  ).flatMap(([, phrases]) => phrases.slice(0, 1));
  return [measure, ...others, ...printed].join(" ").replace(/\s+/g, " ").trim();
}

/**
 * Words that make a row another line item than the measure they qualify: "Deferred revenue" is a
 * liability, "Cost of revenue" an expense, "Income before income taxes" not net income. A row holding one
 * that the question does not is no answer to it.
 */
const OTHER_ITEM_WORDS = new Set([
  "defer",
  "unearn",
  "accru",
  "prepaid",
  "cost",
  "expens",
  "other",
  "tax",
  "reserv",
  "allow",
]);

/** Words a row label may carry beyond the measure without naming something else ("Total net sales"). */
const NEUTRAL_LABEL_WORDS = new Set(["total", "net", "consolid"]);

/**
 * Levels of the same measure that are different figures: "net income" is not "gross profit" nor
 * "operating income". A row naming another level than the question's is another line item.
 */
const MEASURE_LEVELS = ["net", "gross", "oper"];

const PER_SHARE = /\bper\s+(?:common\s+|diluted\s+|basic\s+)?share\b|\beps\b/i;

/** Measures a percentage states (stemmed): "effective tax rate", "gross margin", "comparable sales growth". */
const SHARE_TERMS = new Set([
  "rate",
  "margin",
  "percent",
  "percentag",
  "share",
  "ratio",
  "growth",
  "chang",
  "increas",
  "decreas",
  "yield",
  "return",
]);

function otherLevel(measureTerms: Set<string>, label: string): boolean {
  const asked = MEASURE_LEVELS.filter((level) => measureTerms.has(level));
  if (asked.length === 0) return false;
  // "Gross profit (as a percentage of net sales)" is gross profit: what the parenthesis says is no level.
  const named = MEASURE_LEVELS.filter((level) => uniqueTerms(label.replace(/\([^()]*\)/g, " ")).has(level));
  return named.length > 0 && !named.some((level) => asked.includes(level));
}

/**
 * How well a cell's row names the measure: the share of its terms held (a synonym counts), and the
 * words the row and its section add (each a sign the row is a part of the measure, not the measure:
 * "North America › Net sales", "Net income attributable to noncontrolling interests").
 */
function labelFit(
  measureTerms: Set<string>,
  cell: TableCell,
  neutralTerms: ReadonlySet<string>,
): { coverage: number; ownCoverage: number; extraWords: number; ownExtraWords: number; bySynonym: boolean } {
  const own = uniqueTerms(cell.label);
  const parents = uniqueTerms(cell.parents.join(" "));
  const holds = (terms: Set<string>, term: string) => synonymsOf(term).some((synonym) => terms.has(synonym));
  let matched = 0;
  let ownMatched = 0;
  let bySynonym = false;
  for (const term of measureTerms) {
    if (!own.has(term) && !parents.has(term) && (holds(own, term) || holds(parents, term))) bySynonym = true;
    if (holds(own, term)) ownMatched += 1;
    if (holds(own, term) || holds(parents, term)) matched += 1;
  }
  const isExtra = (term: string) =>
    !NEUTRAL_LABEL_WORDS.has(term) && !neutralTerms.has(term) && !synonymsOf(term).some((s) => measureTerms.has(s));
  const ownExtraWords = [...own].filter(isExtra).length;
  const extraWords = ownExtraWords + 0.5 * [...parents].filter(isExtra).length;
  return {
    coverage: matched / measureTerms.size,
    ownCoverage: ownMatched / measureTerms.size,
    extraWords,
    ownExtraWords,
    bySynonym,
  };
}

/** A row label's words, in an order that does not depend on how it was printed. */
function labelSignature(terms: ReadonlySet<string>): string {
  return [...terms].sort().join(" ");
}

export function periodMatches(asked: Period, column: Period | null): boolean {
  if (column === null || column.year !== asked.year) return false;
  // A quarter is only read from a column that names it: a year's column is not its fourth quarter.
  return column.quarter === asked.quarter;
}

/** Cells a measure needs to be named in full by; with three or more words, all but one may do. */
function minimumCoverage(measureTerms: Set<string>): number {
  return measureTerms.size >= 3 ? (measureTerms.size - 1) / measureTerms.size - 0.01 : 0.99;
}

export function findFigure(
  analysis: Pick<QuestionAnalysis, "measureTerms" | "periods" | "entities">,
  sources: NumberedSource[],
  /** Whether a source's document is about what the question names (true for every source when it names nothing). */
  isAboutAsked: (source: NumberedSource) => boolean = () => true,
  /** How to read each source's table (its document's fiscal-year naming). */
  readingOf: (source: NumberedSource) => TableReading = () => ({}),
): FoundFigure | null {
  if (analysis.measureTerms.size === 0) return null;
  // "Consolidated net revenues" is answered by "Total revenues": words any row may leave out are not required.
  const named = [...analysis.measureTerms].filter((term) => !NEUTRAL_LABEL_WORDS.has(term));
  const required = named.length > 0 ? new Set(named) : analysis.measureTerms;
  const period = analysis.periods[0];
  const asksForShare = [...analysis.measureTerms].some((term) => SHARE_TERMS.has(term));
  const asksPerShare = analysis.measureTerms.has("share");
  // The company's own name in a row ("Total NIKE, Inc. Revenues") is no extra word.
  const neutralTerms = uniqueTerms(analysis.entities.join(" "));
  const readings = [required, ...measureAliases(required)];
  /** How well a cell's row answers the measure read as `reading`; null when it is another line item. */
  const cellFit = (
    reading: Set<string>,
    cell: TableCell,
    tableLabels: ReadonlySet<string>,
  ): { score: number; exact: boolean } | null => {
    const { coverage, ownCoverage, extraWords, ownExtraWords, bySynonym } = labelFit(reading, cell, neutralTerms);
    // "Sales" is revenue in "Net sales", not in "Sales and maturities of marketable securities".
    if (bySynonym && ownExtraWords > 1) return null;
    // A printed phrase stands for the measure only whole: "Dispositions of property and equipment" is no purchase of it.
    if (coverage < (reading === required ? minimumCoverage(reading) : 0.99)) return null;
    if (otherLevel(analysis.measureTerms, cell.label)) return null;
    const asked = new Set([...analysis.measureTerms, ...reading]);
    if ([...uniqueTerms(cell.label)].some((term) => OTHER_ITEM_WORDS.has(term) && !asked.has(term))) return null;
    // A percentage answers only a question about a share, rate or margin; a per-share amount only one about shares.
    if (cell.percent && !asksForShare) return null;
    if (!asksPerShare && [cell.label, ...cell.parents].some((label) => PER_SHARE.test(label))) return null;
    // A row that names none of the measure itself is a part of what its section names ("Revenues ›
    // Rooms"), unless it is the section's total ("Total").
    if (ownCoverage === 0 && ownExtraWords > 0) return null;
    // "Revenues › Converse" is a part of revenues, not revenues: the measure named by a section only weighs less.
    // "Net income" beats "Net income attributable to noncontrolling interests"; the retrieval ranking
    // breaks ties (the statement ranked first is the one the question names best).
    // "Net PP&E" is the row that says net, not the gross one above it: a qualifier asked for weighs a little
    // against a row whose table also prints the row with it.
    const labelTerms = uniqueTerms(cell.label);
    const missingQualifiers = [...NEUTRAL_LABEL_WORDS].filter(
      (word) =>
        analysis.measureTerms.has(word) &&
        !labelTerms.has(word) &&
        tableLabels.has(labelSignature(new Set([...labelTerms, word]))),
    ).length;
    const score = coverage - 0.3 * (coverage - ownCoverage) - 0.04 * extraWords - 0.03 * missingQualifiers;
    return { score, exact: coverage === 1 && ownCoverage === 1 && extraWords === 0 };
  };
  let best: FoundFigure | null = null;
  sources.forEach((source, rank) => {
    if (!isAboutAsked(source)) return;
    const cells = tableCells(source.result, readingOf(source)).filter((cell) => cell.number !== null);
    const primaryStatement = statementOfPassage(source.result.provenance) !== null;
    const tableLabels = new Set(cells.map((cell) => labelSignature(uniqueTerms(cell.label))));
    // With no period asked, a table's first period column is its latest: the one a reader means.
    const firstPeriodColumn = cells.find((cell) => cell.period !== null)?.column;
    for (const cell of cells) {
      if (period !== undefined ? !periodMatches(period, cell.period) : cell.column !== firstPeriodColumn) continue;
      for (const reading of readings) {
        const fit = cellFit(reading, cell, tableLabels);
        if (fit === null) continue;
        // A primary statement is where a reader checks a line item: its row beats the same row in a note.
        const statementBonus = primaryStatement ? 0.05 : 0;
        const score = fit.score - 0.01 * rank + statementBonus;
        if (best === null || score > best.score) best = { source, cell, score, exact: fit.exact };
      }
    }
  });
  return best;
}
