/**
 * Comparisons: "Which is higher: Nike's net income for 2018 or Corning's for 2020?" is split into one
 * figure question per side (each names its company and period; a side that leaves the measure or the
 * period out takes the other side's), so each side is looked up in its own documents. The comparison
 * itself is computed here from the two cited figures, shown with its inputs ("1,933 < 2,020"), never
 * left to a quote.
 */

import { SCALE_FACTORS, type TableCell, type UnitScale } from "../evidence/table-cells.js";
import { possessive } from "../question/possessive.js";
import { analyzeQuestion, type Period, type QuestionAnalysis } from "../question/question-analysis.js";
import { formatCellAmount } from "./figure-sentence.js";

export type ComparisonSide = { question: string; entity: string | null; analysis: QuestionAnalysis };

function periodText(period: Period): string {
  return period.quarter === undefined ? String(period.year) : `Q${period.quarter} ${period.year}`;
}

function sideQuestion(entity: string | null, measure: string, periods: Period[]): string {
  const owner = entity === null ? "" : `${possessive(entity)} `;
  const when = periods.length > 0 ? ` in ${periods.map(periodText).join(" and ")}` : "";
  return `What was ${owner}${measure}${when}?`;
}

/** The words between one name and the next: that side's measure and period ("diluted EPS for 2017 or"). */
function segmentsByName(question: string, entities: string[]): string[] {
  const starts = entities.map((entity) => question.indexOf(entity));
  return entities.map((entity, index) => {
    const start = (starts[index] ?? 0) + entity.length;
    const end = starts[index + 1] ?? question.length;
    return question.slice(start, end > start ? end : question.length);
  });
}

const JOINING_WORDS = /^(?:['’]s\s+)?|\b(?:or|and|vs\.?|versus|than|with|compared to|compare)\s*[?.]?\s*$/gi;

/** One figure question per side; none when the question does not compare two names or two periods. */
export function comparisonSides(question: string, analysis: QuestionAnalysis): ComparisonSide[] {
  if (analysis.kind !== "comparison") return [];
  if (analysis.entities.length >= 2) {
    const entities = analysis.entities.slice(0, 2);
    // "Which company had higher net income: Nike … or Amazon …?" — words before the first name are both sides' measure.
    const shared = analyzeQuestion(`What was ${question.slice(0, Math.max(0, question.indexOf(entities[0] ?? "")))}?`);
    const sides = segmentsByName(question, entities).map((segment, index) => {
      const words = segment.replace(JOINING_WORDS, " ").trim();
      const read = analyzeQuestion(`What was the ${words}?`);
      return { entity: entities[index] ?? null, read };
    });
    return sides.map(({ entity, read }, index) => {
      const other = sides[1 - index]?.read;
      const measure =
        read.measureTerms.size > 0
          ? read.measure
          : other !== undefined && other.measureTerms.size > 0
            ? other.measure
            : shared.measure;
      const periods =
        read.periods.length > 0
          ? read.periods
          : other !== undefined && other.periods.length > 0
            ? other.periods
            : analysis.periods;
      const text = sideQuestion(entity, measure, periods);
      return { question: text, entity, analysis: analyzeQuestion(text) };
    });
  }
  if (analysis.periods.length >= 2) {
    const entity = analysis.entities[0] ?? null;
    const measure = analysis.measure.replace(
      /\b(?:from|to|between|and|or|than|grow|grew|growth|rate|change|changed|percent|percentage)\b/gi,
      " ",
    );
    return analysis.periods.slice(0, 2).map((period) => {
      const text = sideQuestion(entity, measure.replace(/\s+/g, " ").trim(), [period]);
      return { question: text, entity, analysis: analyzeQuestion(text) };
    });
  }
  return [];
}

function baseValue(cell: TableCell): number | null {
  if (cell.number === null) return null;
  return cell.number * (cell.scale === null ? 1 : SCALE_FACTORS[cell.scale]);
}

const ASKS_LOWER = /\b(?:lower|smaller|less|fewer|least|lowest|smallest)\b/i;

/**
 * The comparison of two found figures, computed and shown with its inputs: "$36,397 million >
 * $11,303 million: Nike's is higher by 25,094 million." Two periods of one measure read as a change:
 * "$4,240 million (2017) → $1,933 million (2018): down 2,307 million." Null when the two are not in
 * comparable units (a percentage and an amount).
 */
export function comparisonSentence(
  question: string,
  sides: Array<{ label: string; cell: TableCell }>,
  byPeriod = false,
): string | null {
  const [left, right] = sides;
  if (left === undefined || right === undefined || left.cell.percent !== right.cell.percent) return null;
  // An amount whose table states no unit cannot be set against one in millions.
  if ((left.cell.scale === null) !== (right.cell.scale === null)) return null;
  const leftValue = baseValue(left.cell);
  const rightValue = baseValue(right.cell);
  if (leftValue === null || rightValue === null) return null;
  const shown = (side: { cell: TableCell }) => formatCellAmount(side.cell);
  // The difference is written in the larger of the two scales, with the currency both share.
  const scales = [left.cell.scale, right.cell.scale].filter((scale): scale is UnitScale => scale !== null);
  const scale = scales.sort((a, b) => SCALE_FACTORS[b] - SCALE_FACTORS[a])[0] ?? null;
  const currency = left.cell.currency !== null && left.cell.currency === right.cell.currency ? left.cell.currency : "";
  const difference = Math.abs(leftValue - rightValue);
  const inScale = (difference / (scale === null ? 1 : SCALE_FACTORS[scale])).toLocaleString("en-US", {
    maximumFractionDigits: 2,
  });
  const amount = left.cell.percent
    ? `${difference.toLocaleString("en-US", { maximumFractionDigits: 2 })} percentage points`
    : `${currency}${inScale}${scale === null ? "" : ` ${scale}`}`;
  if (byPeriod) {
    const [earlier, later] = [left, right].sort((a, b) => a.label.localeCompare(b.label)) as [
      typeof left,
      typeof right,
    ];
    const before = baseValue(earlier.cell) ?? 0;
    const change = (baseValue(later.cell) ?? 0) - before;
    // An amount's change is also given as a percentage of where it started ("up $41,879 million, +30.8%").
    const relative =
      earlier.cell.percent || before === 0 || change === 0
        ? ""
        : `, ${change > 0 ? "+" : "−"}${Math.abs((100 * change) / Math.abs(before)).toFixed(1)}%`;
    const direction = change === 0 ? "unchanged" : `${change > 0 ? "up" : "down"} ${amount}${relative}`;
    return `${shown(earlier)} (${earlier.label}) → ${shown(later)} (${later.label}): ${direction}.`;
  }
  if (leftValue === rightValue) return `${shown(left)} = ${shown(right)}: they are the same.`;
  const relation = leftValue > rightValue ? ">" : "<";
  const higher = leftValue > rightValue ? left : right;
  const lower = leftValue > rightValue ? right : left;
  const verdict = ASKS_LOWER.test(question) ? `${lower.label} is lower` : `${higher.label} is higher`;
  return `${shown(left)} ${relation} ${shown(right)}: ${verdict} by ${amount}.`;
}
