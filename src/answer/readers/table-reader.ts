/**
 * A question answered from one table passage among the results (tables/table-answer.ts): a cell, a change,
 * an average, a ratio, a period or a count, worked out from the cells it names, in a document about what
 * the question names. A value asked of a company's statements is the figure reader's (it looks line items
 * up the way filings print them), as is a comparison of two companies (each side in its own document).
 * When a calculation names a period the found documents do not report, the reply says so.
 */
import { coverNames, coverPeriods } from "../evidence/evidence-coverage.js";
import { uncoveredMessage } from "../evidence/figure-evidence.js";
import { comparesCompanies, isPlainLookup } from "../evidence/question-shapes.js";
import { ASKS_ABOUT_TEXT, tableEvidence } from "../evidence/tables/table-evidence.js";
import { asksAboutText, readTableQuestion } from "../evidence/tables/table-question.js";
import { asksWhy } from "../question/asked-answer.js";
import { newDirectAnswer, type Reader, type ReaderInput } from "./reader.js";

/** Share of TAT-QA dev's even half table answers that were right (README.md, "Scores"). */
const TABLE_SCORE = 0.95;

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
async function uncoveredPeriods(input: ReaderInput): Promise<string | null> {
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

export const tableReader: Reader = {
  name: "table",
  ceiling: TABLE_SCORE,
  async read(input) {
    if (asksWhy(input.need) || isPlainLookup(input) || (await comparesCompanies(input))) return null;
    const table = await tableEvidence(input);
    if (table !== null) {
      const direct = newDirectAnswer(input);
      direct.addTableAnswer(table);
      return { reader: "table", grounds: "figures", score: TABLE_SCORE, direct, uncovered: null, missingNames: [] };
    }
    // "The change in revenue from 2014 to 2015" of documents that report 2017–2019: said, not answered from other years.
    const missingPeriod = await uncoveredPeriods(input);
    return missingPeriod === null
      ? null
      : { reader: "table", grounds: "figures", score: 0, direct: null, uncovered: missingPeriod, missingNames: [] };
  },
};
