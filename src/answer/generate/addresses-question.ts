/**
 * Whether a checked sentence is about what was asked. The check holds a sentence to its source, not to
 * the question: a small model may copy a true sentence about something else ("You'll receive your first
 * paycheck about three weeks after your start date" for "How much vacation time do I earn per pay
 * period?"). The sentence that opens the model's answer must share at least one of the question's content
 * words (its stems, question words aside — contentTerms of sentence-scoring.ts), or the model's answer
 * does not stand and the reader's does.
 */
import { contentTerms, uniqueTerms } from "../evidence/sentence-scoring.js";

export function addressesQuestion(sentence: string, question: string): boolean {
  const asked = contentTerms(question);
  const said = uniqueTerms(sentence.replace(/\[\d{1,3}\]/g, " "));
  return [...asked].some((term) => said.has(term));
}
