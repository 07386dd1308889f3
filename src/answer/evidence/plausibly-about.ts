/**
 * Whether the sources are plausibly about the question: the bar for asking a language model, lower
 * than the one an extractive answer needs (no-context.ts), since the model can still say "not in the
 * documents" and each sentence it writes is checked before it is shown. Only clearly unrelated
 * retrieval is refused before the model is asked.
 *
 * A lower share of the question's terms in the best sources than the extractive bar of no-context.ts.
 * Not the readers' answer likelihood (issue #38): a window that shares no word with the question still
 * scores most of the way to its bar (0.26 of 0.30 by words alone), so a share of that bar would ask the
 * model about anything; the share of the question's terms does not.
 */
import type { RelevanceAssessment } from "./no-context.js";

/** Share of the question's terms the best source must hold for the model to be asked (no-context asks 0.55). */
export const PLAUSIBLE_COVERAGE = 0.35;

export function isPlausiblyAbout(relevance: RelevanceAssessment): boolean {
  return relevance.relevant || relevance.coverage >= PLAUSIBLE_COVERAGE;
}
