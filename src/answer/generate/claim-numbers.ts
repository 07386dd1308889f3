/**
 * Whether a number a claim states is one a source prints, read with its scale and unit: "4.2 billion"
 * is not a source's "4.2 million" (a scale the source names must agree; a bare table figure may be in
 * any of the usual units), "30 years" is not "30 days" (a unit next to the source's number must agree;
 * a bare one counts when the unit is named elsewhere in the source, as a column heading does), and "30%"
 * is not "30 employees". Returns every printed occurrence that matches, so the caller can check what
 * each is said of (claim-binding.ts).
 */
import { figureReadings } from "../compose/calculation-check.js";
import { findNumbers, type Span, type StatedNumber } from "./claim-extraction.js";

/** One number a source passage prints, with the passage it is in. */
export type PrintedNumber = StatedNumber & Span & { passage: number };

/** Every number of every passage (codes such as "AES-256" are not numbers, see claim-extraction.ts). */
export function printedNumbersOf(passages: readonly string[]): PrintedNumber[] {
  return passages.flatMap((passage, index) => findNumbers(passage).map((number) => ({ ...number, passage: index })));
}

const near = (value: number, target: { value: number; tolerance: number }) =>
  Math.abs(Math.abs(value) - Math.abs(target.value)) <= target.tolerance;

/** Whether a printed number is the figure at a scale both allow. */
function sameAmount(figure: StatedNumber, printed: StatedNumber): boolean {
  const targets = figureReadings(figure);
  if (figure.scale === 1) {
    // A figure without a scale word is its digits ("4.2" of "4.2 million"; "4,200,000" of "4.2 million").
    return targets.some((target) => near(printed.value, target) || near(printed.value * printed.scale, target));
  }
  const full = targets[1] as { value: number; tolerance: number };
  // A source that names its own scale says how large the number is: "4.2 billion" is not its "4.2 million".
  if (printed.scale !== 1) return near(printed.value * printed.scale, full);
  // A bare figure may be in thousands, millions or billions (a statement's heading says which).
  return [1, 1e3, 1e6, 1e9].some((unit) => near(printed.value * unit, full));
}

/** Words a unit is named by anywhere in a source (a table's heading: "Leave (days)", "in $ millions"). */
const UNIT_NAMES: Record<string, RegExp> = {
  second: /\bsec(?:ond)?s?\b/iu,
  minute: /\bmin(?:ute)?s?\b/iu,
  hour: /\b(?:hours?|hrs?)\b/iu,
  day: /\b(?:days?|daily|workdays?)\b/iu,
  week: /\b(?:weeks?|weekly|wks?)\b/iu,
  month: /\b(?:months?|monthly)\b/iu,
  year: /\b(?:years?|yearly|annual(?:ly)?|yrs?)\b/iu,
  dollar: /\$|\b(?:dollars?|usd)\b/iu,
  euro: /€|\b(?:euros?|eur)\b/iu,
  pound: /£|\b(?:pounds?|gbp)\b/iu,
  yen: /¥|\byen\b/iu,
  cent: /\bcents?\b/iu,
  percent: /%|\bper\s?cent(?:age)?\b/iu,
};

/** Whether a printed number counts what the figure counts. */
function sameUnit(figure: StatedNumber, printed: StatedNumber, sourceText: string): boolean {
  if (figure.unit === null) return printed.unit !== "percent" || figure.percent;
  if (printed.unit !== null) return printed.unit === figure.unit;
  return UNIT_NAMES[figure.unit]?.test(sourceText) ?? false;
}

/** The printed numbers that are the figure, at its scale and in its unit. */
export function matchingNumbers(
  figure: StatedNumber,
  printed: readonly PrintedNumber[],
  sourceText: string,
): PrintedNumber[] {
  return printed.filter(
    (candidate) => !candidate.year && sameAmount(figure, candidate) && sameUnit(figure, candidate, sourceText),
  );
}

/** Whether a year the claim states is one the sources print (years are quoted, never computed). */
export function matchingYears(year: StatedNumber, printed: readonly PrintedNumber[]): PrintedNumber[] {
  return printed.filter((candidate) => candidate.value === year.value && candidate.scale === 1);
}
