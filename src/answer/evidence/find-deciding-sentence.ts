/**
 * The sentence that decides a yes/no question: it names what the question names and says most of
 * what it asks ("Is Converse a reportable segment of Nike?" → "Converse is also a reportable segment
 * and operates in one industry…"). A sentence that leaves out the name asked about decides nothing,
 * however many of the other words it shares ("The Company's reportable operating segments … are: North
 * America; …").
 */

import type { QuotedPassage } from "../citations/citations.js";
import type { NumberedSource } from "../generate/generator.js";
import { rankSentences, uniqueTerms } from "./sentence-scoring.js";

export type DecidingSentence = { source: NumberedSource; passage: QuotedPassage; score: number };

const MAX_SENTENCE_CHARACTERS = 400;
/** Share of the question's other words the deciding sentence must hold. */
const MINIMUM_COVERAGE = 0.6;

/**
 * `names` are the question's names: the sentence must hold each of them, except a name its document is
 * about (in its title or file name: the company whose report it is goes unnamed in "we", "the Company");
 * `askedTerms` are the rest of the question's content words.
 */
export function findDecidingSentence(
  names: string[],
  askedTerms: ReadonlySet<string>,
  sources: NumberedSource[],
): DecidingSentence | null {
  const nameTerms = names.map((name) => uniqueTerms(name));
  if (nameTerms.length === 0 || askedTerms.size === 0) return null;
  let best: DecidingSentence | null = null;
  sources.forEach((source, rank) => {
    if (source.result.kind === "table") return;
    const documentNames = uniqueTerms(`${source.result.title} ${source.result.file.replace(/[_.-]+/g, " ")}`);
    const required = nameTerms.filter((terms) => ![...terms].every((term) => documentNames.has(term)));
    // Only the document's own company named: any sentence of it would do, so none decides.
    if (required.length === 0) return;
    for (const sentence of rankSentences(source.result.text, new Set(askedTerms))) {
      if (sentence.text.length > MAX_SENTENCE_CHARACTERS) continue;
      const terms = uniqueTerms(sentence.text);
      if (!required.every((nameTermSet) => [...nameTermSet].every((term) => terms.has(term)))) continue;
      const coverage = sentence.score / askedTerms.size;
      if (coverage < MINIMUM_COVERAGE) continue;
      const score = coverage - 0.05 * rank;
      if (best !== null && score <= best.score) continue;
      best = { source, passage: { text: sentence.text.trim(), start: sentence.start, end: sentence.end }, score };
    }
  });
  return best;
}
