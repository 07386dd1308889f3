/**
 * Whether a questionnaire row's answer is supported well enough to be marked "answered" — a filled copy
 * goes back to a customer, and a confident answer quoting an unrelated passage is worse than a row left
 * for a person. Read from the Answer the chat pipeline returns, never from a second search:
 *
 * - **With a language model** (`answer.verification` present): supported only when the draft was
 *   verified against its sources (`outcome: "verified"`, every cited sentence held to the source it
 *   cites, write-verified-answer.ts). A draft that failed the check, a model that failed, or a check
 *   that failed leaves the quotes standing, but the row needs review.
 * - **Extractive** (no model): supported when either
 *   1. the answer leads with a direct answer worked out from cited evidence (`answer.value`: a figure
 *      from a table cell or a stated figure, a computation from such figures, a list, a yes/no verdict
 *      from the deciding sentence — compose-direct-answer.ts builds these from cited passages only), or
 *   2. one cited passage's quote holds most of what the question asks: at least MIN_COVERAGE of the
 *      question's content words (stemmed, stop words and the questionnaire's own framing — "describe",
 *      "your", "how long", "vendor" — left out), and at least MIN_SHARED of them (all of them when the
 *      question has fewer). Words scattered over several quotes do not count: one passage must state it.
 *
 * Anything else with sources is "needs review" (the best source is kept for the reviewer); no sources
 * relevant enough is "not found in the documents" (answer.noContext), decided by the pipeline.
 */
import type { Answer } from "../answer/answer-events.js";
import { analyzeText } from "../retrieval/text-analyzer.js";

/** Share of the question's content words one quoted passage must hold. Calibrated in docs/benchmarks.md (#32). */
export const MIN_COVERAGE = 0.6;
/** Content words one quoted passage must share with the question, when the question has that many. */
export const MIN_SHARED = 2;

/**
 * Words that frame a questionnaire question rather than say what it is about: asking words, the
 * respondent ("your company", "the vendor"), and quantity words answered by a number rather than
 * repeated ("how long", "how many", "how often").
 */
const FRAMING = new Set(
  analyzeText(
    "what which who whom whose when where why how do does did done you your yours we our us i my me " +
      "can could would should shall may might must have has had been being any all each every also " +
      "describe explain provide list specify state indicate confirm detail outline identify summarize summarise " +
      "please include including company organization organisation vendor supplier " +
      "long many much often frequently currently exist exists existing there",
  ),
);

export type SupportVerdict = {
  supported: boolean;
  /** Why, in words a reviewer reads in the Status cell when it is not. */
  reason: string;
  /** The citation (index in answer.citations) whose quote states it, when one passage decided. */
  citation?: number;
};

/** The question's content words, stemmed, framing left out. */
export function questionTerms(question: string): string[] {
  return [...new Set(analyzeText(question).filter((term) => !FRAMING.has(term)))];
}

/** How much of the question one passage holds: shared content words and their share. */
export function passageCoverage(terms: string[], passage: string): { shared: number; ratio: number } {
  if (terms.length === 0) return { shared: 0, ratio: 0 };
  const words = new Set(analyzeText(passage));
  const shared = terms.filter((term) => words.has(term)).length;
  return { shared, ratio: shared / terms.length };
}

/** Whether one quote states what the question asks (see the module comment). */
export function quoteStatesQuestion(question: string, quote: string): boolean {
  const terms = questionTerms(question);
  if (terms.length === 0) return false;
  const { shared, ratio } = passageCoverage(terms, quote);
  return ratio >= MIN_COVERAGE && shared >= Math.min(MIN_SHARED, terms.length);
}

export function judgeSupport(question: string, answer: Answer): SupportVerdict {
  if (answer.noContext || answer.citations.length === 0) {
    return { supported: false, reason: "the documents do not cover it" };
  }
  const outcome = answer.verification?.outcome;
  if (outcome !== undefined) {
    return outcome === "verified"
      ? { supported: true, reason: "the language model's answer was verified against its sources" }
      : { supported: false, reason: "the language model's draft could not be verified; the quotes stand" };
  }
  if (answer.value !== undefined) {
    return { supported: true, reason: "a direct answer worked out from the cited evidence" };
  }
  const stating = answer.citations.findIndex((citation) => quoteStatesQuestion(question, citation.quote));
  if (stating !== -1)
    return { supported: true, reason: "a cited passage states what the question asks", citation: stating };
  return {
    supported: false,
    reason: "no cited passage states what the question asks; the closest source is given",
  };
}
