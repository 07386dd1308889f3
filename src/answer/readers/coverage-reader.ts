/**
 * Not an answer but the check every prose answer stands on: whether the documents found name what the
 * question names ("Does Fabrikam's plan cover dental?" with no Fabrikam document is refused, never answered
 * from another company's plan). A figure question checks its names, years and company itself (figure
 * reader); a comparison goes on side by side when it has sides to look up.
 */
import { comparisonSides } from "../compose/compare-figures.js";
import { gatherFigureEvidence, uncoveredMessage } from "../evidence/figure-evidence.js";
import { namesForCaveat } from "../evidence/figure-lookup.js";
import { asksWhy } from "../question/asked-answer.js";
import type { Reader } from "./reader.js";

export const coverageReader: Reader = {
  name: "coverage",
  // It never answers, so it is never skipped for a better answer.
  ceiling: Number.POSITIVE_INFINITY,
  async read(input) {
    const { analysis } = input;
    const why = asksWhy(input.need);
    if (analysis.kind === "figure" && !why) return null;
    // A reason is quoted from the text: only whether the documents name what it asks about is checked.
    const evidence = await gatherFigureEvidence({ ...analysis, kind: "other" }, input.results, input.facts);
    const missingNames = namesForCaveat(evidence);
    const uncovered = uncoveredMessage(evidence, analysis.entities[0] ?? null);
    const sidesToLookUp = !why && analysis.kind === "comparison" && comparisonSides(input.need, analysis).length > 0;
    return {
      reader: "coverage",
      grounds: "figures",
      score: 0,
      direct: null,
      uncovered: sidesToLookUp ? null : uncovered,
      missingNames,
    };
  },
};
