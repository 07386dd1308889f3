/**
 * Questions whose answer is worked out from two line items rather than read from one cell: a ratio the
 * question defines ("working capital ratio as total current assets divided by total current
 * liabilities"), one item as a percentage of another ("capex as a % of revenue"), a margin ("operating
 * income % margin", "gross margin"), each for one period or averaged over several ("the FY2019 - FY2021
 * 3 year average"). Only these shapes are read; a formula with more terms (DPO's "COGS + change in
 * inventory") is no ratio question, and the answer falls back to the cells themselves.
 */

import { namedPeriods, type Period } from "./question-analysis.js";

export type RatioQuestion = {
  numerator: string;
  denominator: string;
  /** Each period the ratio is worked out for, earliest first; several when an average is asked. */
  periods: Period[];
  /** Written as a percentage ("10.3%") rather than a ratio ("1.73"). */
  percent: boolean;
  /** What the ratio is called in the answer ("working capital ratio", "operating income as a % of revenue"). */
  name: string;
};

/** A margin's numerator when the question names only the margin: "gross margin" is gross profit over revenue. */
const MARGIN_NUMERATORS: Record<string, string> = {
  gross: "gross profit",
  operating: "operating income",
  net: "net income",
  "net profit": "net income",
  ebitda: "EBITDA",
};

/** Words a term picks up around it in a question that are not the measure ("unadjusted", "the FY2018"). */
function cleanTerm(term: string): string {
  return term
    .replace(/\(?\b(?:FY\s?|fiscal\s+)?(?:19|20)\d{2}\b\)?/gi, " ")
    .replace(/\b(?:unadjusted|reported|the|a|an|year[- ]end|end of year|total amount of)\b/gi, " ")
    .replace(/[(),:]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Where a measure named before a marker starts: after the question's own words ("what is Nike's three year average of"). */
const MEASURE_START =
  /^.*(?:\baverage\s+(?:of\s+)?|\b(?:what|how)\s+(?:is|was|were|are)\s+|['’]s\s+|\bthe\s+|\bunadjusted\s+|\breported\s+|\)\s*)/i;
/** Where a measure named after a marker ends. */
const MEASURE_END = /\s+(?:for|in|at|between|from|during|over|and|when|using|as of)\b.*$|[.,;:?(].*$/i;

function measureBefore(text: string): string {
  return cleanTerm(text.replace(MEASURE_START, ""));
}

function measureAfter(text: string): string {
  return cleanTerm(text.replace(MEASURE_END, ""));
}

const DEFINED_AS = /\b(?:defined\s+as|define\s+[^.?]{1,60}?\s+as|is\s+calculated\s+as)\s*:?\s*/i;
const DIVIDED_BY = /\s*(?:divided\s+by|\/|over)\s*/i;
const AS_PERCENT_OF = /\s+as\s+an?\s+(?:%|percent(?:age)?)\s+of\s+/i;
const MARGIN_LEVEL = /\b(gross|operating|net(?:\s+profit)?|ebitda)\s+(?:profit\s+)?(?:%\s+)?margin\b/i;
const PERCENT_MARGIN = /\s+%\s+margin\b/i;
const NAMED_RATIO = /\b((?:[a-z]+\s+){0,3}ratio)\b/i;
/** Questions about why or whether a ratio moved: explained in words, not worked out. */
const ASKS_WHY =
  /\b(?:why|drove|driven|explain|reasons?\b|improving|did\b[^?]*\b(?:increase|decrease|improve|decline))/i;

const YEAR_COUNTS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5 };

/** Every year from the first to the last the question names ("FY2019 - FY2021" → 2019, 2020, 2021) when it asks an average. */
function periodsAsked(question: string): Period[] {
  const periods = namedPeriods(question).filter((period) => period.quarter === undefined);
  const years = periods.map((period) => period.year).sort((left, right) => left - right);
  if (years.length === 0) return [];
  if (!/\baverage\b/i.test(question)) return [{ year: years[0] as number }];
  const first = years[0] as number;
  const last = years.at(-1) as number;
  const spanWord = /\b(\d|two|three|four|five)[- ]year\b/i.exec(question)?.[1]?.toLowerCase();
  const count = spanWord === undefined ? last - first + 1 : (YEAR_COUNTS[spanWord] ?? Number(spanWord));
  const from = Math.max(first, last - count + 1);
  return Array.from({ length: last - from + 1 }, (_, index) => ({ year: from + index }));
}

export function ratioQuestion(question: string): RatioQuestion | null {
  if (ASKS_WHY.test(question)) return null;
  const periods = periodsAsked(question);
  if (periods.length === 0) return null;
  const percent = /\b(?:percent|percentage)\b|%/i.test(question);
  const definition = DEFINED_AS.exec(question);
  if (definition) {
    const formula = question.slice(definition.index + definition[0].length).split(/[.;?]\s|[.;?]$/)[0] ?? "";
    const [left, right, extra] = formula.split(DIVIDED_BY);
    if (left === undefined || right === undefined || extra !== undefined) return null;
    if (/\b(?:average|change|plus|minus|times)\b|[+*]|\d{3}/i.test(formula)) return null;
    const numerator = cleanTerm(left);
    const denominator = measureAfter(right);
    if (numerator === "" || denominator === "") return null;
    const named = NAMED_RATIO.exec(question.slice(0, definition.index))?.[1];
    return { numerator, denominator, periods, percent, name: measureBefore(named ?? `${numerator} / ${denominator}`) };
  }
  const asPercent = AS_PERCENT_OF.exec(question);
  if (asPercent) {
    const numerator = measureBefore(question.slice(0, asPercent.index));
    const denominator = measureAfter(question.slice(asPercent.index + asPercent[0].length));
    if (numerator === "" || denominator === "") return null;
    return { numerator, denominator, periods, percent: true, name: `${numerator} as a % of ${denominator}` };
  }
  const level = MARGIN_LEVEL.exec(question)?.[1]?.toLowerCase().replace(/\s+/g, " ");
  const percentMargin = PERCENT_MARGIN.exec(question);
  const numerator =
    level !== undefined
      ? (MARGIN_NUMERATORS[level] ?? level)
      : percentMargin
        ? measureBefore(question.slice(0, percentMargin.index))
        : "";
  if (numerator === "") return null;
  return { numerator, denominator: "revenue", periods, percent: true, name: `${numerator} margin` };
}
