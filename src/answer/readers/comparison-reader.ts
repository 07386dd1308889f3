/**
 * A comparison of two names or two periods ("Did Amazon earn more than Nike in 2016?", "How much did
 * sales grow from 2019 to 2020?"): each side looked up in a search of its own — one search rarely finds
 * both companies' documents — then the comparison computed from both figures, the change first when the
 * question asks how a figure moved.
 */
import { comparisonSentence, comparisonSides } from "../compose/compare-figures.js";
import { uncoveredMessage } from "../evidence/figure-evidence.js";
import { figureEvidence, periodWords, statedFigure } from "../evidence/figure-lookup.js";
import type { TableCell } from "../evidence/table-cells.js";
import { asksWhy } from "../question/asked-answer.js";
import { possessive } from "../question/possessive.js";
import { newDirectAnswer, type Reader } from "./reader.js";

/** Share of the financial conversations' comparisons that were right (README.md, "Scores"). */
const COMPARISON_SCORE = 0.9;
/** When a side was not found: the likelihood of an even guess, below what a prose window usually reaches. */
const PARTIAL_COMPARISON_SCORE = 0.5;

/** A question about how a figure moved between periods: answered by the change first. */
const ASKS_FOR_CHANGE =
  /\b(?:grow|grew|grown|growth|rate|percent(?:age)?|change[sd]?|increase[sd]?|decrease[sd]?|rise|rose|fall|fell|decline[sd]?)\b|%/i;

export const comparisonReader: Reader = {
  name: "comparison",
  ceiling: COMPARISON_SCORE,
  async read(input) {
    const { analysis } = input;
    if (!["other", "comparison"].includes(analysis.kind) || asksWhy(input.need)) return null;
    const sides = comparisonSides(input.need, analysis);
    if (sides.length === 0) return null;
    const entity = analysis.entities[0] ?? null;
    const direct = newDirectAnswer(input);
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
    if (found.length === 0)
      return { reader: "comparison", grounds: "figures", score: 0, direct: null, uncovered: null, missingNames: [] };
    const comparison = found.length === sides.length ? comparisonSentence(input.need, found, byPeriod) : null;
    // "What was the revenue growth rate from 2019 to 2020?", "How much did sales grow?": the change itself, first.
    if (comparison !== null && byPeriod && ASKS_FOR_CHANGE.test(input.need)) {
      const subject = `${entity === null ? "" : `${possessive(entity)} `}${sides[0]?.analysis.measure ?? ""}`.trim();
      const refs = [...new Set(cited)].map((n) => `[${n}]`).join("");
      const line = `${subject === "" ? "" : `${subject.charAt(0).toUpperCase()}${subject.slice(1)}: `}${comparison.replace(/\.$/, "")} ${refs}.`;
      direct.addLineFirst(line);
    } else if (comparison !== null) direct.addLine(comparison);
    // One side found and the other not is half an answer: a window that answers in words may do better.
    return {
      reader: "comparison",
      grounds: "figures",
      score: found.length === sides.length ? COMPARISON_SCORE : PARTIAL_COMPARISON_SCORE,
      direct,
      uncovered: null,
      missingNames: [],
    };
  },
};
