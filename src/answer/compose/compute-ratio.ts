/**
 * Works out a ratio question (ratio-question.ts) from the cited cells of its two line items, and writes
 * the answer with its inputs: "Block's working capital ratio for 2016 was 1.73 ($1,234 million / $713
 * million) [1][2]." An average over several years shows each year's value. Nothing is worked out when a
 * cell is missing or the two are in units that cannot be set against each other (a percentage, or an
 * amount whose table states no unit beside one in millions).
 */

import type { FoundFigure } from "../evidence/find-figure.js";
import { SCALE_FACTORS, type TableCell } from "../evidence/table-cells.js";
import { possessive } from "../question/possessive.js";
import type { Period } from "../question/question-analysis.js";
import type { RatioQuestion } from "../question/ratio-question.js";
import { formatCellAmount } from "./figure-sentence.js";

export type RatioInputs = Array<{ period: Period; numerator: FoundFigure; denominator: FoundFigure }>;

export type WorkedRatio = {
  /** Each period's value (a percentage when the question asks one), earliest first. */
  values: number[];
  /** The answer: the average when several periods are asked. */
  value: number;
};

function amountOf(cell: TableCell): number | null {
  if (cell.number === null || cell.percent) return null;
  return cell.number * (cell.scale === null ? 1 : SCALE_FACTORS[cell.scale]);
}

export function workOutRatio(question: RatioQuestion, inputs: RatioInputs): WorkedRatio | null {
  if (inputs.length === 0) return null;
  const values: number[] = [];
  for (const { numerator, denominator } of inputs) {
    if ((numerator.cell.scale === null) !== (denominator.cell.scale === null)) return null;
    const top = amountOf(numerator.cell);
    const bottom = amountOf(denominator.cell);
    if (top === null || bottom === null || bottom === 0) return null;
    values.push((question.percent ? 100 : 1) * (top / bottom));
  }
  return { values, value: values.reduce((sum, value) => sum + value, 0) / values.length };
}

function written(value: number, percent: boolean): string {
  return percent
    ? `${value.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`
    : value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function shown(figure: FoundFigure): string {
  return formatCellAmount(figure.cell);
}

/**
 * The answer's sentences; `refs` gives the [n] of each input's numerator and denominator source, in the
 * order of `inputs`.
 */
export function ratioSentences(
  question: RatioQuestion,
  inputs: RatioInputs,
  worked: WorkedRatio,
  entity: string | null,
  refs: Array<{ numerator: number; denominator: number }>,
): string {
  const owner = entity === null ? "" : `${possessive(entity)} `;
  const name = `${owner}${question.name}`;
  const subject = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  const years = inputs.map((input) => input.period.year);
  const inputText = inputs
    .map((input, index) => {
      const ref = refs[index];
      const cited = ref === undefined ? "" : ` [${ref.numerator}]`;
      const citedBelow = ref === undefined ? "" : ` [${ref.denominator}]`;
      return `${inputs.length > 1 ? `${input.period.year}: ` : ""}${shown(input.numerator)}${cited} / ${shown(input.denominator)}${citedBelow}${inputs.length > 1 ? ` = ${written(worked.values[index] ?? 0, question.percent)}` : ""}`;
    })
    .join("; ");
  if (inputs.length === 1)
    return `${subject} for ${years[0]} was ${written(worked.value, question.percent)} (${question.numerator} / ${question.denominator}: ${inputText}).`;
  return `${subject}, averaged over ${years[0]}–${years.at(-1)}, was ${written(worked.value, question.percent)} (${question.numerator} / ${question.denominator}: ${inputText}).`;
}
