/**
 * The answer mode without an LLM: no generation, only evidence. From the top sources it takes the
 * sentence that best answers the question and quotes it with its [n] marker, best-supported first,
 * streamed one sentence at a time. With an embedder, sentences are chosen by meaning (so paraphrases
 * are found) and the retrieval ranking decides which sources are quoted; without one (keyword-only
 * set-ups), by the question's words. The same sentence is never quoted twice (overlapping chunks
 * hold it both). Bracketed reference numbers inside a quote ("Docker [2]" in a NIST paper) are
 * written "(2)" so they cannot be read as Folio's own [n] markers.
 */
import type { Embedder } from "../../embedding/embedder.js";
import { type Logger, silentLogger } from "../../logger.js";
import { isSameSentence } from "../evidence/same-sentence.js";
import {
  contentTerms,
  rankPassages,
  type ScoredSentence,
  shortenQuote,
  uniqueTerms,
} from "../evidence/sentence-scoring.js";
import { scorePassageSimilarity } from "../evidence/sentence-similarity.js";
import type { AnswerGenerator, NumberedSource } from "./generator.js";

const MAX_QUOTES = 3;
/** A question that asks for a cause or a reason. */
const ASKS_FOR_CAUSE =
  /^\s*(?:why\b|what\s+(?:caused|causes|led|leads|drove|drives|resulted|contributed)\b)|\b(?:reasons?\s+for|driven\s+by|due\s+to\s+what|attributable\s+to\s+what)\b/i;
/** Words a sentence gives a cause with ("primarily due to", "driven by", "as a result of"), as analyzed terms. */
const CAUSE_TERMS = uniqueTerms("due because driven result attributable owing primarily reflecting");
/** A further quote must carry at least this share of the best quote's support, or it is noise. */
const MIN_RELATIVE_SUPPORT = 0.5;
const DOCUMENT_REFERENCE = /\[(\d{1,3})\]/g;

