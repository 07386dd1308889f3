/**
 * Whether a checked sentence is about what was asked. The check holds a sentence to its source, not to
 * the question: a small model may copy a true sentence about something else ("You'll receive your first
 * paycheck about three weeks after your start date" for "How much vacation time do I earn per pay
 * period? I've been a fed for about 2 years."). The sentence that opens the model's answer must share
 * at least one of the question's content words (its stems; question words, the framing words of
 * claim-check.ts — "about", "after", "also"… — and a few verbs any answer uses aside), or the model's
 * answer does not stand and the reader's does.
 */
import { contentTerms, uniqueTerms } from "../evidence/sentence-scoring.js";
import { FRAMING_TERMS } from "./claim-check.js";

/** Verbs and words nearly any answer has, whatever it is about. */
const GENERIC_TERMS = uniqueTerms("get gets got use used need needs take takes make makes go goes give one like want");

export function addressesQuestion(sentence: string, question: string): boolean {
  const asked = [...contentTerms(question)].filter((term) => !FRAMING_TERMS.has(term) && !GENERIC_TERMS.has(term));
  // "Do I have to take it all in one go?" names nothing an answer could share: it cannot be judged so.
  if (asked.length === 0) return true;
  const said = uniqueTerms(sentence.replace(/\[\d{1,3}\]/g, " "));
  return asked.some((term) => said.has(term));
}
