/**
 * The answer mode until the local LLM lands: no generation, only evidence. From each of the top
 * sources it takes the sentence that best matches the question and quotes it with its [n] marker,
 * best-supported first, streamed one sentence at a time. Bracketed reference numbers inside a quote
 * ("Docker [2]" in a NIST paper) are written "(2)" so they cannot be read as Folio's own [n] markers.
 */
import type { AnswerGenerator, NumberedSource } from "./generator.js";
import { rankPassages, shortenQuote, uniqueTerms } from "./sentence-scoring.js";

const MAX_QUOTES = 3;
/** A further quote must carry at least this share of the best quote's support, or it is noise. */
const MIN_RELATIVE_SUPPORT = 0.5;
const DOCUMENT_REFERENCE = /\[(\d{1,3})\]/g;

function quoteOf(sentence: string): string {
  return shortenQuote(sentence, 400).replace(DOCUMENT_REFERENCE, "($1)");
}

/**
 * Words that shape a question but say nothing about its subject. The BM25 analyzer keeps most of them
 * (Lucene's short stop list), and left in they let "employees can choose…" outrank "employees may
 * expense up to $1000…" for "How much can employees expense?".
 */
const QUESTION_WORDS = uniqueTerms(
  "how much many can could would should will shall may might must do does did what which who whom whose when where why is are was were am be been has have had i we you me us my our your please tell know",
);

function contentTerms(question: string): Set<string> {
  const terms = uniqueTerms(question);
  const content = new Set([...terms].filter((term) => !QUESTION_WORDS.has(term)));
  // A question made only of such words ("What is it?") keeps them rather than matching nothing.
  return content.size > 0 ? content : terms;
}

/**
 * How specific each question term is among the retrieved sources: ln(1 + sources / sources holding it).
 * "cloud" in every source of a cloud document weighs less than "elasticity" in one of them.
 */
function specificityWeights(questionTerms: Set<string>, sources: NumberedSource[]): Map<string, number> {
  const sourceTerms = sources.map((source) => uniqueTerms(source.result.text));
  const weights = new Map<string, number>();
  for (const term of questionTerms) {
    const holding = sourceTerms.filter((terms) => terms.has(term)).length;
    if (holding > 0) weights.set(term, Math.log(1 + sourceTerms.length / holding));
  }
  return weights;
}

export function createExtractiveGenerator(): AnswerGenerator {
  return {
    async *generate(question: string, sources: NumberedSource[], signal?: AbortSignal) {
      const questionTerms = contentTerms(question);
      const weights = specificityWeights(questionTerms, sources);
      const picks = sources
        .map((source) => ({ n: source.n, best: rankPassages(source.result, questionTerms, weights)[0] }))
        .filter(
          (pick): pick is { n: number; best: NonNullable<typeof pick.best> } =>
            pick.best !== undefined && pick.best.score > 0,
        )
        .sort((left, right) => right.best.score - left.best.score || left.n - right.n)
        .filter((pick, _index, ranked) => pick.best.score >= MIN_RELATIVE_SUPPORT * (ranked[0]?.best.score ?? 0))
        .slice(0, MAX_QUOTES);
      if (picks.length === 0) {
        yield "The closest passages are listed below; none of them states the answer directly.";
        return;
      }
      for (const [index, pick] of picks.entries()) {
        if (signal?.aborted) return;
        yield `${index === 0 ? "" : "\n"}“${quoteOf(pick.best.text)}” [${pick.n}]`;
      }
    },
  };
}