function quoteOf(sentence: string): string {
  return shortenQuote(sentence, 400).replace(DOCUMENT_REFERENCE, "($1)");
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

type Quote = { n: number; documentId: string; text: string; score: number };
type RankedSource = { source: NumberedSource; passages: ScoredSentence[] };

/** Quotes in the order given, less any sentence an earlier quote of the same document already holds. */
function withoutRepeats(quotes: Quote[]): Quote[] {
  const kept: Quote[] = [];
  for (const quote of quotes)
    if (!kept.some((earlier) => earlier.documentId === quote.documentId && isSameSentence(earlier.text, quote.text)))
      kept.push(quote);
  return kept;
}

/** Each source's best sentence by the question's words; further quotes need half the best one's support. */
function pickByWords(ranked: RankedSource[]): Quote[] {
  const bests = ranked
    .map(({ source, passages }) => ({ source, best: passages[0] }))
    .filter((pick): pick is { source: NumberedSource; best: ScoredSentence } => (pick.best?.score ?? 0) > 0)
    .map(({ source, best }) => ({
      n: source.n,
      documentId: source.result.documentId,
      text: best.text,
      score: best.score,
    }))
    .sort((left, right) => right.score - left.score || left.n - right.n);
  const top = bests[0]?.score ?? 0;
  return withoutRepeats(bests.filter((quote) => quote.score >= MIN_RELATIVE_SUPPORT * top)).slice(0, MAX_QUOTES);
}

/**
 * Sentences embedded per source: its best by the question's words (all of a short source). Measured
 * on Northwind (~23 sentences per source): 3 to 8 per source quote the answer's page equally often
 * (within two questions of 249), all of them ~1 point more at ~4.5 times the cost; 25 sentences take
 * ~0.4 s on two busy CPU cores.
 */
const MAX_CANDIDATES_PER_SOURCE = 5;
/**
 * A source whose best sentence is this far (in cosine) below the best source's is not quoted: it adds
 * a citation the reader must check without adding support.
 */
const MAX_SIMILARITY_GAP = 0.1;

/**
 * Each source's best sentence by meaning. Which sources are quoted follows the retrieval ranking (the
 * first MAX_QUOTES sources close enough to the best), not the sentences' cosines: on Northwind, ranking
 * sources by their best cosine quoted the answer's page for 6 points fewer questions — a bi-encoder
 * compares sentences within a source better than it compares sources.
 */
async function pickByMeaning(
  embedder: Embedder,
  question: string,
  ranked: RankedSource[],
  signal?: AbortSignal,
): Promise<Quote[]> {
  // The sources share no word with the question at all: nothing to stand on.
  if (!ranked.some(({ passages }) => passages.some((passage) => passage.score > 0))) return [];
  const candidates = ranked.flatMap(({ source, passages }) =>
    passages.slice(0, MAX_CANDIDATES_PER_SOURCE).map((passage) => ({ source, passage })),
  );
  const scores = await scorePassageSimilarity(
    embedder,
    question,
    candidates.map(({ passage }) => passage.text),
    signal,
  );
  const bests = new Map<number, Quote>();
  candidates.forEach(({ source, passage }, index) => {
    const score = scores[index] ?? Number.NEGATIVE_INFINITY;
    if (score > (bests.get(source.n)?.score ?? Number.NEGATIVE_INFINITY))
      bests.set(source.n, { n: source.n, documentId: source.result.documentId, text: passage.text, score });
  });
  const inRetrievalOrder = ranked.flatMap(({ source }) => bests.get(source.n) ?? []);
  const top = Math.max(...inRetrievalOrder.map((quote) => quote.score));
  // The best-ranked source is always quoted: a statement row ("Accounts payable; 2018: 303,…") sits
  // further in cosine from a question than prose that merely mentions its words, and the retrieval
  // ranking put that row's passage first for a reason.
  return withoutRepeats(
    inRetrievalOrder.filter((quote, index) => index === 0 || quote.score >= top - MAX_SIMILARITY_GAP),
  )
    .slice(0, MAX_QUOTES)
    .sort((left, right) => right.score - left.score || left.n - right.n);
}

export function createExtractiveGenerator(
  options: {
    /** Null or absent: sentences are chosen by the question's words only. */
    embedder?: Embedder | null;
    logger?: Logger;
  } = {},
): AnswerGenerator {
  const embedder = options.embedder ?? null;
  const logger = options.logger ?? silentLogger;
  return {
    async *generate(question: string, sources: NumberedSource[], signal?: AbortSignal) {
      const questionTerms = contentTerms(question);
      const weights = specificityWeights(questionTerms, sources);
      // "Why…?", "What caused…?": the sentence that gives a cause answers, not the one that repeats the question.
      if (ASKS_FOR_CAUSE.test(question))
        for (const term of CAUSE_TERMS) {
          questionTerms.add(term);
          weights.set(term, Math.max(...weights.values(), 1));
        }
      const ranked = sources.map((source) => ({
        source,
        passages: rankPassages(source.result, questionTerms, weights),
      }));
      let quotes: Quote[];
      if (embedder === null) quotes = pickByWords(ranked);
      else {
        try {
          quotes = await pickByMeaning(embedder, question, ranked, signal);
        } catch (error) {
          if (signal?.aborted) throw error;
          // Quoting by words is worse than by meaning but far better than no answer.
          logger.warn({ err: error }, "sentence embedding failed: quoting by the question's words");
          quotes = pickByWords(ranked);
        }
      }
      if (quotes.length === 0) {
        yield "The closest passages are listed below; none of them states the answer directly.";
        return;
      }
      for (const [index, quote] of quotes.entries()) {
        if (signal?.aborted) return;
        yield `${index === 0 ? "" : "\n"}“${quoteOf(quote.text)}” [${quote.n}]`;
      }
    },
  };
}
