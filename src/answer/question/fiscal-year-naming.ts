/**
 * How a document names the fiscal years that end in January or February. Retailers differ: Ulta's
 * "fiscal 2022" ended on January 28, 2023, Walmart's "fiscal 2023" ended on January 31, 2023. A table
 * column "52 Weeks Ended January 28, 2023" is only read as a fiscal year once the document says which.
 *
 * Read from the document's own words, in this order:
 * - stated: "fiscal 2022, which ended January 28, 2023", "the year ended January 31, 2023 ("fiscal 2023")";
 * - counted: a document speaks of its current fiscal year, the year before and the year ahead. With E the
 *   latest January/February year end it names, its fiscal years are E-2…E when named after the year they
 *   start in, E-1…E+1 when named after the year they end in: whichever end holds more namings decides.
 * Neither → unknown (null), and no January column gets a year.
 */

const JANUARY_OR_FEBRUARY = String.raw`(?:jan(?:uary)?|feb(?:ruary)?)\.?\s+\d{1,2},?\s+((?:19|20)\d{2})`;
const FISCAL_YEAR = String.raw`(?:fiscal(?:\s+year)?|FY)\s*((?:19|20)\d{2})\b`;
const STATED_FISCAL_FIRST = new RegExp(
  String.raw`\b${FISCAL_YEAR}[^.;]{0,60}?\bended\s+(?:on\s+)?${JANUARY_OR_FEBRUARY}`,
  "gi",
);
const STATED_END_FIRST = new RegExp(
  String.raw`\bended\s+(?:on\s+)?${JANUARY_OR_FEBRUARY}\s*\(\s*["“]?\s*${FISCAL_YEAR}`,
  "gi",
);
const PERIOD_END = new RegExp(String.raw`\bended\s+(?:on\s+)?${JANUARY_OR_FEBRUARY}`, "gi");
const FISCAL_YEAR_NAMING = new RegExp(String.raw`\b${FISCAL_YEAR}`, "gi");

/** A year, not a quarter, ending in January or February: "fiscal year ended January 28", "52 weeks ended February 1". */
const YEAR_ENDS_IN_JANUARY =
  /\b(?:fiscal(?:\s+year)?(?:\s+(?:19|20)\d{2})?|year|(?:52|53|fifty[- ]two|fifty[- ]three)[- ]weeks?)\b(?:(?!quarter|months|weeks)[^.;]){0,40}?\bended\s+(?:on\s+)?(?:jan(?:uary)?|feb(?:ruary)?)\b/i;

/** The fiscal year's number less the calendar year it ends in (-1 or 0); null when the document does not tell. */
export function januaryYearShift(text: string): number | null {
  // Nike's third quarter ends in February; only a document whose year ends there names such years.
  if (!YEAR_ENDS_IN_JANUARY.test(text)) return null;
  const stated = new Map<number, number>();
  const count = (shift: number) => {
    if (shift === -1 || shift === 0) stated.set(shift, (stated.get(shift) ?? 0) + 1);
  };
  for (const match of text.matchAll(STATED_FISCAL_FIRST)) count(Number(match[1]) - Number(match[2]));
  for (const match of text.matchAll(STATED_END_FIRST)) count(Number(match[2]) - Number(match[1]));
  if (stated.size > 0) {
    const [first, second] = [...stated].sort((left, right) => right[1] - left[1]);
    return second !== undefined && second[1] === first?.[1] ? null : (first?.[0] ?? null);
  }
  const ends = [...text.matchAll(PERIOD_END)].map((match) => Number(match[1]));
  if (ends.length === 0) return null;
  const latestEnd = Math.max(...ends);
  const namings = new Map<number, number>();
  for (const match of text.matchAll(FISCAL_YEAR_NAMING))
    namings.set(Number(match[1]), (namings.get(Number(match[1])) ?? 0) + 1);
  const namedAfterStart = namings.get(latestEnd - 2) ?? 0;
  const namedAfterEnd = namings.get(latestEnd + 1) ?? 0;
  if (namedAfterStart > namedAfterEnd) return -1;
  if (namedAfterEnd > namedAfterStart) return 0;
  return null;
}
