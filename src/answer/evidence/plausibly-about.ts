/**
 * Whether the sources are plausibly about the question: the bar for asking a language model, lower
 * than the one an extractive answer needs (no-context.ts), since the model can still say "not in the
 * documents" and each sentence it writes is checked before it is shown. Only clearly unrelated
 * retrieval is refused before the model is asked.
 *
 * For now a lower share of the question's terms in the best sources than `relevant` asks for; the
 * reader's relevance decision (issue #38) is meant to replace this function.
 */
import type { RelevanceAssessment } from "./no-context.js";

/** Share of the question's terms the best source must hold for the model to be asked (no-context asks 0.55). */
export const PLAUSIBLE_COVERAGE = 0.35;

export function isPlausiblyAbout(relevance: RelevanceAssessment): boolean {
  return relevance.relevant || relevance.coverage >= PLAUSIBLE_COVERAGE;
}
