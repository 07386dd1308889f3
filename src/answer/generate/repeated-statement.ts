/**
 * Whether a model's sentence only says again what the answer already shows — the direct answer put
 * first, which the model was given as a checked fact and tends to restate ("Annual leave is 4 hours
 * per pay period [1]." under "4 hours per pay period [1]"). Such a sentence is checked like any other,
 * but not shown twice.
 */
import { analyzeText } from "../../retrieval/text-analyzer.js";
import { findNumbers } from "./claim-extraction.js";

/** Share of a sentence's words the shown text must hold for the sentence to add nothing. */
const REPEATED_WORDS = 0.7;

const amountsOf = (text: string) =>
  new Set(
    findNumbers(text.replace(/\[\d{1,3}\]/g, " "))
      .filter((number) => !number.year)
      .map((number) => number.value * number.scale),
  );

export function repeatsShownText(sentence: string, shown: string): boolean {
  if (shown.trim() === "") return false;
  const shownAmounts = amountsOf(shown);
  const amounts = amountsOf(sentence);
  if (![...amounts].every((amount) => shownAmounts.has(amount))) return false;
  const shownTerms = new Set(analyzeText(shown));
  const terms = [...new Set(analyzeText(sentence.replace(/\[\d{1,3}\]/g, " ")))].filter((term) => !/^\d/.test(term));
  if (terms.length === 0) return amounts.size > 0;
  const held = terms.filter((term) => shownTerms.has(term)).length;
  // A sentence restating a figure in other words repeats it; one without a figure must repeat most words.
  return amounts.size > 0 ? held / terms.length >= REPEATED_WORDS / 2 : held / terms.length >= REPEATED_WORDS;
}
