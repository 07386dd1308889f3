/**
 * A ratio question ("What is Block's current ratio for 2016?") worked out from its two line items' cells,
 * each looked up as a figure question of its own ("What was Block's total current assets in 2016?"). No
 * answer when a cell is not found or the units do not allow it (the other readers go on).
 */
import type { SearchResult } from "../../domain/types.js";
import { type RatioInputs, ratioSentences, workOutRatio } from "../compose/compute-ratio.js";
import type { DirectAnswer } from "../compose/direct-answer.js";
import { figureEvidence } from "../evidence/figure-lookup.js";
import { asksWhy } from "../question/asked-answer.js";
import { possessive } from "../question/possessive.js";
import { analyzeQuestion, type Period } from "../question/question-analysis.js";
import { type RatioQuestion, ratioQuestion } from "../question/ratio-question.js";
import { newDirectAnswer, type Reader, type ReaderInput } from "./reader.js";

/** Share of TAT-QA dev's even half ratio answers that were right (README.md, "Scores"). */
const RATIO_SCORE = 0.97;

async function addRatio(ratio: RatioQuestion, input: ReaderInput, direct: DirectAnswer): Promise<boolean> {
  const entity = input.analysis.entities[0] ?? null;
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

export const ratioReader: Reader = {
  name: "ratio",
  ceiling: RATIO_SCORE,
  async read(input) {
    const ratio = asksWhy(input.need) ? null : ratioQuestion(input.need);
    if (ratio === null) return null;
    const direct = newDirectAnswer(input);
    if (!(await addRatio(ratio, input, direct))) return null;
    return { reader: "ratio", grounds: "figures", score: RATIO_SCORE, direct, uncovered: null, missingNames: [] };
  },
};
